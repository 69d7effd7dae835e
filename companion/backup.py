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

from companion.library import Library, bg_stats_play, write_atomically

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
    files: int
    size: int
    """Bytes written."""


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
    final = stick / FOLDER / stamp
    folder = final.with_name(stamp + INCOMPLETE)
    records = library.records()
    files = size = 0
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for record in records:
            contents = {record.path.name: record.path.read_bytes()}
            if record.ended:
                play = json.dumps(bg_stats_play(record), indent=1, ensure_ascii=False)
                contents[f"{record.path.stem}.bgstats.json"] = (play + "\n").encode("utf-8")
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
    return Backup(final, len(records), files, size)


def _sync_directory(path: Path) -> None:
    """The directory's entries (the new names) on the stick, not only in the page cache."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
