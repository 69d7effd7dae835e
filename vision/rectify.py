"""Table rectification: ArUco markers in a frame, and the homography from image to table mm."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.observations import Corners, MarkerSeen
from vision.layout import ARUCO_DICTIONARY, TableLayout

MIN_MARKERS = 2
"""Markers needed for a homography: one marker's four corners are too close together to
rectify the far side of the table reliably."""


ENOUGH_AT_HALF_SIZE = 3
"""Markers a half-size look must find to stand: fewer (a hand over one, markers too small to
tell at half size) and the full image is looked at."""
LOOK_PIXELS = 16e6
"""The most pixels one look at the markers takes in (a 60-megapixel photo looked at whole
takes a gigabyte and a half): a table's markers in a larger photo are large."""
SMALLEST_AT_HALF_SIZE = 16.0
"""A marker's side (half-size pixels) below which its corners are not taken from a half-size
look: two or three pixels a cell, they are found a pixel or two off, too far to place again."""
CORNER_WINDOW = 0.4
"""Half the window in which a corner found at half size is placed again in the full image, as
a fraction of the marker's cells (a wider window reaches the next cell's corner)."""


class MarkerDetector:
    def __init__(self) -> None:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
        parameters = cv2.aruco.DetectorParameters()
        parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.ArucoDetector(dictionary, parameters)
        self._cells = dictionary.markerSize + 2  # the black border is one cell wide
        rough = cv2.aruco.DetectorParameters()
        rough.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        rough.minDistanceToBorder = 0  # markers at a frame's corners come close to it
        # two thresholds, 3 and 13 px across, not three: the third, 23 px, added no marker
        # of the size a half-size look keeps, and took a third of the time
        rough.adaptiveThreshWinSizeMax = 13
        self._rough = cv2.aruco.ArucoDetector(dictionary, rough)

    def detect(self, gray: np.ndarray, quick: bool = False) -> list[MarkerSeen]:
        """The markers in ``gray``, by id. ``quick`` looks in a half-size image first, in
        half the time, and places the corners it finds again in the full image, as precisely
        as a full look; the full image is looked at when that finds fewer than
        ``ENOUGH_AT_HALF_SIZE``. An image of more than ``LOOK_PIXELS`` is looked at shrunk
        to that size, its corners placed again in the full image the same way."""
        if quick:
            found = self._shrunk(gray, 0.5, self._rough)
            if len(found) >= ENOUGH_AT_HALF_SIZE:
                return found
        scale = math.sqrt(LOOK_PIXELS / gray.size)
        if scale < 1.0:
            return self._shrunk(gray, scale, self._detector)
        corners, ids, _ = self._detector.detectMarkers(gray)
        if ids is None:
            return []
        return _seen([c.reshape(4, 2) for c in corners], ids)

    def _shrunk(self, gray: np.ndarray, scale: float,
                detector: cv2.aruco.ArucoDetector) -> list[MarkerSeen]:
        small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        corners, ids, _ = detector.detectMarkers(small)
        if ids is None:
            return []
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
        placed, placed_ids = [], []
        for found, marker_id in zip(corners, ids.ravel()):
            found = found.reshape(4, 2).astype(np.float32)
            side = float(np.linalg.norm(found - np.roll(found, 1, axis=0), axis=1).min())
            if side < SMALLEST_AT_HALF_SIZE:
                continue
            # a shrunk pixel averages several full ones: its centre lies on from theirs
            points = (found + 0.5) / scale - 0.5
            reach = max(2, int(CORNER_WINDOW * side / scale / self._cells))
            placed.append(cv2.cornerSubPix(gray, points.reshape(-1, 1, 2), (reach, reach),
                                           (-1, -1), criteria).reshape(4, 2))
            placed_ids.append(marker_id)
        return _seen(placed, np.array(placed_ids))


def _seen(corners: list[np.ndarray], ids: np.ndarray) -> list[MarkerSeen]:
    found = [MarkerSeen(int(i), to_corners(c)) for c, i in zip(corners, ids.ravel())]
    return sorted(found, key=lambda m: m.marker_id)


def to_corners(points: np.ndarray) -> Corners:
    p = [(float(x), float(y)) for x, y in points[:4]]
    return (p[0], p[1], p[2], p[3])


@dataclass(frozen=True)
class Rectification:
    image_to_table: np.ndarray
    """3x3 homography from image pixels to table mm."""
    markers_used: tuple[int, ...]
    residual_mm: float
    """Mean distance between the markers' known and mapped corners."""

    @property
    def table_to_image(self) -> np.ndarray:
        return np.linalg.inv(self.image_to_table)

    def to_table(self, points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2),
                                        self.image_to_table).reshape(-1, 2)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2),
                                        self.table_to_image).reshape(-1, 2)

    def px_per_mm(self, x: float, y: float) -> float:
        """Image pixels per table millimetre around a table point."""
        square = np.array([[x, y], [x + 1, y], [x, y + 1]], dtype=np.float64)
        a, b, c = self.to_image(square)
        (ux, uy), (vx, vy) = b - a, c - a
        return float(np.sqrt(abs(ux * vy - uy * vx)))  # area of the mapped unit square


def rectify(markers: list[MarkerSeen], layout: TableLayout) -> Rectification | None:
    """The homography from the markers the layout knows, or None with fewer than two."""
    image_points, table_points, used = [], [], []
    for seen in markers:
        known = layout.marker(seen.marker_id)
        if known is None:
            continue
        image_points.append(np.array(seen.corners, np.float32))
        table_points.append(known.corners())
        used.append(seen.marker_id)
    if len(used) < MIN_MARKERS:
        return None
    src, dst = np.concatenate(image_points), np.concatenate(table_points)
    homography, _ = cv2.findHomography(src, dst, 0)
    if homography is None:
        return None
    mapped = cv2.perspectiveTransform(src.reshape(-1, 1, 2).astype(np.float64),
                                      homography).reshape(-1, 2)
    residual = float(np.linalg.norm(mapped - dst, axis=1).mean())
    return Rectification(homography, tuple(used), residual)
