"""Where the boards lie in a picture of the table, whatever their art: several ways of seeing
them, each a 0/1 mask at a small working size. No one way works on every table (pale boards
on light wood stand out by their colour; dark boards on a dark, colourful play mat only by
their straight, sharp edges), so the ring finder tries each and keeps the one showing a ring.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import cv2
import numpy as np

WORK_SIDE = 480
"""The picture is looked at with its long side shrunk to this (boards are large)."""
EDGE_BAND = 0.06
"""The part of the picture along its edge the table top is learned from."""
TABLE_SHADES = 4
"""Shades the table top is learned as (grain, a cloth's weave); one of less than
``TABLE_SHARE`` of the edge (a corner marker) is none of the table's."""
TABLE_SHARE = 0.08
LEAST_SPREAD = (4.0, 2.0, 2.0)
"""The least spread (Lab) a table shade is taken to have: a flat felt is not noise-free."""
STANDING_OUT = (2.0, 1.4, 3.0)
"""How far, against the edge's own pixels (their 90th percentile), a pixel must lie from the
table's shades to be a board's: one way of seeing per factor."""
GROUND_AROUND = (1.4, 2.2)
"""The tapped board's ground is sampled this many radii of its art from the tap (its art:
what the first way of seeing, by colour, finds there) ..."""
GROUND_REACH = 3.0
"""... and a pixel lies on a board of that ground within this many of its spreads (Lab, as
the table's shades are judged). Tried last, where no other way shows a ring: dev tables
8000-8059, 8300-8359 and 8400-8459, rings found 171 -> 174 of 180 (8000, 8009, 8422, each
planet named on its own board, read with nothing wrong); 8100-8299 straight down and
9700-9819 at 15-30 degrees, none more (the same 13 not found), none named wrong. Where it
fails, the ground runs into a mat of its shade (8016) or the boards are pale (8350)."""
EDGE_WAYS = ((0, 40, 100, 3, 5), (5, 30, 80, 3, 5), (5, 20, 60, 5, 9))
"""Edge ways of seeing: median blur (0: a light Gaussian), Canny's two levels, how far edges
are thickened to close a board's outline, and the opening that removes thin lines left."""


def working_scale(shape: tuple[int, ...]) -> float:
    return min(1.0, WORK_SIDE / max(shape[:2]))


def board_masks(bgr: np.ndarray) -> Iterator[tuple[str, np.ndarray]]:
    """Each way of seeing the boards: its name and its mask at ``working_scale``."""
    small = _working(bgr)
    distance, edge_distance = _from_table(_table_lab(small))
    for factor in STANDING_OUT:
        yield f"colour x{factor}", _standing_out(distance, edge_distance, factor)
    for way in EDGE_WAYS:
        yield f"edges {way}", _enclosed(small, *way)


def ground_mask(bgr: np.ndarray, tap: tuple[float, float]) -> np.ndarray | None:
    """A last way of seeing, at ``working_scale``: the boards of the tapped board's own ground
    (boards are printed alike). On a busy play mat a dark board's edge is lost where the mat
    is as dark, and the colour ways see only the planets' art; but around the tapped planet's
    art lies its board's ground. None where the tap is on no art the colour way sees."""
    scale = working_scale(bgr.shape)
    small = _working(bgr)
    height, width = small.shape[:2]
    x, y = min(int(tap[0] * scale), width - 1), min(int(tap[1] * scale), height - 1)
    lab = _table_lab(small)
    _, labels = cv2.connectedComponents(_standing_out(*_from_table(lab), STANDING_OUT[0]))
    if labels[y, x] == 0:
        return None
    radius = math.sqrt(float((labels == labels[y, x]).sum()) / math.pi)
    ys, xs = np.mgrid[0:height, 0:width]
    apart = np.hypot(xs - x, ys - y)
    around = (apart >= GROUND_AROUND[0] * radius) & (apart <= GROUND_AROUND[1] * radius)
    samples = lab[around]
    if len(samples) == 0:
        return None
    middle = np.median(samples, axis=0)
    spread = np.maximum(1.4826 * np.median(np.abs(samples - middle), axis=0), LEAST_SPREAD)
    near = np.sqrt((((lab - middle) / spread) ** 2).sum(axis=2)) < GROUND_REACH
    return _solid(near.astype(np.uint8))


def _working(bgr: np.ndarray) -> np.ndarray:
    """The picture at ``working_scale``."""
    scale = working_scale(bgr.shape)
    return cv2.resize(bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else bgr


def _standing_out(distance: np.ndarray, edge_distance: np.ndarray, factor: float
                  ) -> np.ndarray:
    """The colour way of seeing at ``factor`` (``STANDING_OUT``): what lies that far from the
    table's shades, against the picture's edge, made solid."""
    level = max(3.0, factor * float(np.percentile(edge_distance, 90)))
    return _solid((distance > level).astype(np.uint8))


def _table_lab(small: np.ndarray) -> np.ndarray:
    """The working picture in Lab (float), its print's speckle smoothed away, as the boards'
    and the table's shades are told apart."""
    return cv2.cvtColor(cv2.medianBlur(small, 5), cv2.COLOR_BGR2LAB).astype(np.float32)


def _from_table(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's distance (``lab``: ``_table_lab``) from the table's shades (in their own
    spreads), and the same for the pixels along the picture's edge, where the table mostly
    shows."""
    height, width = lab.shape[:2]
    band = max(2, int(EDGE_BAND * min(height, width)))
    edge = np.zeros((height, width), bool)
    edge[:band] = edge[-band:] = True
    edge[:, :band] = edge[:, -band:] = True
    samples = lab[edge]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(TABLE_SHADES)  # kmeans starts at random: the same photo, the same ring
    _, labels, centres = cv2.kmeans(samples, TABLE_SHADES, None, criteria, 3,
                                    cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    distances, edge_distances = [], []
    for k in range(TABLE_SHADES):
        mine = samples[labels == k]
        if len(mine) < TABLE_SHARE * len(samples):
            continue
        spread = np.maximum(mine.std(axis=0), LEAST_SPREAD)
        distances.append(np.sqrt((((lab - centres[k]) / spread) ** 2).sum(axis=2)))
        edge_distances.append(np.sqrt((((samples - centres[k]) / spread) ** 2).sum(axis=1)))
    return np.min(distances, axis=0), np.min(edge_distances, axis=0)


def _solid(mask: np.ndarray) -> np.ndarray:
    """``mask`` closed, its holes filled (a board's art inside its outline) and opened."""
    kernel = np.ones((5, 5), np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, outlines, -1, 1, -1)
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, kernel)


def _enclosed(small: np.ndarray, median: int, low: int, high: int, grow: int, opening: int
              ) -> np.ndarray:
    """What closed outlines of sharp edges enclose: everything the picture's corners cannot
    be reached from without crossing an edge, thin lines opened away."""
    smooth = cv2.medianBlur(small, median) if median else cv2.GaussianBlur(small, (3, 3), 0)
    edges = np.zeros(small.shape[:2], np.uint8)
    for channel in cv2.split(cv2.cvtColor(smooth, cv2.COLOR_BGR2LAB)):
        edges |= cv2.Canny(channel, low, high)
    edges = cv2.dilate(edges, np.ones((grow, grow), np.uint8))
    height, width = edges.shape
    seen = np.zeros((height + 2, width + 2), np.uint8)
    for x, y in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)):
        if edges[y, x] == 0:
            cv2.floodFill(edges, seen, (x, y), 128)
    enclosed = (edges != 128).astype(np.uint8)
    return cv2.morphologyEx(enclosed, cv2.MORPH_OPEN, np.ones((opening, opening), np.uint8))
