"""The demo table: a simulated game played on the synthetic table, through the real pipeline.

It is a camera (it gives the table and tray frames of the game as it unfolds) and a simulated
player: what the camera proposes, the player confirms when it is what happened (setting only
what a camera cannot see: whether the remaining tiles were turned face up); what the camera did
not propose (a flight, a top up without cards, an undo, a card it was unsure of), the player
enters by touch. So a newcomer sees the whole loop, and the tests can count how much of a game
the camera carried.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np

from companion.observations import Observation
from companion.rules import End, Event, Inventory, Redo, Setup, Undo
from companion.simulate import simulate
from ui.camera import TableEyes
from ui.session import Session, same_action
from vision.playback import PlaybackFrame, TablePlayback


@dataclass
class DemoTable:
    setup: Setup
    script: list[Event]
    seed: int = 0
    frames_per_event: int = 6
    counts: Counter[str] = field(default_factory=Counter)
    """How events were entered: ``camera`` or ``touch``."""

    @classmethod
    def simulated(cls, seed: int = 7, players: int = 3, **options: int) -> DemoTable:
        game = simulate(seed, players)
        return cls(game.setup, list(game.events), seed, **options)

    def __post_init__(self) -> None:
        self._frames = iter(TablePlayback(self.setup, self.script, self.seed,
                                          frames_per_event=self.frames_per_event))
        self._current: PlaybackFrame | None = None
        self._next = 0
        self._waited = 0
        self.name = "demo"

    # -- the camera ----------------------------------------------------------------------------

    def read(self) -> np.ndarray | None:
        self._current = next(self._frames, None)
        return None if self._current is None else self._current.table

    def read_tray(self) -> np.ndarray | None:
        return None if self._current is None else self._current.tray

    def close(self) -> None:
        pass

    @property
    def finished(self) -> bool:
        return self._next >= len(self.script)

    # -- the player ----------------------------------------------------------------------------

    def act(self, session: Session, seen: Observation) -> str | None:
        """After a frame: confirm or enter the scripted event when the table shows it.
        Returns how it was entered, or None when it waits for the camera."""
        frame = self._current
        if self.finished or frame is None:
            return None
        if frame.event_index < self._next:
            return None  # the table does not show it yet
        event = self.script[self._next]
        late = frame.event_index > self._next or self._waited >= self.frames_per_event + 1
        if isinstance(event, Undo | Redo | End):
            return self._enter(session, event, "touch")
        inventory_for = event.player if isinstance(event, Inventory) else None
        view = session.look(seen, inventory_for=inventory_for)
        for proposal in view.proposals:
            if _matches(proposal.event, event):
                confirmed = proposal.event
                if hasattr(event, "reveal"):  # what no camera sees: the players set it
                    confirmed = replace(confirmed, reveal=event.reveal)  # type: ignore[arg-type]
                return self._enter(session, confirmed, "camera")
        if late:
            return self._enter(session, event, "touch")
        if frame.settled:
            self._waited += 1
        return None

    def _enter(self, session: Session, event: Event, how: str) -> str:
        if not session.play(event):
            raise RuntimeError(f"the demo's event {event} was refused: {session.message}")
        self.counts[how] += 1
        self._next += 1
        self._waited = 0
        return how


def play_demo(demo: DemoTable, session: Session, eyes: TableEyes | None = None) -> None:
    """Run a demo to its end without a screen: camera, vision, tracker, engine."""
    eyes = eyes or TableEyes()
    while not demo.finished:
        frame = demo.read()
        if frame is None:
            break
        demo.act(session, eyes.see(frame, demo.read_tray()))


def _matches(proposed: Event, scripted: Event) -> bool:
    if isinstance(proposed, Inventory) and isinstance(scripted, Inventory):
        return (proposed.player == scripted.player
                and sorted(proposed.tiles) == sorted(scripted.tiles))
    return same_action(proposed, scripted)
