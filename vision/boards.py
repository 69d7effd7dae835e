"""Reading a planet board's printed coordinates (box set-up). A board shows one blue (jump), one
green (scan) and two orange (landing) coordinates, each a coloured badge with a white number.

Unlike cards, boards are read in one print style: badges found as saturated blobs, their hue
named by the colours calibration measured on the printed swatches (or the standard inks' hues),
the number inside compared with glyphs drawn in a plain sans face. Anything not clear by every
margin is unsure, and the screen asks the user to type the numbers instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

MIN_BADGE_AREA = 300
GLYPH = (32, 32)
SHIFT = 2
SYMBOLS = ("1", "2", "3", "4", "?")
STANDARD_HUES = {"B": 107.0, "G": 67.0, "O": 14.0}
"""OpenCV hues of the standard printed inks, used until calibration has measured the swatches."""
MIN_SATURATION = 70
#: A badge counts only when it is clear by each of these (no misread on the synthetic boards).
MIN_GLYPH_SCORE = 0.6
MIN_GLYPH_MARGIN = 0.06
MAX_HUE_RATIO = 0.5


@dataclass(frozen=True)
class BoardRead:
    jump: int | None = None
    scan: int | None = None
    landing: tuple[int, int] | None = None
    reason: str = ""

    @property
    def complete(self) -> bool:
        return self.jump is not None and self.scan is not None and self.landing is not None


def read_board(bgr: np.ndarray, hues: dict[str, float] | None = None) -> BoardRead:
    """The board in ``bgr``; ``hues`` as calibration measured them (see ``STANDARD_HUES``)."""
    hues = hues or STANDARD_HUES
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    colored = ((hsv[:, :, 1] >= MIN_SATURATION) & (hsv[:, :, 2] >= 50)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(colored, connectivity=8)
    numbers: dict[str, list[tuple[float, int]]] = {"B": [], "G": [], "O": []}
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if area < MIN_BADGE_AREA or not 0.6 < w / max(h, 1) < 1.6:
            continue
        read = _read_badge(hsv[y:y + h, x:x + w], labels[y:y + h, x:x + w] == i, hues)
        if read is not None:
            numbers[read[0]].append((float(x), read[1]))
    if len(numbers["B"]) != 1 or len(numbers["G"]) != 1 or len(numbers["O"]) != 2:
        found = ", ".join(f"{len(v)} {k}" for k, v in numbers.items())
        return BoardRead(reason=f"expected 1 blue, 1 green and 2 orange numbers; read {found}")
    landing = sorted(numbers["O"])
    return BoardRead(numbers["B"][0][1], numbers["G"][0][1], (landing[0][1], landing[1][1]))


def _read_badge(hsv: np.ndarray, blob: np.ndarray,
                hues: dict[str, float]) -> tuple[str, int] | None:
    """A badge's colour and number, or None unless both are clear. The glyph is the badge's
    holes (the white number), framed by the badge's own bounding box."""
    mask = blob.astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=-1)
    holes = (filled - mask).astype(np.float32)
    if holes.sum() < 0.012 * mask.size:
        return None
    angles = hsv[:, :, 0][blob].astype(np.float64) * (np.pi / 90)
    hue = float(np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) / 2) % 180
    ranked = sorted((_hue_distance(hue, h), c) for c, h in hues.items())
    if ranked[0][0] > MAX_HUE_RATIO * ranked[1][0]:
        return None
    glyph = _normalise(cv2.resize(holes, GLYPH, interpolation=cv2.INTER_AREA))
    scores = sorted(((_similarity(glyph, t), s) for s, t in _templates().items()), reverse=True)
    (best, symbol), (second, _) = scores[0], scores[1]
    if best < MIN_GLYPH_SCORE or best - second < MIN_GLYPH_MARGIN or symbol == "?":
        return None  # a board's coordinates are all numbers
    return ranked[0][1], int(symbol)


@lru_cache(maxsize=1)
def _templates() -> dict[str, np.ndarray]:
    """Each symbol as a white glyph on a round badge, framed as ``_read_badge`` frames one."""
    templates = {}
    for symbol in SYMBOLS:
        size = 96
        circle = np.zeros((size, size), np.uint8)
        cv2.circle(circle, (size // 2, size // 2), size // 2 - 1, 255, -1, cv2.LINE_AA)
        badge = circle.copy()
        font, stroke = cv2.FONT_HERSHEY_DUPLEX, 5
        (_, th), _ = cv2.getTextSize(symbol, font, 1.0, stroke)
        scale = size * 0.47 / th
        (tw, th), _ = cv2.getTextSize(symbol, font, scale, stroke)
        cv2.putText(badge, symbol, (size // 2 - tw // 2, size // 2 + th // 2), font, scale, 0,
                    stroke, cv2.LINE_AA)
        glyph = (badge < 128) & (circle >= 128)
        templates[symbol] = _normalise(cv2.resize(glyph.astype(np.float32), GLYPH,
                                                  interpolation=cv2.INTER_AREA))
    return templates


def _normalise(glyph: np.ndarray) -> np.ndarray:
    centred = glyph.astype(np.float32) - float(glyph.mean())
    norm = float(np.linalg.norm(centred))
    return centred / norm if norm > 1e-6 else centred


def _similarity(glyph: np.ndarray, template: np.ndarray) -> float:
    """Correlation allowing a shift of a few pixels (badge outlines are found to ±2 px)."""
    padded = cv2.copyMakeBorder(glyph, SHIFT, SHIFT, SHIFT, SHIFT, cv2.BORDER_CONSTANT,
                                value=float(glyph.min()))
    return float(cv2.matchTemplate(padded, template, cv2.TM_CCOEFF_NORMED).max())


def _hue_distance(a: float, b: float) -> float:
    d = abs(a - b) % 180
    return min(d, 180 - d)
