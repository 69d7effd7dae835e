"""Backups of the records on a USB stick: whole files read back, a new folder each time, a
stick seen only when mounted and writable, and a full stick stopping the copy with nothing on
the stick that looks like a whole backup and nothing on the companion changed. The mounts are
real (tmpfs) where the tests run as root."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from companion.backup import FOLDER, BackupError, back_up, stick_ready
from companion.journal import write_journal
from companion.library import Library
from companion.rules import Inventory
from companion.simulate import simulate


def library_with_games(home: Path, games: int) -> Library:
    library = Library(home)
    for seed in range(games):
        game = simulate(seed, 2 + seed % 3)
        events = game.events if seed % 2 == 0 else game.events[: len(game.events) // 2]
        write_journal(library.games / f"2026110{seed}-200000.jsonl", game.setup, events)
    return library


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


@pytest.fixture
def mounted(tmp_path):  # type: ignore[no-untyped-def]
    """A real mount point (tmpfs) standing for a stick, of the size asked for."""
    mounts: list[Path] = []

    def mount(size: str, options: str = "") -> Path:
        if os.geteuid() != 0:
            pytest.skip("mounting needs root")
        point = tmp_path / f"stick{len(mounts)}"
        point.mkdir()
        command = ["mount", "-t", "tmpfs", "-o", f"size={size}{options}", "tmpfs", str(point)]
        if subprocess.run(command, capture_output=True).returncode != 0:
            pytest.skip("tmpfs cannot be mounted here")
        mounts.append(point)
        return point

    yield mount
    for point in mounts:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def test_a_backup_holds_every_journal_and_each_finished_games_play(tmp_path):
    library = library_with_games(tmp_path / "home", 4)
    stick = tmp_path / "stick"
    stick.mkdir()
    backup = back_up(library, stick, now=datetime(2026, 11, 22, 21, 5, 9))
    assert backup.folder == stick / FOLDER / "2026-11-22_210509"
    assert backup.games == 4
    finished = [r for r in library.records() if r.ended]
    assert 0 < len(finished) < 4
    assert backup.files == 4 + len(finished)
    copied = digests(backup.folder)
    for journal in library.games.iterdir():
        assert copied[journal.name] == hashlib.sha256(journal.read_bytes()).hexdigest()
    for record in finished:
        play = json.loads((backup.folder / f"{record.path.stem}.bgstats.json").read_text())
        assert play["players"]
    assert backup.size == sum(p.stat().st_size for p in backup.folder.iterdir())
    assert not any(name.startswith(".") for name in copied)  # no temporaries left

    again = back_up(library, stick, now=datetime(2026, 11, 23, 9, 0, 0))
    assert again.folder != backup.folder and digests(again.folder) == copied


def test_a_stick_is_offered_only_when_mounted_and_writable(tmp_path, mounted):
    plain = tmp_path / "not-a-mount"
    plain.mkdir()
    assert not stick_ready(plain)  # a folder is not a stick
    assert not stick_ready(tmp_path / "missing")
    assert stick_ready(mounted("1m"))
    assert not stick_ready(mounted("1m", ",ro"))


def test_a_full_stick_stops_the_copy_and_loses_nothing(tmp_path, mounted):
    library = library_with_games(tmp_path / "home", 6)
    before = digests(library.games)
    total = sum(p.stat().st_size for p in library.games.iterdir())
    stick = mounted(f"{total // 3 // 4096 * 4096 + 4096}")
    with pytest.raises(BackupError) as stopped:
        back_up(library, stick)
    assert "stopped" in str(stopped.value) and stopped.value.strerror
    assert digests(library.games) == before  # the companion's records untouched
    folders = [p.name for p in (stick / FOLDER).iterdir()]
    assert folders and all(name.endswith(".incomplete") for name in folders)


def test_games_without_scores_are_copied_without_a_play_and_unreadable_ones_named(tmp_path):
    """An ordinary case once crashed the app: a finished game whose tiles were never entered.
    Now what can be copied is, and what was left out is said; a second copy works too."""
    library = Library(tmp_path / "home")
    game = simulate(6, 3, hide_rate=1.0)  # every tile taken face down, as at a real table
    unscored = [e for e in game.events if not isinstance(e, Inventory)]
    write_journal(library.games / "20261101-200000.jsonl", game.setup, unscored)
    write_journal(library.games / "20261102-200000.jsonl", game.setup, game.events)
    (library.games / "20261103-200000.jsonl").symlink_to(tmp_path / "gone.jsonl")
    os.mkfifo(library.games / "20261104-200000.jsonl")
    record = next(r for r in library.records() if r.path.name == "20261101-200000.jsonl")
    assert record.ended and record.tiles_missing
    stick = tmp_path / "stick"
    stick.mkdir()
    for minute in (1, 2):
        backup = back_up(library, stick, now=datetime(2026, 11, 24, 9, minute, 0))
        assert backup.games == 2 and backup.files == 3
        assert sorted(p.name for p in backup.folder.iterdir()) == [
            "20261101-200000.jsonl", "20261102-200000.bgstats.json", "20261102-200000.jsonl"]
        left = {item.name: item for item in backup.left_out}
        assert set(left) == {"20261101-200000.jsonl", "20261103-200000.jsonl",
                             "20261104-200000.jsonl"}
        assert not left["20261101-200000.jsonl"].journal
        assert left["20261103-200000.jsonl"].journal and left["20261104-200000.jsonl"].journal
        assert "not a regular file" in left["20261104-200000.jsonl"].reason
    assert not any(p.name.endswith(".incomplete") for p in (stick / FOLDER).iterdir())
