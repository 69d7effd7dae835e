"""The game session behind the screens: the open journal and the tracker.

Undo and redo are journal events (the core keeps both), so they survive a restart. Kivy-free, so
the whole loop can be driven and tested without a window.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from companion.journal import Journal, JournalError, JournalWriteError
from companion.library import Library
from companion.observations import Observation
from companion.rules import Event, GameState, Redo, RulesError, Setup, Undo
from companion.tracker import Proposal, Tracker, TrackerView


@dataclass
class Session:
    library: Library
    auto_confirm: bool = False
    """Confirm an unambiguous camera proposal without a tap (off unless the players choose)."""
    journal: Journal | None = None
    tracker: Tracker = field(default_factory=Tracker)
    error: BaseException | None = None
    """Why the last thing asked of the session was refused or failed (None when it went well);
    the screen says it in the players' language."""
    notice: str = ""
    """Something the players should know on opening a record (a line cut short)."""
    _lock: threading.RLock = field(default_factory=threading.RLock)

    @property
    def state(self) -> GameState | None:
        return None if self.journal is None else self.journal.state

    @property
    def message(self) -> str:
        """The last refusal or failure, in English (logs and tests)."""
        return "" if self.error is None else str(self.error)

    def start(self, setup: Setup) -> bool:
        with self._lock:
            self.close()
            try:
                self.journal = self.library.new_game(setup)
            except (JournalWriteError, OSError) as error:
                self.error = error
                return False
            self._fresh()
            return True

    def resume(self) -> bool:
        """Open the newest unfinished game, at the same turn and action. False if none."""
        record = self.library.in_progress()
        return record is not None and self.open(record.path)

    def open(self, path: Path) -> bool:
        """Open a kept record to play on, or to enter the tiles of a finished game."""
        with self._lock:
            try:
                journal = Journal.open(path)
            except (JournalError, JournalWriteError, OSError) as error:
                self.error = error
                return False
            self.close()
            self.journal = journal
            self._fresh()
            self.notice = "" if journal.dropped is None else str(journal.dropped)
            return True

    def _fresh(self) -> None:
        self.tracker = Tracker()
        self.error = None
        self.notice = ""

    def play(self, event: Event) -> bool:
        """Apply and store an event; on refusal keep the game and keep the reason in ``error``."""
        with self._lock:
            if self.journal is None:
                self.error = RulesError("no game is open")
                return False
            try:
                self.journal.append(event)
            except (RulesError, JournalWriteError) as error:
                self.error = error
                return False
            self.error = None
            return True

    def undo(self) -> bool:
        return self.play(Undo())

    def redo(self) -> bool:
        return self.play(Redo())

    @property
    def can_undo(self) -> bool:
        return self.journal is not None and bool(self.journal.game.events_in_effect)

    @property
    def can_redo(self) -> bool:
        return self.journal is not None and bool(self.journal.game.undone)

    def look_and_auto_confirm(self, seen: Observation, entering: str | None = None,
                              inventory_for: str | None = None) -> TrackerView:
        """What the camera proposes now; with auto-confirm, an unambiguous proposal is played
        (written to the record), hence the name."""
        with self._lock:
            state = self.state
            if state is None:
                return TrackerView()
            view = self.tracker.update(state, seen, entering, inventory_for)
            if self.auto_confirm and view.unambiguous is not None:
                if self.play(view.unambiguous.event):
                    return TrackerView((), view.flags)
            return view

    def dismiss(self, proposal: Proposal) -> None:
        """The players said "not this": the camera stops proposing it for what it sees now."""
        with self._lock:
            self.tracker.dismiss(proposal.event)

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None


def same_action(a: Event, b: Event) -> bool:
    """Whether two events are the same action up to what a camera cannot see (the reveal)."""
    left, right = a.to_json(), b.to_json()
    left.pop("reveal", None)
    right.pop("reveal", None)
    return left == right
