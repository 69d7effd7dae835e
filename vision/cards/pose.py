"""Where a card lies, told by its two coordinates, and the patches the reader looks at.

A card's own frame is set by the centres of its two coordinates as the camera sees them: the
top one at (0, 0), the bottom one at (0, 1), the first axis to the right of the upright face.
The frame comes from what the reader finds (two spots), not from the card's outline, so it is
the same whatever the art, the table or a corner under another card; teaching sets it the same
way in its photos, so a patch read at the table is cut as the patches it learned from were.

Over a card the camera's view is nearly affine; the frame takes it as a turn and a scale. A
tilted camera shortens one direction more than the other: the reader learns that from its
views.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import cv2
import numpy as np

PATCH = 24
"""A coordinate's patch, in pixels a side: a coordinate 12 px tall in the camera image is
still seen whole, one 60 px tall is averaged down."""
MAX_ZOOM_OUT = 1.6
"""A patch samples an image level where it spans at most this many times its own pixels
(larger, it is taken from a level halved again: no aliasing)."""
HALVINGS = 5
"""An image is halved this many times at the most (a pyramid's last level)."""


@dataclass(frozen=True)
class Pose:
    """A card's frame in an image: face point (u, v) lies at ``top + u * across + v * step``,
    where ``across`` is ``step`` turned a quarter to the face's right."""

    top: tuple[float, float]
    """The top coordinate's centre (image pixels)."""
    step: tuple[float, float]
    """From the top coordinate's centre to the bottom one's (image pixels)."""

    @classmethod
    def between(cls, top: tuple[float, float], bottom: tuple[float, float]) -> Pose:
        return cls(top, (bottom[0] - top[0], bottom[1] - top[1]))

    @property
    def length(self) -> float:
        """The distance between the two coordinates (image pixels)."""
        return math.hypot(*self.step)

    @property
    def matrix(self) -> np.ndarray:
        """2 x 3: face (u, v, 1) to image pixels."""
        dx, dy = self.step
        return np.array([[dy, dx, self.top[0]], [-dx, dy, self.top[1]]], np.float64)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Face points (N x 2) in image pixels."""
        points = np.asarray(points, np.float64).reshape(-1, 2)
        return points @ self.matrix[:, :2].T + self.matrix[:, 2]

    def moved(self, along: float, across: float) -> Pose:
        """The pose moved whole by these parts of its length: ``along`` the line from its top
        coordinate to its bottom one, and ``across`` it (to the face's left)."""
        dx, dy = self.step
        return Pose((self.top[0] + along * dx - across * dy,
                     self.top[1] + along * dy + across * dx), self.step)

    def turned(self) -> Pose:
        """The same two coordinates, the other one taken as the top (the card half round)."""
        return Pose((self.top[0] + self.step[0], self.top[1] + self.step[1]),
                    (-self.step[0], -self.step[1]))


Affine = tuple[float, float, float, float, float, float]
"""A patch's matrix's top two rows, (a, b, c) and (d, e, f), as plain numbers."""


def patch_affine(pose: Pose, centre: tuple[float, float], side: float, turn: bool = False,
                 angle: float = 0.0) -> Affine:
    """``patch_matrix``'s top two rows, the patch turned by ``angle`` (radians) about its
    middle as by ``turned``: in plain numbers, as the live loop cuts hundreds of patches a
    frame and numpy's small arrays cost more than the cutting."""
    step = (-1.0 if turn else 1.0) * side / PATCH
    u = centre[0] + step * (0.5 - PATCH / 2)
    v = centre[1] + step * (0.5 - PATCH / 2)
    (dx, dy), (x, y) = pose.step, pose.top
    # the pose's matrix ((dy, dx, x), (-dx, dy, y)) after the patch's scale and shift
    a, b, c = dy * step, dx * step, dy * u + dx * v + x
    d, e, f = -dx * step, dy * step, -dx * u + dy * v + y
    if not angle:
        return a, b, c, d, e, f
    cos, sin, tx, ty = _about(angle)
    return (a * cos + b * sin, -a * sin + b * cos, a * tx + b * ty + c,
            d * cos + e * sin, -d * sin + e * cos, d * tx + e * ty + f)


def patch_matrix(pose: Pose, centre: tuple[float, float], side: float,
                 turn: bool = False) -> np.ndarray:
    """3 x 3: a patch's pixels (x, y) to image pixels, for the square of ``side`` (face units)
    centred on the face point ``centre``; ``turn``: the square seen half round (a coordinate
    printed upside down, as playing cards' corner indices are)."""
    a, b, c, d, e, f = patch_affine(pose, centre, side, turn)
    return np.array([[a, b, c], [d, e, f], [0.0, 0.0, 1.0]])


def on_card_only(patch: np.ndarray, matrix: np.ndarray, pose: Pose,
                 outline: np.ndarray) -> np.ndarray:
    """``patch`` (its pixels to the image's: ``matrix``) with what lies off the card made
    plain: the card's corners ``outline`` in its frame at ``pose``, the pixels past them
    the mean of those on it. What lies past a card's edge is the table, not the card."""
    inverse = np.linalg.inv(matrix)
    corners = pose.to_image(outline) @ inverse[:2, :2].T + inverse[:2, 2]
    side = patch.shape[0]
    inside = np.zeros((side, side), np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    off = inside == 0
    if not off.any() or off.all():
        return patch
    plain = patch.copy()
    plain[off] = patch[~off].mean(axis=0).astype(np.uint8)
    return plain


def turned(matrix: np.ndarray, angle: float) -> np.ndarray:
    """A patch's matrix turned by ``angle`` (radians) about the patch's middle."""
    cos, sin, tx, ty = _about(angle)
    return matrix @ np.array([[cos, -sin, tx], [sin, cos, ty], [0.0, 0.0, 1.0]])


def _about(angle: float) -> tuple[float, float, float, float]:
    """A turn by ``angle`` about a patch's middle: its cosine and sine, and the shift that
    keeps the middle where it is."""
    middle = (PATCH - 1) / 2
    c, s = math.cos(angle), math.sin(angle)
    return c, s, middle - c * middle + s * middle, middle - s * middle - c * middle


class Pyramid:
    """An image and its halvings, made as they are needed (by one thread at a time: views of
    one teaching photo are made side by side)."""

    def __init__(self, image: np.ndarray) -> None:
        self.levels = [image]
        self._making = threading.Lock()

    @classmethod
    def of_levels(cls, levels: list[np.ndarray]) -> Pyramid:
        """A pyramid whose levels are made already (the first ones, or all)."""
        pyramid = cls(levels[0])
        pyramid.levels = list(levels)
        return pyramid

    def level(self, k: int) -> np.ndarray:
        if len(self.levels) <= k:
            with self._making:
                while len(self.levels) <= k:
                    self.levels.append(cv2.pyrDown(self.levels[-1]))
        return self.levels[k]


def sample(pyramid: Pyramid, matrix: np.ndarray, side: int = PATCH) -> np.ndarray:
    """The patch (``side`` pixels a side, BGR) whose pixels ``matrix`` (3 x 3) maps to image
    pixels, taken from the level of the image where it is not shrunk by more than
    ``MAX_ZOOM_OUT``."""
    (a, b, c), (d, e, f) = matrix[0].tolist(), matrix[1].tolist()
    return sample_affine(pyramid, (a, b, c, d, e, f), side)


def level_of(spread: float) -> int:
    """The image level a patch is sampled from where each of its pixels spans ``spread``
    image pixels (a side): the first where it is not shrunk by more than ``MAX_ZOOM_OUT``."""
    level = 0
    while spread / 2 ** level > MAX_ZOOM_OUT and level < HALVINGS:
        level += 1
    return level


def sample_affine(pyramid: Pyramid, matrix: Affine, side: int = PATCH) -> np.ndarray:
    """``sample``, the matrix's top two rows given as six numbers."""
    a, b, c, d, e, f = matrix
    level = level_of(math.sqrt(abs(a * e - b * d)))
    if level:
        # a halved level's pixel k covers full pixels 2k and 2k + 1: its centre is at 2k + 0.5
        half, shift = 0.5 ** level, (2 ** level - 1) / 2
        a, b, c, d, e, f = a * half, b * half, (c - shift) * half, \
            d * half, e * half, (f - shift) * half
    return cv2.warpAffine(pyramid.level(level), np.array([[a, b, c], [d, e, f]]),
                          (side, side), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
