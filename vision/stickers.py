"""Tile sticker reader: QR codes in regions of a frame, validated as untrusted input.

zbar is asked for QR codes only (three times faster than all symbologies). Only the exact
payload form of DESIGN.md §5.3 becomes a tile; any other decoded text is a problem, logged and
never trusted.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np
from pyzbar.pyzbar import ZBarSymbol, decode

from companion.observations import CodeSeen, Corners, Problem, StickerPayload, parse_sticker

log = logging.getLogger(__name__)

ATTEMPTS = ("raw", "upscale", "upscale+otsu")
"""How a region is tried. zbar misses many codes under about
3 px per module; a bicubic 2x upscale recovers most of them, and Otsu binarisation of the
upscaled crop some of those left under glare or shadow. Each is kept because it was measured
to help (tests/test_stickers.py reports the rescues; `make bench` the read rates)."""


@dataclass(frozen=True)
class StickerRead:
    sticker: StickerPayload
    corners: Corners
    """Image pixel corners of the QR symbol, clockwise from the one nearest the image's top-left."""


@dataclass(frozen=True)
class Box:
    """A region of the frame, in image pixels."""

    x: int
    y: int
    w: int
    h: int

    def clip(self, width: int, height: int) -> Box:
        x0, y0 = max(self.x, 0), max(self.y, 0)
        x1, y1 = min(self.x + self.w, width), min(self.y + self.h, height)
        return Box(x0, y0, max(0, x1 - x0), max(0, y1 - y0))

    def overlaps(self, other: Box) -> bool:
        return (self.x < other.x + other.w and other.x < self.x + self.w
                and self.y < other.y + other.h and other.y < self.y + self.h)

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


def decode_qr(gray: np.ndarray) -> list[tuple[bytes, np.ndarray]]:
    """Raw zbar QR results in a grey image: bytes and the symbol's 4 corner points."""
    results = []
    for symbol in decode(gray, symbols=[ZBarSymbol.QRCODE]):
        points = np.array([(p.x, p.y) for p in symbol.polygon], dtype=np.float64)
        if len(points) >= 4:
            points = cv2.boxPoints(cv2.minAreaRect(points.astype(np.float32))) if len(
                points) > 4 else points
            results.append((symbol.data, order_clockwise(points)))
    return results


def order_clockwise(points: np.ndarray) -> np.ndarray:
    """Four points clockwise (in image coordinates, y down) from the one nearest the origin."""
    center = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - center[1], points[:, 0] - center[0])
    ordered = points[np.argsort(angles)]
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)


def read_region(gray: np.ndarray, box: Box,
                attempts: tuple[str, ...] = ATTEMPTS) -> list[tuple[bytes, np.ndarray]]:
    """QR codes in one region, corners in full-image pixels.

    Every attempt runs, even after one has decoded something: a region may hold several codes,
    and one easy code must not hide a hard one.
    """
    crop = gray[box.y:box.y + box.h, box.x:box.x + box.w]
    if crop.size == 0:
        return []
    found: list[tuple[bytes, np.ndarray]] = []
    upscaled: np.ndarray | None = None
    for attempt in attempts:
        if attempt == "raw":
            results = decode_qr(crop)
        else:
            if upscaled is None:
                upscaled = cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
            image = upscaled
            if attempt == "upscale+otsu":
                image = cv2.threshold(upscaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]
            results = [(data, points / 2) for data, points in decode_qr(image)]
        found += [r for r in results if not any(_same_symbol(r[1], f[1]) for f in found)]
    return [(data, points + (box.x, box.y)) for data, points in found]


def _same_symbol(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)) < 4)


@dataclass
class StickerResults:
    stickers: list[StickerRead]
    codes: list[CodeSeen]
    problems: list[Problem]


def read_stickers(gray: np.ndarray, boxes: list[Box],
                  attempts: tuple[str, ...] = ATTEMPTS) -> StickerResults:
    """Read every region; merge what two overlapping regions both saw."""
    height, width = gray.shape[:2]
    stickers: list[StickerRead] = []
    codes: list[CodeSeen] = []
    problems: list[Problem] = []
    for box in boxes:
        for data, points in read_region(gray, box.clip(width, height), attempts):
            corners = tuple((float(x), float(y)) for x, y in points)
            if any(_same_symbol(np.array(c.corners), points) for c in codes):
                continue  # the same symbol seen through two overlapping regions
            text = _text(data)
            codes.append(CodeSeen(text, corners))  # type: ignore[arg-type]
            sticker = parse_sticker(text)
            if sticker is None:
                log.info("ignored a foreign QR code: %r", text[:80])
                problems.append(Problem("foreign_code",
                                        f"a QR code that is not a tile sticker: {text[:40]!r}",
                                        corners))  # type: ignore[arg-type]
            else:
                stickers.append(StickerRead(sticker, corners))  # type: ignore[arg-type]
    return StickerResults(stickers, codes, problems)


def _text(data: bytes) -> str:
    """Decoded bytes as text; bytes that are not UTF-8 are shown escaped, never trusted."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1").encode("unicode_escape").decode("ascii")
