"""Frame sources behind one interface: the Pi camera, an OpenCV camera, a replay, the synthetic
table. ``read`` returns a BGR frame, or None when the camera has nothing to give right now; a
source never raises for a bad frame, so a camera failure never stops manual play.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.files import MEGABYTE, read_regular

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".mjpeg", ".webm")


class SourceError(OSError):
    """A source that cannot be opened at all (no such camera, file or folder)."""


MAX_IMAGE_BYTES = 64 * MEGABYTE
"""An image file larger than this is no photo (a phone's are a few megabytes)."""


def read_image(path: str | Path) -> np.ndarray:
    """A BGR image from a file, or ``SourceError`` naming it. Only a regular file is read,
    and only up to ``MAX_IMAGE_BYTES`` (a pipe or a device would be read for ever)."""
    try:
        data = np.frombuffer(read_regular(path, MAX_IMAGE_BYTES), np.uint8)
    except OSError as error:
        raise SourceError(f"{path}: {error.strerror or error}") from None
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error:  # a header claiming more pixels than OPENCV_IO_MAX_IMAGE_PIXELS
        image = None
    if image is None:
        raise SourceError(f"{path}: cannot be opened as an image")
    return image


class FrameSource(Protocol):
    name: str

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class _Closing:
    name = "source"

    def close(self) -> None:
        pass

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ReplaySource(_Closing):
    """Frames from a folder of images (in name order) or a video file."""

    def __init__(self, path: str | Path, loop: bool = False) -> None:
        self.path = Path(path)
        self.loop = loop
        self.name = f"replay:{self.path}"
        self._capture: cv2.VideoCapture | None = None
        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir()
                                 if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise SourceError(f"{self.path}: no images in this folder")
            self._index = 0
        elif self.path.suffix.lower() in VIDEO_SUFFIXES and self.path.is_file():
            self._capture = cv2.VideoCapture(str(self.path))
            if not self._capture.isOpened():
                raise SourceError(f"{self.path}: cannot be opened as a video")
        else:
            raise SourceError(f"{self.path}: not a folder of images or a video file")

    def read(self) -> np.ndarray | None:
        if self._capture is not None:
            ok, frame = self._capture.read()
            if not ok and self.loop:
                self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._capture.read()
            return frame if ok else None
        if self._index >= len(self._files):
            if not self.loop:
                return None
            self._index = 0
        path = self._files[self._index]
        self._index += 1
        try:
            return read_image(path)
        except SourceError as error:
            log.warning("skipping %s", error)
            return None

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()


class OpenCVSource(_Closing):
    """A webcam through OpenCV, one frame buffered (always the newest), reopened after
    failures so an unplugged camera comes back by itself."""

    def __init__(self, index: int = 0, size: tuple[int, int] = (1280, 720),
                 retry_seconds: float = 1.0,
                 capture_factory: Callable[[int], Any] = cv2.VideoCapture) -> None:
        self.index, self.size, self.retry_seconds = index, size, retry_seconds
        self.name = f"opencv:{index}"
        self._factory = capture_factory
        self._capture: Any = None
        self._next_try = 0.0
        self._open()

    def _open(self) -> bool:
        capture = self._factory(self.index)
        if capture is None or not capture.isOpened():
            self._next_try = time.monotonic() + self.retry_seconds
            return False
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture
        return True

    @property
    def connected(self) -> bool:
        return self._capture is not None

    def read(self) -> np.ndarray | None:
        if self._capture is None:
            if time.monotonic() < self._next_try or not self._open():
                return None
        ok, frame = self._capture.read()
        if ok and frame is not None:
            return frame
        log.warning("%s gave no frame; reopening", self.name)
        self._capture.release()
        self._capture = None
        self._next_try = time.monotonic() + self.retry_seconds
        return None

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def camera_available(index: int = 0) -> bool:
    capture = cv2.VideoCapture(index)
    try:
        return bool(capture.isOpened()) and bool(capture.read()[0])
    finally:
        capture.release()


class IteratorSource(_Closing):
    """Frames from any iterator (the synthetic table's playback)."""

    def __init__(self, frames: Iterator[np.ndarray], name: str) -> None:
        self._frames = frames
        self.name = name

    def read(self) -> np.ndarray | None:
        return next(self._frames, None)
