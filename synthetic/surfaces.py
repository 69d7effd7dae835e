"""Table tops: what lies under the cards. Felt, wood, laminate, a woven cloth and a printed play
mat, light and dark, each drawn at the frame's size with its own grain (seeded)."""

from __future__ import annotations

import random

import cv2
import numpy as np

SURFACES = ("felt", "wood", "laminate", "cloth", "playmat")


KEPT = 4
"""Table tops kept once drawn: a demo table's frames draw the same one (its kind, size and
seed) for each event, at a thirtieth of a second of numpy noise each time."""
_kept: dict[tuple, tuple[np.ndarray, tuple]] = {}


def surface(kind: str, size: tuple[int, int], rng: random.Random) -> np.ndarray:
    """A BGR table top of ``size`` (width, height) pixels; ``rng`` is left as drawing it
    leaves it, whether it is drawn or one drawn before is copied (``KEPT``)."""
    key = (kind, size, rng.getstate())
    kept = _kept.get(key)
    if kept is None:
        kept = (_drawn(kind, size, rng), rng.getstate())
        if len(_kept) >= KEPT:
            _kept.pop(next(iter(_kept)))
        _kept[key] = kept
    else:
        rng.setstate(kept[1])
    return kept[0].copy()


def _drawn(kind: str, size: tuple[int, int], rng: random.Random) -> np.ndarray:
    w, h = size
    noise = np.random.default_rng(rng.randrange(2**32))
    if kind == "felt":
        base = np.array(rng.choice([(62, 84, 52), (90, 60, 40), (40, 40, 110)]), np.float32)
        coarse = noise.normal(0, 6, (h // 40 + 2, w // 40 + 2)).astype(np.float32)
        texture = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
        image = base + texture[:, :, None] + noise.normal(0, 2, (h, w, 1)).astype(np.float32)
    elif kind == "wood":
        base = np.array(rng.choice([(60, 110, 160), (40, 70, 110), (120, 170, 210)]),
                        np.float32)
        angle = rng.uniform(-0.2, 0.2)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        along = yy * np.cos(angle) + xx * np.sin(angle)
        wobble = cv2.resize(noise.normal(0, 25, (8, 8)).astype(np.float32), (w, h),
                            interpolation=cv2.INTER_CUBIC)
        grain = np.sin((along + wobble) / rng.uniform(3, 7)) * 0.5 + 0.5
        streaks = cv2.resize(noise.normal(0, 1, (h // 4 + 1, 3)).astype(np.float32), (w, h),
                             interpolation=cv2.INTER_LINEAR)
        image = base * (0.8 + 0.25 * grain[:, :, None]) + 8 * streaks[:, :, None]
        for seam in range(int(rng.uniform(0, h / 3)), h, max(60, h // 4)):
            image[seam:seam + 2] *= 0.6  # the gaps between boards
    elif kind == "laminate":
        base = np.array(rng.choice([(215, 215, 210), (180, 185, 190), (235, 230, 225)]),
                        np.float32)
        speckle = noise.normal(0, 4, (h, w, 1)).astype(np.float32)
        flecks = (noise.random((h, w, 1)) < 0.004).astype(np.float32) * -60
        image = base + speckle + flecks
    elif kind == "cloth":
        base = np.array(rng.choice([(150, 150, 160), (60, 60, 70), (170, 120, 90)]),
                        np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        weave = (np.sin(xx * 1.7) * np.sin(yy * 1.7)) * 10
        image = base + weave[:, :, None] + noise.normal(0, 5, (h, w, 1)).astype(np.float32)
    elif kind == "playmat":
        # a dark printed mat: soft colour clouds, a few printed rings and lines
        base = np.zeros((h, w, 3), np.float32)
        for channel in range(3):
            coarse = noise.uniform(10, 90, (4, 6)).astype(np.float32)
            base[:, :, channel] = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
        image = base
        for _ in range(6):
            color = tuple(float(v) for v in noise.integers(60, 200, 3))
            cv2.circle(image, (rng.randrange(w), rng.randrange(h)),
                       rng.randrange(max(8, w // 20), max(9, w // 5)), color, 2, cv2.LINE_AA)
        image += noise.normal(0, 3, (h, w, 1)).astype(np.float32)
    else:
        raise ValueError(f"unknown table surface {kind!r}")
    return np.clip(image, 0, 255).astype(np.uint8)
