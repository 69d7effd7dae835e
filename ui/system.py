"""What the app tells the system and asks of it on the kiosk: systemd's readiness and watchdog
notifications, and touch input from one provider only (so one tap is one tap)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import socket
from pathlib import Path

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
"""glibc's mallopt parameters (malloc.h)."""
LARGE_BLOCK = 64 * 1024


def notify(message: str) -> bool:
    """Send a systemd notification (READY=1, WATCHDOG=1, STATUS=…) if systemd is listening.
    A plain datagram on $NOTIFY_SOCKET: no library needed, and nothing happens elsewhere."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # abstract namespace
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError:
        return False
    return True


def keep_heap_compact() -> bool:
    """Large blocks (camera frames, textures) from mmap, and freed memory given back.

    glibc raises its mmap threshold each time a large block is freed, after which frames of a
    megabyte come from the heap and fragment it: the demo table grew by 50 MB per action
    without a single leaked object. A fixed threshold stops that. False where the C library is
    not glibc (nothing to tune)."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK)) and bool(
        mallopt(M_TRIM_THRESHOLD, 4 * LARGE_BLOCK))


def kiosk_touch_config(config: object) -> None:
    """One touch provider only. Kivy's defaults add a mouse provider beside the touchscreen's
    own (probesysfs), and SDL turns touches into mouse clicks too: each tap arrived twice."""
    for option in list(config.options("input")):  # type: ignore[attr-defined]
        config.remove_option("input", option)  # type: ignore[attr-defined]
    config.set("input", "touchscreen", "probesysfs,provider=mtdev")  # type: ignore[attr-defined]
    os.environ["SDL_TOUCH_MOUSE_EVENTS"] = "0"


INPUT_DEVICES = Path("/proc/bus/input/devices")
EV_REP = 1 << 20
"""Autorepeat: what a typing keyboard has and power buttons, remotes and touchscreens lack."""


def keyboard_attached(devices: str | None = None) -> bool:
    """A typing keyboard is plugged in (from the kernel's list of input devices): then names
    are typed on it, else on Kivy's docked keyboard. Decided at start."""
    if devices is None:
        try:
            devices = INPUT_DEVICES.read_text()
        except OSError:
            return False
    for block in devices.split("\n\n"):
        handlers = ev = ""
        for line in block.splitlines():
            if line.startswith("H: Handlers="):
                handlers = line.split("=", 1)[1]
            elif line.startswith("B: EV="):
                ev = line.split("=", 1)[1]
        if "kbd" in handlers.split() and ev and int(ev, 16) & EV_REP:
            return True
    return False
