"""What the app tells the system and asks of it on the kiosk: systemd's readiness and watchdog
notifications, and touch input from one provider only (so one tap is one tap)."""

from __future__ import annotations

import os
import socket


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


def kiosk_touch_config(config: object) -> None:
    """One touch provider only. Kivy's defaults add a mouse provider beside the touchscreen's
    own (probesysfs), and SDL turns touches into mouse clicks too: each tap arrived twice."""
    for option in list(config.options("input")):  # type: ignore[attr-defined]
        config.remove_option("input", option)  # type: ignore[attr-defined]
    config.set("input", "touchscreen", "probesysfs,provider=mtdev")  # type: ignore[attr-defined]
    os.environ["SDL_TOUCH_MOUSE_EVENTS"] = "0"
