"""The calibration file vision reads (written by ``companion calibrate``): JSON, version 1.

``layout`` (markers, zones), ``table`` (the homography found at calibration, the image size, the
sizing report), ``colors`` (hues of the printed swatches under the table's light), ``cards``
(a taught card model), ``boards`` (a taught planet-board print) and ``ring`` (the jump gate, the
planets and the players' colours as a game starts, DESIGN.md §5.5). Every part is optional but
the layout; an unknown part is ignored. A cards, boards or ring part that cannot be used (taught
by an older version, damaged) leaves the rest usable and is reported in ``cards_problem``,
``boards_problem`` or ``ring_problem``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any, TypeVar

import cv2
import numpy as np

from companion.files import MEGABYTE, read_regular, write_atomically
from companion.jsontext import JSONTextError, parse_json
from companion.rules import is_whole_number
from vision.boards import BoardPrint
from vision.cards import CardModel
from vision.layout import TableLayout, default_layout
from vision.pieces import Ring

VERSION = 1
COLOR_CODES = ("B", "G", "O")
CALIBRATION_LIMIT = 16 * MEGABYTE
"""A calibrated table with a taught deck takes under half a megabyte."""


T = TypeVar("T")


class CalibrationError(ValueError):
    """The calibration file cannot be used; the message names the file and the part."""


@dataclass
class Calibration:
    layout: TableLayout = field(default_factory=default_layout)
    image_to_table: np.ndarray | None = None
    image_size: tuple[int, int] | None = None
    sizing: list[dict[str, Any]] = field(default_factory=list)
    colors: dict[str, float] | None = None
    """Measured hue of each printed colour swatch (OpenCV hue, 0-180)."""
    cards: CardModel | None = None
    """The deck as taught from the user's photos; None until it is taught."""
    cards_problem: str | None = None
    """Why a cards part in the file could not be used (the rest of the file still is)."""
    boards: BoardPrint | None = None
    """The planet boards' print as taught from the user's photos; None until it is taught."""
    boards_problem: str | None = None
    """Why a boards part in the file could not be used."""
    ring: Ring | None = None
    """The ring as found at a game's start; None until it is found."""
    ring_problem: str | None = None
    """Why a ring part in the file could not be used."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"version": VERSION, "layout": self.layout.to_json()}
        if self.image_to_table is not None and self.image_size is not None:
            data["table"] = {"image_to_table": self.image_to_table.tolist(),
                             "image_size": list(self.image_size), "sizing": self.sizing}
        if self.colors is not None:
            data["colors"] = dict(self.colors)
        if self.cards is not None:
            data["cards"] = self.cards.to_json()
        if self.boards is not None:
            data["boards"] = self.boards.to_json()
        if self.ring is not None:
            data["ring"] = self.ring.to_json()
        return data

    @classmethod
    def from_json(cls, data: Any) -> Calibration:
        version = data.get("version") if isinstance(data, dict) else None
        if not is_whole_number(version) or version != VERSION:
            raise CalibrationError(f"not a version-{VERSION} calibration file")
        part = "layout"
        try:
            calibration = cls(TableLayout.from_json(data["layout"]))
            if "table" in data:
                part = "table"
                table = data["table"]
                size = _image_size(table["image_size"])
                calibration.image_to_table = checked_image_to_table(table["image_to_table"],
                                                                    size)
                calibration.image_size = size
                calibration.sizing = list(table.get("sizing", []))
            if "colors" in data:
                part = "colors"
                colors = {str(k): float(v) for k, v in data["colors"].items()}
                if set(colors) != set(COLOR_CODES):
                    raise ValueError(f"needs a hue for each of {', '.join(COLOR_CODES)}")
                if not all(0 <= hue <= 180 for hue in colors.values()):
                    raise ValueError("a hue is an OpenCV hue, from 0 to 180")
                calibration.colors = colors
        except UNUSABLE as error:
            raise CalibrationError(f"its {part} part is unusable: {error!s:.200}") from None
        # a taught part that cannot be used leaves the table calibrated; only that part must
        # be taught again
        calibration.cards, calibration.cards_problem = _taught(
            data, "cards", CardModel.from_json, "the taught deck")
        calibration.boards, calibration.boards_problem = _taught(
            data, "boards", BoardPrint.from_json, "the taught board print")
        calibration.ring, calibration.ring_problem = _taught(
            data, "ring", Ring.from_json, "the ring")
        return calibration


UNUSABLE = (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError,
            RecursionError, cv2.error)
"""What a part of the file that is not as written raises on reading."""


def _taught(data: dict[str, Any], key: str, load: Callable[[Any], T], what: str
            ) -> tuple[T | None, str | None]:
    """A taught part of the file, or why it cannot be used."""
    if key not in data:
        return None, None
    try:
        return load(data[key]), None
    except UNUSABLE as error:
        return None, f"{what} is unusable: {error!s:.200}"


LARGEST_IMAGE = 20_000
"""Pixels along a side: no camera this table could hold makes a larger frame."""


def _image_size(raw: Any) -> tuple[int, int]:
    width, height = raw
    if not all(is_whole_number(v) and 0 < v <= LARGEST_IMAGE for v in (width, height)):
        raise ValueError(f"image_size must be a camera frame's width and height, not {raw!r:.40}")
    return int(width), int(height)


def checked_image_to_table(raw: Any, size: tuple[int, int]) -> np.ndarray:
    """The homography, if it maps the whole frame onto the table plane: every corner of the
    frame in front of the camera (one sign of w, well away from 0), and the matrix invertible,
    as the camera's view of the tray needs the way back."""
    matrix = np.array(raw, dtype=np.float64)
    if matrix.shape != (3, 3) or not np.isfinite(matrix).all():
        raise ValueError("image_to_table must be a 3x3 matrix of numbers")
    width, height = size
    corners = np.array([[0, 0, 1], [width, 0, 1], [width, height, 1], [0, height, 1]], float)
    with np.errstate(over="ignore", invalid="ignore"):
        w = corners @ matrix[2]
        scale = np.abs(matrix).max()
    if not np.isfinite(w).all() or not (np.all(w > 0) or np.all(w < 0)) \
            or np.abs(w).min() < 1e-9 * scale:
        raise ValueError("image_to_table does not map the camera's frame onto the table")
    if not np.isfinite(np.linalg.cond(matrix)) or np.linalg.cond(matrix) > 1e12:
        raise ValueError("image_to_table cannot be inverted")
    return matrix


def load_calibration(path: str | Path) -> Calibration:
    source = Path(path)
    try:
        data = parse_json(read_regular(source, CALIBRATION_LIMIT))
    except OSError as error:
        raise CalibrationError(f"{source}: cannot read it: {error.strerror}") from None
    except JSONTextError as error:
        raise CalibrationError(f"{source}: not valid JSON: {error}") from None
    try:
        return Calibration.from_json(data)
    except CalibrationError as error:
        raise CalibrationError(f"{source}: {error}") from None


def save_calibration(calibration: Calibration, path: str | Path) -> None:
    """Write atomically: a crash mid-write leaves the old file, never half a new one."""
    target = Path(path)
    write_atomically(target, (json.dumps(calibration.to_json(), indent=1) + "\n").encode())
