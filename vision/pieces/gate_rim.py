"""The jump gate's rim, found again along rays from its middle where a way of seeing showed
the gate only in part, or with some table taken in with it.

The ways of seeing the boards (``boards``) sort the table's shades into a few: a gate of
about the table's shade, lit unevenly, may fall half into the table's shade (held-out table
12000 and dev table 8083: a half or four fifths of a grey gate on a navy or dark table), or
take in a patch of table beside it (dev table 8127: half as large again). A chip on the part
left out is then on no place at all and goes uncounted: its colour reads as none on the
gate, a wrong read.

From the middle of the gate as seen, each ray runs out until the boards; the rim is where
the last run of the gate's own colour ends (its art's thin rings and the ships standing on
it are crossed: what counts is the last of its colour, not the first change). Where those
ends make a plain, convex rim that few rays ran past to the boards, it is the gate's, and
replaces the gate as seen when the two differ much; else the gate stays as seen. Nothing
here knows the gate's shape: it may be round or not, as long as each ray from its middle
leaves it once.

Dev tables 8000-8359 straight down and 9700-9859 at 15-30 degrees, the bench's 7300-7329
both ways and held-out 12000-12159: of 627 gates seen, 11 were found again (seen at 0.37 to
0.91 of the gate, or 1.44 to 1.52 times it; now covering 0.95 to 1.05 of it, at most 1.12
times its size), no other. Their photos: 4 gate counts more read right, 3 of them read wrong
before (12000's yellow, in two photos; 12124's four red chips, read as none), and a ship, a
station and a planet's reservations; nothing else changed.

A gate no way of seeing showed at all (as dark and plain as the table, or on a busy mat) is
first the circle its ships stood in, doubted out towards the planets; from that circle its
rim is looked for too, and where it is plain, it is the gate, with no doubt. Dev tables'
24 such gates: 8 rims found, covering 0.95 to 1.07 of the gate, at most 1.2 times its size;
the bench's tables 7300-7329: one gate count more read right, nothing else changed.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

RAYS = 72
"""Rays from the gate's middle, evenly round."""
RUN = 0.05
"""A run of the gate's colour is at least this share of the gate's reach long (at least
``LEAST_RUN`` pixels): shorter, it is a fleck of the table of the gate's shade."""
LEAST_RUN = 3
ALIKE = (6.0, 0.5, 3.0)
"""A pixel is of the gate's colour when it is nearer it (Lab) than the most of: this many
units; this share of the way from it to the table's colour; and this many times the gate's
own spread of colour (its art)."""
SMOOTHED = 7
"""Each ray's rim is the median of this many rays' around it: a ship or chip standing over
the rim, or a gap between the gate and a tile, moves a ray or two, not the rim."""
PLAIN = (0.98, 0.3)
"""The rim found is plain when its outline, opened (``OPENED``), fills at least this share of
its hull (rays that ran on into table of the gate's shade make it ragged: 0.97 or less on
dev tables, the rims found plain 0.98 or more) and at most this share of rays ran on to
the boards."""
AGREES = (0.85, 1.4)
"""The gate as seen stays where its area is this share of the rim's, at the least and at
the most: a gate's outline as seen often takes in its shadow (1.2 times its area, on dev
tables), and the readers weigh a chip at its rim so."""
OPENED = 0.8
"""The rim found is opened by a disc this share of the gate's reach across: rays that ran
on into a patch of dark table touching the gate make a spur of it (held-out 12124: a spur
half the gate's reach wide, its rim 0.95 of its hull, 0.99 opened so); a square gate loses
a twentieth of its area at its corners."""
PASSES = 2
"""Rays are cast from the middle of the gate as seen, then from the middle of the rim they
found (a gate seen in part has its middle off the true one)."""


def refit_rim(lab: np.ndarray, gate: np.ndarray, boards: list[np.ndarray]
              ) -> np.ndarray | None:
    """The gate's rim (N x 2, image pixels) found again in ``lab`` (the table at the start,
    Lab, float) around ``gate`` as seen (its outline), where that is plain and differs much
    from it; None where the gate as seen stands. The rays stop at the planets' ``boards``
    (outlines)."""
    height, width = lab.shape[:2]
    board_mask = np.zeros((height, width), np.uint8)
    for outline in boards:
        cv2.fillPoly(board_mask, [np.round(outline).astype(np.int32)], 1)
    free = cv2.distanceTransform(1 - board_mask, cv2.DIST_L2, 3)
    mask = _filled(gate, (height, width))
    seen_area = float(mask.sum())
    if seen_area < 1:
        return None
    for _ in range(PASSES):
        found = _rim(lab, mask, free)
        if found is None:
            return None
        rim, ran_on = found
        mask = _filled(rim, (height, width))
        # a few rays run on into a patch of table of the gate's shade beside it: a spur
        # narrower than the gate, opened away
        side = max(3, int(round(OPENED * math.sqrt(mask.sum() / math.pi))))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
        if mask.sum() < 1:
            return None
        outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        rim = max(outlines, key=cv2.contourArea)[:, 0].astype(np.float64)
        mask = _filled(rim, (height, width))
    hull = cv2.contourArea(cv2.convexHull(rim.astype(np.float32)))
    solidity = cv2.contourArea(rim.astype(np.float32)) / hull if hull > 0 else 0.0
    ratio = seen_area / float(mask.sum())
    if solidity < PLAIN[0] or ran_on > PLAIN[1] or AGREES[0] <= ratio <= AGREES[1]:
        return None
    return rim


def _filled(outline: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(outline).astype(np.int32)], 1)
    return mask


def _rim(lab: np.ndarray, mask: np.ndarray, free: np.ndarray
         ) -> tuple[np.ndarray, float] | None:
    """The rim found along rays from the middle of ``mask`` (the gate as seen, 0/1), out to
    the boards (``free``: each pixel's distance to the nearest board): its outline, and the
    share of rays that ran on to the boards; None where the gate as seen is too small to
    tell its colour."""
    height, width = mask.shape
    moments = cv2.moments(mask, True)
    middle = np.array([moments["m10"], moments["m01"]]) / max(moments["m00"], 1.0)
    inner = cv2.erode(mask, np.ones((5, 5), np.uint8)).astype(bool)
    if inner.sum() < 20:
        return None
    colour = np.median(lab[inner], axis=0)
    spread = float(np.linalg.norm(np.median(np.abs(lab[inner] - colour), axis=0)))
    x, y = int(np.clip(middle[0], 0, width - 1)), int(np.clip(middle[1], 0, height - 1))
    reach = min(float(free[y, x]), math.hypot(height, width))  # no board: the picture's edge
    run = max(LEAST_RUN, int(round(RUN * math.sqrt(moments["m00"] / math.pi))))
    if reach <= 2 * run:
        return None
    radii = np.arange(1, int(reach), dtype=np.float32)
    turns = np.linspace(0, 2 * math.pi, RAYS, endpoint=False)
    xs = (middle[0] + np.cos(turns)[:, None] * radii).astype(np.float32)
    ys = (middle[1] + np.sin(turns)[:, None] * radii).astype(np.float32)
    inside = (xs >= 0) & (xs <= width - 1) & (ys >= 0) & (ys <= height - 1)
    samples = cv2.remap(lab, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # the table: what the rays meet last, near the boards
    table = np.median(samples[:, -run:].reshape(-1, 3), axis=0)
    least, share, spreads = ALIKE
    alike = max(least, share * float(np.linalg.norm(table - colour)), spreads * spread)
    gate_like = (np.linalg.norm(samples - colour, axis=2) <= alike) & inside
    # where a run of ``run`` pixels of the gate's colour starts, along each ray
    sums = np.cumsum(np.pad(gate_like, ((0, 0), (1, 0))).astype(np.int32), axis=1)
    runs = (sums[:, run:] - sums[:, :-run]) == run
    last = np.where(runs.any(axis=1), runs.shape[1] - 1 - np.argmax(runs[:, ::-1], axis=1), -1)
    ends = np.where(last >= 0, radii[np.clip(last + run - 1, 0, len(radii) - 1)], 0.0)
    ran_on = float(np.mean(ends >= 0.9 * len(radii)))
    half = SMOOTHED // 2
    smoothed = np.median(np.stack([np.roll(ends, k) for k in range(-half, half + 1)]), axis=0)
    return middle + smoothed[:, None] * np.stack([np.cos(turns), np.sin(turns)], axis=1), ran_on
