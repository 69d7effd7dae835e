"""Chips' edges: how many chip-sized circles the edges in and around a patch show.

A patch's outline tells chips side by side apart, but not a chip lying loosely on another
when it leans over a neighbour: the three chips then cover what two side by side do. What
does show is the upper chip's edge, a whole circle inside the patch (a rim, the step of its
thickness, its shadow on the one below). Each edge pixel votes for the middles of the circles
of a chip's radius it could lie on, either side along its gradient; every middle many votes
agree on is a chip's, whatever the chips' art.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.pieces.patches import Patch

RADII = (0.85, 0.95, 1.05)
"""The circles voted for, in chips' radii (a chip seen a little askew or blurred)."""
EDGE = 0.25
"""A pixel is an edge when its gradient is at least this share of the patch's strong edges
(its 95th percentile): the faint rim between two chips of one colour counts, noise not."""
BLUR = 12.0
"""Edges are taken after a blur of a chip's radius over this (noise and a chip's print
lines are thinner than its outline)."""
SPREAD = 0.15
"""The votes are spread by this many radii (a middle's votes scatter as the circle is not
quite one)."""
CIRCLE = 0.3
"""A middle is a chip's when its votes reach this share of the patch's likeliest middle's
(dev tables, 535 heaps on the gate whose discs counted right and 45 that counted short: 2 of
the first showed more circles than discs, 32 of the second did, among them 3 of the 6 that
were read as a wrong count)."""
APART = 0.5
"""Two chips' middles lie at least this many radii apart (a chip on another is shifted by
more than half a radius, or shows no edge of the one below)."""


def circles(bgr: np.ndarray, patch: Patch, radius: float) -> int:
    """How many circles of a chip's ``radius`` the edges in and around ``patch`` show."""
    x, y, w, h = patch.box
    margin = int(math.ceil(radius)) + 2
    height, width = bgr.shape[:2]
    left, top = max(0, x - margin), max(0, y - margin)
    right, bottom = min(width, x + w + margin), min(height, y + h + margin)
    crop = cv2.GaussianBlur(bgr[top:bottom, left:right].astype(np.float32), (0, 0),
                            max(0.7, radius / BLUR))
    across = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3)
    down = cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3)
    # an edge's strength is all three channels' (red on brown differs in hue alone), its
    # way the strongest channel's (channels may change the other way)
    strength = across ** 2 + down ** 2
    channel = np.argmax(strength, axis=2)[..., None]
    gx = np.take_along_axis(across, channel, 2)[..., 0]
    gy = np.take_along_axis(down, channel, 2)[..., 0]
    magnitude = np.sqrt(strength.sum(axis=2))
    way = np.sqrt(gx ** 2 + gy ** 2) + 1e-6
    region = np.zeros(magnitude.shape, np.uint8)
    region[y - top:y - top + h, x - left:x - left + w] = patch.mask
    region = cv2.dilate(region, np.ones((5, 5), np.uint8))  # the outline's edge lies outside
    inside = magnitude[region > 0]
    if inside.size == 0:
        return 0
    ys, xs = np.nonzero((region > 0) & (magnitude >= EDGE * np.percentile(inside, 95)))
    ux, uy = gx[ys, xs] / way[ys, xs], gy[ys, xs] / way[ys, xs]
    votes = np.zeros(magnitude.size, np.float32)
    for reach in RADII:
        for side in (-1, 1):
            cx = np.round(xs + side * reach * radius * ux).astype(np.intp)
            cy = np.round(ys + side * reach * radius * uy).astype(np.intp)
            within = (cx >= 0) & (cx < magnitude.shape[1]) & (cy >= 0) & \
                (cy < magnitude.shape[0])
            votes += np.bincount(cy[within] * magnitude.shape[1] + cx[within],
                                 minlength=magnitude.size).astype(np.float32)
    spread = cv2.GaussianBlur(votes.reshape(magnitude.shape), (0, 0),
                              max(1.0, SPREAD * radius))
    most = float(spread.max())
    if most <= 0:
        return 0
    side = max(3, int(2 * APART * radius) | 1)
    peaks = (spread >= cv2.dilate(spread, np.ones((side, side), np.uint8))) & \
        (spread >= CIRCLE * most) & (region > 0)
    py, px = np.nonzero(peaks)
    kept: list[tuple[int, int]] = []
    for k in np.argsort(-spread[py, px]):
        if all(math.hypot(px[k] - qx, py[k] - qy) >= APART * radius for qx, qy in kept):
            kept.append((int(px[k]), int(py[k])))
    return len(kept)
