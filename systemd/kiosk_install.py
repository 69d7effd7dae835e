"""`make install-pi`: the kiosk on Raspberry Pi OS Trixie (first) or Bookworm, or plain Debian.

Run as root by the system's python3, before any project dependency exists. The plan is decided
from the machine, then carried out step by step; `--dry-run` prints it without doing it.

Why numpy comes from apt: on Raspberry Pi OS, picamera2 and its stack (simplejpeg, libcamera's
bindings) come only from apt and are built against apt's numpy. The kiosk venv sees them
(`--system-site-packages`), so a numpy that pip put in the venv would shadow apt's and break
them ("numpy.dtype size changed"). Pip therefore installs no numpy at all: the install pins
numpy to the version apt installed, and the release's lock file pins everything else to versions
built for that numpy (OpenCV 5 on Trixie's numpy 2.2, OpenCV 4.11 on Bookworm's numpy 1.24), so
two Pis set up a month apart run the same versions.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent
APP_HOME = Path("/opt/space-mission-companion")
STATE_HOME = Path("/var/lib/space-mission-companion")
USER = "companion"
GROUPS = ("video", "render", "input")
UNIT = "space-mission-companion.service"
USB_RULE = "99-space-mission-companion-usb.rules"
USB_MOUNT = "/media/space-mission-usb"
"""Where the rule mounts a backup stick (the unit's COMPANION_USB_STICK)."""
LOCKS = {"trixie": "kiosk-trixie.txt", "bookworm": "kiosk-bookworm.txt"}
"""Supported releases, first choice first, and the lock file each installs with."""

APT_PACKAGES = (
    "python3", "python3-venv", "python3-numpy",
    "libzbar0",  # what pyzbar loads
    "libmtdev1",  # Kivy's touch input
    "libegl1", "libgles2", "libgl1", "libgl1-mesa-dri", "libgbm1", "libdrm2",  # SDL on KMS/DRM
    "udev", "systemd",  # the unit, and the groups (render, input) its devices belong to
)
PI_OS_PACKAGES = ("python3-picamera2",)
"""Only Raspberry Pi OS's archive has these; elsewhere the camera is a USB webcam or none."""

APT_PYTHON = "/usr/bin/python3"
"""Debian's python, the one apt's numpy and picamera2 are installed for."""
COPY_EXCLUDES = (".venv", ".git", "test-artifacts", ".kivy", ".pytest_cache", ".mypy_cache",
                 ".ruff_cache", ".hypothesis", "__pycache__", "build", "*.egg-info")


class InstallError(Exception):
    """The machine cannot take the kiosk as planned; the message says why and what to do."""


@dataclass(frozen=True)
class Machine:
    codename: str
    """VERSION_CODENAME of /etc/os-release: trixie, bookworm, ..."""
    pi_os: bool
    """Raspberry Pi OS (its archive has picamera2)."""
    booted_systemd: bool
    """systemd runs this machine (false in a chroot: units are enabled but not started)."""


@dataclass(frozen=True)
class Plan:
    apt_packages: tuple[str, ...]
    lock: Path
    start_unit: bool


def read_machine(root: Path = Path("/")) -> Machine:
    fields: dict[str, str] = {}
    os_release = root / "etc" / "os-release"
    if os_release.exists():
        for line in os_release.read_text().splitlines():
            key, _, value = line.partition("=")
            fields[key] = value.strip().strip('"')
    return Machine(codename=fields.get("VERSION_CODENAME", ""),
                   pi_os=(root / "etc" / "rpi-issue").exists(),
                   booted_systemd=(root / "run" / "systemd" / "system").is_dir())


def plan_for(machine: Machine) -> Plan:
    if machine.codename not in LOCKS:
        supported = " or ".join(LOCKS)
        raise InstallError(f"this is {machine.codename or 'an unknown release'}; the kiosk "
                           f"installs on Raspberry Pi OS or Debian {supported}")
    packages = APT_PACKAGES + (PI_OS_PACKAGES if machine.pi_os else ())
    return Plan(apt_packages=packages, lock=HERE / LOCKS[machine.codename],
                start_unit=machine.booted_systemd)


def numpy_pin(deb_version: str) -> str:
    """The pip requirement that is exactly apt's numpy: '1:2.2.4+ds-1' -> 'numpy==2.2.4'."""
    upstream = deb_version.split(":", 1)[-1]
    match = re.match(r"\d+(\.\d+)*", upstream)
    if match is None:
        raise InstallError(f"apt's python3-numpy has an unexpected version {deb_version!r}")
    return f"numpy=={match.group(0)}"


def _run(command: list[str], dry_run: bool) -> str:
    print("  $ " + " ".join(command), flush=True)
    if dry_run:
        return ""
    result = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise InstallError(f"{command[0]} failed (exit {result.returncode}): "
                           f"{' '.join(command)}")
    return result.stdout


def _installed(package: str) -> bool:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                            capture_output=True, text=True)
    return "install ok installed" in result.stdout


def install(plan: Plan, dry_run: bool = False) -> None:
    print("1. system packages", flush=True)
    missing = [p for p in plan.apt_packages if dry_run or not _installed(p)]
    if missing:
        env = ["env", "DEBIAN_FRONTEND=noninteractive"]
        _run(["apt-get", "update", "-qq"], dry_run)
        _run(env + ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
             dry_run)

    print(f"2. the user {USER}", flush=True)
    if dry_run or subprocess.run(["id", "-u", USER], capture_output=True).returncode != 0:
        _run(["useradd", "--system", "--create-home", "--home-dir", str(STATE_HOME),
              "--shell", "/usr/sbin/nologin", "--groups", ",".join(GROUPS), USER], dry_run)

    print(f"3. the app in {APP_HOME}", flush=True)
    if not dry_run:
        APP_HOME.mkdir(parents=True, exist_ok=True)
        for entry in APP_HOME.iterdir():  # a fresh copy of the code, the venv kept
            if entry.name != ".venv":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        shutil.copytree(SOURCE, APP_HOME, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(*COPY_EXCLUDES))

    print("4. the venv (seeing apt's numpy and picamera2) and the locked versions", flush=True)
    venv = APP_HOME / ".venv"
    if dry_run or not (venv / "bin" / "python").exists():
        _run([APT_PYTHON, "-m", "venv", "--system-site-packages", str(venv)], dry_run)
    deb_numpy = "" if dry_run else _run(
        ["dpkg-query", "-W", "-f=${Version}", "python3-numpy"], dry_run)
    apt_pins = venv / "apt-pins.txt"
    if not dry_run:
        apt_pins.write_text(numpy_pin(deb_numpy) + "\n")
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
           "--disable-pip-version-check", "--constraint", str(plan.lock),
           "--constraint", str(apt_pins)]
    _run(pip + [str(APP_HOME)], dry_run)
    _run([str(venv / "bin" / "python"), str(APP_HOME / "systemd" / "kiosk_imports.py")], dry_run)

    print("5. the unit and the USB stick rule", flush=True)
    _run(["install", "-m", "0644", str(HERE / UNIT), f"/etc/systemd/system/{UNIT}"], dry_run)
    _run(["install", "-m", "0644", str(HERE / USB_RULE), f"/etc/udev/rules.d/{USB_RULE}"],
         dry_run)
    _run(["mkdir", "-p", USB_MOUNT], dry_run)
    if plan.start_unit:
        _run(["systemctl", "daemon-reload"], dry_run)
        _run(["udevadm", "control", "--reload"], dry_run)
        _run(["systemctl", "enable", "--now", UNIT], dry_run)
    else:
        _run(["systemctl", "enable", UNIT], dry_run)
        print("  (systemd is not running here: the unit starts at the next boot)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print the plan, change nothing")
    args = parser.parse_args(argv)
    try:
        if not args.dry_run and os.geteuid() != 0:
            raise InstallError("run it as root (make install-pi uses sudo)")
        machine = read_machine()
        plan = plan_for(machine)
        print(f"installing the kiosk on {machine.codename}"
              f"{' (Raspberry Pi OS)' if machine.pi_os else ''} with {plan.lock.name}")
        install(plan, args.dry_run)
    except InstallError as error:
        print(f"install-pi: {error}", file=sys.stderr)
        return 1
    print("installed: the companion starts at boot; "
          f"'journalctl -u {UNIT}' shows its log")
    return 0


if __name__ == "__main__":
    sys.exit(main())
