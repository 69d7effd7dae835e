"""Card faces in several art styles, and the things on a table that are not cards.

A card shows two coordinates (a colour, blue/green/orange, and a number 1-4 or ``?``), the top
one first. The real deck's printing is not known to us, so the reader learns a deck from photos;
these decks are the material it is measured on, drawn deliberately unlike each other:

- ``reference``: light paper, filled colour discs with white numbers, one above the other;
- ``starfield``: a dark starry face (a new sky on every copy), coloured rings around white
  numbers, a thin silver frame;
- ``parchment``: a light textured face with a double frame, hexagon badges with dark numbers,
  a line icon and a word (JUMP, SCAN, LAND) beside each, a small planet drawing that differs
  from copy to copy; the two coordinates on a diagonal;
- ``fullbleed``: a painting over the whole face (every copy its own), with corner indices as
  playing cards have them: the top coordinate at the top left, the bottom one at the bottom
  right printed upside down, each a coloured number and pip on a white patch.

Faces are drawn upright at ``PX_PER_MM``. ``Deck.draw(card, rng)`` draws one copy: the rng
varies what differs between copies of one code.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.rules import Card, Coordinate

PX_PER_MM = 8.0
"""Resolution at which faces are drawn; the synthetic camera scales them down."""

INKS = {"B": (190, 95, 20), "G": (60, 150, 35), "O": (20, 125, 240)}
"""The reference deck's coordinate colours (BGR)."""


def mm(value: float) -> int:
    return int(round(value * PX_PER_MM))


def glyph_text(coordinate: Coordinate) -> str:
    return "?" if coordinate.number is None else str(coordinate.number)


def put_glyph(face: np.ndarray, text: str, center: tuple[int, int], height_px: float,
              color: tuple[int, int, int], font: int, stroke_px: int) -> None:
    """``text`` centred on ``center``, its capital height ``height_px``."""
    (_, th), _ = cv2.getTextSize(text, font, 1.0, stroke_px)
    scale = height_px / max(th, 1)
    (tw, th), _ = cv2.getTextSize(text, font, scale, stroke_px)
    cv2.putText(face, text, (center[0] - tw // 2, center[1] + th // 2), font, scale, color,
                stroke_px, cv2.LINE_AA)


# ---------------------------------------------------------------------------------------------
# The reference style (also the planet boards' badges)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardStyle:
    size_mm: tuple[float, float] = (60.0, 90.0)
    paper: tuple[int, int, int] = (236, 240, 242)
    """BGR of the card face."""
    border: tuple[int, int, int] = (70, 70, 70)
    badge_shape: str = "circle"
    """``circle`` or ``square``."""
    badge_centers_mm: tuple[tuple[float, float], tuple[float, float]] = ((30.0, 24.0),
                                                                         (30.0, 66.0))
    badge_radius_mm: float = 15.0
    colors: dict[str, tuple[int, int, int]] = field(default_factory=lambda: dict(INKS))
    glyph: tuple[int, int, int] = (255, 255, 255)
    font: int = cv2.FONT_HERSHEY_DUPLEX
    glyph_height_mm: float = 14.0
    stroke_mm: float = 1.6
    decoration: bool = True
    """Thin line art between the badges, as printed cards have some."""


REFERENCE_STYLE = CardStyle()


def draw_card(card: Card, style: CardStyle = REFERENCE_STYLE) -> np.ndarray:
    """The card's face, upright, as a BGR image at ``PX_PER_MM``."""
    w, h = (mm(s) for s in style.size_mm)
    face = np.full((h, w, 3), style.paper, dtype=np.uint8)
    edge = int(PX_PER_MM * 1.2)
    cv2.rectangle(face, (edge, edge), (w - 1 - edge, h - 1 - edge), style.border,
                  max(1, int(PX_PER_MM * 0.5)), cv2.LINE_AA)
    if style.decoration:
        mid = h // 2
        gray = tuple(int(c * 0.75) for c in style.paper)
        for k in range(3):
            y = mid - int(PX_PER_MM * 3) + k * int(PX_PER_MM * 3)
            cv2.line(face, (int(w * 0.2), y), (int(w * 0.8), y), gray, 2, cv2.LINE_AA)
    for coordinate, center in zip(card.coordinates, style.badge_centers_mm):
        draw_badge(face, coordinate, center, style)
    return face


def draw_badge(face: np.ndarray, coordinate: Coordinate, center_mm: tuple[float, float],
               style: CardStyle, radius_mm: float | None = None,
               glyph_mm: float | None = None) -> None:
    """One coordinate badge (reference cards and planet boards print them alike: a smaller
    number, with its strokes as much thinner)."""
    cx, cy = (mm(v) for v in center_mm)
    r = mm(radius_mm or style.badge_radius_mm)
    color = style.colors[coordinate.color]
    if style.badge_shape == "circle":
        cv2.circle(face, (cx, cy), r, color, -1, cv2.LINE_AA)
    else:
        cv2.rectangle(face, (cx - r, cy - r), (cx + r, cy + r), color, -1, cv2.LINE_AA)
    height = glyph_mm or style.glyph_height_mm
    stroke = style.stroke_mm * height / style.glyph_height_mm
    put_glyph(face, glyph_text(coordinate), (cx, cy), height * PX_PER_MM, style.glyph,
              style.font, max(1, mm(stroke)))


# ---------------------------------------------------------------------------------------------
# Decks
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Deck:
    """A deck's printing: its size, how tall its numbers are, and how a copy is drawn."""

    name: str
    size_mm: tuple[float, float]
    symbol_mm: float
    """Height of a coordinate's number on the card: what the camera must resolve."""

    def draw(self, card: Card, rng: random.Random) -> np.ndarray:
        painter = {"reference": _reference, "starfield": _starfield, "parchment": _parchment,
                   "fullbleed": _fullbleed}[self.name]
        return painter(card, self, rng)


DECKS = {
    "reference": Deck("reference", (60.0, 90.0), 14.0),
    "starfield": Deck("starfield", (63.0, 88.0), 13.0),
    "parchment": Deck("parchment", (59.0, 91.0), 11.0),
    "fullbleed": Deck("fullbleed", (56.0, 87.0), 10.0),
}


def _reference(card: Card, deck: Deck, rng: random.Random) -> np.ndarray:
    return draw_card(card, REFERENCE_STYLE)


def _blank(deck: Deck, color: tuple[int, int, int]) -> np.ndarray:
    w, h = (mm(s) for s in deck.size_mm)
    return np.full((h, w, 3), color, dtype=np.uint8)


def _starfield(card: Card, deck: Deck, rng: random.Random) -> np.ndarray:
    face = _blank(deck, (38, 22, 14))
    h, w = face.shape[:2]
    sky = np.random.default_rng(rng.randrange(2**32))
    # a faint nebula and a new sky on every copy
    nebula = np.zeros((h, w), np.float32)
    cv2.circle(nebula, (rng.randrange(w), rng.randrange(h)), rng.randrange(w // 3, w), 1.0, -1)
    nebula = cv2.GaussianBlur(nebula, (0, 0), w / 5)
    tint = np.array([rng.uniform(40, 90), rng.uniform(10, 40), rng.uniform(30, 80)])
    face = np.clip(face + nebula[:, :, None] * tint, 0, 255).astype(np.uint8)
    for _ in range(sky.integers(60, 140)):
        x, y = int(sky.integers(0, w)), int(sky.integers(0, h))
        shade = int(sky.integers(140, 256))
        cv2.circle(face, (x, y), int(sky.choice([1, 1, 2, 3])), (shade, shade, shade), -1,
                   cv2.LINE_AA)
    cv2.rectangle(face, (mm(2), mm(2)), (w - mm(2), h - mm(2)), (190, 190, 200), mm(0.4),
                  cv2.LINE_AA)
    inks = {"B": (255, 150, 40), "G": (90, 220, 60), "O": (30, 150, 255)}
    for coordinate, (cx, cy) in zip(card.coordinates, ((31.5, 23.0), (31.5, 65.0))):
        center = (mm(cx), mm(cy))
        cv2.circle(face, center, mm(11.5), inks[coordinate.color], mm(2.6), cv2.LINE_AA)
        put_glyph(face, glyph_text(coordinate), center, deck.symbol_mm * PX_PER_MM,
                  (250, 250, 250), cv2.FONT_HERSHEY_SIMPLEX, mm(1.5))
    return face


LABELS = {"B": "JUMP", "G": "SCAN", "O": "LAND"}


def _parchment(card: Card, deck: Deck, rng: random.Random) -> np.ndarray:
    face = _blank(deck, (170, 208, 228))
    h, w = face.shape[:2]
    grain = np.random.default_rng(rng.randrange(2**32)).normal(0, 1, (h // 8 + 1, w // 8 + 1))
    grain = cv2.resize(grain.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    face = np.clip(face + grain[:, :, None] * 7, 0, 255).astype(np.uint8)
    brown = (40, 70, 110)
    cv2.rectangle(face, (mm(2.5), mm(2.5)), (w - mm(2.5), h - mm(2.5)), brown, mm(0.7),
                  cv2.LINE_AA)
    cv2.rectangle(face, (mm(4), mm(4)), (w - mm(4), h - mm(4)), brown, mm(0.3), cv2.LINE_AA)
    # a small planet that differs from copy to copy
    px, py = mm(rng.uniform(22, 37)), mm(rng.uniform(40, 50))
    planet = tuple(int(v) for v in (rng.uniform(60, 200), rng.uniform(60, 200),
                                    rng.uniform(60, 200)))
    cv2.circle(face, (px, py), mm(rng.uniform(5, 8)), planet, -1, cv2.LINE_AA)
    cv2.ellipse(face, (px, py), (mm(11), mm(3)), rng.uniform(-30, 30), 0, 360, brown, mm(0.4),
                cv2.LINE_AA)
    inks = {"B": (180, 110, 40), "G": (70, 160, 70), "O": (40, 120, 225)}
    places = (((16.0, 18.0), 1), ((deck.size_mm[0] - 16.0, deck.size_mm[1] - 22.0), -1))
    for coordinate, ((cx, cy), side) in zip(card.coordinates, places):
        center = (mm(cx), mm(cy))
        radius = mm(9.5)
        hexagon = np.array([(center[0] + radius * math.cos(math.radians(60 * k + 30)),
                             center[1] + radius * math.sin(math.radians(60 * k + 30)))
                            for k in range(6)], np.int32)
        cv2.fillConvexPoly(face, hexagon, inks[coordinate.color], cv2.LINE_AA)
        cv2.polylines(face, [hexagon], True, brown, mm(0.5), cv2.LINE_AA)
        put_glyph(face, glyph_text(coordinate), center, deck.symbol_mm * PX_PER_MM,
                  (25, 25, 30), cv2.FONT_HERSHEY_COMPLEX, mm(1.3))
        _icon(face, coordinate.color, (center[0] + side * mm(16), center[1]), brown)
        label = LABELS[coordinate.color]
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_PLAIN, 2.2, 2)
        cv2.putText(face, label, (center[0] - tw // 2, center[1] + radius + th + mm(2)),
                    cv2.FONT_HERSHEY_PLAIN, 2.2, brown, 2, cv2.LINE_AA)
    return face


def _icon(face: np.ndarray, color: str, center: tuple[int, int],
          ink: tuple[int, int, int]) -> None:
    """A line icon for the coordinate's action: a rocket, a radar, a landing planet."""
    x, y = center
    r = mm(4)
    if color == "B":
        cv2.polylines(face, [np.array([(x, y - r), (x + r // 2, y + r // 2), (x - r // 2,
                                                                            y + r // 2)],
                                      np.int32)], True, ink, mm(0.5), cv2.LINE_AA)
        cv2.line(face, (x, y + r // 2), (x, y + r), ink, mm(0.5), cv2.LINE_AA)
    elif color == "G":
        for k in (1, 2, 3):
            cv2.ellipse(face, (x - r, y + r), (k * r // 2, k * r // 2), 0, 270, 360, ink,
                        mm(0.4), cv2.LINE_AA)
    else:
        cv2.circle(face, (x, y), r // 2, ink, mm(0.5), cv2.LINE_AA)
        cv2.line(face, (x - r, y + r // 2 + 2), (x + r, y + r // 2 + 2), ink, mm(0.5),
                 cv2.LINE_AA)


def _painting(size: tuple[int, int], rng: random.Random) -> np.ndarray:
    """Full-bleed art: soft colour fields and shapes, never the same twice."""
    w, h = size
    noise = np.random.default_rng(rng.randrange(2**32))
    canvas = np.zeros((h, w, 3), np.float32)
    for channel in range(3):
        coarse = noise.uniform(20, 235, (4, 3)).astype(np.float32)
        canvas[:, :, channel] = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    art = np.clip(canvas, 0, 255).astype(np.uint8)
    for _ in range(rng.randrange(5, 12)):
        color = tuple(int(v) for v in noise.integers(0, 256, 3))
        center = (rng.randrange(w), rng.randrange(h))
        if rng.random() < 0.5:
            cv2.circle(art, center, rng.randrange(w // 12, w // 3), color, -1, cv2.LINE_AA)
        else:
            points = np.array([(center[0] + rng.randrange(-w // 3, w // 3),
                                center[1] + rng.randrange(-h // 4, h // 4)) for _ in range(4)],
                              np.int32)
            cv2.fillPoly(art, [points], color, cv2.LINE_AA)
    texture = noise.normal(0, 6, (h, w, 1)).astype(np.float32)
    art = np.clip(cv2.GaussianBlur(art, (0, 0), 2.0) + texture, 0, 255)
    return art.astype(np.uint8)


def _fullbleed(card: Card, deck: Deck, rng: random.Random) -> np.ndarray:
    w, h = (mm(s) for s in deck.size_mm)
    face = _painting((w, h), rng)
    inks = {"B": (200, 90, 10), "G": (40, 140, 20), "O": (0, 110, 245)}
    for index, coordinate in enumerate(card.coordinates):
        corner = _corner_index(coordinate, deck, inks)
        ch, cw = corner.shape[:2]
        x, y = mm(2.5), mm(2.5)
        if index == 1:  # the bottom coordinate: bottom right, upside down
            corner = cv2.rotate(corner, cv2.ROTATE_180)
            x, y = w - cw - mm(2.5), h - ch - mm(2.5)
        face[y:y + ch, x:x + cw] = corner
    return face


def _corner_index(coordinate: Coordinate, deck: Deck,
                  inks: dict[str, tuple[int, int, int]]) -> np.ndarray:
    patch = np.full((mm(20), mm(13), 3), (245, 245, 245), np.uint8)
    ink = inks[coordinate.color]
    put_glyph(patch, glyph_text(coordinate), (mm(6.5), mm(7.5)), deck.symbol_mm * PX_PER_MM,
              ink, cv2.FONT_HERSHEY_DUPLEX, mm(1.4))
    cv2.circle(patch, (mm(6.5), mm(16)), mm(2.2), ink, -1, cv2.LINE_AA)
    return patch


# ---------------------------------------------------------------------------------------------
# Things on a table that are not cards of the deck
# ---------------------------------------------------------------------------------------------

def card_back(size_mm: tuple[float, float], rng: random.Random) -> np.ndarray:
    """The back of a card: a pattern and the game's name, no coordinates."""
    w, h = (mm(s) for s in size_mm)
    face = np.full((h, w, 3), (90, 40, 25), np.uint8)
    for k in range(0, w + h, mm(5)):
        cv2.line(face, (k, 0), (k - h, h), (120, 60, 40), mm(1.2), cv2.LINE_AA)
    cv2.circle(face, (w // 2, h // 2), mm(18), (40, 180, 230), mm(1.5), cv2.LINE_AA)
    put_glyph(face, "SM", (w // 2, h // 2), mm(10), (40, 180, 230), cv2.FONT_HERSHEY_TRIPLEX,
              mm(1.2))
    return face


def other_game_card(rng: random.Random) -> np.ndarray:
    """Another game's card: coloured circles with digits 5-9, much like a coordinate."""
    w, h = mm(62), mm(92)
    face = np.full((h, w, 3), (225, 235, 240), np.uint8)
    colors = [(190, 95, 20), (60, 150, 35), (20, 125, 240), (40, 40, 200), (150, 60, 150)]
    for cy in (24, 68):
        color = colors[rng.randrange(len(colors))]
        center = (w // 2 + mm(rng.uniform(-6, 6)), mm(cy + rng.uniform(-3, 3)))
        cv2.circle(face, center, mm(rng.uniform(11, 16)), color, -1, cv2.LINE_AA)
        put_glyph(face, str(rng.randrange(5, 10)), center, mm(rng.uniform(11, 15)),
                  (255, 255, 255), rng.choice([cv2.FONT_HERSHEY_DUPLEX,
                                               cv2.FONT_HERSHEY_SIMPLEX]), mm(1.5))
    return face


def chip(color: tuple[int, int, int], diameter_mm: float = 16.0) -> np.ndarray:
    """A round plastic chip with a ring pressed into it, seen from above: BGRA, the corners
    around the disc transparent."""
    side = mm(diameter_mm)
    face = np.zeros((side, side, 4), np.uint8)
    cv2.circle(face, (side // 2, side // 2), side // 2 - 1, (*color, 255), -1, cv2.LINE_AA)
    cv2.circle(face, (side // 2, side // 2), side // 3,
               (*(min(255, c + 40) for c in color), 255), mm(0.8), cv2.LINE_AA)
    return face


def note(rng: random.Random) -> np.ndarray:
    """A scribbled score note: handwriting-like strokes and digits in coloured pens."""
    w, h = mm(rng.uniform(60, 80)), mm(rng.uniform(60, 80))
    face = np.full((h, w, 3), (200, 245, 250), np.uint8)
    for row in range(mm(8), h - mm(4), mm(9)):
        cv2.line(face, (0, row), (w, row), (230, 200, 170), 2)
    pens = [(160, 60, 20), (40, 40, 40), (30, 120, 30)]
    for row in range(mm(7), h - mm(6), mm(9)):
        x = mm(3)
        pen = rng.choice(pens)
        while x < w - mm(10):
            text = rng.choice(["Ann", "Ben", "12", "3", "4+2", "x", "7", "1"])
            cv2.putText(face, text, (x, row), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 1.6, pen, 2,
                        cv2.LINE_AA)
            x += mm(rng.uniform(10, 20))
    return face
