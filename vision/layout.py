"""Where things lie on the table, in millimetres: markers and zones.

The table's frame of reference is the rectangle spanned by the four corner markers: x to the
right, y down, origin at the top-left, as the camera above the table sees it. The scan tray has
four small markers of its own so that a close view of it can be rectified without the corners.
Calibration writes a layout (possibly edited) into its config; vision reads it from there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from companion.observations import (DISCARD_ZONE, JUMP_GATE_ZONE, TRAY_ZONE, planet_zone,
                                    player_zone)

Polygon = tuple[tuple[float, float], ...]

ARUCO_DICTIONARY = "DICT_4X4_50"
TABLE_MARKER_IDS = (0, 1, 2, 3)
"""Top-left, top-right, bottom-right, bottom-left corners of the table."""
TRAY_MARKER_IDS = (4, 5, 6, 7)
"""The scan tray's corners, same order."""
COLOR_SWATCHES = ("B", "G", "O")
"""Printed colour patches beside the scan tray, for the colour profile."""


@dataclass(frozen=True)
class Marker:
    marker_id: int
    center: tuple[float, float]
    size: float
    """Side length in mm (the black square, without the white margin)."""

    def corners(self) -> np.ndarray:
        """Corner points in mm in ArUco's order: top-left, top-right, bottom-right, bottom-left."""
        cx, cy, h = self.center[0], self.center[1], self.size / 2
        return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]],
                        dtype=np.float32)


@dataclass(frozen=True)
class TableLayout:
    width: float
    height: float
    markers: tuple[Marker, ...]
    zones: dict[str, Polygon]
    """Zone name -> polygon in mm: ``planet-1``..``planet-8`` (clockwise from the top),
    ``jump-gate``, ``discard``, ``scan-tray``, ``player-1``..``player-5``."""
    swatches: dict[str, Polygon]
    """Colour code -> printed patch polygon in mm."""

    def marker(self, marker_id: int) -> Marker | None:
        return next((m for m in self.markers if m.marker_id == marker_id), None)

    def zone_at(self, x: float, y: float) -> str | None:
        """The zone containing a table point; the smallest one where zones overlap."""
        return next((name for name, contour in self._smallest_first if _inside(contour, x, y)),
                    None)

    @cached_property
    def _smallest_first(self) -> list[tuple[str, np.ndarray]]:
        """The zones as arrays, smallest first (made once: every card and tile seen is
        placed in one). A zone of fewer than three corners holds no point."""
        contours = [(name, np.array(polygon, dtype=np.float32))
                    for name, polygon in self.zones.items() if len(polygon) >= 3]
        return sorted(contours, key=lambda item: abs(_area(item[1])))

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width, "height": self.height,
            "markers": [{"id": m.marker_id, "center": list(m.center), "size": m.size}
                        for m in self.markers],
            "zones": {name: [list(p) for p in poly] for name, poly in self.zones.items()},
            "swatches": {name: [list(p) for p in poly] for name, poly in self.swatches.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableLayout:
        """The layout in ``data``, checked whole: ``ValueError`` says what no table has (a
        side of no length, a zone of no area, a marker twice), so that nothing downstream
        meets an infinite width or an empty zone on a camera frame."""
        width, height = _length(data["width"], "width"), _length(data["height"], "height")
        reach = 2 * max(width, height)  # what lies this far off the table is no part of it

        def polygons(raw: dict[str, Any], what: str) -> dict[str, Polygon]:
            return {str(name): _polygon(poly, reach, f"{what} {str(name)[:40]}")
                    for name, poly in raw.items()}
        markers = tuple(_marker(m, reach) for m in data["markers"])
        ids = [m.marker_id for m in markers]
        if len(set(ids)) < len(ids):
            raise ValueError("a marker is listed twice")
        if missing := set(TABLE_MARKER_IDS) - set(ids):
            raise ValueError(f"the table's corner markers {sorted(missing)} are not placed")
        return cls(width, height, markers, polygons(data["zones"], "zone"),
                   polygons(data.get("swatches", {}), "swatch"))


MARKER_IDS = 50
"""DICT_4X4_50 holds markers 0 to 49."""
LARGEST_TABLE = 100_000.0
"""In mm: no table is 100 m across."""
SMALLEST_AREA = 1.0
"""In mm²: a zone or a swatch smaller than this holds nothing the camera could see."""


def _length(value: Any, what: str) -> float:
    length = float(value)
    if not 0 < length <= LARGEST_TABLE:  # False for NaN too
        raise ValueError(f"the {what} must be a length in mm, not {value!r:.40}")
    return length


def _point(raw: Any, reach: float, what: str) -> tuple[float, float]:
    x, y = raw
    point = float(x), float(y)
    if not all(-reach <= v <= reach for v in point):
        raise ValueError(f"{what} has a point off the table: {raw!r:.60}")
    return point


def _marker(raw: dict[str, Any], reach: float) -> Marker:
    marker_id = raw["id"]
    if type(marker_id) is not int or not 0 <= marker_id < MARKER_IDS:  # true is no marker
        raise ValueError(f"marker {marker_id!r:.20} is not one of {ARUCO_DICTIONARY}'s")
    return Marker(marker_id, _point(raw["center"], reach, f"marker {marker_id}"),
                  _length(raw["size"], f"size of marker {marker_id}"))


def _polygon(raw: Any, reach: float, what: str) -> Polygon:
    polygon = tuple(_point(p, reach, what) for p in raw)
    if len(polygon) < 3 or abs(_area(np.array(polygon))) < SMALLEST_AREA:
        raise ValueError(f"{what} has no area")
    return polygon


def _inside(contour: np.ndarray, x: float, y: float) -> bool:
    # ray casting: a plain loop keeps vision's geometry independent of cv2 here
    inside = False
    n = len(contour)
    for i in range(n):
        x1, y1 = contour[i]
        x2, y2 = contour[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def _area(contour: np.ndarray) -> float:
    x, y = contour[:, 0], contour[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


def rectangle(x: float, y: float, w: float, h: float) -> Polygon:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


#: Reference card and sticker sizes in mm, used for the defaults and the synthetic table.
CARD_SIZE = (60.0, 90.0)
TILE_SIZE = 30.0
STICKER_SIZE = 25.0
PLANET_BOARD = 100.0


def default_layout() -> TableLayout:
    """A 1200 x 675 mm play area (16:9, as the camera sees it) with the ring in the middle."""
    width, height = 1200.0, 675.0
    corner = 50.0
    inset = 45.0
    markers = [Marker(i, c, corner) for i, c in zip(TABLE_MARKER_IDS, (
        (inset, inset), (width - inset, inset), (width - inset, height - inset),
        (inset, height - inset)))]
    tray = (955.0, 235.0, 190.0, 200.0)  # x, y, w, h
    tray_marker = 18.0
    tx, ty, tw, th = tray
    markers += [Marker(i, c, tray_marker) for i, c in zip(TRAY_MARKER_IDS, (
        (tx + 14, ty + 14), (tx + tw - 14, ty + 14), (tx + tw - 14, ty + th - 14),
        (tx + 14, ty + th - 14)))]
    zones: dict[str, Polygon] = {}
    cx, cy, rx, ry = 580.0, 310.0, 320.0, 195.0
    for i in range(8):
        angle = -math.pi / 2 + i * 2 * math.pi / 8  # clockwise from the top, y down
        px, py = cx + rx * math.cos(angle), cy + ry * math.sin(angle)
        zones[planet_zone(i)] = rectangle(px - PLANET_BOARD / 2, py - PLANET_BOARD / 2,
                                          PLANET_BOARD, PLANET_BOARD)
    zones[JUMP_GATE_ZONE] = tuple((cx + 70 * math.cos(a), cy + 70 * math.sin(a))
                                   for a in np.linspace(0, 2 * math.pi, 16, endpoint=False))
    zones[DISCARD_ZONE] = rectangle(95.0, 240.0, 110.0, 150.0)
    zones[TRAY_ZONE] = rectangle(*tray)
    for i in range(5):
        zones[player_zone(i)] = rectangle(110.0 + i * 200.0, 560.0, 190.0, 70.0)
    swatches = {code: rectangle(tx + 45 + k * 38, ty + th + 8, 24.0, 24.0)
                for k, code in enumerate(COLOR_SWATCHES)}
    return TableLayout(width, height, tuple(markers), zones, swatches)
