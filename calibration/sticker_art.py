"""Tile stickers as printed: a version-1 QR code at error correction Q, its 4-module quiet zone,
and the kind and id in words underneath (DESIGN.md §5.3). Encoded by segno."""

from __future__ import annotations

import cv2
import numpy as np
import segno

from companion.observations import StickerPayload
from companion.rules import TILE_NAMES

QR_VERSION = 1
QR_MODULES = 21
QUIET_MODULES = 4
STICKER_MODULES = QR_MODULES + 2 * QUIET_MODULES
"""Modules across a sticker's code, quiet zone included: the sticker size divided by this is the
module size."""
LABEL_FRACTION = 0.22
"""Height of the text band under the code, as a fraction of the code's side."""


def qr_modules(payload: str) -> np.ndarray:
    """The 21 x 21 module matrix (True = dark) of a payload, without quiet zone."""
    code = segno.make_qr(payload, error="q", version=QR_VERSION, boost_error=False)
    if code.version != QR_VERSION or code.error != "Q":
        raise ValueError(f"{payload!r} does not fit a version-1 QR code at level Q")
    matrix = np.array([list(row) for row in code.matrix], dtype=bool)
    assert matrix.shape == (QR_MODULES, QR_MODULES)
    return matrix


def draw_code(payload: str, module_px: int) -> np.ndarray:
    """The code with its quiet zone, ``module_px`` pixels per module, grey levels 0/255."""
    modules = np.pad(qr_modules(payload), QUIET_MODULES, constant_values=False)
    image = np.where(modules, 0, 255).astype(np.uint8)
    return cv2.resize(image, None, fx=module_px, fy=module_px, interpolation=cv2.INTER_NEAREST)


def label(sticker: StickerPayload) -> str:
    return f"T{sticker.tile_id:02d}  {TILE_NAMES[sticker.kind]}"


def draw_sticker(sticker: StickerPayload, module_px: int) -> np.ndarray:
    """Code, quiet zone and the words under it, as a grey image (white paper)."""
    code = draw_code(sticker.text, module_px)
    side = code.shape[0]
    band = int(round(side * LABEL_FRACTION))
    image = np.full((side + band, side), 255, dtype=np.uint8)
    image[:side] = code
    text = label(sticker)
    thickness = max(1, module_px // 3)
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, int(band * 0.45), thickness)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    scale *= min(1.0, side * 0.9 / max(tw, 1))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    cv2.putText(image, text, ((side - tw) // 2, side + (band + th) // 2 - band // 6),
                cv2.FONT_HERSHEY_SIMPLEX, scale, 0, thickness, cv2.LINE_AA)
    return image
