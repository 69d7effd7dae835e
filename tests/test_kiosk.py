"""On the Pi: the kiosk unit (checked by systemd-analyze), the watchdog, touch, and faults
survived: the camera unplugged and back, a full disk, a read-only disk."""

from __future__ import annotations

import dataclasses
import errno
import logging
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from companion.library import Library
from companion.rules import Jump, TopUp, parse_event
from tests.conftest import setup_json
from ui.camera import CameraWorker, TableEyes
from ui.session import Session
from ui.system import notify
from synthetic.pieces import ring_shoot
from synthetic.teaching import demo_calibration
from vision.config import Calibration, load_calibration
from vision.pieces import find_ring
from vision.sources import SourceError

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "space-mission-companion.service"
needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed")


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


@needs_systemd
def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    # verify checks that ExecStart exists: point it at this checkout's installed command
    command = Path(sys.executable).with_name("companion")
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text().replace(
        "/opt/space-mission-companion/.venv/bin/companion", str(command)))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                            text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if UNIT.name in line]
    assert result.returncode == 0 and problems == [], result.stderr


@needs_systemd
def test_the_unit_exposure_is_at_most_2():
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", str(UNIT)],
                            capture_output=True, text=True)
    level = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout)
    assert level is not None, result.stdout[-500:] + result.stderr
    assert float(level.group(1)) <= 2.0


def test_the_unit_restarts_keeps_state_and_runs_unprivileged():
    unit = unit_settings()
    assert unit["Restart"] == ["on-failure"] and unit["StartLimitBurst"] == ["5"]
    assert unit["StateDirectory"] == unit["ConfigurationDirectory"] == ["space-mission-companion"]
    assert unit["User"] == ["companion"] and unit["Type"] == ["notify"]
    assert unit["WatchdogSec"] == ["30"]
    for key, value in (("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"),
                       ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
                       ("PrivateNetwork", "yes"), ("DevicePolicy", "closed")):
        assert unit[key] == [value], key
    allowed = " ".join(unit["DeviceAllow"])
    for device in ("/dev/dri", "char-video4linux", "char-media", "/dev/dma_heap", "char-input"):
        assert device in allowed


def test_the_app_listens_on_no_network_port():
    sources = [p.read_text() for folder in ("companion", "vision", "calibration", "ui")
               for p in (ROOT / folder).glob("*.py")]
    assert not any(re.search(r"\.listen\(|SOCK_STREAM|AF_INET", text) for text in sources)


def test_notify_reaches_systemd_on_its_socket(tmp_path, monkeypatch):
    path = tmp_path / "notify"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    assert notify("WATCHDOG=1")
    assert server.recv(64) == b"WATCHDOG=1"
    server.close()
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert notify("READY=1") is False  # not under systemd: nothing happens


def test_kiosk_touch_has_one_provider_only():
    code = ("import os; os.environ['KIVY_NO_ARGS']='1'\n"
            "from kivy.config import Config\n"
            "from ui.system import kiosk_touch_config\n"
            "kiosk_touch_config(Config)\n"
            "print(sorted(Config.options('input')), os.environ['SDL_TOUCH_MOUSE_EVENTS'])")
    env = dict(os.environ, KIVY_HOME=str(ROOT / ".kivy"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=ROOT)
    assert out.stdout.strip().splitlines()[-1] == "['touchscreen'] 0"


class Socket:
    """A camera whose cable can be pulled and pushed back in."""

    def __init__(self) -> None:
        self.plugged = True

    def open(self):  # type: ignore[no-untyped-def]
        if not self.plugged:
            raise SourceError("no camera")
        return self

    name = "test camera"

    def read(self):  # type: ignore[no-untyped-def]
        return np.full((120, 160, 3), 90, np.uint8) if self.plugged else None

    def close(self) -> None:
        pass


def wait_for(check, seconds: float) -> float:  # type: ignore[no-untyped-def]
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if check():
            return time.monotonic() - start
        time.sleep(0.02)
    raise AssertionError("timed out")


class Knocked:
    """A camera over a ring table, knocked 8 pixels aside while it runs, then put back."""

    name = "knocked camera"

    def __init__(self, frame: np.ndarray) -> None:
        self.frame, self.aside = frame, False

    def open(self):  # type: ignore[no-untyped-def]
        return self

    def read(self):  # type: ignore[no-untyped-def]
        return np.roll(self.frame, 8, axis=1) if self.aside else self.frame.copy()

    def close(self) -> None:
        pass


def test_a_camera_knocked_aside_says_so_on_the_banner_and_recovers_when_put_back():
    shoot = ring_shoot(8012, 2, 0.3)
    ring = find_ring(shoot.start.image, list(shoot.planets), shoot.first, list(shoot.players))
    camera = Knocked(shoot.games[0][0].image)
    worker = CameraWorker(camera.open, Calibration(ring=ring), fps=30)
    worker.start()
    try:
        wait_for(lambda: worker.latest.seen.pieces is not None, 10)
        assert worker.latest.status == "ready"
        camera.aside = True
        wait_for(lambda: worker.latest.status == "moved", 10)
        assert "the camera has moved" in worker.latest.detail
        assert worker.latest.seen.pieces is None
        camera.aside = False
        wait_for(lambda: worker.latest.status == "ready" and
                 worker.latest.seen.pieces is not None, 10)
    finally:
        worker.stop()


def test_a_camera_unplugged_shows_a_banner_and_is_back_within_two_seconds():
    camera = Socket()
    worker = CameraWorker(camera.open, fps=30)
    worker.start()
    try:
        wait_for(lambda: worker.latest.frame is not None and worker.latest.status == "ready", 3)
        camera.plugged = False
        wait_for(lambda: worker.latest.status == "lost", 3)
        frames = worker.frames
        camera.plugged = True
        back = wait_for(lambda: worker.frames > frames and worker.latest.status == "ready", 5)
        assert back < 2.0
        assert worker.alive
    finally:
        worker.stop()


def hostile_calibrations() -> dict[str, Calibration]:
    """Calibrations that no file check lets through any more, made in memory: what would
    meet the camera thread if a check were ever missed."""
    def zero_homography(c: Calibration) -> None:
        c.image_to_table, c.image_size = np.zeros((3, 3)), (160, 120)

    def endless_width(c: Calibration) -> None:
        c.layout = dataclasses.replace(c.layout, width=math.inf)
        c.image_to_table, c.image_size = np.eye(3), (160, 120)

    def empty_discard(c: Calibration) -> None:
        c.layout = dataclasses.replace(c.layout, zones={**c.layout.zones, "discard": ()})
        c.image_to_table, c.image_size = np.eye(3), (160, 120)

    made = {}
    for name, damage in (("zero homography", zero_homography),
                         ("endless width", endless_width), ("empty discard", empty_discard)):
        calibration = Calibration()
        damage(calibration)
        made[name] = calibration
    return made


@pytest.mark.parametrize("name", ["zero homography", "endless width", "empty discard"])
def test_a_calibration_vision_fails_on_never_ends_the_camera_thread(name, caplog):
    """The real pipeline on a calibration no check foresaw: a frame it fails on is logged,
    the next one is looked at, and the thread lives, so the app keeps feeding systemd's
    watchdog."""
    worker = CameraWorker(Socket().open, hostile_calibrations()[name], fps=60)
    with caplog.at_level(logging.ERROR, logger="ui.camera"):
        worker.start()
        try:
            wait_for(lambda: worker.frames >= 30, 10)
            assert worker.alive and worker.latest.frame is not None
        finally:
            worker.stop()
    faults = [r for r in caplog.records if "could not be looked at" in r.getMessage()]
    assert len(faults) <= 1  # said once, not at every frame
    if name != "endless width":  # the two that failed on the first frame before
        assert faults and faults[0].exc_info is not None


def test_a_frame_vision_fails_on_is_reported_and_the_next_looked_at(monkeypatch):
    def broken(_self, _frame, _tray):  # type: ignore[no-untyped-def]
        raise np.linalg.LinAlgError("Singular matrix")

    def listener(_frame: int) -> None:
        raise RuntimeError("the demo's director tripped")

    monkeypatch.setattr(TableEyes, "see", broken)
    worker = CameraWorker(Socket().open, fps=60, on_frame=listener)
    worker.start()
    try:
        wait_for(lambda: worker.frames >= 20, 10)
        assert worker.alive and worker.latest.status == "fault"
        assert worker.latest.detail == "LinAlgError: Singular matrix"
    finally:
        worker.stop()


def test_a_camera_that_is_not_there_at_all_leaves_touch_play_working(tmp_path):
    def missing():  # type: ignore[no-untyped-def]
        raise SourceError("no camera")
    worker = CameraWorker(missing, fps=30)
    worker.start()
    try:
        wait_for(lambda: worker.latest.status == "missing", 3)
        session = Session(Library(tmp_path))
        session.start(parse_event(setup_json(2)))
        assert session.play(Jump("Freezer"))
    finally:
        worker.stop()


def test_a_full_disk_refuses_the_action_with_a_clear_message_and_keeps_the_record(
        tmp_path, monkeypatch):
    session = Session(Library(tmp_path))
    session.start(parse_event(setup_json(2)))
    session.play(Jump("Freezer"))
    before = session.journal.path.read_bytes()

    def full(fd, data):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    refused = session.play(TopUp())
    monkeypatch.undo()
    assert not refused
    assert "No space left on device" in refused.message and "not recorded" in refused.message
    assert session.journal.path.read_bytes() == before and session.state.action == 2


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only folder")
def test_a_read_only_disk_says_so_and_starts_nothing(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    games.chmod(0o500)
    session = Session(Library(tmp_path))
    started = session.start(parse_event(setup_json(2)))
    assert not started
    assert "cannot be saved" in started.message and session.state is None


def test_a_read_only_disk_as_root_is_simulated(tmp_path, monkeypatch):
    session = Session(Library(tmp_path))
    real_open = os.open

    def read_only(path, flags, *args):  # type: ignore[no-untyped-def]
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    started = session.start(parse_event(setup_json(2)))
    assert not started
    assert "Read-only file system" in started.message and session.state is None


PI_INPUTS = """I: Bus=0018 Vendor=0000 Product=0000 Version=0000
N: Name="10-0038 generic ft5x06 (79)"
P: Phys=
S: Sysfs=/devices/platform/soc/fe205000.i2c/i2c-22/i2c-10/10-0038/input/input0
U: Uniq=
H: Handlers=mouse0 event0
B: PROP=2
B: EV=b
B: KEY=400 0 0 0 0 0 0 0 0 0 0
B: ABS=2658000 3

I: Bus=0019 Vendor=0001 Product=0001 Version=0100
N: Name="pwr_button"
P: Phys=gpio-keys/input0
S: Sysfs=/devices/platform/pwr_button/input/input1
U: Uniq=
H: Handlers=kbd event1
B: PROP=0
B: EV=3
B: KEY=10000000000000 0
"""
USB_KEYBOARD = """
I: Bus=0003 Vendor=046d Product=c31c Version=0110
N: Name="Logitech USB Keyboard"
P: Phys=usb-0000:01:00.0-1.3/input0
S: Sysfs=/devices/platform/scb/fd500000.pcie/usb1/1-1/1-1.3/1-1.3:1.0/input/input2
U: Uniq=
H: Handlers=sysrq kbd leds event2
B: PROP=0
B: EV=120013
B: KEY=1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe
B: MSC=10
B: LED=7
"""


def test_names_go_on_the_docked_keyboard_unless_a_typing_keyboard_is_plugged_in():
    from ui.system import keyboard_attached
    assert not keyboard_attached(PI_INPUTS)  # the touchscreen and the power button
    assert keyboard_attached(PI_INPUTS + USB_KEYBOARD)
    assert not keyboard_attached("")


class CroppingCamera(Socket):
    """A camera that crops to the scan tray and locks its exposure, as the Pi's does; its
    exposure lock fails, as a driver's may."""

    sensor_size = (160, 120)

    def set_tray(self, crop) -> None:  # type: ignore[no-untyped-def]
        self.crop = crop

    def lock_exposure(self) -> None:
        raise RuntimeError("the driver refused")


def seen_from_above(mm_per_pixel: float) -> Calibration:
    """A calibration of a 160x120 camera looking straight down, this many mm to a pixel."""
    calibration = Calibration()
    calibration.image_to_table, calibration.image_size = np.eye(3) * mm_per_pixel, (160, 120)
    calibration.image_to_table[2, 2] = 1.0
    return calibration


def test_a_layout_without_a_tray_and_a_failing_exposure_lock_leave_the_camera_running():
    calibration = seen_from_above(7.5)
    calibration.layout = dataclasses.replace(calibration.layout, zones={})
    camera = CroppingCamera()
    worker = CameraWorker(camera.open, calibration, fps=60)
    worker.start()
    try:
        worker.lock_exposure()
        wait_for(lambda: worker.frames >= 10, 10)
        assert worker.alive and not hasattr(camera, "crop")
    finally:
        worker.stop()


WINDOW_REPORT = """
import sys
from pathlib import Path
from ui.launch import prepare_kivy, run
prepare_kivy(Path(sys.argv[1]))
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from PIL import ImageGrab

def report(_dt):
    screen = ImageGrab.grab(xdisplay=sys.argv[2])
    print("window", Window.left, Window.top, *Window.system_size, "screen", *screen.size,
          flush=True)
    App.get_running_app().stop()

# 3 s after the first frame (under load the app takes seconds to build)
Clock.schedule_once(lambda _dt: Clock.schedule_once(report, 3), 0)
run(camera="none", home=Path(sys.argv[1]))
"""


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
@pytest.mark.parametrize("screen", [(800, 480), (1280, 800)])
def test_without_a_window_manager_the_window_takes_the_whole_screen(tmp_path, screen):
    """X alone, as on a kiosk with no window manager: a window asked to be maximised stays
    800x600, centred (at y=-60 on an 800x480 screen, its bottom bar off screen)."""
    display = f":{90 + screen[0] % 7}"
    server = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{screen[0]}x{screen[1]}x24",
                               "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    socket_path = Path(f"/tmp/.X11-unix/X{display[1:]}")
    try:
        for _ in range(100):  # the server is up when its socket is there
            if socket_path.exists() or server.poll() is not None:
                break
            time.sleep(0.05)
        env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
        env.update(DISPLAY=display, KIVY_HOME=str(tmp_path / "kivy"))
        done = subprocess.run([sys.executable, "-c", WINDOW_REPORT, str(tmp_path / "home"),
                               display], env=env, cwd=ROOT, capture_output=True, text=True,
                              timeout=120)
    finally:
        server.terminate()
        server.wait()
    line = next((line for line in done.stdout.splitlines() if line.startswith("window")),
                None)
    assert line is not None, done.stderr[-2000:]
    numbers = [int(word) for word in line.split() if word.lstrip("-").isdigit()]
    assert numbers[4:] == list(screen), line  # the X server is the size asked for
    assert numbers[:4] == [0, 0, *screen], line


TEXT_FIELD = """
import logging, sys
from pathlib import Path
from ui.launch import prepare_kivy
prepare_kivy(Path(sys.argv[1]))
logging.basicConfig(level=1, stream=sys.stdout)  # every record Kivy writes, traces too
from kivy.core.window import Window
from kivy.uix.textinput import TextInput
field = TextInput()
Window.add_widget(field)
field._ensure_clipboard()  # what a tap in a name field does first
print("clipboard", type(sys.modules["kivy.core.clipboard"].Clipboard).__name__)
"""


def test_a_text_field_used_writes_no_stack_trace_to_the_log(tmp_path):
    """Kivy probes for X cut-buffer tools (xclip, xsel) when a text field is first used; on
    a machine without them each probe logged a stack trace."""
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_HOME=str(tmp_path / "kivy"),
               PATH="/usr/bin:/bin")  # no xclip or xsel anywhere we look
    done = subprocess.run([sys.executable, "-c", TEXT_FIELD, str(tmp_path)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    log = done.stdout + done.stderr
    assert "clipboard ClipboardSDL2" in log, log[-2000:]
    assert "Traceback" not in log
    assert "Cutbuffer" not in log  # neither probed nor reported missing


def test_a_new_calibration_reaches_the_camera_at_once_tray_crop_included():
    """Calibrating again gave the app a new calibration while the camera kept looking with
    the one it was started with (its homography and tray crop) until a restart."""
    first = seen_from_above(7.5)
    camera = CroppingCamera()
    worker = CameraWorker(camera.open, first, fps=60)
    worker.start()
    try:
        wait_for(lambda: hasattr(camera, "crop"), 10)
        aimed_first = camera.crop
        second = seen_from_above(10.0)  # the table seen smaller: the tray lies elsewhere
        worker.recalibrate(second)
        seen = worker.frames
        wait_for(lambda: worker.frames >= seen + 5, 10)
        assert worker.calibration is second
        assert camera.crop != aimed_first  # aimed anew at the tray the new view places
    finally:
        worker.stop()


def test_a_new_calibration_and_a_taught_deck_are_the_camera_s_at_once_and_kept(tmp_path):
    """One calibration: the controller's, handed to the camera with every change (teaching
    once changed a copy, and calibrating left the camera on the old one until a restart)."""
    path = tmp_path / "calibration.json"
    worker = CameraWorker(lambda: None, Calibration())  # type: ignore[arg-type,return-value]
    session = Session(Library(tmp_path), calibration=worker.calibration,
                      calibration_path=path, calibration_problem="damaged", camera=worker)
    table = seen_from_above(7.5)
    done = session.recalibrate(table, "Calibrated and saved.")
    assert done and session.calibration is table and session.calibration_problem == ""
    assert worker._recalibrated is table  # taken up on the camera's next frame
    assert load_calibration(path).image_to_table is not None
    deck = demo_calibration().cards
    taught = session.teach(deck, "Taught.")
    assert taught and session.calibration.cards is deck
    assert worker._recalibrated is session.calibration
    assert session.calibration.image_to_table is not None  # the table's calibration kept
    assert load_calibration(path).cards is not None


def test_a_calibration_that_cannot_be_saved_is_used_and_the_players_are_told(tmp_path):
    session = Session(Library(tmp_path), calibration_path=tmp_path / "gone" / "cal.json")
    made = Calibration()
    outcome = session.recalibrate(made)
    assert not outcome and outcome.said.startswith("Not saved: ")
    assert session.calibration is made  # right, only not kept past a restart
