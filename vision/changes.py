"""Which regions of the frame changed: the only places worth reading.

The frame is compared with the previous one at 1/8 scale (averaging away sensor noise). A region
that changed is handed out to be read in the same frame (``settle=0``, the default: a tile laid
down is read the moment the hand has left it), or once it has been still for ``settle`` frames.
A static table costs a resize and a difference per frame, nothing more.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.stickers import Box

SCALE = 8


class ChangeTracker:
    def __init__(self, threshold: int = 14, settle: int = 0, pad: int = 24) -> None:
        self.threshold = threshold
        self.settle = settle
        self.pad = pad
        """Pixels added around a settled region so a code or card at its edge is whole."""
        self._previous: np.ndarray | None = None
        self._pending: np.ndarray | None = None
        self._still: np.ndarray | None = None

    def reset(self) -> None:
        """Forget everything: the whole frame will be read again once it is still."""
        self._previous = None

    def update(self, gray: np.ndarray) -> list[Box]:
        h, w = gray.shape
        small = cv2.resize(gray, (max(1, w // SCALE), max(1, h // SCALE)),
                           interpolation=cv2.INTER_AREA)
        if self._previous is None or self._previous.shape != small.shape:
            self._previous = small
            self._pending = np.ones(small.shape, np.uint8)
            self._still = np.zeros(small.shape, np.int32)
            return []
        assert self._pending is not None and self._still is not None
        moving = (cv2.absdiff(small, self._previous) > self.threshold).astype(np.uint8)
        moving = cv2.dilate(moving, np.ones((3, 3), np.uint8))
        self._previous = small
        self._pending |= moving
        self._still = np.where(moving > 0, 0, self._still + 1)
        settled = (self._pending > 0) & (self._still >= self.settle)
        if not settled.any():
            return []
        count, labels, stats, _ = cv2.connectedComponentsWithStats(settled.astype(np.uint8))
        boxes = []
        for i in range(1, count):
            x, y, bw, bh = stats[i, :4]
            region = labels == i
            if self.settle and moving[max(y - 1, 0):y + bh + 1, max(x - 1, 0):x + bw + 1].any():
                continue  # part of something still moving: wait until all of it is still
            self._pending[region] = 0
            boxes.append(Box(int(x * SCALE - self.pad), int(y * SCALE - self.pad),
                             int(bw * SCALE + 2 * self.pad), int(bh * SCALE + 2 * self.pad))
                         .clip(w, h))
        return boxes
