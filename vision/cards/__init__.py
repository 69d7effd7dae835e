"""The card wing: reading the coordinates printed on cards, and learning any deck's print.

- ``spots``: where a coordinate may be: patches of the deck's three inks (``palette``) that
  stand out from what is around them; ``spot_looks``: which of them look like a coordinate;
- ``pose``: a card's frame set by its two coordinates, and the patches cut in it;
- ``reader``: spots paired into cards, each coordinate named by the taught network
  (``features``, ``classifier``), a card read only when it is clear and no coordinate is
  partly covered (the cover judge, another taught network);
- ``views``, ``learning``: teaching, from labelled photos seen as the table's camera sees
  cards; ``model``: what is taught, kept in the calibration file.

The photo album and its workflow (files, taps, the touchscreen's steps) are ``calibration``'s.
"""

from vision.cards.learning import Taught, TeachingError, TeachingPhoto, teach
from vision.cards.model import CardModel
from vision.cards.reader import CardRead, read_cards

__all__ = ["CardModel", "CardRead", "Taught", "TeachingError", "TeachingPhoto", "read_cards",
           "teach"]
