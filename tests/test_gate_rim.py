"""The jump gate's rim found again where a way of seeing showed it in part (``gate_rim``): on a
drawn table, and on a rendered one whose gate the boards' shades cut in half."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from synthetic.pieces import ring_shoot
from vision.pieces import find_ring, read_pieces
from vision.pieces.colours import lab_of
from vision.pieces.gate_rim import refit_rim

MIDDLE, RADIUS = (320.0, 240.0), 70
GATE_BGR, TABLE_BGR, BOARD_BGR = (95, 80, 70), (110, 55, 30), (40, 30, 30)


def _table(gate_bgr=GATE_BGR, square: bool = False):
    """A navy table with a grey gate (round, or square) in the middle, ships and a ring of
    print on it, and eight dark boards around it: the picture in Lab, the gate's mask and
    the boards' outlines."""
    rng = np.random.default_rng(7)
    image = np.empty((480, 640, 3), np.uint8)
    image[:] = TABLE_BGR
    gate = np.zeros((480, 640), np.uint8)
    centre = tuple(int(v) for v in MIDDLE)
    if square:
        cv2.rectangle(gate, (centre[0] - RADIUS, centre[1] - RADIUS),
                      (centre[0] + RADIUS, centre[1] + RADIUS), 1, -1)
    else:
        cv2.circle(gate, centre, RADIUS, 1, -1)
    image[gate > 0] = gate_bgr
    cv2.circle(image, centre, RADIUS // 2, (150, 140, 130), 2)  # the gate's printed rings
    cv2.ellipse(image, (centre[0] + 30, centre[1] - 20), (14, 4), 30, 0, 360, (40, 40, 200), -1)
    cv2.ellipse(image, (centre[0] - 45, centre[1] + 25), (14, 4), 100, 0, 360, (40, 200, 230), -1)
    boards = []
    for k in range(8):
        turn = k * math.pi / 4
        x, y = MIDDLE[0] + 175 * math.cos(turn), MIDDLE[1] + 175 * math.sin(turn)
        corners = np.array([(x - 40, y - 40), (x + 40, y - 40), (x + 40, y + 40), (x - 40, y + 40)])
        cv2.fillPoly(image, [corners.astype(np.int32)], BOARD_BGR)
        boards.append(corners)
    noisy = np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    return lab_of(cv2.GaussianBlur(noisy, (3, 3), 0)), gate, boards


def _outline(mask: np.ndarray) -> np.ndarray:
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(outlines, key=cv2.contourArea)[:, 0].astype(np.float64)


def _shares(outline: np.ndarray, gate: np.ndarray) -> tuple[float, float]:
    """How much of the true gate an outline covers, and how large it is, as shares of it."""
    filled = np.zeros_like(gate)
    cv2.fillPoly(filled, [np.round(outline).astype(np.int32)], 1)
    return float((filled & gate).sum() / gate.sum()), float(filled.sum() / gate.sum())


def _found_to_its_rim(lab: np.ndarray, seen: np.ndarray, gate: np.ndarray,
                      boards: list[np.ndarray]) -> bool:
    """Whether the gate ``seen`` (a mask) is found again as the true ``gate`` (a mask)."""
    rim = refit_rim(lab, _outline(seen), boards)
    if rim is None:
        return False
    covered, size = _shares(rim, gate)
    return covered >= 0.93 and size <= 1.05


@pytest.mark.parametrize("square", [False, True])
def test_a_gate_seen_in_part_is_found_to_its_rim_round_or_square(square):
    lab, gate, boards = _table(square=square)
    half = gate.copy()
    half[:, int(MIDDLE[0]) + 10:] = 0  # its right part fell into the table's shade
    assert _found_to_its_rim(lab, half, gate, boards)


def test_a_gate_seen_with_table_taken_in_is_found_to_its_rim():
    lab, gate, boards = _table()
    more = gate.copy()
    cv2.rectangle(more, (int(MIDDLE[0]) - 20, int(MIDDLE[1]) - 110),
                  (int(MIDDLE[0]) + 110, int(MIDDLE[1]) + 20), 1, -1)  # a patch of table
    assert _shares(_outline(more), gate)[1] > 1.4
    assert _found_to_its_rim(lab, more, gate, boards)


def test_a_gate_seen_whole_stands_as_seen():
    lab, gate, boards = _table()
    assert refit_rim(lab, _outline(gate), boards) is None


def test_a_gate_of_the_tables_own_colour_stands_as_seen_not_run_on_to_the_boards():
    lab, gate, boards = _table(gate_bgr=TABLE_BGR)
    half = gate.copy()
    half[:, int(MIDDLE[0]) + 10:] = 0
    assert refit_rim(lab, _outline(half), boards) is None


def _whole_gate(seed: int, tilt: float = 0.0):
    """Table ``seed``'s shoot and ring, its gate as found covering the gate drawn on it."""
    shoot = ring_shoot(seed, 2, 0.3, tilt=tilt)
    ring = find_ring(shoot.start.image, list(shoot.planets), shoot.first, list(shoot.players))
    drawn = np.zeros(shoot.start.image.shape[:2], np.uint8)
    corners = next(t for t in shoot.start.truth if t.kind == "gate").corners
    # the gate is a disc filling its square face: as the camera sees the square, an ellipse
    cv2.fillPoly(drawn, [cv2.ellipse2Poly(
        tuple(int(v) for v in corners.mean(axis=0)),
        (int(np.linalg.norm(corners[0] - corners[1]) / 2),
         int(np.linalg.norm(corners[1] - corners[2]) / 2)),
        int(math.degrees(math.atan2(*(corners[1] - corners[0])[::-1]))), 0, 360, 5)], 1)
    covered, size = _shares(np.array(ring.gate), drawn)
    assert covered >= 0.9 and size <= 1.15
    return shoot, ring


def test_a_chip_on_the_part_of_the_gate_its_shades_left_out_is_counted():
    """Held-out table 12000: a grey gate on a navy table fell half into the table's shade, and
    the yellow chip on its other half lay on no place at all: yellow was read as none on the
    gate, in both photos. Its rim found again, the gate is whole and the chip counted."""
    shoot, ring = _whole_gate(12000)
    for frame, truth, _ in shoot.games:
        seen, _ = read_pieces(frame.image, ring)
        assert seen is not None and seen.gate["yellow"] == truth.gate["yellow"] == 1


def test_a_gate_whose_rays_ran_on_into_dark_table_is_opened_to_its_rim():
    """Held-out table 12124, 15 degrees off straight down: a third of a dark gate was seen,
    black's ship off it (black was no one's colour); found again, some rays ran on into a
    patch of dark cloud beside the gate, a spur of it, opened away. Black is learned, and
    the four red chips on the gate, read as none, are counted."""
    shoot, ring = _whole_gate(12124, tilt=15.0)
    assert set(ring.colours) == {"red", "black"}
    frame, truth, _ = shoot.games[1]
    seen, _ = read_pieces(frame.image, ring)
    assert seen is not None and seen.gate["red"] == truth.gate["red"] == 4


def test_any_picture_and_outline_give_a_rim_or_none_never_an_error():
    """Pictures of noise or of one colour, outlines of any points (off the picture too), and
    no boards or boards anywhere: a rim of finite points, or the gate as seen stands."""
    rng = np.random.default_rng(1)
    for _ in range(300):
        height, width = (int(v) for v in rng.integers(8, 200, 2))
        image = rng.integers(0, 256, (height, width, 3), dtype=np.uint8) if rng.random() < 0.5 \
            else np.full((height, width, 3), rng.integers(0, 256, 3), np.uint8)
        reach = max(height, width) + 40
        gate = rng.uniform(-40, reach, (int(rng.integers(1, 12)), 2))
        boards = [rng.uniform(-40, reach, (4, 2)) for _ in range(int(rng.integers(0, 9)))]
        rim = refit_rim(lab_of(image), gate, boards)
        assert rim is None or (rim.shape[1] == 2 and np.isfinite(rim).all())


def test_a_gate_no_way_of_seeing_showed_takes_the_plain_rim_around_its_ships():
    """Dev table 8000, a busy play mat: no way of seeing the boards showed the gate, so it was
    the circle its ships stood in (0.42 of it), doubted out towards the planets. Its rim,
    found from the ships' circle, is plain: the gate is that, with no doubt."""
    shoot, ring = _whole_gate(8000)
    assert ring.gate_doubt == 0
