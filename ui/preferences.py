"""What the companion remembers between games: the language, the players who sit at this table
(their names and favourite colours), and whether camera proposals confirm themselves.

A JSON file in the companion's home, written atomically; a damaged or foreign file is reported
and replaced by the defaults, never a reason not to start.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.files import read_regular, write_atomically
from companion.jsontext import JSONTextError, parse_json
from companion.library import person
from companion.rules import PLAYER_COLORS
from ui.i18n import LANGUAGES

log = logging.getLogger(__name__)

ROSTER_SIZE = 12
"""How many regulars a table remembers (the most recent first)."""
NAME_LENGTH = 16
"""The longest name the screens show whole."""
PREFERENCES_LIMIT = 64 * 1024
"""Twelve regulars and three settings take under 2 kB."""


@dataclass(frozen=True)
class Regular:
    name: str
    color: str
    """The favourite colour, offered first when this player sits down."""


@dataclass(frozen=True)
class Preferences:
    language: str = "en"
    roster: tuple[Regular, ...] = ()
    auto_confirm: bool = False
    problem: str = field(default="", compare=False)
    """Why the saved file could not be used, when it could not."""

    def with_players(self, seats: list[tuple[str, str]]) -> Preferences:
        """The roster after a game with these players: they come first, newest colours."""
        chosen = [Regular(name, color) for name, color in seats]
        people = {person(r.name) for r in chosen}
        kept = [r for r in self.roster if person(r.name) not in people]
        return replace(self, roster=tuple((chosen + kept)[:ROSTER_SIZE]))

    def to_json(self) -> dict[str, Any]:
        return {"version": 1, "language": self.language, "auto_confirm": self.auto_confirm,
                "roster": [{"name": r.name, "color": r.color} for r in self.roster]}

    @classmethod
    def from_json(cls, data: Any) -> Preferences:
        """The preferences in ``data``; a value that is not usable falls back to its default,
        with a warning in the log, and the others are kept."""
        if not isinstance(data, dict) or data.get("version") != 1:
            raise ValueError("not a version-1 preferences file")
        language = data.get("language", "en")
        if not isinstance(language, str) or language not in LANGUAGES:
            log.warning("preferences: language %.40r is not one the screen speaks; English used",
                        language)
            language = "en"
        auto_confirm = data.get("auto_confirm", False)
        if not isinstance(auto_confirm, bool):
            log.warning("preferences: auto_confirm %.40r is not true or false; proposals wait "
                        "for a tap", auto_confirm)
            auto_confirm = False
        entries = data.get("roster", [])
        if not isinstance(entries, list):
            log.warning("preferences: the regulars are not a list; none remembered")
            entries = []
        roster = [Regular(e["name"], e["color"]) for e in entries if _is_regular(e)]
        if len(roster) < len(entries):
            log.warning("preferences: %d of the regulars are not usable and left out",
                        len(entries) - len(roster))
        return cls(language, tuple(roster[:ROSTER_SIZE]), auto_confirm)


def _is_regular(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    name, color = entry.get("name"), entry.get("color")
    return (isinstance(name, str) and bool(name.strip()) and len(name) <= NAME_LENGTH
            and isinstance(color, str) and color in PLAYER_COLORS and _is_text(name))


def _is_text(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def load_preferences(path: Path) -> Preferences:
    if not path.exists():
        return Preferences()
    try:
        return Preferences.from_json(parse_json(read_regular(path, PREFERENCES_LIMIT)))
    except (OSError, JSONTextError, ValueError) as error:
        log.warning("preferences %s not used: %s", path, error)
        return Preferences(problem=str(error))


def save_preferences(preferences: Preferences, path: Path) -> None:
    """Atomically; an ``OSError`` says the disk refused (the caller shows it)."""
    text = json.dumps(preferences.to_json(), indent=1, ensure_ascii=False) + "\n"
    write_atomically(path, text.encode("utf-8"))
