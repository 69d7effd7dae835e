"""The pieces on the table (DESIGN.md §5.5): the ring found once as a game starts
(``ring``: the jump gate, the planet boards, the players' colours), then read in every
picture (``reader``)."""

from vision.pieces.reader import Read, Reading, read_pieces, reading_pieces
from vision.pieces.ring import Ring, RingNotFound, find_ring

__all__ = ["Read", "Reading", "Ring", "RingNotFound", "find_ring", "read_pieces", "reading_pieces"]
