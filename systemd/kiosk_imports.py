"""Run by the kiosk venv's python after install: the app's libraries import together, with
apt's numpy (the one apt's picamera2 stack was built for), not a numpy pip put in the venv.

Prints each library's version and where numpy came from as one JSON line; exits 1 naming what
failed. picamera2 is checked when apt installed it (Raspberry Pi OS).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys

APT_SITE = "/usr/lib/python3/dist-packages"
"""Where Debian's python3-* packages live."""
LIBRARIES = ("numpy", "cv2", "kivy", "zxingcpp", "pyzbar.pyzbar", "segno", "PIL")


def check() -> tuple[dict[str, str], list[str]]:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    versions: dict[str, str] = {}
    problems: list[str] = []
    names = list(LIBRARIES)
    if importlib.util.find_spec("picamera2") is not None:
        names.append("picamera2")
    for name in names:
        try:
            module = importlib.import_module(name)
        except Exception as error:  # any failure to import is what this check reports
            problems.append(f"{name}: {type(error).__name__}: {error}")
            continue
        versions[name] = str(getattr(module, "__version__", "") or "imported")
    import numpy
    versions["numpy_from"] = os.path.dirname(os.path.dirname(numpy.__file__))
    if not numpy.__file__.startswith(APT_SITE):
        problems.append(f"numpy comes from {numpy.__file__}, not apt's {APT_SITE}")
    return versions, problems


def main() -> int:
    try:
        versions, problems = check()
    except ImportError as error:  # numpy itself missing
        print(f"kiosk imports: {error}", file=sys.stderr)
        return 1
    print(json.dumps(versions, sort_keys=True))
    for problem in problems:
        print(f"kiosk imports: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
