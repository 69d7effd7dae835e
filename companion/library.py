"""The games kept on this companion: one journal per game in a folder, the game in progress
resumed on start, finished games listed with their scores, per-player statistics, and the ways a
finished game leaves the companion (its journal, a BG Stats play as a file or as a push link).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.files import read_regular, write_atomically
from companion.journal import JOURNAL_LIMIT, Journal, JournalError, read_journal
from companion.rules import Setup
from companion.scoring import score

BGG_ID = 105199
"""Space Mission on BoardGameGeek (from the rules' header)."""
SOURCE_NAME = "Space Mission table companion"
BG_STATS_PUSH = "https://app.bgstatsapp.com/createPlay.html?data="
"""BG Stats' documented push link: the play as URL-encoded JSON after ``data=``."""


def default_home() -> Path:
    """Where games live: $COMPANION_HOME (a path, whatever characters it holds), the first of
    systemd's $STATE_DIRECTORY (a list joined by ":"), or ~/.local/share."""
    if home := os.environ.get("COMPANION_HOME"):
        return Path(home)
    if state := os.environ.get("STATE_DIRECTORY"):
        return Path(state.split(":")[0])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "space-mission-companion"


class ExportError(OSError):
    """A record could not be written out (disk full, read-only, removed); nothing half-written
    is left behind."""


@dataclass(frozen=True)
class PlayerResult:
    name: str
    color: str
    total: int | None
    """None while that player's tiles are not known."""
    stations: int
    winner: bool


@dataclass(frozen=True)
class GameRecord:
    path: Path
    started: datetime
    finished: datetime | None
    results: tuple[PlayerResult, ...] = ()
    variant: str = "table"
    first: str = ""
    problem: str | None = None
    """Why the record cannot be read, when it cannot."""

    @property
    def ended(self) -> bool:
        return self.finished is not None

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.results)

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.results if r.winner)

    @property
    def totals(self) -> dict[str, int | None]:
        return {r.name: r.total for r in self.results}

    @property
    def tiles_missing(self) -> bool:
        """Ended, but some player's tiles are not entered yet: the scores wait for them."""
        return self.ended and any(r.total is None for r in self.results)

    @property
    def minutes(self) -> int:
        if self.finished is None:
            return 0
        return max(1, round((self.finished - self.started).total_seconds() / 60))


@dataclass(frozen=True)
class PlayerStatistics:
    name: str
    games: int
    wins: int
    scored: int
    """Games whose score is known (the average and best count these)."""
    average: float | None
    best: int | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


class Library:
    def __init__(self, home: str | Path | None = None) -> None:
        self.home = Path(home) if home is not None else default_home()
        self.games = self.home / "games"
        self.exports = self.home / "exports"
        self.problem: str | None = None
        """Why no new game can be kept here (a read-only disk), when none can; the games
        already kept are still listed."""
        self.write_error: OSError | None = None
        """The error behind ``problem``, for the screen to say in the players' words."""
        try:
            self.games.mkdir(parents=True, exist_ok=True)
            if not os.access(self.games, os.W_OK):  # a read-only disk that holds games
                read_only = os.statvfs(self.games).f_flag & os.ST_RDONLY
                code = errno.EROFS if read_only else errno.EACCES
                raise OSError(code, os.strerror(code))
        except OSError as error:
            self.problem = f"{self.games} cannot be written: {error.strerror}"
            self.write_error = error

    def new_game(self, setup: Setup, now: datetime | None = None) -> Journal:
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
        path = self.games / f"{stamp}.jsonl"
        suffix = 1
        while path.exists():
            suffix += 1
            path = self.games / f"{stamp}-{suffix}.jsonl"
        return Journal.create(path, setup)

    def records(self) -> list[GameRecord]:
        """Every kept game, newest first."""
        return sorted((record_of(p) for p in self.games.glob("*.jsonl")),
                      key=lambda r: r.started, reverse=True)

    def in_progress(self) -> GameRecord | None:
        """The newest game that has not ended, to resume."""
        return next((r for r in self.records() if not r.ended and r.problem is None), None)

    def finished(self) -> list[GameRecord]:
        return [r for r in self.records() if r.ended]

    def export(self, record: GameRecord) -> tuple[Path, Path]:
        """Copy the journal and write a BG Stats play beside it, in ``exports/``, each
        atomically: a full or read-only disk leaves the old files, never half a new one."""
        try:
            self.exports.mkdir(parents=True, exist_ok=True)
            journal = self.exports / record.path.name
            write_atomically(journal, read_regular(record.path, JOURNAL_LIMIT))
            play = self.exports / f"{record.path.stem}.bgstats.json"
            text = json.dumps(bg_stats_play(record), indent=1, ensure_ascii=False) + "\n"
            write_atomically(play, text.encode("utf-8"))
        except OSError as error:
            raise ExportError(error.errno, f"could not export to {self.exports}: "
                                           f"{error.strerror}") from None
        return journal, play


def record_of(path: Path) -> GameRecord:
    """What the home and history screens show of one kept journal."""
    started = _started(path)
    try:
        contents = read_journal(path)
    except (JournalError, OSError) as error:
        return GameRecord(path, started, None, problem=str(error))
    state = contents.game.state
    sheet = score(state)
    setup = state.setup
    results = tuple(PlayerResult(row.name, seat.color, row.total, row.stations,
                                 row.name in sheet.winners)
                    for row, seat in zip(sheet.players, setup.players))
    # the end of play; a record without times: its last change (tile entries included)
    finished = (contents.ended_at or datetime.fromtimestamp(path.stat().st_mtime, UTC)
                if state.ended else None)
    return GameRecord(path, started, finished, results, setup.variant, setup.first)


def _started(path: Path) -> datetime:
    """When the game began: from the journal's name (the companion names it so)."""
    try:
        stamp = path.stem.split("-")
        return datetime.strptime(f"{stamp[0]}-{stamp[1]}", "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    except (ValueError, IndexError):
        pass
    try:  # lstat: a link that leads nowhere is listed too, with its problem
        return datetime.fromtimestamp(path.lstat().st_ctime, UTC)
    except OSError:
        return datetime.fromtimestamp(0, UTC)


def person(name: str) -> str:
    """Who a name stands for: names that differ only in case or spaces ("Anna", " anna")
    are one person, in the statistics and at the set-up table."""
    return shown_name(name).casefold()


def shown_name(name: str) -> str:
    """A recorded name as it is shown: without stray spaces around or inside it (" anna "
    shows as "anna"); the record keeps it as it was typed."""
    return " ".join(name.split())


def shown_names(names: Iterable[str], between: str = ", ") -> str:
    """Recorded names as a list is shown ("Ann, Ben"), each as ``shown_name`` shows it."""
    return between.join(map(shown_name, names))


def statistics(records: Iterable[GameRecord]) -> list[PlayerStatistics]:
    """Per person (``person``) over finished games: games, wins, win rate, average and best
    score, under the spelling of their name used most. A game whose tiles are missing counts
    as played, not in the scores or the wins."""
    games: dict[str, list[PlayerResult]] = {}
    decided: dict[str, int] = {}
    spellings: dict[str, Counter[str]] = {}
    for record in records:
        if not record.ended or record.problem is not None:
            continue
        known = not record.tiles_missing
        for result in record.results:
            key = person(result.name)
            games.setdefault(key, []).append(result)
            decided[key] = decided.get(key, 0) + (known and result.winner)
            spellings.setdefault(key, Counter())[result.name] += 1
    rows = []
    for key, results in games.items():
        totals = [r.total for r in results if r.total is not None]
        rows.append(PlayerStatistics(
            shown_name(_spelling(spellings[key])), len(results), decided[key], len(totals),
            sum(totals) / len(totals) if totals else None, max(totals) if totals else None))
    return sorted(rows, key=lambda s: (-s.wins, -s.games, s.name))


def _spelling(used: Counter[str]) -> str:
    """The spelling of a person's name used most; of equals, one without stray spaces, then
    the first in order (the same whichever game was read first)."""
    return min(used, key=lambda name: (-used[name], name != name.strip(), name))


def play_id(record: GameRecord) -> str:
    """Stable for a game, so a second scan of its code updates the play instead of adding one:
    the journal's name and its set-up line, hashed."""
    with open(record.path, "rb") as journal:
        first_line = journal.readline()
    digest = hashlib.sha256(record.path.name.encode("utf-8") + b"\n" + first_line)
    return digest.hexdigest()[:16]


def ranks(results: tuple[PlayerResult, ...]) -> list[int]:
    """Competition ranking by points, ties broken by stations as the rules break them."""
    keys = [(r.total or 0, r.stations) for r in results]
    return [1 + sum(other > mine for other in keys) for mine in keys]


def bg_stats_play(record: GameRecord) -> dict[str, Any]:
    """The play as BG Stats takes it through its push link. Only for a game whose every score
    is known: BG Stats must never get a null score."""
    if not record.ended or record.tiles_missing or record.problem is not None:
        raise ValueError("only a finished game with every player's tiles entered has scores")
    places = ranks(record.results)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(record),
        "playDate": record.started.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": record.minutes,
        "board": record.variant,
        "game": {"name": "Space Mission", "bggId": BGG_ID, "sourceGameId": "space-mission",
                 "highestWins": True, "noPoints": False},
        "players": [
            {"name": r.name, "sourcePlayerId": _player_id(r.name), "score": r.total,
             "winner": r.winner, "startPlayer": r.name == record.first, "rank": place}
            for r, place in zip(record.results, places)],
    }


URL_SAFE = ":,@!$'()*;/?"
"""Characters a URL's query may hold as they are (RFC 3986): left unescaped, they keep the link,
and so the QR code a phone scans, about a third shorter."""


def bg_stats_link(record: GameRecord) -> str:
    """The push link a phone opens (by scanning the end screen's QR code) to add the play."""
    text = json.dumps(bg_stats_play(record), separators=(",", ":"), ensure_ascii=False)
    return BG_STATS_PUSH + quote(text, safe=URL_SAFE)


def _player_id(name: str) -> str:
    return "p" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:10]
