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


SDL_WINDOW_FULLSCREEN = 0x1
"""An SDL_WindowFlags (SDL_video.h). Its "maximised" flag is set by asking, whether or not
a window manager did it, so the window's place is looked at instead."""
FILLED = 0.9
"""A window inside its screen's area, of at least this part of its width and height, was
maximised by a window manager (less its title bar)."""


class _Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("w", ctypes.c_int),
                ("h", ctypes.c_int)]


def _loaded_sdl(maps: Path = Path("/proc/self/maps")) -> ctypes.CDLL | None:
    """The SDL2 library Kivy drew its window with (its own copy in a wheel, or the system's),
    as this process has it loaded."""
    try:
        lines = maps.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        path = line.split(maxsplit=5)[-1] if line.count(" ") >= 5 else ""
        if Path(path).name.startswith("libSDL2-2"):
            try:
                return ctypes.CDLL(path)
            except OSError:
                return None
    return None


def screen_area() -> tuple[int, int, int, int] | None:
    """Where the app's window should lie to fill its screen (x, y, width, height: the screen
    less any panels), when it does not fill it already: None when it does (full screen, or
    maximised by a window manager), or when SDL cannot say. Without a window manager (a
    kiosk, X alone) a window asked to be maximised keeps SDL's default size, centred, so on
    an 800x480 screen its bottom row lies off screen."""
    sdl = _loaded_sdl()
    if sdl is None:
        return None
    try:
        sdl.SDL_GL_GetCurrentWindow.restype = ctypes.c_void_p
        window = sdl.SDL_GL_GetCurrentWindow()
        if not window:
            return None
        sdl.SDL_GetWindowFlags.argtypes = [ctypes.c_void_p]
        sdl.SDL_GetWindowFlags.restype = ctypes.c_uint32
        if sdl.SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN:
            return None
        sdl.SDL_GetWindowDisplayIndex.argtypes = [ctypes.c_void_p]
        display = sdl.SDL_GetWindowDisplayIndex(window)
        area = _Rect()
        if display < 0 or sdl.SDL_GetDisplayUsableBounds(display, ctypes.byref(area)) != 0:
            return None
        place = [ctypes.c_int() for _ in range(4)]
        for function in (sdl.SDL_GetWindowPosition, sdl.SDL_GetWindowSize):
            function.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        sdl.SDL_GetWindowPosition(window, ctypes.byref(place[0]), ctypes.byref(place[1]))
        sdl.SDL_GetWindowSize(window, ctypes.byref(place[2]), ctypes.byref(place[3]))
    except AttributeError:  # an SDL older than 2.0.5
        return None
    if area.w <= 0 or area.h <= 0:
        return None
    x, y, width, height = (value.value for value in place)
    inside = x >= area.x and y >= area.y and x + width <= area.x + area.w and \
        y + height <= area.y + area.h
    if inside and width >= FILLED * area.w and height >= FILLED * area.h:
        return None
    return (area.x, area.y, area.w, area.h)
