"""The three coordinate colours of a deck, as its teaching photos show them.

A coordinate is printed in blue, green or orange; what those inks look like on a given deck
under a given light is not known beforehand. A colour is kept as a direction in the Lab a/b
plane and a typical chroma (how far from grey the ink is). Teaching starts from the plain
meaning of the three names and settles on the deck's own inks from the coordinates it finds.

Directions, not exact hues: a colour cast moves every hue of a photo a little, but blue, green
and orange stay about a hundred degrees apart, so the nearest direction still names the ink.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

COLOURS = ("B", "G", "O")
"""Blue (jump), green (scan), orange (landing), in the canonical order of a card code."""
PLAIN_ANGLES = {"B": -80.0, "G": 140.0, "O": 65.0}
"""The three inks' directions in the Lab a/b plane (degrees) before a deck is taught: where
printed blue, green and orange fall under daylight."""
PLAIN_CHROMA = 45.0
"""A printed ink's typical distance from grey (Lab a/b units), before a deck is taught."""
CLEAR_ANGLE = 25.0
"""A colour is named only when its direction is this much (degrees) nearer one ink than any
other: a purple art patch half way between blue and a red is no coordinate's colour."""
MAX_ANGLE = 50.0
"""A colour further than this from every ink is none of them (a red chip, a yellow coin)."""


@dataclass(frozen=True)
class Palette:
    angles: tuple[float, float, float]
    """Direction of blue, green and orange in the a/b plane (degrees)."""
    chroma: tuple[float, float, float]
    """Typical chroma of each ink (a/b units)."""

    @classmethod
    def plain(cls) -> Palette:
        return cls(tuple(PLAIN_ANGLES[c] for c in COLOURS),  # type: ignore[arg-type]
                   (PLAIN_CHROMA,) * 3)

    @property
    def units(self) -> np.ndarray:
        """3 x 2: each ink's unit direction (a, b)."""
        radians = np.radians(np.array(self.angles))
        return np.stack([np.cos(radians), np.sin(radians)], axis=1)

    def name(self, a: float, b: float) -> str | None:
        """The ink a mean a/b colour is (a spot's), or None when it is no ink clearly."""
        return str(self.names(np.array([a], np.float64), np.array([b], np.float64))[0]) or None

    def names(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The ink each of many a/b colours is ("" where none clearly): the nearest ink's
        direction, within ``MAX_ANGLE`` of it and ``CLEAR_ANGLE`` nearer than any other."""
        angle = np.degrees(np.arctan2(b, a))
        apart = np.abs((angle[:, None] - np.array(self.angles)[None, :] + 180.0) % 360.0
                       - 180.0)
        order = np.sort(apart, axis=1)
        clear = (order[:, 0] <= MAX_ANGLE) & (order[:, 1] - order[:, 0] >= CLEAR_ANGLE) & \
            (np.hypot(a, b) >= 1e-6)
        return np.where(clear, np.array(COLOURS)[np.argmin(apart, axis=1)], "")

    def to_json(self) -> dict[str, Any]:
        return {"angles": [round(a, 2) for a in self.angles],
                "chroma": [round(c, 2) for c in self.chroma]}

    @classmethod
    def from_json(cls, data: Any) -> Palette:
        angles = tuple(float(v) for v in data["angles"])
        chroma = tuple(float(v) for v in data["chroma"])
        if len(angles) != 3 or len(chroma) != 3 or not all(map(math.isfinite, angles)) or \
                not all(math.isfinite(c) and 5.0 <= c <= 200.0 for c in chroma):
            raise ValueError("a palette needs three directions and three chromas of 5-200")
        return cls(angles, chroma)  # type: ignore[arg-type]


def settled(samples: dict[str, list[tuple[float, float, float]]], fallback: Palette) -> Palette:
    """The deck's inks from the mean colours (a, b, lightness) of coordinates found in its
    photos (a colour with no sample keeps ``fallback``'s); lightness is not used."""
    angles, chroma = list(fallback.angles), list(fallback.chroma)
    for k, colour in enumerate(COLOURS):
        found = np.array(samples.get(colour, []), np.float64).reshape(-1, 3)
        if len(found) == 0:
            continue
        mean = found[:, :2].mean(axis=0)
        angles[k] = math.degrees(math.atan2(mean[1], mean[0]))
        chroma[k] = float(np.clip(np.median(np.hypot(found[:, 0], found[:, 1])), 5.0, 200.0))
    return Palette(tuple(angles), tuple(chroma))  # type: ignore[arg-type]
