"""Table rectification: ArUco markers in a frame, and the homography from image to table mm."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.observations import Corners, MarkerSeen
from vision.layout import ARUCO_DICTIONARY, TableLayout

MIN_MARKERS = 2
"""Markers needed for a homography: one marker's four corners are too close together to
rectify the far side of the table reliably."""


class MarkerDetector:
    def __init__(self) -> None:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
        parameters = cv2.aruco.DetectorParameters()
        parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.ArucoDetector(dictionary, parameters)

    def detect(self, gray: np.ndarray) -> list[MarkerSeen]:
        corners, ids, _ = self._detector.detectMarkers(gray)
        if ids is None:
            return []
        found = [MarkerSeen(int(i), to_corners(c.reshape(4, 2)))
                 for c, i in zip(corners, ids.ravel())]
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
