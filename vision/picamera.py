"""The Raspberry Pi camera through picamera2, imported only when asked for (it exists only on
Raspberry Pi OS, from apt). Two views: the whole table as a video stream, and the scan tray as a
cropped high-resolution view of the sensor; full-sensor stills on request."""

from __future__ import annotations

import importlib
import logging
from typing import Any

import numpy as np

from vision.sources import SourceError, _Closing

log = logging.getLogger(__name__)

AF_CONTINUOUS = 2
"""libcamera's AfModeEnum.Continuous (Camera Module 3 has autofocus; others ignore it)."""


def load_picamera2() -> Any:
    try:
        return importlib.import_module("picamera2").Picamera2
    except ImportError:
        raise SourceError("picamera2 is not installed (on Raspberry Pi OS: "
                          "apt install python3-picamera2)") from None


class Picamera2Source(_Closing):
    name = "picamera2"

    def __init__(self, size: tuple[int, int] = (1280, 720), camera_factory: Any = None) -> None:
        factory = camera_factory or load_picamera2()
        try:
            self.camera = factory()
            self._video = self.camera.create_video_configuration(
                main={"size": size, "format": "RGB888"}, buffer_count=2)
            self._still = self.camera.create_still_configuration(main={"format": "RGB888"})
            self.camera.configure(self._video)
            self.camera.start()
        except Exception as error:  # the library raises many kinds; all mean "no camera"
            raise SourceError(f"the Pi camera cannot be started: {error}") from None
        self.sensor_size: tuple[int, int] = tuple(  # type: ignore[assignment]
            self.camera.camera_properties.get("PixelArraySize", size))
        if "AfMode" in getattr(self.camera, "camera_controls", {}):
            self.camera.set_controls({"AfMode": AF_CONTINUOUS})
        self._tray_crop: tuple[int, int, int, int] | None = None

    def read(self) -> np.ndarray | None:
        """The whole table at video resolution ('RGB888' is B, G, R in memory: OpenCV order)."""
        try:
            return self._full_view(lambda: self.camera.capture_array("main"))
        except Exception as error:
            log.warning("Pi camera frame failed: %s", error)
            return None

    def set_tray(self, crop: tuple[int, int, int, int]) -> None:
        """The scan tray's rectangle on the sensor (x, y, width, height), from calibration."""
        self._tray_crop = crop

    def read_tray(self) -> np.ndarray | None:
        """The scan tray at the sensor's full resolution, cropped (ScalerCrop)."""
        if self._tray_crop is None:
            return None
        try:
            self.camera.set_controls({"ScalerCrop": self._tray_crop})
            return self.camera.capture_array("main")
        except Exception as error:
            log.warning("Pi camera tray frame failed: %s", error)
            return None

    def still(self) -> np.ndarray | None:
        """A full-sensor still (for reading every tile laid out at the end)."""
        try:
            return self._full_view(
                lambda: self.camera.switch_mode_and_capture_array(self._still, "main"))
        except Exception as error:
            log.warning("Pi camera still failed: %s", error)
            return None

    def lock_exposure(self) -> None:
        """Keep exposure and gain as they are now, so the colours seen at calibration hold."""
        metadata = self.camera.capture_metadata()
        self.camera.set_controls({"AeEnable": False,
                                  "ExposureTime": metadata["ExposureTime"],
                                  "AnalogueGain": metadata["AnalogueGain"]})

    def _full_view(self, capture: Any) -> np.ndarray:
        if self._tray_crop is not None:
            self.camera.set_controls({"ScalerCrop": (0, 0, *self.sensor_size)})
        return capture()

    def close(self) -> None:
        try:
            self.camera.stop()
            self.camera.close()
        except Exception as error:
            log.warning("Pi camera did not close cleanly: %s", error)
