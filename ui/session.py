"""The game session behind the screens: the open journal and the tracker.

Undo and redo are journal events (the core keeps both), so they survive a restart. Kivy-free, so
the whole loop can be driven and tested without a window.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from companion.journal import Journal, JournalWriteError
from companion.library import Library
from companion.observations import Observation
from companion.rules import Event, GameState, Redo, RulesError, Setup, Undo
from companion.tracker import Tracker, TrackerView


@dataclass
class Session:
    library: Library
    auto_confirm: bool = False
    """Confirm an unambiguous camera proposal without a tap (off unless the players choose)."""
    journal: Journal | None = None
    tracker: Tracker = field(default_factory=Tracker)
    message: str = ""
    """The last refusal or warning, for the screen."""
    _lock: threading.RLock = field(default_factory=threading.RLock)
    """The demo's simulated player acts from the camera thread, the players from the screen."""

    @property
    def state(self) -> GameState | None:
        return None if self.journal is None else self.journal.state

    def start(self, setup: Setup) -> bool:
        with self._lock:
            return self._start(setup)

    def _start(self, setup: Setup) -> bool:
        self.close()
        try:
            self.journal = self.library.new_game(setup)
        except (JournalWriteError, OSError) as error:
            self.message = f"the game cannot be saved, so it was not started: {error}"
            return False
        self.tracker = Tracker()
        return True

    def resume(self) -> bool:
        """Open the newest unfinished game, at the same turn and action. False if none."""
        record = self.library.in_progress()
        if record is None:
            return False
        self.close()
        self.journal = Journal.open(record.path)
        if self.journal.dropped is not None:
            self.message = str(self.journal.dropped)
        self.tracker = Tracker()
        return True

    def play(self, event: Event) -> bool:
        """Apply and store an event; on refusal keep the game and say why in ``message``."""
        with self._lock:
            return self._play(event)

    def _play(self, event: Event) -> bool:
        if self.journal is None:
            self.message = "no game is open"
            return False
        try:
            self.journal.append(event)
        except RulesError as error:
            self.message = str(error)
            return False
        except JournalWriteError as error:
            self.message = f"not saved: {error}"
            return False
        self.message = ""
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

    def look(self, seen: Observation, entering: str | None = None,
             inventory_for: str | None = None) -> TrackerView:
        """What the camera proposes now; with auto-confirm, an unambiguous proposal is taken."""
        with self._lock:
            return self._look(seen, entering, inventory_for)

    def _look(self, seen: Observation, entering: str | None,
              inventory_for: str | None) -> TrackerView:
        state = self.state
        if state is None:
            return TrackerView()
        view = self.tracker.update(state, seen, entering, inventory_for)
        if self.auto_confirm and view.unambiguous is not None:
            proposal = view.unambiguous
            if self._play(proposal.event):
                return TrackerView((), view.flags)
        return view

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
