"""What the reader sees of a patch: the directions its print's edges run, cell by cell.

A coordinate's number is told by its strokes' shape, whatever its colour and the light: each
patch is described by its lightness and by how strongly coloured it is (a dark number on a pale
disc shows in the first, a coloured number on a pale panel in both), as histograms of edge
directions over small cells, each 2 x 2 block of cells scaled to a unit length (a dim or
washed-out print counts as much as a crisp one). Directions keep their sign: a dark stroke on
light is not a light one on dark.

The patch's middle half is described again, by its lightness in cells half as wide: a number
printed small inside a large badge (a ring's, a hexagon's) is two cells tall in the whole
patch's cells when the badge is 16 px, too few to tell a 3 from a 1; in the middle's it is
four. (Another generator's decks, three styles: 98.9 -> 99.4 % of the coordinates at 16-24 px
named surely, the ring style's 96.9 -> 99.1 %.)
"""

from __future__ import annotations

import numpy as np
import cv2

from vision.cards.cores import side_by_side
from vision.cards.pose import PATCH

CELL = 4
"""Pixels a side of a cell (six cells across a patch)."""
BINS = 8
"""Edge directions per cell, over the full turn."""
MIDDLE = PATCH // 4
"""The middle half of a patch starts this far in from each side ..."""
MIDDLE_CELL = CELL // 2
"""... and is described in cells this wide (six across it, as the whole patch)."""
_BLOCKS = (PATCH // CELL - 1) ** 2 * 4 * BINS
SIZE = 3 * _BLOCKS
"""Length of a patch's description: the whole patch's lightness and colour, the middle's
lightness."""
CHUNK = 2048
"""Patches described at once at the most: a deck's 50 000 teaching patches described at once
raised teaching's peak memory from 1.4 to 2.0 GB; chunks are no slower, and are described
side by side, one a core (their work is OpenCV's, which lets go of the interpreter: a deck's
70 000 patches in 3.1 s rather than 5.3 here)."""


def cover_looks(patches: np.ndarray, wider: np.ndarray | None) -> np.ndarray:
    """What the cover judge is given of each coordinate: its patch's description, then its
    wider patch's (none, for a judge taught on the patch alone)."""
    if wider is None:
        return describe(patches)
    both = describe(np.concatenate([patches, wider]))  # one pass: a read's few patches
    return np.hstack([both[:len(patches)], both[len(patches):]])


def describe(patches: np.ndarray) -> np.ndarray:
    """N x PATCH x PATCH x 3 BGR patches as N x SIZE descriptions (float32)."""
    count = len(patches)
    if count == 0:
        return np.zeros((0, SIZE), np.float32)
    if count > CHUNK:  # into one array made once (not joined from pieces: twice the size)
        described = np.empty((count, SIZE), np.float32)

        def chunk(start: int) -> None:
            described[start:start + CHUNK] = describe(patches[start:start + CHUNK])
        side_by_side(chunk, range(0, count, CHUNK))
        return described
    # the patches one under another, as one image: OpenCV's per-pixel work is fastest so;
    # their lightness above their colour, each a patch's own (no edge crosses a patch's
    # border), so that a read's few patches cost one pass of calls, not two
    wide = np.ascontiguousarray(patches).reshape(count, PATCH * PATCH, 3)
    light, red, blue = cv2.split(cv2.cvtColor(wide, cv2.COLOR_BGR2YCrCb))
    both = np.empty((2 * count * PATCH, PATCH), np.float32)
    both[:count * PATCH] = light.reshape(count * PATCH, PATCH)
    np.take(_CHROMA, (red.astype(np.uint16) << 8) | blue,
            out=both[count * PATCH:].reshape(count, PATCH * PATCH))
    histogram, middle = _histograms(both, 2 * count, middles=count)
    # the lightness, the colour and the lightness's middle: six cells across each, one grid
    described = _blocks(np.concatenate([histogram, middle], axis=1), 3 * count)
    return np.ascontiguousarray(described.reshape(3, count, -1).transpose(1, 0, 2)
                                ).reshape(count, SIZE)


def _tuning() -> np.ndarray:
    """For each edge direction (256 steps of the full turn) its weight in each of the
    ``BINS`` directions: the square of the cosine between them, where positive."""
    steps = np.arange(256) * (2 * np.pi / 256)
    centres = np.arange(BINS) * (2 * np.pi / BINS)
    return (np.maximum(np.cos(steps[None, :] - centres[:, None]), 0.0) ** 2).astype(np.float32)


_TUNING = _tuning()
_CHROMA = np.hypot(*np.meshgrid(np.arange(256.0) - 128, np.arange(256.0) - 128,
                                indexing="ij")).astype(np.float32).ravel()
"""How coloured each (Cr, Cb) byte pair is (index Cr * 256 + Cb): looked up, a pixel's colour
is the same in whichever thread it is worked out. ``cv2.magnitude`` rounds a few pixels
otherwise in a thread whose arrays lie otherwise in memory, and teaching, describing its
patches on two cores, taught a deck differently each time (its reads with it: own starfield
deck, 98.1 to 99.4 % of the same tables from the same photos)."""
_ACROSS = np.array([[-1.0, 0.0, 1.0]], np.float32)


def _histograms(channel: np.ndarray, count: int, middles: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """For ``count`` patches one under another (count * PATCH x PATCH), the edge strength in
    each of the ``BINS`` directions summed over each ``CELL`` (BINS x count * cells x cells);
    and over each ``MIDDLE_CELL`` of the first ``middles`` patches' middles (BINS x middles *
    cells x cells). One direction at a time: the strengths of all eight at once are megabytes
    a read, out of the processor's cache (described so, a read's patches took a tenth
    longer)."""
    dx = cv2.filter2D(channel, -1, _ACROSS, borderType=cv2.BORDER_REPLICATE)
    dy = cv2.filter2D(channel, -1, _ACROSS.T, borderType=cv2.BORDER_REPLICATE)
    # no edge across a patch's border (a patch's neighbour in the stack is another patch)
    dx.reshape(count, PATCH, PATCH)[:, :, [0, -1]] = 0.0
    dy.reshape(count, PATCH, PATCH)[:, [0, -1], :] = 0.0
    strength, angle = cv2.cartToPolar(dx, dy)
    steps = cv2.convertScaleAbs(angle, alpha=256 / (2 * np.pi))
    cells, inner = PATCH // CELL, PATCH - 2 * MIDDLE
    middle_cells = inner // MIDDLE_CELL
    histogram = np.empty((BINS, count * cells, cells), np.float32)
    middle = np.empty((BINS, middles * middle_cells, middle_cells), np.float32)
    strengths = np.empty_like(strength)
    for k in range(BINS):
        cv2.multiply(cv2.LUT(steps, _TUNING[k]), strength, dst=strengths)
        # each cell's sum: an area resize averages cell x cell blocks
        histogram[k] = cv2.resize(strengths, (cells, count * cells),
                                  interpolation=cv2.INTER_AREA)
        if middles:
            inside = strengths[:middles * PATCH].reshape(middles, PATCH, PATCH)[
                :, MIDDLE:PATCH - MIDDLE, MIDDLE:PATCH - MIDDLE]
            middle[k] = cv2.resize(np.ascontiguousarray(inside).reshape(-1, inner),
                                   (middle_cells, middles * middle_cells),
                                   interpolation=cv2.INTER_AREA)
    return histogram, middle


def _blocks(histogram: np.ndarray, count: int) -> np.ndarray:
    """Block-normalised histograms of edge directions (``histogram``: BINS x count * cells x
    cells, each cell's sums) as count x ... descriptions."""
    cells = histogram.shape[2]
    histogram = histogram.reshape(BINS, count, cells, cells).transpose(1, 2, 3, 0)
    blocks = np.concatenate([histogram[:, :-1, :-1], histogram[:, 1:, :-1],
                             histogram[:, :-1, 1:], histogram[:, 1:, 1:]], axis=-1)
    norms = np.sqrt((blocks ** 2).sum(axis=-1, keepdims=True)) + 0.003 * PATCH
    return (blocks / norms).reshape(count, -1)
