"""The planet-board reader (box set-up): rendered boards at several sizes, with known numbers."""

from __future__ import annotations

import random

import cv2
import numpy as np

from calibration.printables import SWATCH_INKS
from companion.rules import Coordinate
from vision.boards import STANDARD_HUES, read_board
from synthetic.card_faces import PX_PER_MM, REFERENCE_STYLE, draw_badge


def board(numbers: list[int], scale: float, seed: int) -> np.ndarray:
    face = np.full((int(80 * PX_PER_MM), int(200 * PX_PER_MM), 3), (200, 215, 225), np.uint8)
    for color, number, x in zip("BGOO", numbers, (25, 75, 125, 175)):
        draw_badge(face, Coordinate(color, number), (x, 40), REFERENCE_STYLE, radius_mm=12,
                   glyph_mm=11)
    image = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    noise = np.random.default_rng(seed).normal(0, 3, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def test_the_standard_hues_are_the_printed_inks():
    for color, bgr in SWATCH_INKS.items():
        hue = float(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0, 0])
        assert abs(hue - STANDARD_HUES[color]) <= 1


def test_boards_are_read_or_left_unsure_never_misread():
    rng = random.Random(1)
    read = 0
    for seed in range(40):
        numbers = [rng.randint(1, 4) for _ in range(4)]
        result = read_board(board(numbers, rng.uniform(0.15, 0.5), seed))
        if result.complete:
            assert (result.jump, result.scan, result.landing) == (
                numbers[0], numbers[1], (numbers[2], numbers[3]))
            read += 1
        else:
            assert "expected 1 blue" in result.reason
    assert read >= 30


def test_a_blank_frame_is_unsure():
    result = read_board(np.full((240, 320, 3), 128, np.uint8))
    assert not result.complete and result.reason
