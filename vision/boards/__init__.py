"""The planet-board wing: a box's board print learned from one photo of each board, with taps
on its four coordinates and the numbers printed there; then any board of that print read
wherever the camera sees it, whatever the print (its inks, badges, glyphs, where it places the
four).

- ``model``: what is taught (``BoardPrint``), kept in the calibration file;
- ``teaching``: a print learned from the boards' photos, seen as a table's camera sees them
  (the card wing's ``views``), checked by reading each photo back;
- ``reader``: a board's four numbers, or unsure with the reason.
"""

from vision.boards.model import BoardPrint, BoardRead
from vision.boards.reader import read_board
from vision.boards.teaching import BoardPhoto, BoardTeachingError, TaughtBoards, teach_boards

__all__ = ["BoardPhoto", "BoardPrint", "BoardRead", "BoardTeachingError", "TaughtBoards",
           "read_board", "teach_boards"]
