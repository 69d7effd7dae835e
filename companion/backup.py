"""Backups of the records on a USB stick: every game's journal, and each finished game's BG
Stats play, copied into a new dated folder on the stick.

The kiosk's own records are only ever read. Each file on the stick is written whole (a hidden
temporary, flushed to the stick, then renamed) and read back, and the folder is named
``….incomplete`` until the last file is checked, so a stick pulled out mid-copy holds no
folder that looks like a whole backup.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from companion.files import read_regular, write_atomically
from companion.journal import JOURNAL_LIMIT
from companion.library import GameRecord, Library, bg_stats_play

STICK_MOUNT = Path("/media/space-mission-usb")
"""Where the kiosk's udev rule mounts a stick (overridden by $COMPANION_USB_STICK)."""
FOLDER = "space-mission-records"
INCOMPLETE = ".incomplete"


class BackupError(OSError):
    """The copy stopped (the stick was pulled, is full or read-only); the records on the
    companion are untouched."""


@dataclass(frozen=True)
class Backup:
    folder: Path
    games: int
    """Games whose journal was copied."""
    files: int
    size: int
    """Bytes written."""
    left_out: tuple[LeftOut, ...] = ()
    """What was not copied, and why: a record that cannot be read, or a game without scores
    (its journal is copied, its BG Stats play cannot be made)."""


@dataclass(frozen=True)
class LeftOut:
    name: str
    """The journal's file name."""
    journal: bool
    """True when the journal itself was left out (else only its BG Stats play)."""
    reason: str


def stick_mount() -> Path:
    return Path(os.environ.get("COMPANION_USB_STICK") or STICK_MOUNT)


def stick_ready(mount: Path) -> bool:
    """A stick is mounted there and can be written: what makes the home screen offer a copy."""
    try:
        return os.path.ismount(mount) and os.access(mount, os.W_OK | os.X_OK)
    except OSError:
        return False


def back_up(library: Library, stick: Path, now: datetime | None = None) -> Backup:
    """Copy the records into ``stick/space-mission-records/<date-time>/``."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%d_%H%M%S")
    final, copy = stick / FOLDER / stamp, 1
    while final.exists():  # a second copy within the same second: a folder of its own
        copy += 1
        final = stick / FOLDER / f"{stamp}-{copy}"
    stamp = final.name
    folder = final.with_name(stamp + INCOMPLETE)
    files = size = games = 0
    left_out: list[LeftOut] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for record in library.records():
            contents = _contents(record, left_out)
            games += bool(contents)
            for name, data in contents.items():
                target = folder / name
                write_atomically(target, data)
                if hashlib.sha256(target.read_bytes()).digest() != hashlib.sha256(data).digest():
                    raise BackupError(0, f"{name} reads back different from what was written")
                files += 1
                size += len(data)
        _sync_directory(folder)
        os.replace(folder, final)
        _sync_directory(final.parent)
    except OSError as error:
        if isinstance(error, BackupError):
            raise
        raise BackupError(error.errno, f"the copy to {stick} stopped: {error.strerror}") \
            from None
    return Backup(final, games, files, size, tuple(left_out))


def _contents(record: GameRecord, left_out: list[LeftOut]) -> dict[str, bytes]:
    """What one kept game puts on the stick: its journal as it is on the companion, and its
    BG Stats play when the game has scores. What cannot be copied goes into ``left_out``."""
    name = record.path.name
    try:
        contents = {name: read_regular(record.path, JOURNAL_LIMIT)}
    except OSError as error:  # a link that leads nowhere, a pipe: nothing of it to copy
        left_out.append(LeftOut(name, True, error.strerror or str(error)))
        return {}
    if record.ended and record.problem is None:
        if record.tiles_missing:
            left_out.append(LeftOut(name, False, "the tiles were never entered"))
        else:
            play = json.dumps(bg_stats_play(record), indent=1, ensure_ascii=False)
            contents[f"{record.path.stem}.bgstats.json"] = (play + "\n").encode("utf-8")
    return contents


def _sync_directory(path: Path) -> None:
    """The directory's entries (the new names) on the stick, not only in the page cache."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
