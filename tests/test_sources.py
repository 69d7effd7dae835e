"""Frame sources: replay of folders and videos, a webcam that fails and comes back, the Pi
camera through a fake picamera2 (the real one exists only on Raspberry Pi OS)."""

from __future__ import annotations

import os
import struct
import sys
import types
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.picamera import Picamera2Source
from vision.sources import OpenCVSource, ReplaySource, SourceError, read_image


def frames(n, size=(64, 48)):
    return [np.full((size[1], size[0], 3), 20 * i, np.uint8) for i in range(n)]


def test_a_folder_replays_in_name_order_then_ends(tmp_path):
    for i, frame in enumerate(frames(3)):
        cv2.imwrite(str(tmp_path / f"f{i:02d}.png"), frame)
    (tmp_path / "notes.txt").write_text("not an image")
    with ReplaySource(tmp_path) as source:
        got = [source.read() for _ in range(4)]
    assert [int(g[0, 0, 0]) for g in got[:3]] == [0, 20, 40] and got[3] is None


def test_a_folder_can_loop(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), frames(1)[0])
    source = ReplaySource(tmp_path, loop=True)
    assert all(source.read() is not None for _ in range(3))


def test_a_video_replays(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for frame in frames(5):
        writer.write(frame)
    writer.release()
    with ReplaySource(path) as source:
        count = 0
        while source.read() is not None:
            count += 1
    assert count == 5


@pytest.mark.parametrize("make, message", [
    (lambda p: p / "missing", "not a folder of images or a video"),
    (lambda p: (p / "empty").mkdir() or p / "empty", "no images in this folder")])
def test_a_replay_that_cannot_open_says_why(tmp_path, make, message):
    with pytest.raises(SourceError, match=message):
        ReplaySource(make(tmp_path))


def test_read_image_names_what_is_wrong(tmp_path):
    with pytest.raises(SourceError, match="No such file"):
        read_image(tmp_path / "none.png")
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a png")
    with pytest.raises(SourceError, match="bad.png: cannot be opened as an image"):
        read_image(bad)


class FlakyCapture:
    """A webcam that works, fails (cable knocked out), then works again when reopened."""

    opened = 0

    def __init__(self, index, script):
        FlakyCapture.opened += 1
        self.script = script

    def isOpened(self):
        return self.script["plugged"]

    def set(self, *args):
        return True

    def read(self):
        if not self.script["plugged"]:
            return False, None
        return True, np.zeros((48, 64, 3), np.uint8)

    def release(self):
        pass


def test_a_webcam_that_fails_gives_none_and_is_reopened_when_back():
    script = {"plugged": True}
    FlakyCapture.opened = 0
    source = OpenCVSource(0, retry_seconds=0.0,
                          capture_factory=lambda i: FlakyCapture(i, script))
    assert source.read() is not None
    script["plugged"] = False
    assert source.read() is None and not source.connected
    assert source.read() is None
    script["plugged"] = True
    assert source.read() is not None and source.connected
    assert FlakyCapture.opened >= 2


class FakePicamera2:
    """Enough of picamera2's Picamera2 to drive the source the way the real one is driven."""

    instances: list[FakePicamera2] = []

    def __init__(self):
        self.controls = {}
        self.camera_properties = {"PixelArraySize": (4608, 2592)}
        self.camera_controls = {"AfMode": (0, 2, 0), "ScalerCrop": None}
        self.started = False
        self.fail = False
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, buffer_count):
        return {"kind": "video", **main}

    def create_still_configuration(self, main):
        return {"kind": "still", "size": self.camera_properties["PixelArraySize"], **main}

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def set_controls(self, controls):
        self.controls.update(controls)

    def capture_array(self, stream):
        if self.fail:
            raise RuntimeError("camera frontend timeout")
        w, h = self.config["size"]
        if self.controls.get("ScalerCrop", (0, 0, 4608, 2592))[2] < 4608:
            w, h = 1280, 720
        return np.zeros((h, w, 3), np.uint8)

    def switch_mode_and_capture_array(self, config, stream):
        w, h = config["size"]
        return np.zeros((h, w, 3), np.uint8)

    def capture_metadata(self):
        return {"ExposureTime": 12000, "AnalogueGain": 2.5}

    def stop(self):
        self.started = False

    def close(self):
        pass


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.instances.clear()
    return FakePicamera2


def test_the_pi_camera_streams_the_table_and_crops_the_tray(fake_picamera2):
    source = Picamera2Source()
    camera = fake_picamera2.instances[0]
    assert camera.started and camera.controls["AfMode"] == 2  # continuous autofocus
    assert source.read().shape == (720, 1280, 3)
    source.set_tray((3000, 900, 1200, 675))
    assert source.read_tray() is not None
    assert camera.controls["ScalerCrop"] == (3000, 900, 1200, 675)
    source.read()
    assert camera.controls["ScalerCrop"] == (0, 0, 4608, 2592)  # back to the whole sensor
    assert source.still().shape == (2592, 4608, 3)


def test_the_pi_camera_exposure_is_locked_after_calibration(fake_picamera2):
    source = Picamera2Source()
    source.lock_exposure()
    controls = fake_picamera2.instances[0].controls
    assert controls["AeEnable"] is False and controls["ExposureTime"] == 12000


def test_a_pi_camera_error_gives_no_frame_instead_of_raising(fake_picamera2):
    source = Picamera2Source()
    fake_picamera2.instances[0].fail = True
    assert source.read() is None


def test_without_picamera2_the_source_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(SourceError, match="apt install python3-picamera2"):
        Picamera2Source()


@pytest.mark.hardware
def test_the_real_pi_camera_gives_frames():
    pytest.importorskip("picamera2")
    with Picamera2Source() as source:
        assert source.read() is not None


def test_the_pi_camera_is_aimed_at_the_calibrated_tray_and_locked_after_calibration(
        fake_picamera2):
    import time

    from ui.camera import CameraWorker, tray_crop
    from vision.config import Calibration
    from vision.layout import default_layout
    from synthetic.scene import Scene, View, render

    scene = Scene.table()
    frame = render(scene, View.whole_table(scene.layout), seed=1)
    calibration = Calibration(default_layout(), np.linalg.inv(frame.table_to_image), (1280, 720))
    crop = tray_crop(calibration, (4608, 2592))
    x, y, w, h = crop
    tray_x = 955 / 1200 * 4608  # the tray's left edge on the sensor (the view is undistorted)
    assert x < tray_x < x + w and 0 < w < 4608 / 4 and 0 < h < 2592 / 2
    worker = CameraWorker(Picamera2Source, calibration, fps=30)
    worker.start()
    try:
        deadline = time.monotonic() + 5
        while worker.frames < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        worker.lock_exposure()
        deadline = time.monotonic() + 5
        camera = fake_picamera2.instances[0]
        while "AeEnable" not in camera.controls and time.monotonic() < deadline:
            time.sleep(0.02)
        assert camera.controls["AeEnable"] is False
        assert worker.latest.status == "ready"
    finally:
        worker.stop()


def test_a_pipe_a_device_and_a_picture_claiming_ten_billion_pixels_are_refused_by_name(tmp_path):
    pipe = tmp_path / "B1-G1.png"
    os.mkfifo(pipe)  # no writer: opening it the plain way would wait for ever
    huge = tmp_path / "huge.png"
    header = struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)
    huge.write_bytes(b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + header
                     + struct.pack(">I", zlib.crc32(b"IHDR" + header)))
    for path, message in ((pipe, "not a regular file"), (Path("/dev/zero"), "not a regular file"),
                          (huge, "cannot be opened as an image")):
        with pytest.raises(SourceError, match=message):
            read_image(path)
