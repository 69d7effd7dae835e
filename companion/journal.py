"""The journal: the game record and its crash-safe store, one JSON event per line.

Format v1 is DESIGN.md §5.1. Appends are whole lines, each followed by one fsync, so an event
whose ``append`` returned survives a power cut. A write cut short leaves at most a partial last
line, and only a line missing its newline can be one: on open it is dropped, reported, and moved
out of the record into a file beside it (``GAME.jsonl.cut``), so no byte is ever lost. A
complete line (one that ends with its newline) that cannot be used is an error naming its line,
wherever it is, and nothing in the file is touched. JSON only, never pickle: a journal is also a
record people read and share.

An extension of v1, as unknown fields are ignored: a line appended during play carries ``at``,
the UTC time it was written (``2026-11-24T20:15:03Z``), so a game's length runs from its start
to the end of play, whatever tiles were entered after it. Records without it replay as before.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from collections.abc import Iterable

from companion.files import MEGABYTE, read_regular, write_atomically
from companion.jsontext import JSONTextError, parse_json
from companion.rules import (Event, Game, GameState, MalformedEventError, RulesError, Setup,
                             parse_event)


JOURNAL_LIMIT = 64 * MEGABYTE
"""A game is a few hundred lines of about 100 bytes; a record a hundred thousand times larger
is no record, and reading it would only fill the memory."""


class JournalError(ValueError):
    """A journal line that cannot be used: ``line N: reason``."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


class JournalWriteError(OSError):
    """The journal could not store an event (disk full, read-only, removed); nothing was lost."""


@dataclass(frozen=True)
class DroppedLine:
    """A last line that was cut short, as a power cut mid-write leaves it."""

    line: int
    reason: str
    offset: int
    """Byte offset where the dropped line starts: the file is cut back to here."""
    kept: Path | None = None
    """Where its bytes were moved when the record was opened for writing."""

    def __str__(self) -> str:
        text = (f"line {self.line}: incomplete last line dropped ({self.reason}); "
                "it was being written when the companion stopped")
        return text + (f"; its bytes are kept in {self.kept.name}" if self.kept else "")


@dataclass(frozen=True)
class JournalContents:
    game: Game
    events: tuple[Event, ...]
    """Every event after the set-up as written, undos included."""
    dropped: DroppedLine | None
    good_size: int
    """Bytes up to the end of the last good line."""
    ends_with_newline: bool
    ended_at: datetime | None = None
    """When play ended (the ``at`` of the line that ended the game), where the record says."""


AT_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def encode(event: Event, at: datetime | None = None) -> bytes:
    """A journal line; with ``at``, the time it is written (UTC, to the second)."""
    data = event.to_json()
    if at is not None:
        data["at"] = at.astimezone(UTC).strftime(AT_FORMAT)
    return (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")


def _time_of(obj: object) -> datetime | None:
    """A line's ``at``, when it has a well-formed one (a time that is not is no time)."""
    text = obj.get("at") if isinstance(obj, dict) else None
    if not isinstance(text, str):
        return None
    try:
        return datetime.strptime(text, AT_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return None


def read_journal(path: str | Path) -> JournalContents:
    """Parse and replay a journal; ``JournalError`` names the first line that cannot be used."""
    data = read_regular(path, JOURNAL_LIMIT)
    lines = data.split(b"\n")
    unterminated = len(lines) - 1  # the text after the last newline: a write may have stopped
    game: Game | None = None
    events: list[Event] = []
    ended_at: datetime | None = None
    offset = good_size = 0
    for index, raw in enumerate(lines):
        number, start = index + 1, offset
        offset += len(raw) + 1
        if not raw.strip():
            continue
        try:
            obj = parse_json(raw)
        except JSONTextError as error:
            if index == unterminated:
                return _contents(game, events, DroppedLine(number, str(error), start), start,
                                 ended_at=ended_at)
            raise JournalError(number, f"not a JSON object ({error})") from None
        try:
            event = parse_event(obj)
            if game is None:
                if not isinstance(event, Setup):
                    raise MalformedEventError("the first line must be the set-up "
                                              f"(type setup), not {event.type}")
                game = Game(event)
            else:
                was_over = game.state.ended
                game.play(event)
                events.append(event)
                if not game.state.ended:  # still on, or reopened by an undo
                    ended_at = None
                elif not was_over:
                    ended_at = _time_of(obj)
        except RulesError as error:
            raise JournalError(number, str(error)) from None
        good_size = min(offset, len(data))
    return _contents(game, events, None, good_size, data.endswith(b"\n") or not data.strip(),
                     ended_at)


def _contents(game: Game | None, events: list[Event], dropped: DroppedLine | None,
              good_size: int, ends_with_newline: bool = True,
              ended_at: datetime | None = None) -> JournalContents:
    if game is None:
        line = dropped.line if dropped else 1
        raise JournalError(line, "the journal has no set-up line (it is empty or was cut short "
                                 "while the set-up was written)")
    return JournalContents(game, tuple(events), dropped, good_size, ends_with_newline,
                           ended_at)


class Journal:
    """An open journal: the live game and the file that keeps it, appended and fsync'd."""

    def __init__(self, path: Path, fd: int, game: Game, size: int,
                 dropped: DroppedLine | None = None) -> None:
        self.path = path
        self.game = game
        self.dropped = dropped
        """What opening had to drop, to be reported to the players."""
        self._fd = fd
        self._size = size

    @classmethod
    def create(cls, path: str | Path, setup: Setup) -> Journal:
        """Start a new game record; refuses to overwrite an existing file."""
        target = Path(path)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except OSError as error:
            raise JournalWriteError(
                error.errno, f"cannot create {target}: {error.strerror}") from None
        journal = cls(target, fd, Game(setup), 0)
        try:
            journal._write(encode(setup))
        except JournalWriteError:
            journal.close()
            target.unlink(missing_ok=True)
            raise
        _fsync_directory(target.parent)
        return journal

    @classmethod
    def open(cls, path: str | Path) -> Journal:
        """Replay an existing record and make it ready for appending.

        A partial last line is moved into ``GAME.jsonl.cut`` (and reported in ``dropped``); a
        last line that lacks only its newline gets one, so the next append starts on a line of
        its own.
        """
        target = Path(path)
        contents = read_journal(target)
        try:
            fd = os.open(target, os.O_RDWR)
        except OSError as error:
            raise JournalWriteError(
                error.errno, f"cannot write {target}: {error.strerror}") from None
        dropped = contents.dropped
        journal = cls(target, fd, contents.game, contents.good_size, dropped)
        try:
            if dropped is not None:
                journal.dropped = replace(dropped, kept=_keep_cut_line(target, fd, dropped))
            if os.fstat(fd).st_size != contents.good_size:  # a partial line, or blank ones
                os.ftruncate(fd, contents.good_size)
                os.fsync(fd)
            if not contents.ends_with_newline:
                journal._write(b"\n")
        except OSError as error:
            journal.close()
            raise JournalWriteError(
                error.errno, f"cannot repair {target}: {error.strerror}") from None
        return journal

    @property
    def state(self) -> GameState:
        return self.game.state

    def append(self, event: Event) -> GameState:
        """Check ``event`` against the rules, store it durably, and return the new state.

        A ``RulesError`` leaves game and file untouched; so does a ``JournalWriteError``.
        """
        mark = self.game.checkpoint()
        self.game.play(event)
        try:
            self._write(encode(event, at=datetime.now(UTC)))
        except JournalWriteError:
            self.game.restore(mark)
            raise
        return self.game.state

    def _write(self, line: bytes) -> None:
        size_before = self._size
        try:
            os.lseek(self._fd, size_before, os.SEEK_SET)
            view = memoryview(line)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            os.fsync(self._fd)
        except OSError as error:
            try:  # leave no partial line behind
                os.ftruncate(self._fd, size_before)
                os.fsync(self._fd)
            except OSError:
                pass  # the next open drops a partial last line anyway
            raise JournalWriteError(
                error.errno, f"could not save to {self.path}: {error.strerror}; "
                "the last action was not recorded") from error
        self._size = size_before + len(line)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_journal(path: str | Path, setup: Setup, events: Iterable[Event]) -> Game:
    """Write a whole record at once (checked by replay first), atomically: an ``OSError``
    leaves whatever was there before."""
    game = Game.replay(setup, events := list(events))
    write_atomically(Path(path), b"".join([encode(setup), *map(encode, events)]))
    return game


def _keep_cut_line(target: Path, fd: int, dropped: DroppedLine) -> Path:
    """Append the bytes of a line cut short to ``GAME.jsonl.cut``, durably, before the record
    is cut back: they leave the record, never the disk."""
    size = os.fstat(fd).st_size
    partial = os.pread(fd, size - dropped.offset, dropped.offset)
    kept = target.with_name(target.name + ".cut")
    with open(kept, "ab") as out:
        out.write(partial + b"\n")
        out.flush()
        os.fsync(out.fileno())
    _fsync_directory(target.parent)
    return kept


def _fsync_directory(directory: Path) -> None:
    """Make a new file's directory entry durable too."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
