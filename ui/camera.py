"""The camera side of the app: frame sources opened by name, run on a worker thread.

The worker reads the table view (and the tray view, when the source has one), runs one vision
pipeline per view and keeps only the newest result; the screen takes it on its own clock. It
never touches a widget (DESIGN.md §6), and a camera that fails is retried while play goes on.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.observations import TRAY_ZONE, Observation
from vision.config import Calibration
from vision.pipeline import Pipeline
from vision.sources import FrameSource, OpenCVSource, ReplaySource, SourceError, camera_available

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
FAULT_SHOWN = 5.0
"""Seconds a frame vision failed on keeps the ``fault`` status, though frames between read:
the players see one steady notice, not one that blinks at every other frame."""


@dataclass(frozen=True)
class CameraResult:
    seen: Observation
    """Table and tray, debounced, merged."""
    frame: np.ndarray | None
    """The newest table frame, for the calibration and debug views."""
    frame_number: int
    status: str
    """``ready``; ``starting``; ``missing`` (no camera could be opened: retrying); ``lost``
    (frames stopped coming: retrying); ``fault`` (frames come, but vision failed on this one);
    ``moved`` (the view no longer fits the ring found at the start: the pieces are not read).
    The screen words it; touch entry works in every one."""
    detail: str = ""
    """What the driver said, for the log."""
    tray_frame: np.ndarray | None = None
    """The newest tray frame, when the source has a tray view (for teaching the deck)."""


class TableEyes:
    """One pipeline per view; what both see, merged: cards from the table, tiles from the tray."""

    def __init__(self, calibration: Calibration | None = None) -> None:
        calibration = calibration or Calibration()
        # the tray's close view holds no ring: its pipeline does not look for the pieces
        self.table, self.tray = Pipeline(calibration), Pipeline(replace(calibration, ring=None))
        self._tray_waiting = False
        """The tray had something to read in the last frame and was left to wait."""

    def see(self, frame: np.ndarray, tray_frame: np.ndarray | None) -> Observation:
        """Both views of one frame, sharing its time: heavy work (a card area read, a step of
        the pieces' read) is done by one view in a frame, as both in one frame made the
        slowest frames of all (the demo's p99 47 -> 30 ms). The table goes first; a tray
        left waiting goes first in the frame after."""
        if tray_frame is None:
            return self.table.process(frame).stable
        table_result = self.table.process(frame, heavy=not self._tray_waiting)
        heavy = table_result.card_area_read or table_result.pieces_step
        tray_result = self.tray.process(tray_frame, heavy=not heavy)
        self._tray_waiting = heavy and self.tray.heavy_waiting
        seen, tray = table_result.stable, tray_result.stable
        return Observation(seen.cards + tray.cards, seen.tiles + tray.tiles, seen.markers,
                           seen.problems + tray.problems, pieces=seen.pieces,
                           moving=seen.moving or tray.moving)


@dataclass
class CameraWorker:
    open_source: Callable[[], FrameSource]
    calibration: Calibration = field(default_factory=Calibration)
    fps: float = 15.0
    on_frame: Callable[[int], None] | None = None
    """Called on the worker thread after each frame (the demo director listens here)."""

    def __post_init__(self) -> None:
        self._lock_exposure = threading.Event()
        self._recalibrated: Calibration | None = None
        """A calibration made since the last frame, for the worker thread to take up."""
        self._lock = threading.Lock()
        self._latest = CameraResult(Observation(), None, 0, "starting")
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.frames = 0
        self._last_fault = ""
        self._fault_at = -math.inf

    @property
    def latest(self) -> CameraResult:
        with self._lock:
            return self._latest

    def recalibrate(self, calibration: Calibration) -> None:
        """Look with ``calibration`` from the next frame on: its homography, its zones, its
        taught deck, and the tray crop it places (taken up on the worker thread)."""
        with self._lock:
            self._recalibrated = calibration

    def lock_exposure(self) -> None:
        """Keep the camera's exposure as it is now (after calibration), on the worker thread."""
        self._lock_exposure.set()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _fault(self, error: Exception) -> str:
        """A frame vision could not look at (a calibration no check foresaw, a bug): the
        thread goes on with the next frame, play goes on by touch, the watchdog stays fed.
        Logged with its traceback once, not fifteen times a second."""
        detail = f"{type(error).__name__}: {error!s:.200}"
        self._fault_at = time.monotonic()
        if detail != self._last_fault:
            self._last_fault = detail
            log.exception("the camera's frame %d could not be looked at", self.frames)
        return detail

    def _publish(self, result: CameraResult) -> None:
        with self._lock:
            self._latest = result

    def _run(self) -> None:
        source: FrameSource | None = None
        eyes: TableEyes | None = None
        period = 1.0 / self.fps
        while not self._stop.is_set():
            started = time.monotonic()
            if source is None:
                try:
                    source = self.open_source()
                except (SourceError, OSError) as error:
                    self._publish(CameraResult(Observation(), None, self.frames, "missing",
                                               str(error)))
                    self._stop.wait(RETRY_SECONDS)
                    continue
                try:
                    self._aim_tray(source)
                except Exception:  # the tray is then read from the whole view
                    log.exception("the camera could not be aimed at the scan tray")
            with self._lock:
                recalibrated, self._recalibrated = self._recalibrated, None
            if recalibrated is not None:  # new eyes, and the camera aimed anew
                self.calibration, eyes = recalibrated, None
                try:
                    self._aim_tray(source)
                except Exception:
                    log.exception("the camera could not be aimed at the scan tray")
            if self._lock_exposure.is_set() and hasattr(source, "lock_exposure"):
                self._lock_exposure.clear()
                try:
                    source.lock_exposure()
                except Exception:  # the exposure then follows the light, as before
                    log.exception("the camera's exposure could not be locked")
            try:
                frame = source.read()
                tray_frame = getattr(source, "read_tray", lambda: None)()
            except Exception as error:  # a driver fault must not end the loop
                log.warning("camera read failed: %s", error)
                frame, tray_frame = None, None
            if frame is None:
                self._publish(CameraResult(Observation(), None, self.frames, "lost"))
                self._stop.wait(RETRY_SECONDS / 4)
                continue
            self.frames += 1
            try:
                eyes = eyes or TableEyes(self.calibration)
                seen, status, detail = eyes.see(frame, tray_frame), "ready", ""
                if eyes.table.ring_lost is not None:  # cards read still; pieces not at all
                    status, detail = "moved", eyes.table.ring_lost
                if time.monotonic() - self._fault_at < FAULT_SHOWN:
                    status, detail = "fault", self._last_fault
            except Exception as error:  # a fault in vision must not end the loop: see _fault
                seen, status, detail = Observation(), "fault", self._fault(error)
            self._publish(CameraResult(seen, frame, self.frames, status, detail,
                                       tray_frame=tray_frame))
            if self.on_frame is not None:
                try:
                    self.on_frame(self.frames)
                except Exception as error:  # the listener's fault, not the camera's
                    self._fault(error)
            self._stop.wait(max(0.0, period - (time.monotonic() - started)))
        if source is not None:
            source.close()


    def _aim_tray(self, source: FrameSource) -> None:
        """Point a camera that can crop (the Pi's) at the scan tray found at calibration."""
        set_tray = getattr(source, "set_tray", None)
        calibration = self.calibration
        if set_tray is None or calibration.image_to_table is None or not calibration.image_size:
            return
        sensor = getattr(source, "sensor_size", calibration.image_size)
        crop = tray_crop(calibration, sensor)
        if crop is not None:
            set_tray(crop)


def tray_crop(calibration: Calibration,
              sensor: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The scan tray's rectangle on the sensor, with a margin, from the calibrated view (None
    when the layout places no tray)."""
    assert calibration.image_to_table is not None and calibration.image_size is not None
    if TRAY_ZONE not in calibration.layout.zones:
        return None
    tray = np.array(calibration.layout.zones[TRAY_ZONE], dtype=np.float64)
    to_image = np.linalg.inv(calibration.image_to_table)
    points = cv2.perspectiveTransform(tray.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    scale_x = sensor[0] / calibration.image_size[0]
    scale_y = sensor[1] / calibration.image_size[1]
    x0, y0 = points.min(axis=0) * (scale_x, scale_y)
    x1, y1 = points.max(axis=0) * (scale_x, scale_y)
    margin = 0.1 * max(x1 - x0, y1 - y0)
    x0, y0 = max(0, int(x0 - margin)), max(0, int(y0 - margin))
    x1, y1 = min(sensor[0], int(x1 + margin)), min(sensor[1], int(y1 + margin))
    return (x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None  # None: off the view


def source_opener(spec: str) -> Callable[[], FrameSource] | None:
    """The source named by ``companion run --camera``: auto, picamera2, opencv:N, replay:PATH.
    ``demo`` is handled by the app (it needs a game to play). None for ``auto`` with no camera."""
    if spec == "picamera2":
        from vision.picamera import Picamera2Source
        return Picamera2Source
    if spec.startswith("opencv:"):
        index = int(spec.split(":", 1)[1])
        return lambda: OpenCVSource(index)
    if spec.startswith("replay:"):
        path = spec.split(":", 1)[1]
        return lambda: ReplaySource(path, loop=True)
    if spec == "auto":
        try:
            from vision.picamera import Picamera2Source, load_picamera2
            load_picamera2()
            return Picamera2Source
        except SourceError:
            pass
        if camera_available(0):
            return lambda: OpenCVSource(0)
        return None
    raise ValueError(f"unknown camera {spec!r} (auto, demo, picamera2, opencv:N, replay:PATH)")
