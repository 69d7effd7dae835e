"""The synthetic table: what a camera above a table would see, with exact ground truth.

It is the demo's camera and the tests' ground truth, never a reader: nothing in ``vision``
outside this package imports it. ``scene`` renders a table through a camera, ``card_faces``
draws decks of cards in several art styles (and the things that are not cards), ``surfaces``
the table tops, and ``playback`` plays a game record on the table frame by frame;
``qr_photos`` makes phone photos of any QR code, away from the table.
"""
