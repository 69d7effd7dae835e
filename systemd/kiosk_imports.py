"""Run by the kiosk venv's python after install: the app's libraries import together, with
apt's numpy (the one apt's picamera2 stack was built for), not a numpy pip put in the venv.

Prints each library's version and where numpy came from as one JSON line; exits 1 naming what
failed. picamera2 is checked when apt installed it (Raspberry Pi OS).
"""

from __future__ import annotations

import importlib
import importlib.util
from importlib import metadata
import json
import os
import sys

APT_SITE = "/usr/lib/python3/dist-packages"
"""Where Debian's python3-* packages live."""
LIBRARIES = {"numpy": "numpy", "cv2": "opencv-python-headless", "kivy": "Kivy",
             "zxingcpp": "zxing-cpp", "pyzbar.pyzbar": "pyzbar", "segno": "segno",
             "PIL": "pillow", "picamera2": "picamera2"}
"""Each module the app imports, and the distribution whose version is reported."""


def check() -> tuple[dict[str, str], list[str]]:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # Kivy leaves stderr alone
    versions: dict[str, str] = {}
    problems: list[str] = []
    for name, distribution in LIBRARIES.items():
        if name == "picamera2" and importlib.util.find_spec(name) is None:
            continue  # only Raspberry Pi OS's archive has it
        try:
            module = importlib.import_module(name)
        except Exception as error:  # any failure to import is what this check reports
            problems.append(f"{name}: {type(error).__name__}: {error}")
            continue
        try:
            versions[distribution] = metadata.version(distribution)
        except metadata.PackageNotFoundError:  # apt's packages carry no pip metadata
            versions[distribution] = str(getattr(module, "__version__", "imported"))
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
