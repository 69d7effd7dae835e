"""A deck as the reader knows it once taught: its inks, where and how big its coordinates are
printed in the card's frame, the card's outline, the codes it holds and the network that names a
coordinate's number. Kept in the calibration file (``to_json``); a file from an older teaching
is refused, and the deck taught again."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from companion.rules import Card
from vision.cards.classifier import Classifier, Committee
from vision.cards.features import SIZE as PATCH_LOOKS, cover_looks
from vision.cards.palette import Palette
from vision.cards.spot_looks import SIZE as SPOT_LOOKS
from vision.cards.views import NOTHING, Layout

MODEL_KIND = "coordinates-v2"
"""What a calibration file's taught deck is: v2 names patches from descriptions with their
middle (``features``); a v1 network's inputs are no longer what the reader gives it."""
NUMBERS = ("1", "2", "3", "4", "?")
"""What a coordinate's number may be; the classifier also names ``views.NOTHING``."""
LABELS = NUMBERS + (NOTHING,)
SPOT_LABELS = ("coordinate", NOTHING)
COVER_LABELS = ("whole", "covered")
_NO_INDEX = np.zeros(0, np.intp)
"""What the spot judge tells a spot is."""


@dataclass
class CardModel:
    palette: Palette
    layout: Layout
    outline: np.ndarray
    """The card's corners in its frame (4 x 2), clockwise from the upright face's top-left."""
    spot_sizes: tuple[float, float]
    """Each coordinate's spot size as the reader finds it, in the card's frame (the distance
    between the two coordinates is 1)."""
    codes: frozenset[str]
    """The card codes taught: nothing else is ever read."""
    classifier: Committee
    """Names a coordinate's patch: one of ``LABELS``."""
    spot_judge: Classifier
    """Tells, from a spot's description (``spot_looks``), whether it may be a coordinate's."""
    weak: tuple[str, ...] = field(default=())
    """Codes teaching found hard to read: the teaching screen asks for another photo of each."""
    look_alikes: tuple[tuple[str, str], ...] = field(default=())
    """Pairs of taught codes that teaching's own checks mistook for each other."""
    cover_judge: Classifier | None = None
    """Tells, from a coordinate's patch, whether something (a chip, another card) covers part
    of it: what is left of a number may look like another (a 3 under a chip's edge, like a
    4). None in a file taught before it was."""
    cover_context: float = 0.0
    """How many times as wide a second patch of each coordinate the cover judge sees beside
    its own (0: its own alone, as in a file taught before it saw more) ..."""
    cover_on_card: bool = False
    """... and whether it sees that wider patch on the card only (``on_card_only``; not in a
    file taught before)."""

    def covered_chances(self, patches: np.ndarray, wider: np.ndarray) -> np.ndarray:
        """How likely the cover judge finds each coordinate's patch partly covered, seen
        with its ``cover_context`` times wider patch (``wider``, unused in an older file)."""
        if self.cover_judge is None:
            return np.zeros(len(patches))
        return self.cover_judge.probabilities(
            cover_looks(patches, wider if self.cover_context else None))[:, 1]

    @property
    def aspect(self) -> float:
        """Long side over short side of the card."""
        sides = np.linalg.norm(self.outline - np.roll(self.outline, -1, axis=0), axis=1)
        first, second = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
        return float(max(first, second) / max(min(first, second), 1e-9))

    @property
    def long_side(self) -> float:
        """The card's long side in its frame."""
        sides = np.linalg.norm(self.outline - np.roll(self.outline, -1, axis=0), axis=1)
        return float(max((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))

    def colour_pairs(self) -> frozenset[tuple[str, str]]:
        """The (top, bottom) colours of the taught codes."""
        return frozenset(self._by_colours)

    def codes_of(self, colours: tuple[str, str]) -> tuple[list[str], np.ndarray, np.ndarray]:
        """The taught codes of these (top, bottom) colours, with their top and bottom numbers
        (as indices into ``NUMBERS``)."""
        return self._by_colours.get(colours, ([], _NO_INDEX, _NO_INDEX))

    @cached_property
    def _by_colours(self) -> dict[tuple[str, str], tuple[list[str], np.ndarray, np.ndarray]]:
        grouped: dict[tuple[str, str], list[str]] = {}
        for code in sorted(self.codes):
            top, bottom = code.split("/")
            grouped.setdefault((top[0], bottom[0]), []).append(code)
        return {colours: (codes, np.array([NUMBERS.index(c[1]) for c in codes]),
                          np.array([NUMBERS.index(c.split("/")[1][1]) for c in codes]))
                for colours, codes in grouped.items()}

    def to_json(self) -> dict[str, Any]:
        return {"kind": MODEL_KIND, "palette": self.palette.to_json(),
                "sides": list(self.layout.sides), "size": self.layout.size,
                "bottom_turned": self.layout.bottom_turned,
                "outline": np.round(self.outline, 4).tolist(),
                "spot_sizes": list(self.spot_sizes), "codes": sorted(self.codes),
                "classifier": self.classifier.to_json(),
                "spot_judge": self.spot_judge.to_json(), "weak": list(self.weak),
                "look_alikes": [list(pair) for pair in self.look_alikes],
                **({} if self.cover_judge is None else
                   {"cover_judge": self.cover_judge.to_json(),
                    "cover_context": self.cover_context,
                    "cover_on_card": self.cover_on_card})}

    @classmethod
    def from_json(cls, data: Any) -> CardModel:
        if not isinstance(data, dict) or data.get("kind") != MODEL_KIND:
            raise ValueError("it was taught by an older version of the companion: teach the "
                             "deck again")
        codes = frozenset(Card.parse(str(code)).code for code in data["codes"])
        if not codes:
            raise ValueError("a taught deck holds at least one card code")
        sides = tuple(float(v) for v in data["sides"])
        size = float(data["size"])
        spot_sizes = tuple(float(v) for v in data["spot_sizes"])
        numbers = sides + spot_sizes + (size,)
        if len(sides) != 2 or len(spot_sizes) != 2 or \
                not all(math.isfinite(v) and 0.01 <= v <= 5.0 for v in numbers):
            raise ValueError("a coordinate's size must be a number from 0.01 to 5")
        outline = np.array(data["outline"], np.float64)
        if outline.shape != (4, 2) or not np.isfinite(outline).all() or \
                np.abs(outline).max() > 20:
            raise ValueError("a card's outline is four corners near its coordinates")
        classifier = Committee.from_json(data["classifier"])
        spot_judge = Classifier.from_json(data["spot_judge"])
        cover_judge = Classifier.from_json(data["cover_judge"]) if "cover_judge" in data \
            else None
        cover_context = float(data.get("cover_context", 0.0))
        cover_on_card = data.get("cover_on_card", False)
        if not isinstance(cover_on_card, bool):
            raise ValueError("whether the cover judge sees the card only is true or false")
        if classifier.labels != LABELS or spot_judge.labels != SPOT_LABELS or \
                (cover_judge is not None and cover_judge.labels != COVER_LABELS):
            raise ValueError("the reader does not name the coordinates' numbers")
        if not (cover_context == 0.0 or 1.0 <= cover_context <= 4.0):
            raise ValueError("the cover judge's wider patch is 1 to 4 times a coordinate's")
        inputs = [(m, PATCH_LOOKS) for m in classifier.members] + \
            [(spot_judge, SPOT_LOOKS)] + ([] if cover_judge is None else
                                          [(cover_judge, PATCH_LOOKS * (2 if cover_context
                                                                        else 1))])
        if any(network.mean.shape != (wanted,) for network, wanted in inputs):
            raise ValueError("the reader's networks do not take what the reader gives them")
        model = cls(Palette.from_json(data["palette"]),
                    Layout((sides[0], sides[1]), size, bool(data["bottom_turned"])), outline,
                    (spot_sizes[0], spot_sizes[1]), codes, classifier, spot_judge,
                    tuple(Card.parse(str(code)).code for code in data.get("weak", [])),
                    tuple((str(a), str(b)) for a, b in data.get("look_alikes", [])),
                    cover_judge, cover_context, cover_on_card)
        if not 1.0 <= model.aspect <= 3.0:
            raise ValueError("a card's proportions must be between 1 and 3")
        return model
