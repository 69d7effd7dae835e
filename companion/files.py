"""Files the companion reads and writes itself: read only when they are regular files of a
sensible size, written so that a crash or a full disk leaves the old file whole.

A named pipe would make a read wait for ever and ``/dev/zero`` would fill the memory; a
record, a profile, a preference or a photo is neither, so such a path is refused by name.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

MEGABYTE = 2 ** 20


class NotARegularFile(OSError):
    """A path that names a pipe, a device, a directory, or a file larger than its kind ever is.
    ``strerror`` says which, in a few words."""


def read_regular(path: str | Path, limit: int) -> bytes:
    """The whole file, if it is a regular file of at most ``limit`` bytes. Any ``OSError``
    (``NotARegularFile`` for the refusals) carries a ``strerror`` fit to show after the path."""
    # O_NONBLOCK: opening a named pipe with no writer would otherwise wait for one for ever
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise NotARegularFile(errno.EISDIR, "a folder, not a file")
        if not stat.S_ISREG(mode):
            raise NotARegularFile(errno.EINVAL, "not a regular file (a pipe or a device)")
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise NotARegularFile(errno.EFBIG, f"larger than {_size(limit)}, more than such a file "
                                           "ever holds")
    return data


def _size(limit: int) -> str:
    return f"{limit // MEGABYTE} MB" if limit >= MEGABYTE else f"{limit // 1024} kB"


def write_atomically(target: Path, data: bytes) -> None:
    """Write a file so that a crash or a full disk leaves the old one whole."""
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        # the file's own mode if it exists, else what a plain new file gets (mkstemp's is
        # 0600: a record copied to a stick would be unreadable to the one who took it)
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            mode = 0o666 & ~_umask()
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask (read from /proc: setting it to read it is not thread-safe)."""
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022
