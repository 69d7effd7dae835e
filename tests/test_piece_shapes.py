"""Silhouettes (vision.pieces.shapes): one piece's whatever its size and turn, told from a
chip's crescent and from two chips side by side."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.pieces.shapes import like_two_chips, likeness, silhouette, typical

ARROW = np.array([[0, -30], [9, -8], [9, 20], [16, 30], [-16, 30], [-9, 20], [-9, -8]],
                 np.float64)
"""A ship as a maker might cut it: a pointed hull on a wider foot (pixels about its
middle)."""


def drawn(points: np.ndarray, turn: float = 0.0, scale: float = 1.0, size: int = 160
          ) -> np.ndarray:
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    placed = points * scale @ np.array([[c, s], [-s, c]]) + size / 2
    mask = np.zeros((size, size), np.uint8)
    cv2.fillPoly(mask, [np.round(placed).astype(np.int32)], 1)
    return mask


def discs(apart: float, radius: float = 14.0) -> np.ndarray:
    mask = np.zeros((120, 160), np.uint8)
    for side in (-1, 1):
        cv2.circle(mask, (80 + int(round(side * apart * radius / 2)), 60), int(radius), 1, -1)
    return mask


def test_a_ship_turned_and_nearer_the_camera_has_its_own_silhouette():
    ship = silhouette(drawn(ARROW))
    assert ship is not None
    for turn, scale in ((37, 1.5), (180, 0.8), (-101, 1.2), (90, 2.0)):
        again = silhouette(drawn(ARROW, turn, scale))
        assert again is not None and likeness(again, ship) >= 0.85, (turn, scale)
    mirrored = silhouette(drawn(ARROW * [-1, 1], 15))
    assert mirrored is not None and likeness(mirrored, ship) >= 0.85


def test_a_chips_crescent_and_two_chips_are_no_ship():
    ship = silhouette(drawn(ARROW))
    assert ship is not None
    crescent = np.zeros((80, 80), np.uint8)  # a chip whose other half is as dark as the board
    cv2.circle(crescent, (40, 40), 16, 1, -1)
    cv2.circle(crescent, (40, 49), 16, 0, -1)
    seen = silhouette(crescent)
    assert seen is not None and likeness(seen, ship) < 0.7
    for apart in (1.7, 1.9, 2.0):
        two = silhouette(discs(apart))
        assert two is not None and like_two_chips(two) >= 0.9 and likeness(two, ship) < 0.9
    assert like_two_chips(ship) < 0.85


def test_too_small_a_patch_has_no_shape_and_the_typical_of_a_kind_is_chosen():
    assert silhouette(np.ones((3, 3), np.uint8)) is None
    ships = [silhouette(drawn(ARROW, turn)) for turn in (0, 50, 120)]
    half = drawn(ARROW)
    half[:, 80:] = 0  # a ship half in shadow
    chosen = typical([s for s in ships if s is not None] + [silhouette(half)])
    assert chosen is not None and likeness(chosen, silhouette(drawn(ARROW))) >= 0.85
    assert typical([]) is None
