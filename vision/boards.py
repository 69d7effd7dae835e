"""Reading a planet board's printed coordinates (box set-up), the way cards are read: each
coordinate is a coloured badge with a number; a board shows one blue (jump), one green (scan)
and two orange (landing). Anything else, or any badge not clear, is unsure."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards import CardModel, badge_in, classify, is_clear

MIN_BADGE_AREA = 300


@dataclass(frozen=True)
class BoardRead:
    jump: int | None = None
    scan: int | None = None
    landing: tuple[int, int] | None = None
    reason: str = ""

    @property
    def complete(self) -> bool:
        return self.jump is not None and self.scan is not None and self.landing is not None


def read_board(bgr: np.ndarray, model: CardModel) -> BoardRead:
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    colored = ((hsv[:, :, 1] >= model.min_saturation) & (hsv[:, :, 2] >= 50)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(colored, connectivity=8)
    numbers: dict[str, list[tuple[float, int]]] = {"B": [], "G": [], "O": []}
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if area < MIN_BADGE_AREA or not 0.6 < w / max(h, 1) < 1.6:
            continue
        pad = max(2, w // 8)
        crop = bgr[max(0, y - pad):y + h + pad, max(0, x - pad):x + w + pad]
        badge = badge_in(crop, model.min_saturation)
        read = None if badge is None else classify(badge, model)
        if read is None or not is_clear(read) or read.coordinate.number is None:
            continue
        numbers[read.coordinate.color].append((float(x), read.coordinate.number))
    if len(numbers["B"]) != 1 or len(numbers["G"]) != 1 or len(numbers["O"]) != 2:
        found = ", ".join(f"{len(v)} {k}" for k, v in numbers.items())
        return BoardRead(reason=f"expected 1 blue, 1 green and 2 orange numbers; read {found}")
    landing = sorted(numbers["O"])
    return BoardRead(numbers["B"][0][1], numbers["G"][0][1], (landing[0][1], landing[1][1]))
