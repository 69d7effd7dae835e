"""`companion run`: the table app."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    run = commands.add_parser(
        "run", help="start the table app (the demo table when there is no camera)",
        description="Start the touchscreen app. --camera auto takes the Pi camera, then a "
                    "webcam, then the demo table (a simulated game played on the synthetic "
                    "table through the real pipeline). A game in progress is resumed.")
    run.add_argument("--camera", default="auto", metavar="SOURCE",
                     help="auto | demo | none (touch only) | picamera2 | opencv:N | "
                          "replay:PATH (default: auto)")
    run.add_argument("--home", type=Path, metavar="DIR",
                     help="where games, box profile and calibration live (default: "
                          "$COMPANION_HOME, $STATE_DIRECTORY or ~/.local/share/...)")
    run.add_argument("--auto-confirm", action="store_true",
                     help="confirm unambiguous camera proposals without a tap")
    run.add_argument("--fullscreen", action="store_true", help="full screen (the Pi kiosk)")
    run.add_argument("--size", metavar="WxH",
                     help="window size, e.g. 800x480 (the official Pi display); without it the "
                          "window fills the screen")
    run.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ui.launch import run
    size = None
    if args.size:
        try:
            width, height = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            print(f"--size {args.size!r}: give it as WIDTHxHEIGHT, e.g. 800x480",
                  file=sys.stderr)
            return 2
        size = (width, height)
    run(args.camera, args.home, args.auto_confirm, args.fullscreen, size)
    return 0
