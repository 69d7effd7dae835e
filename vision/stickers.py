"""Tile sticker reader: QR codes in regions of a frame, validated as untrusted input.

zxing-cpp reads first (QR only); what it leaves is tried by the attempts below, each kept only
because it was measured to add reads (`make bench` reports what each adds). Only the exact
payload form of DESIGN.md §5.3 becomes a tile; any other decoded text is a problem, logged and
never trusted.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import zxingcpp
from pyzbar.pyzbar import ZBarSymbol, decode

from companion.observations import CodeSeen, Corners, Problem, StickerPayload, parse_sticker

log = logging.getLogger(__name__)

ATTEMPTS = ("zxing", "zxing-upscale")
"""How a region is tried live: zxing-cpp on the region as it is; then, on each patch that looks
like a code but was not read, zxing-cpp on a bicubic 2x upscale, which recovers most codes
under about 3 px per module (measured: 78 -> 93 of 96 tiles at 3 px/module under strong
degradation; tests/test_sticker_reading.py, `make bench`)."""
UNSKEW = (1.4, (0, 45, 90, 135))
"""A still's patch stretched back 1.4 times (a camera tilted about 45 degrees from straight
down) along four directions, one within 22.5 degrees of any tilt's: for a code foreshortened
by a tilted camera, whose size zxing-cpp's detector misjudges ("invalid symbol size")."""
LAST_RESORT = "zbar-shrunk"
"""zbar on a whole region averaged down by 2, then by 4 and so on while its long side stays
at least ``SHRUNK_AT_LEAST`` px, when nothing else read anything there: a phone photo's code is
large, and its noise and JPEG blocks, averaged away, no longer break zbar's finder. Measured on
phone-like photos (``synthetic.qr_photos``, `make bench`)."""
SHRUNK_AT_LEAST = 500
STILL_ATTEMPTS = ATTEMPTS + ("zxing-unskew", "zbar", LAST_RESORT)
"""A still photo also tries zbar: on rendered tables it adds nothing, but on real phone photos
its finder reads codes zxing-cpp misses (5 of 137 in the issue's held-out set), and a still
can afford it (on the few unread patches only). A still in which nothing at all was read
tries zbar once more on the whole image, shrunk (``LAST_RESORT``). Before zbar, a patch is
unskewed (``UNSKEW``): four more reads of a patch cost a still little, and a live frame too
much (its p99 went from 8 to 58 ms with hands passing)."""


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


def decode_zxing(gray: np.ndarray) -> list[tuple[bytes, np.ndarray]]:
    """Raw zxing-cpp QR results in a grey image: bytes and the symbol's 4 corner points."""
    results = []
    for symbol in zxingcpp.read_barcodes(np.ascontiguousarray(gray),
                                         formats=zxingcpp.BarcodeFormat.QRCode):
        p = symbol.position
        points = np.array([(p.top_left.x, p.top_left.y), (p.top_right.x, p.top_right.y),
                           (p.bottom_right.x, p.bottom_right.y),
                           (p.bottom_left.x, p.bottom_left.y)], dtype=np.float64)
        results.append((bytes(symbol.bytes), order_clockwise(points)))
    return results


def decode_zbar(gray: np.ndarray) -> list[tuple[bytes, np.ndarray]]:
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


def read_region(gray: np.ndarray, box: Box, attempts: tuple[str, ...] = ATTEMPTS,
                markers: Sequence[np.ndarray] = ()) -> list[tuple[bytes, np.ndarray]]:
    """QR codes in one region, corners in full-image pixels.

    zxing-cpp reads the whole region; the other attempts run only on the patches that look
    like a code and hold none that was read (``unread_patches``): a region may hold several
    codes, and one easy code must not hide a hard one, but a patch read once is not read
    again. Nor is a patch around one of the table's ``markers`` (their corners in the
    image): a marker looks like a code to the patch finder, and is none.
    """
    crop = gray[box.y:box.y + box.h, box.x:box.x + box.w]
    if crop.size == 0:
        return []
    found: list[tuple[bytes, np.ndarray]] = []
    if "zxing" in attempts:
        found += decode_zxing(crop)
    fallbacks = [a for a in attempts if a not in ("zxing", LAST_RESORT)]
    origin = np.array([box.x, box.y], np.float64)
    known = [points for _, points in found] + [np.asarray(m) - origin for m in markers]
    patches = unread_patches(crop, known) if fallbacks else []
    for patch in patches:
        part = crop[patch.y:patch.y + patch.h, patch.x:patch.x + patch.w]
        for attempt in fallbacks:
            results = _attempt(part, attempt)
            new = [(data, points + (patch.x, patch.y)) for data, points in results]
            found += [r for r in new if not any(_same_symbol(r[1], f[1]) for f in found)]
            if results:
                break  # this patch is read
    if not found and LAST_RESORT in attempts:
        found = _attempt(crop, LAST_RESORT)
    return [(data, points + (box.x, box.y)) for data, points in found]


def _attempt(gray: np.ndarray, attempt: str) -> list[tuple[bytes, np.ndarray]]:
    if attempt == "zbar":
        return decode_zbar(gray)
    if attempt == LAST_RESORT:
        factor = 0.5
        while max(gray.shape) * factor >= SHRUNK_AT_LEAST:
            shrunk = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
            results = decode_zbar(shrunk)
            if results:
                return [(data, points / factor) for data, points in results]
            factor /= 2
        return []
    if attempt == "zxing-upscale":
        upscaled = cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        return [(data, points / 2) for data, points in decode_zxing(upscaled)]
    if attempt == "zxing-unskew":
        factor, directions = UNSKEW
        for direction in directions:
            matrix, size = _stretch(gray.shape, direction, factor)
            stretched = cv2.warpAffine(gray, matrix, size, flags=cv2.INTER_CUBIC,
                                       borderMode=cv2.BORDER_REPLICATE)
            results = decode_zxing(stretched)
            if results:
                back = cv2.invertAffineTransform(matrix)
                return [(data, order_clockwise(cv2.transform(points[None], back)[0]))
                        for data, points in results]
        return []
    raise ValueError(f"no such attempt: {attempt}")


def _stretch(shape: tuple[int, ...], direction: float, factor: float,
             ) -> tuple[np.ndarray, tuple[int, int]]:
    """The affine map that stretches an image ``factor`` times along ``direction`` (degrees),
    twice its size across (a code's modules stay over 2 px), shifted to fit whole."""
    height, width = shape[:2]
    turn = np.radians(direction)
    axis = np.array([np.cos(turn), np.sin(turn)])
    linear = 2 * (np.eye(2) + (factor - 1) * np.outer(axis, axis))
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], float) @ linear.T
    offset = -corners.min(axis=0)
    size = np.ceil(corners.max(axis=0) + offset).astype(int)
    return np.hstack([linear, offset[:, None]]), (int(size[0]), int(size[1]))


PATCH_EDGE = 48
"""Grey-level step (morphological gradient at half size) that counts as a module's edge."""
PATCH_PX = (10, 200)
"""Side of a code-like patch at half size (px): a sticker from 2 to 10 px per module, turned
or foreshortened, merged with its tile's printed name."""
PATCH_FILL = 0.25
"""The least share of a patch's box its edges fill (a turned code with its tile's name
beside it fills about 0.3)."""


def unread_patches(gray: np.ndarray, known: Sequence[np.ndarray]) -> list[Box]:
    """Squarish patches dense with sharp edges, as a QR code is, that hold the middle of none
    of the ``known`` outlines (codes read, markers), with a quiet zone's margin around
    them. Finding them costs about a millisecond per 1280x720 frame; reading a patch closely
    costs less than reading a whole frame closely."""
    small = cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    edges = cv2.morphologyEx(small, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx((edges > PATCH_EDGE).astype(np.uint8), cv2.MORPH_CLOSE,
                            np.ones((5, 5), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    height, width = gray.shape[:2]
    patches = []
    for x, y, w, h, area in stats[1:count]:
        low, high = PATCH_PX
        if not (low <= w <= high and low <= h <= high and max(w, h) < 2.2 * min(w, h)
                and area > PATCH_FILL * w * h):
            continue
        box = Box(2 * int(x), 2 * int(y), 2 * int(w), 2 * int(h))
        if any(box.contains(*points.mean(axis=0)) for points in known):
            continue
        margin = max(box.w, box.h) // 3
        patches.append(Box(box.x - margin, box.y - margin, box.w + 2 * margin,
                           box.h + 2 * margin).clip(width, height))
    return patches


def _same_symbol(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)) < 4)


@dataclass
class StickerResults:
    stickers: list[StickerRead]
    codes: list[CodeSeen]
    problems: list[Problem]


def read_stickers(gray: np.ndarray, boxes: list[Box], attempts: tuple[str, ...] = ATTEMPTS,
                  markers: Sequence[np.ndarray] = ()) -> StickerResults:
    """Read every region; merge what two overlapping regions both saw. ``markers``: the
    corners of the table's markers in view (see ``read_region``)."""
    height, width = gray.shape[:2]
    stickers: list[StickerRead] = []
    codes: list[CodeSeen] = []
    problems: list[Problem] = []
    for box in boxes:
        for data, points in read_region(gray, box.clip(width, height), attempts, markers):
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
