"""The kiosk install plan (systemd/kiosk_install.py): decided from the machine, numpy left to
apt, every other version locked per release; the locks resolve for the Pi's Python on aarch64
against apt's numpy; the declared lower bounds are pinned exactly. `make pi-check` carries the
plan out on arm64 Trixie and on Bookworm; these tests keep the plan honest between runs."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from companion.backup import STICK_MOUNT

ROOT = Path(__file__).resolve().parent.parent
SYSTEMD = ROOT / "systemd"


def load(name: str):  # type: ignore[no-untyped-def]
    """A module of systemd/ (run there by the system's python, so not a package)."""
    spec = importlib.util.spec_from_file_location(name, SYSTEMD / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


install = load("kiosk_install")
lock = load("kiosk_lock")


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            found[canonicalize_name(name)] = version
    return found


def declared() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {canonicalize_name(r.name): r for r in map(Requirement, project["dependencies"])}


def machine_root(tmp_path: Path, codename: str, pi_os: bool) -> Path:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "os-release").write_text(
        f'PRETTY_NAME="Debian GNU/Linux"\nVERSION_CODENAME={codename}\nID=debian\n')
    if pi_os:
        (tmp_path / "etc" / "rpi-issue").write_text("Raspberry Pi reference\n")
    return tmp_path


@pytest.mark.parametrize(("codename", "pi_os"), [("trixie", True), ("trixie", False),
                                                 ("bookworm", True), ("bookworm", False)])
def test_the_plan_is_decided_by_the_release_and_takes_numpy_and_picamera2_from_apt(
        tmp_path, codename, pi_os):
    machine = install.read_machine(machine_root(tmp_path, codename, pi_os))
    assert machine == install.Machine(codename, pi_os, booted_systemd=False)
    plan = install.plan_for(machine)
    assert plan.lock == SYSTEMD / f"kiosk-{codename}.txt"
    assert "python3-numpy" in plan.apt_packages
    assert ("python3-picamera2" in plan.apt_packages) is pi_os
    assert plan.start_unit is False  # a chroot: enabled, started at the next boot


def test_an_unsupported_release_is_refused_with_what_is_supported(tmp_path):
    machine = install.read_machine(machine_root(tmp_path, "bullseye", True))
    with pytest.raises(install.InstallError, match="bullseye.*trixie or bookworm"):
        install.plan_for(machine)


@pytest.mark.parametrize(("deb", "pin"), [("1:2.2.4+ds-1", "numpy==2.2.4"),
                                          ("1:1.24.2-1+deb12u1", "numpy==1.24.2"),
                                          ("1:2.3.5+ds-3", "numpy==2.3.5")])
def test_pip_is_held_to_apt_s_numpy(deb, pin):
    assert install.numpy_pin(deb) == pin


@pytest.mark.parametrize("release", lock.RELEASES, ids=lambda r: r.codename)
def test_each_lock_pins_every_dependency_within_what_the_project_declares(release):
    locked = pins(SYSTEMD / f"kiosk-{release.codename}.txt")
    assert "numpy" not in locked  # apt's, never pip's
    for name, requirement in declared().items():
        if name == "numpy":
            assert requirement.specifier.contains(release.apt_numpy)
            continue
        assert name in locked, f"{name} is not locked for {release.codename}"
        assert requirement.specifier.contains(locked[name]), (name, locked[name])


def test_the_lower_bounds_are_the_declared_floors_exactly():
    floors = pins(SYSTEMD / "lower-bounds.txt")
    for name, requirement in declared().items():
        if name == "numpy":  # Bookworm's apt numpy is the floor's series
            assert requirement.specifier.contains("1.24.2")
            continue
        floor = next(s.version for s in requirement.specifier if s.operator == ">=")
        assert floors.get(name) == floor, name


@pytest.mark.parametrize("release", lock.RELEASES, ids=lambda r: r.codename)
def test_each_lock_resolves_on_the_pi_against_apt_s_numpy(release):
    """pip's resolver for the release's Python on aarch64, numpy held at apt's version:
    exactly the locked versions, and no numpy of pip's own."""
    try:
        resolved = lock.resolve(release, constraints=SYSTEMD / f"kiosk-{release.codename}.txt")
    except RuntimeError as error:
        if "NewConnectionError" in str(error) or "Network is unreachable" in str(error):
            pytest.skip("the package index cannot be reached")
        raise
    resolved = {canonicalize_name(k): v for k, v in resolved.items()}
    assert resolved.pop("numpy") == release.apt_numpy
    assert resolved == pins(SYSTEMD / f"kiosk-{release.codename}.txt")


def test_the_stick_is_mounted_where_the_unit_and_the_app_look():
    rule = (SYSTEMD / install.USB_RULE).read_text()
    unit = (SYSTEMD / install.UNIT).read_text()
    assert f"$devnode {STICK_MOUNT}\"" in rule and install.USB_MOUNT == str(STICK_MOUNT)
    assert f"ReadWritePaths=-{STICK_MOUNT}" in unit
    assert f"Environment=COMPANION_USB_STICK={STICK_MOUNT}" in unit
    assert "--owner=companion" in rule and "noexec" in rule


def test_the_dry_run_prints_the_plan_and_changes_nothing():
    result = subprocess.run([sys.executable, str(SYSTEMD / "kiosk_install.py"), "--dry-run"],
                            capture_output=True, text=True)
    if result.returncode != 0:  # not a Debian this plan knows
        assert "installs on Raspberry Pi OS or Debian" in result.stderr
        return
    for step in ("1. system packages", "python3-numpy", "--system-site-packages",
                 "--constraint", "kiosk_imports.py", "systemctl enable"):
        assert step in result.stdout


def test_the_import_check_reports_every_library_and_refuses_a_numpy_not_apt_s():
    """In this checkout's venv numpy is pip's: the check the install ends with must say so
    (pi-check runs it in the kiosk venvs, where it passes)."""
    import json
    result = subprocess.run([sys.executable, str(SYSTEMD / "kiosk_imports.py")],
                            capture_output=True, text=True)
    versions = json.loads(result.stdout)
    for distribution in ("numpy", "opencv-python-headless", "Kivy", "zxing-cpp", "pyzbar",
                         "segno", "pillow"):
        assert versions[distribution], distribution
    assert result.returncode == 1 and "not apt's /usr/lib/python3/dist-packages" in \
        result.stderr
