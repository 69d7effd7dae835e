"""A board print as the reader knows it once taught, and what a read gives."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.cards.classifier import Committee
from vision.cards.model import LABELS
from vision.cards.palette import Palette
from vision.cards.views import Layout

PRINT_KIND = "boards-v2"
"""v2: the network reads the card wing's descriptions with their middle (v1's had none)."""
COLOURS = ("B", "G", "O", "O")
"""The four coordinates' inks, in the order taught and read: jump, scan, landing, landing."""


@dataclass(frozen=True)
class BoardRead:
    jump: int | None = None
    scan: int | None = None
    landing: tuple[int, int] | None = None
    reason: str = ""

    @property
    def complete(self) -> bool:
        return self.jump is not None and self.scan is not None and self.landing is not None


@dataclass(frozen=True)
class BoardPrint:
    palette: Palette
    places: np.ndarray
    """The four coordinates' centres (4 x 2) in the board's frame: the jump at (0, 0), the scan
    at (0, 1) (``Pose``)."""
    sizes: np.ndarray
    """Each coordinate's spot size over the jump-scan distance (4)."""
    pairs: tuple[Layout, Layout]
    """How the jump and scan are cut, in their pair's frame (``Pose`` from jump to scan), and
    the two landings, in theirs (from the first landing to the second): a print may space its
    landings unlike its jump and scan."""
    classifier: Committee

    def to_json(self) -> dict[str, Any]:
        return {"kind": PRINT_KIND, "palette": self.palette.to_json(),
                "places": self.places.tolist(), "sizes": self.sizes.tolist(),
                "pairs": [[*layout.sides, layout.size] for layout in self.pairs],
                "classifier": self.classifier.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> BoardPrint:
        if not isinstance(data, dict) or data.get("kind") != PRINT_KIND:
            raise ValueError("the board print was taught by another version: teach it again")
        places = np.array(data["places"], np.float64)
        sizes = np.array(data["sizes"], np.float64)
        pairs = [tuple(float(v) for v in pair) for pair in data["pairs"]]
        if places.shape != (4, 2) or sizes.shape != (4,) or len(pairs) != 2 or \
                any(len(pair) != 3 for pair in pairs) or not (
                    np.isfinite(places).all() and np.isfinite(sizes).all()
                    and (sizes > 0).all() and all(math.isfinite(v) and v > 0
                                                  for pair in pairs for v in pair)):
            raise ValueError("a board print needs four places, four sizes and two pairs' cuts, "
                             "all finite")
        classifier = Committee.from_json(data["classifier"])
        if classifier.labels != LABELS:
            raise ValueError("the board print's network does not name coordinates")
        layouts = tuple(Layout((a, b), size, False) for a, b, size in pairs)
        return cls(Palette.from_json(data["palette"]), places, sizes,
                   layouts, classifier)  # type: ignore[arg-type]
