"""What a spot looks like, whichever way it is turned: how the reader tells a coordinate's spot
from a patch of art, a chip or a tile's border before pairing spots up.

A spot is cut square around its centre, at its own size, and described by what does not change
when it turns: rings around its centre (their lightness, colour and how much each varies), and
the directions of its edges counted round from the strongest. Teaching learns, from the spots
its views show, which descriptions are a coordinate's; the reader then pairs only spots that
may be one (a busy table's spots would otherwise pair up by the thousand).
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from vision.cards.pose import Pyramid, sample_affine
from vision.cards.spots import Spot

SIDE = 16
"""A spot's square, in pixels a side."""
SPAN = 1.5
"""The square's side over the spot's size."""
RINGS = 4
BINS = 8
SIZE = 4 * RINGS + 2 * BINS
"""Length of a spot's description."""


def describe_spots(pyramid: Pyramid, spots: list[Spot]) -> np.ndarray:
    """N x SIZE descriptions of the spots (float32)."""
    if not spots:
        return np.zeros((0, SIZE), np.float32)
    squares = np.empty((len(spots), SIDE, SIDE, 3), np.uint8)
    for k, spot in enumerate(spots):
        step = SPAN * spot.size / SIDE
        start = -SPAN * spot.size / 2 + step / 2
        squares[k] = sample_affine(pyramid, (step, 0.0, spot.x + start,
                                             0.0, step, spot.y + start), SIDE)
    lab = cv2.cvtColor(squares.reshape(len(spots), SIDE * SIDE, 3),
                       cv2.COLOR_BGR2LAB).astype(np.float32)
    light = lab[..., 0]
    colour = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    rings = _rings()
    counts = rings.sum(axis=0)
    features = []
    for channel in (light, colour):
        spread = channel.std(axis=1, keepdims=True) + 4.0
        centred = (channel - channel.mean(axis=1, keepdims=True)) / spread
        means = centred @ rings / counts
        varied = np.sqrt(np.maximum((centred ** 2) @ rings / counts - means ** 2, 0))
        features += [means, varied]
    for channel in (light, colour):
        features.append(_turning_edges(channel.reshape(len(spots), SIDE, SIDE)))
    return np.concatenate(features, axis=1).astype(np.float32)


@lru_cache(maxsize=1)
def _rings() -> np.ndarray:
    """SIDE * SIDE x RINGS: which ring round the square's middle each pixel lies in."""
    ys, xs = np.mgrid[0:SIDE, 0:SIDE] - (SIDE - 1) / 2
    radius = np.hypot(xs, ys).ravel() / (SIDE / 2)
    which = np.minimum((radius * RINGS).astype(int), RINGS - 1)
    return np.eye(RINGS, dtype=np.float32)[which]


def _turning_edges(channel: np.ndarray) -> np.ndarray:
    """Each square's edge directions (BINS, weighted by strength), counted round from the
    strongest: the same however the spot is turned."""
    count = len(channel)
    dx = np.zeros_like(channel)
    dy = np.zeros_like(channel)
    dx[:, :, 1:-1] = channel[:, :, 2:] - channel[:, :, :-2]
    dy[:, 1:-1, :] = channel[:, 2:, :] - channel[:, :-2, :]
    strength = np.hypot(dx, dy).reshape(count, -1)
    which = ((np.arctan2(dy, dx).reshape(count, -1) % (2 * math.pi))
             * (BINS / (2 * math.pi))).astype(int) % BINS
    slots = (np.arange(count)[:, None] * BINS + which).ravel()
    histogram = np.bincount(slots, strength.ravel(), count * BINS).reshape(count, BINS)
    first = np.argmax(histogram, axis=1)
    turned = histogram[np.arange(count)[:, None], (first[:, None] + np.arange(BINS)) % BINS]
    return turned / (turned.sum(axis=1, keepdims=True) + 1e-3)
