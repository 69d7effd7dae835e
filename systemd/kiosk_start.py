"""Start the installed app the way systemd does (Type=notify) and time it to READY=1.

`python3 kiosk_start.py /opt/space-mission-companion/.venv/bin/companion` listens on a
notification socket, starts `companion run` on the demo table at 800x480, waits until the app
says READY=1 (sent once its first frame is on screen), then stops it. Used by pi-check for a
headless start (SDL_VIDEODRIVER=offscreen) on an emulated Pi userland; prints the seconds.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time

TIMEOUT_S = 900.0
"""Under emulation a start takes minutes, not the second it takes on the Pi."""


def main(command: str) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        address = os.path.join(scratch, "notify")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(address)
        listener.settimeout(1.0)
        started = time.monotonic()
        app = subprocess.Popen([command, "run", "--camera", "demo", "--size", "800x480"],
                               env=dict(os.environ, NOTIFY_SOCKET=address),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            while time.monotonic() - started < TIMEOUT_S:
                try:
                    message = listener.recv(4096).decode(errors="replace")
                except TimeoutError:
                    if app.poll() is not None:
                        output = app.stdout.read().decode(errors="replace") if app.stdout else ""
                        print(output[-3000:])
                        print(f"the app ended (exit {app.returncode}) before READY=1")
                        return 1
                    continue
                if "READY=1" in message.split("\n"):
                    print(f"READY=1 after {time.monotonic() - started:.1f} s")
                    return 0
            print(f"no READY=1 within {TIMEOUT_S:.0f} s")
            return 1
        finally:
            app.terminate()
            try:
                app.wait(timeout=30)
            except subprocess.TimeoutExpired:
                app.kill()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
