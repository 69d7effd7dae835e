"""Table calibration from one photo: markers, homography, zones, sizing advice, colour profile."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.config import COLOR_CODES, Calibration, checked_image_to_table
from vision.layout import TableLayout
from vision.rectify import MarkerDetector, Rectification, rectify
from calibration.sticker_art import STICKER_MODULES

MIN_PX_PER_MODULE = 3.0
"""A QR module needs about 3 camera pixels to read reliably (DESIGN.md §5.4)."""
MIN_SWATCH_SATURATION = 60


class CalibrationFailed(ValueError):
    """The photo cannot calibrate the table; the message says what to change."""


@dataclass(frozen=True)
class ZoneSizing:
    zone: str
    px_per_mm: float
    px_per_module: float
    """For the sticker size asked about."""
    min_sticker_mm: float
    """The smallest sticker (code and quiet zone) that reads here."""

    @property
    def readable(self) -> bool:
        return self.px_per_module >= MIN_PX_PER_MODULE

    def advice(self, sticker_mm: float) -> str:
        if self.readable:
            return (f"{self.zone}: {self.px_per_module:.1f} px per module with {sticker_mm:g} mm "
                    f"stickers - readable")
        closer = self.px_per_module / MIN_PX_PER_MODULE
        return (f"{self.zone}: {self.px_per_module:.1f} px per module with {sticker_mm:g} mm "
                f"stickers - too few; use stickers of at least {self.min_sticker_mm:.0f} mm, "
                f"or bring the camera to {closer:.0%} of its height, or read tiles from a "
                "full-resolution still")

    def to_json(self) -> dict[str, Any]:
        return {"zone": self.zone, "px_per_mm": round(self.px_per_mm, 3),
                "px_per_module": round(self.px_per_module, 2),
                "min_sticker_mm": round(self.min_sticker_mm, 1), "readable": self.readable}


@dataclass
class TableCalibration:
    calibration: Calibration
    rectification: Rectification
    sizing: list[ZoneSizing]
    colors_found: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def calibrate_table(image: np.ndarray, layout: TableLayout, sticker_mm: float = 25.0,
                    base: Calibration | None = None) -> TableCalibration:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    markers = MarkerDetector().detect(gray)
    rectification = rectify(markers, layout)
    if rectification is None:
        seen = ", ".join(str(m.marker_id) for m in markers) or "none"
        raise CalibrationFailed(
            f"need at least two of the table's markers in view; seen: {seen}. Lay the printed "
            "markers at the table corners and make sure the camera sees them.")
    size = (image.shape[1], image.shape[0])
    try:  # what the file would be refused for when next loaded is refused now, in words
        checked_image_to_table(rectification.image_to_table, size)
    except ValueError:
        raise CalibrationFailed(
            "the markers place the table as no camera above it sees it (is the camera "
            "looking at the horizon, or a marker moved?); aim the camera down at the table "
            "and calibrate again") from None
    calibration = base or Calibration(layout)
    calibration.layout = layout
    calibration.image_to_table = rectification.image_to_table
    calibration.image_size = size
    sizing = sizing_report(rectification, layout, sticker_mm)
    calibration.sizing = [s.to_json() for s in sizing]
    notes = []
    missing = [m.marker_id for m in layout.markers if m.marker_id not in rectification.markers_used]
    if missing:
        notes.append(f"markers not seen: {', '.join(map(str, missing))}")
    if rectification.residual_mm > 2.0:
        notes.append(f"markers disagree by {rectification.residual_mm:.1f} mm on average: "
                     "is one of them moved, or not flat?")
    colors = measure_swatches(image, rectification, layout)
    if colors is not None:
        calibration.colors = colors
    else:
        notes.append("colour swatches not found beside the tray: card colours use the defaults")
    return TableCalibration(calibration, rectification, sizing,
                            sorted(colors) if colors else [], notes)


def sizing_report(rectification: Rectification, layout: TableLayout,
                  sticker_mm: float) -> list[ZoneSizing]:
    report = []
    for zone, polygon in layout.zones.items():
        x = float(np.mean([p[0] for p in polygon]))
        y = float(np.mean([p[1] for p in polygon]))
        scale = rectification.px_per_mm(x, y)
        per_module = scale * sticker_mm / STICKER_MODULES
        report.append(ZoneSizing(zone, scale, per_module,
                                 MIN_PX_PER_MODULE * STICKER_MODULES / scale))
    return report


def measure_swatches(image: np.ndarray, rectification: Rectification,
                     layout: TableLayout) -> dict[str, float] | None:
    """The hue of each printed swatch as the camera sees it, or None if any is not visible."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    h, w = image.shape[:2]
    hues = {}
    for color in COLOR_CODES:
        polygon = layout.swatches.get(color)
        if polygon is None:
            return None
        center = np.mean(np.array(polygon), axis=0)
        inner = center + (np.array(polygon) - center) * 0.6  # away from the swatch's edges
        points = rectification.to_image(inner).astype(np.int32)
        if (points < 0).any() or (points[:, 0] >= w).any() or (points[:, 1] >= h).any():
            return None
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [points], 1)
        pixels = hsv[mask.astype(bool)]
        if len(pixels) < 10 or float(np.median(pixels[:, 1])) < MIN_SWATCH_SATURATION:
            return None
        angles = pixels[:, 0].astype(np.float64) * (np.pi / 90)
        hue = np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) / 2
        hues[color] = float(hue % 180)
    return hues
