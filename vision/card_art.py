"""Card faces drawn in a given style: the reference style the reader knows out of the box.

A card shows two coordinates, each a coloured badge with a number 1-4 or ``?``, the top one
first (blue on top; green on top when there is no blue). The printed art of the real deck is not
known to us, so this is only a reference: real decks are taught (``calibration.teach``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.rules import Card, Coordinate

PX_PER_MM = 8.0
"""Resolution at which faces are drawn; the synthetic camera scales them down."""


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
    colors: dict[str, tuple[int, int, int]] = field(default_factory=lambda: {
        "B": (190, 95, 20), "G": (60, 150, 35), "O": (20, 125, 240)})
    glyph: tuple[int, int, int] = (255, 255, 255)
    font: int = cv2.FONT_HERSHEY_DUPLEX
    glyph_height_mm: float = 14.0
    stroke_mm: float = 1.6
    decoration: bool = True
    """Thin line art between the badges, as printed cards have some."""


REFERENCE_STYLE = CardStyle()


def glyph_text(coordinate: Coordinate) -> str:
    return "?" if coordinate.number is None else str(coordinate.number)


def draw_card(card: Card, style: CardStyle = REFERENCE_STYLE) -> np.ndarray:
    """The card's face, upright, as a BGR image at ``PX_PER_MM``."""
    w, h = (int(round(s * PX_PER_MM)) for s in style.size_mm)
    face = np.full((h, w, 3), style.paper, dtype=np.uint8)
    edge = int(PX_PER_MM * 1.2)
    cv2.rectangle(face, (edge, edge), (w - 1 - edge, h - 1 - edge), style.border,
                  max(1, int(PX_PER_MM * 0.5)), cv2.LINE_AA)
    if style.decoration:
        _decorate(face, style)
    for coordinate, center in zip(card.coordinates, style.badge_centers_mm):
        draw_badge(face, coordinate, center, style)
    return face


def _decorate(face: np.ndarray, style: CardStyle) -> None:
    h, w = face.shape[:2]
    mid = h // 2
    gray = tuple(int(c * 0.75) for c in style.paper)
    for k in range(3):
        y = mid - int(PX_PER_MM * 3) + k * int(PX_PER_MM * 3)
        cv2.line(face, (int(w * 0.2), y), (int(w * 0.8), y), gray, 2, cv2.LINE_AA)


def draw_badge(face: np.ndarray, coordinate: Coordinate, center_mm: tuple[float, float],
               style: CardStyle, radius_mm: float | None = None,
               glyph_mm: float | None = None) -> None:
    """One coordinate badge (cards and planet boards print them alike)."""
    cx, cy = (int(round(v * PX_PER_MM)) for v in center_mm)
    r = int(round((radius_mm or style.badge_radius_mm) * PX_PER_MM))
    color = style.colors[coordinate.color]
    if style.badge_shape == "circle":
        cv2.circle(face, (cx, cy), r, color, -1, cv2.LINE_AA)
    else:
        cv2.rectangle(face, (cx - r, cy - r), (cx + r, cy + r), color, -1, cv2.LINE_AA)
    text = glyph_text(coordinate)
    thickness = max(1, int(round(style.stroke_mm * PX_PER_MM)))
    target = (glyph_mm or style.glyph_height_mm) * PX_PER_MM
    (tw, th), _ = cv2.getTextSize(text, style.font, 1.0, thickness)
    scale = target / max(th, 1)
    (tw, th), _ = cv2.getTextSize(text, style.font, scale, thickness)
    cv2.putText(face, text, (cx - tw // 2, cy + th // 2), style.font, scale, style.glyph,
                thickness, cv2.LINE_AA)
