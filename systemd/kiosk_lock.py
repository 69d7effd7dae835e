"""Write the kiosk's lock files (`python3 systemd/kiosk_lock.py`, then commit them).

For each supported release pip's resolver is asked what it would install for the project's
dependencies on that release's Python for aarch64, with numpy fixed at apt's version (pip must
not install a numpy of its own, see kiosk_install.py). Every version it picks is pinned. The
test tools pi-check adds to the kiosk venv are pinned the same way.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYPROJECT = HERE.parent / "pyproject.toml"
TEST_TOOLS = ("pytest>=8", "hypothesis>=6.100")
PLATFORMS = ("manylinux_2_36_aarch64", "manylinux_2_28_aarch64", "manylinux_2_17_aarch64",
             "manylinux2014_aarch64", "linux_aarch64")


@dataclass(frozen=True)
class Release:
    codename: str
    python: str
    apt_numpy: str


RELEASES = (Release("trixie", "3.13", "2.2.4"), Release("bookworm", "3.11", "1.24.2"))


def requirements() -> list[str]:
    return list(tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"])


def resolve(release: Release, constraints: Path | None = None) -> dict[str, str]:
    """What pip would install on `release` (name -> version), numpy held at apt's version."""
    with tempfile.TemporaryDirectory() as scratch:
        pins = Path(scratch) / "apt.txt"
        pins.write_text(f"numpy=={release.apt_numpy}\n")
        report = Path(scratch) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--dry-run",
                   "--ignore-installed", "--only-binary=:all:", "--target", scratch,
                   "--python-version", release.python, "--report", str(report),
                   "--constraint", str(pins)]
        for platform in PLATFORMS:
            command += ["--platform", platform]
        if constraints is not None:
            command += ["--constraint", str(constraints)]
        result = subprocess.run(command + requirements() + list(TEST_TOOLS),
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"{release.codename}: pip cannot resolve:\n{result.stderr}")
        installs = json.loads(report.read_text())["install"]
    return {item["metadata"]["name"]: item["metadata"]["version"] for item in installs}


def lock_text(release: Release, versions: dict[str, str]) -> str:
    lines = [f"# The kiosk's versions on {release.codename} (Python {release.python}, apt's "
             f"numpy {release.apt_numpy}),",
             "# written by systemd/kiosk_lock.py. numpy is not here: it is apt's, pinned at "
             "install time.", ""]
    lines += [f"{name}=={version}" for name, version in
              sorted(versions.items(), key=lambda item: item[0].lower()) if name != "numpy"]
    return "\n".join(lines) + "\n"


def main() -> int:
    for release in RELEASES:
        path = HERE / f"kiosk-{release.codename}.txt"
        path.write_text(lock_text(release, resolve(release)))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
