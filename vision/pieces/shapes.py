"""A piece's silhouette, whatever its size and turn: what tells a ship from a chip's crescent,
from two chips side by side, or from a ship and a chip run together.

A patch is drawn upright along its longest axis, scaled to one unit of area, into a small
square; two silhouettes are alike by how much of them overlaps (either end first, either side
up). The players' ships are one maker's and all alike, so the calibration keeps theirs, as the
ships stood on the gate: nothing here knows a ship's drawing.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

GRID = 32
"""A silhouette's square, in cells a side ..."""
REACH = 1.6
"""... reaching this far each way from the patch's middle, in the square root of its area
(a ship three times as long as wide reaches about 1.5 along its axis)."""
TOUCHING = (1.6, 1.8, 2.0)
"""Two chips side by side: their middles this many radii apart (overlapping a little, or
just touching)."""


def silhouette(mask: np.ndarray) -> np.ndarray | None:
    """``mask`` (0/1) drawn upright along its longest axis, its area one unit (GRID x GRID,
    bool); None for too few pixels to have a shape."""
    moments = cv2.moments(mask.astype(np.uint8), binaryImage=True)
    area = moments["m00"]
    if area < 12:
        return None
    cx, cy = moments["m10"] / area, moments["m01"] / area
    angle = 0.5 * math.atan2(2 * moments["mu11"], moments["mu20"] - moments["mu02"])
    along, across = (math.cos(angle), math.sin(angle)), (-math.sin(angle), math.cos(angle))
    unit = math.sqrt(area) * 2 * REACH / GRID  # image pixels a cell
    start = -REACH * math.sqrt(area) + unit / 2
    # a cell (i, j) of the square to the image: the middle, plus j cells along, i across
    matrix = np.array([[along[0] * unit, across[0] * unit,
                        cx + start * (along[0] + across[0])],
                       [along[1] * unit, across[1] * unit,
                        cy + start * (along[1] + across[1])]])
    drawn = cv2.warpAffine(mask.astype(np.float32), matrix, (GRID, GRID),
                           flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
    return drawn >= 0.5


def whole(shape: np.ndarray) -> float:
    """The share of its patch a silhouette holds: a patch reaching beyond ``REACH`` (a long,
    thin arc of a board's rim) is cut short in it."""
    return float(shape.sum()) * (2 * REACH / GRID) ** 2


def likeness(one: np.ndarray, other: np.ndarray) -> float:
    """How much two silhouettes overlap (intersection over union), turned and flipped to fit
    best."""
    best = 0.0
    for flipped in (one, one[:, ::-1], one[::-1, :], one[::-1, ::-1]):
        union = int((flipped | other).sum())
        if union:
            best = max(best, int((flipped & other).sum()) / union)
    return best


def typical(silhouettes: list[np.ndarray]) -> np.ndarray | None:
    """Of several silhouettes of one kind, the one most like the others (a ship half in
    shadow is least like them); None for none."""
    if not silhouettes:
        return None
    return max(silhouettes, key=lambda one: sum(likeness(one, other) for other in silhouettes))


def _two_chips(apart: float) -> np.ndarray:
    drawn = np.zeros((200, 300), np.uint8)
    for side in (-1, 1):
        cv2.circle(drawn, (150 + int(round(side * apart * 25)), 100), 50, 1, -1)
    shape = silhouette(drawn)
    assert shape is not None
    return shape


TWO_CHIPS = tuple(_two_chips(apart) for apart in TOUCHING)
"""Two chips side by side, as silhouettes."""


def like_two_chips(shape: np.ndarray) -> float:
    return max(likeness(shape, two) for two in TWO_CHIPS)
