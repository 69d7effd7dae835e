"""The games kept on this companion: one journal per game in a folder, the game in progress
resumed on start, finished games listed and exported (as their journal, and as a BG Stats play).
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

from companion.journal import Journal, JournalError, read_journal
from companion.rules import Setup
from companion.scoring import score

BGG_ID = 105199
"""Space Mission on BoardGameGeek (from the rules' header)."""


def default_home() -> Path:
    """Where games live: $COMPANION_HOME, systemd's $STATE_DIRECTORY, or ~/.local/share."""
    for variable in ("COMPANION_HOME", "STATE_DIRECTORY"):
        value = os.environ.get(variable)
        if value:
            return Path(value.split(":")[0])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "space-mission-companion"


@dataclass(frozen=True)
class GameRecord:
    path: Path
    started: datetime
    finished: datetime | None
    players: tuple[str, ...]
    winners: tuple[str, ...]
    totals: dict[str, int | None]
    problem: str | None = None
    """Why the record cannot be read, when it cannot."""

    @property
    def ended(self) -> bool:
        return self.finished is not None


class Library:
    def __init__(self, home: str | Path | None = None) -> None:
        self.home = Path(home) if home is not None else default_home()
        self.games = self.home / "games"
        self.exports = self.home / "exports"
        self.games.mkdir(parents=True, exist_ok=True)

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
        return sorted((self._record(p) for p in self.games.glob("*.jsonl")),
                      key=lambda r: r.started, reverse=True)

    def in_progress(self) -> GameRecord | None:
        """The newest game that has not ended, to resume."""
        return next((r for r in self.records() if not r.ended and r.problem is None), None)

    def _record(self, path: Path) -> GameRecord:
        started = datetime.fromtimestamp(path.stat().st_ctime, UTC)
        try:
            stamp = path.stem.split("-")
            started = datetime.strptime(f"{stamp[0]}-{stamp[1]}", "%Y%m%d-%H%M%S").replace(
                tzinfo=UTC)
        except (ValueError, IndexError):
            pass
        try:
            contents = read_journal(path)
        except (JournalError, OSError, UnicodeDecodeError) as error:
            return GameRecord(path, started, None, (), (), {}, str(error))
        state = contents.game.state
        sheet = score(state)
        finished = (datetime.fromtimestamp(path.stat().st_mtime, UTC)
                    if state.ended else None)
        return GameRecord(path, started, finished, tuple(p.name for p in state.setup.players),
                          sheet.winners, {p.name: p.total for p in sheet.players})

    def export(self, record: GameRecord) -> tuple[Path, Path]:
        """Copy the journal and write a BG Stats play beside it, in ``exports/``."""
        self.exports.mkdir(parents=True, exist_ok=True)
        journal = self.exports / record.path.name
        shutil.copyfile(record.path, journal)
        play = self.exports / f"{record.path.stem}.bgstats.json"
        play.write_text(json.dumps(bg_stats_play(record), indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
        return journal, play


def bg_stats_play(record: GameRecord) -> dict[str, Any]:
    """A play in the form the BG Stats app imports: players, scores, winners, start player,
    seat order, colours, date and duration."""
    contents = read_journal(record.path)
    state = contents.game.state
    sheet = score(state)
    setup = state.setup
    minutes = 0
    if record.finished is not None:
        minutes = max(1, round((record.finished - record.started).total_seconds() / 60))
    return {
        "sourceName": "Space Mission table companion",
        "playDate": record.started.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": minutes,
        "game": {"name": "Space Mission", "bggId": BGG_ID, "highestWins": True,
                 "sourceGameId": "space-mission"},
        "players": [
            {"name": row.name, "sourcePlayerId": row.name, "score": row.total,
             "winner": row.name in sheet.winners, "startPlayer": row.name == setup.first,
             "seatOrder": seat, "color": setup.players[seat].color}
            for seat, row in enumerate(sheet.players)],
    }
