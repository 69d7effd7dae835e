"""Planet boards in three unlike prints (the demo table's, and two others), for the board
reader's tests and bench: which numbers each shows, and where, is known.

- ``badges``: the demo table's boards: a dark board, its planet and name, the four
  coordinates as round badges along the bottom, in the cards' inks and glyphs.
- ``panel``: a pale painted board, the four coordinates as square tiles in a column down its
  right edge, in darker inks, the numbers in another face.
- ``corners``: a navy board, pale tinted badges with dark serif numbers; the jump and scan close
  together at the top right, the two landings far apart along the bottom (a print whose two
  pairs are spaced unlike each other). Kept for measuring only: nothing was tuned on it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from companion.rules import Coordinate, Planet
from synthetic.card_faces import INKS, PX_PER_MM, CardStyle, draw_badge
from vision.layout import PLANET_BOARD


@dataclass(frozen=True)
class BoardStyle:
    name: str
    badges: CardStyle
    """How a coordinate is printed (its shape, inks, glyph face and stroke)."""
    places_mm: tuple[tuple[float, float], ...]
    """The jump's, the scan's and the two landings' centres on the board (mm)."""
    radius_mm: float
    glyph_mm: float
    ground: tuple[int, int, int] | None
    """A dark board's colour (BGR); None for a pale painted board."""


BOARD_STYLES = {
    "badges": BoardStyle("badges", CardStyle(), tuple((14.0 + k * 24.0, 84.0) for k in range(4)),
                         10.0, 10.0, ground=(40, 30, 30)),
    "panel": BoardStyle("panel", CardStyle(
        badge_shape="square", font=cv2.FONT_HERSHEY_SIMPLEX, stroke_mm=1.3,
        colors={"B": (150, 70, 15), "G": (45, 125, 30), "O": (15, 100, 225)}),
        tuple((84.0, 18.0 + k * 22.0) for k in range(4)), 8.5, 10.0, ground=None),
    "corners": BoardStyle("corners", CardStyle(
        font=cv2.FONT_HERSHEY_COMPLEX, stroke_mm=1.2, glyph=(35, 30, 30),
        colors={"B": (235, 175, 95), "G": (140, 225, 125), "O": (95, 165, 250)}),
        ((82.0, 14.0), (82.0, 34.0), (16.0, 86.0), (76.0, 86.0)), 7.0, 9.0, ground=(70, 35, 20)),
}


def draw_board(planet: Planet, style: BoardStyle, rng: random.Random) -> np.ndarray:
    """The board's face, upright, at ``PX_PER_MM``."""
    px = int(PLANET_BOARD * PX_PER_MM)
    if style.ground is not None:
        face = np.full((px, px, 3), style.ground, dtype=np.uint8)
    else:
        ramp = np.linspace(0.0, 1.0, px)[None, :, None]
        face = (np.array([200, 215, 225]) * (1 - 0.25 * ramp)
                + np.array([30, 20, 10]) * ramp).astype(np.uint8).repeat(px, axis=0)
        for _ in range(12):  # the painting's blots, some near the inks' hues
            colour = tuple(int(c) for c in np.clip(
                np.array(rng.choice(list(INKS.values()))) * 0.5 + 110, 0, 255))
            centre = (rng.randrange(px * 3 // 4), rng.randrange(px))
            cv2.circle(face, centre, rng.randrange(px // 40, px // 10), colour, -1,
                       cv2.LINE_AA)
    cv2.circle(face, (int(px * 0.42), int(px * 0.42)), int(px * 0.22), (90, 120, 170), -1,
               cv2.LINE_AA)
    cv2.putText(face, planet.name, (int(px * 0.06), int(px * 0.13)), cv2.FONT_HERSHEY_SIMPLEX,
                2.2, (230, 230, 230) if style.ground else (60, 50, 40), 4, cv2.LINE_AA)
    numbers = (planet.jump, planet.scan) + tuple(planet.landing)
    for colour, number, place in zip("BGOO", numbers, style.places_mm):
        draw_badge(face, Coordinate(colour, number), place, style.badges,
                   radius_mm=style.radius_mm, glyph_mm=style.glyph_mm)
    return face
