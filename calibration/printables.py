"""Printable sheets: the 64 tile stickers, and the ArUco markers with colour swatches.

Pages are drawn as images at a fixed resolution and saved as PDF by Pillow: sticker pages are
bilevel (stored losslessly, CCITT), so every QR module prints as a crisp square. Print at 100 %
(no "fit to page"): each sheet carries a 50 mm bar to check the scale.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from companion.box import BoxProfile
from companion.observations import StickerPayload
from calibration.sticker_art import STICKER_MODULES, draw_sticker
from vision.layout import ARUCO_DICTIONARY, TableLayout

SWATCH_INKS = {"B": (190, 95, 20), "G": (60, 150, 35), "O": (20, 125, 240)}
"""The colour patches printed beside the scan tray (BGR): calibration measures how the
table's light shows them."""

DPI = 600
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 10.0
GAP_MM = 4.0
DEFAULT_STICKER_MM = 25.0
MIN_STICKER_MM = 12.0
MAX_STICKER_MM = 60.0


def mm(value: float) -> int:
    return int(round(value * DPI / 25.4))


STICKER_DEAL = 64
"""The seed of the fixed order in which sticker numbers are dealt to the box's tiles."""


def stickers_for(box: BoxProfile) -> list[StickerPayload]:
    """The box's stickers, numbered 1-64 in number order (the printed sheet is the
    reference). The numbers are dealt to the tiles in a fixed shuffled order, not by kind:
    the screen names a tile by its number while its kind is hidden (a scanned tile's), and
    numbers 43-48 must not say "medal"."""
    kinds = [kind for kind, count in box.tiles.items() for _ in range(count)]
    numbers = list(range(1, len(kinds) + 1))
    random.Random(STICKER_DEAL).shuffle(numbers)
    return sorted((StickerPayload(number, kind) for number, kind in zip(numbers, kinds)),
                  key=lambda sticker: sticker.tile_id)


@dataclass(frozen=True)
class StickerSheet:
    pages: int
    module_mm: float
    """The printed module size (whole device pixels per module, so a little under the ask)."""
    sticker_mm: float


def print_stickers(box: BoxProfile, out: str | Path, size_mm: float = DEFAULT_STICKER_MM,
                   paper: str = "a4") -> StickerSheet:
    if not MIN_STICKER_MM <= size_mm <= MAX_STICKER_MM:
        raise ValueError(f"sticker size must be {MIN_STICKER_MM:g}-{MAX_STICKER_MM:g} mm")
    module_px = max(2, int(size_mm / STICKER_MODULES * DPI / 25.4))
    stickers = [draw_sticker(s, module_px) for s in stickers_for(box)]
    cell_w = stickers[0].shape[1] + mm(GAP_MM)
    cell_h = stickers[0].shape[0] + mm(GAP_MM)
    page_w, page_h = (mm(v) for v in PAPERS[paper])
    top = mm(MARGIN_MM + 14)  # room for the heading and the scale bar
    columns = max(1, (page_w - 2 * mm(MARGIN_MM)) // cell_w)
    rows = max(1, (page_h - top - mm(MARGIN_MM)) // cell_h)
    per_page = columns * rows
    pages = []
    for first in range(0, len(stickers), per_page):
        page = _page(page_w, page_h)
        sticker_mm = module_px * STICKER_MODULES * 25.4 / DPI
        _heading(page, f"Space Mission tile stickers {first + 1}-"
                       f"{min(first + per_page, len(stickers))} of {len(stickers)}, "
                       f"code {sticker_mm:.1f} mm - print at 100 %")
        for k, art in enumerate(stickers[first:first + per_page]):
            x = mm(MARGIN_MM) + (k % columns) * cell_w
            y = top + (k // columns) * cell_h
            page[y:y + art.shape[0], x:x + art.shape[1]] = art
            _cut_marks(page, x - mm(GAP_MM) // 2, y - mm(GAP_MM) // 2, cell_w, cell_h)
        pages.append(Image.fromarray(page).convert("1"))
    _save(pages, out)
    module_mm = module_px * 25.4 / DPI
    return StickerSheet(len(pages), module_mm, module_mm * STICKER_MODULES)


def print_markers(layout: TableLayout, out: str | Path, paper: str = "a4") -> int:
    """One page per marker size group: table corners, then the scan tray with the swatches."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    page_w, page_h = (mm(v) for v in PAPERS[paper])
    names = {0: "table top-left", 1: "table top-right", 2: "table bottom-right",
             3: "table bottom-left", 4: "tray top-left", 5: "tray top-right",
             6: "tray bottom-right", 7: "tray bottom-left"}
    groups = [[m for m in layout.markers if m.marker_id < 4],
              [m for m in layout.markers if m.marker_id >= 4]]
    pages = []
    for index, group in enumerate(groups):
        page = cv2.cvtColor(_page(page_w, page_h), cv2.COLOR_GRAY2RGB)
        _heading(page, "Space Mission table markers - print at 100 %, cut on the grey lines")
        x, y = mm(MARGIN_MM), mm(MARGIN_MM + 16)
        for marker in group:
            side = mm(marker.size)
            code = cv2.aruco.generateImageMarker(dictionary, marker.marker_id, side)
            cell = side + mm(16)
            if x + cell > page_w - mm(MARGIN_MM):
                x, y = mm(MARGIN_MM), y + cell + mm(12)
            page[y:y + side, x:x + side] = code[:, :, None]
            _cut_marks(page, x - mm(6), y - mm(6), side + mm(12), side + mm(12))
            _text(page, f"{marker.marker_id}: {names.get(marker.marker_id, '')}",
                  (x, y + side + mm(10)), mm(3.2))
            x += cell + mm(6)
        if index == 1:
            y += mm(45)
            _text(page, "colour swatches (lay them beside the tray, as calibrated):",
                  (mm(MARGIN_MM), y), mm(3.2))
            for k, (color, polygon) in enumerate(layout.swatches.items()):
                xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
                w, h = mm(max(xs) - min(xs)), mm(max(ys) - min(ys))
                sx, sy = mm(MARGIN_MM) + k * (w + mm(10)), y + mm(6)
                b, g, r = SWATCH_INKS[color]
                page[sy:sy + h, sx:sx + w] = (r, g, b)
                _cut_marks(page, sx, sy, w, h)
        pages.append(Image.fromarray(page))
    _save(pages, out)
    return len(pages)


def _page(width: int, height: int) -> np.ndarray:
    page = np.full((height, width), 255, dtype=np.uint8)
    bar_y = mm(MARGIN_MM + 9)
    cv2.rectangle(page, (mm(MARGIN_MM), bar_y), (mm(MARGIN_MM + 50), bar_y + mm(1.2)), 0, -1)
    _text(page, "50 mm", (mm(MARGIN_MM + 52), bar_y + mm(1.5)), mm(2.5))
    return page


def _heading(page: np.ndarray, text: str) -> None:
    _text(page, text, (mm(MARGIN_MM), mm(MARGIN_MM + 4)), mm(3.5))


def _text(page: np.ndarray, text: str, origin: tuple[int, int], height: int) -> None:
    thickness = max(1, height // 12)
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, height, thickness)
    color = 0 if page.ndim == 2 else (0, 0, 0)
    cv2.putText(page, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, color, thickness,
                cv2.LINE_AA)


def _cut_marks(page: np.ndarray, x: int, y: int, w: int, h: int) -> None:
    """Short corner ticks: guides for scissors that never touch a code's quiet zone."""
    tick = mm(2.5)
    color = 96 if page.ndim == 2 else (150, 150, 150)
    for cx, cy, dx, dy in ((x, y, 1, 1), (x + w, y, -1, 1), (x + w, y + h, -1, -1),
                           (x, y + h, 1, -1)):
        cv2.line(page, (cx, cy), (cx + dx * tick, cy), color, max(1, mm(0.2)))
        cv2.line(page, (cx, cy), (cx, cy + dy * tick), color, max(1, mm(0.2)))


def _save(pages: list[Image.Image], out: str | Path) -> None:
    first, rest = pages[0], pages[1:]
    options = {} if first.mode == "1" else {"quality": 95}  # bilevel pages are lossless
    first.save(out, "PDF", resolution=DPI, save_all=True, append_images=rest, **options)
