"""The demo table: a simulated game played on the synthetic table, through the real pipeline.

It is a camera (the table and tray frames of the game as it unfolds) and a simulated player. What
the camera proposes, the player confirms when it is what happened (setting only what a camera
cannot see: whether the remaining tiles were turned face up); what the camera did not propose (a
top up without cards, a move hidden from it, a card it was unsure of), the player enters by
touch; the end too. An undo takes the table back, so the camera may propose it.
So a newcomer watches the whole loop, and the tests can count how much of a game the camera
carried.

The camera thread only reads frames; the table waits for the player (it does not show the next
action before the last one was entered), but for top ups that lay no card: no camera sees
one, and at a table the next player just plays on, so the table shows the action after them
while the top ups wait to be entered. The player decides on the app's thread, where every
change to the game is made. A player's own touch pauses the demo for good: the table is theirs.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np

from companion.observations import Observation
from companion.rules import Develop, Discover, End, Event, Fly, Inventory, Jump, Scan, Setup, TopUp
from vision.config import Calibration
from vision.pieces import Ring, RingNotFound, find_ring
from companion.simulate import simulate
from companion.tracker import Proposal, TrackerView
from ui.camera import TableEyes
from ui.session import Session, same_action
from synthetic.playback import PlaybackFrame, TablePlayback
from synthetic.teaching import demo_calibration


@dataclass(frozen=True)
class DemoMove:
    """What the simulated player does next."""

    event: Event
    how: str
    """``camera``: confirming a proposal; ``touch``: entering it by touch."""
    proposal: Proposal | None = None


@dataclass
class DemoTable:
    setup: Setup
    script: list[Event]
    seed: int = 0
    frames_per_event: int = 6
    """Frames each event's table is drawn still, the hand gone (the last stays in view)."""
    patience: int = 15
    """Still frames the camera has to propose an event before the player enters it by touch:
    a second at the camera's 15 frames a second, as long as players wait for the screen."""
    counts: Counter[str] = field(default_factory=Counter)
    """How events were entered: ``camera`` or ``touch``; and ``camera under a hand``, the
    camera's proposals confirmed while a hand was over the table (none should be)."""
    waits: list[int] = field(default_factory=list)
    """For each event the camera carried: the frames the table had stood still, the hand
    gone, before its proposal came."""

    @classmethod
    def simulated(cls, seed: int = 7, players: int = 3, **options: int) -> DemoTable:
        game = simulate(seed, players)
        return cls(game.setup, list(game.events), seed, **options)

    def __post_init__(self) -> None:
        playback = TablePlayback(self.setup, self.script, self.seed,
                                 frames_per_event=self.frames_per_event)
        self.ring = _demo_ring(playback, self.setup)
        """The ring as calibrated on the table's start (None if it were not found: the demo
        then plays on without the pieces)."""
        self._frames = iter(playback)
        self._lock = threading.Lock()
        self._current: PlaybackFrame | None = None
        self._waiting: PlaybackFrame | None = None
        self._next = 0
        self._settled = 0
        self.paused = False
        self.name = "demo"

    # -- the camera (its own thread) -----------------------------------------------------------

    def read(self) -> np.ndarray | None:
        """The table as it is: it moves on to the next action only once the last was entered."""
        with self._lock:
            render = not self.paused and self._waiting is None
        # drawn outside the lock (only this thread draws): the player's thread, the app's, asks
        # for the lock every tick and would wait the whole drawing, up to a second
        upcoming = next(self._frames, None) if render else None
        with self._lock:
            if render:
                self._waiting = upcoming
            if not self.paused:
                shown = self._next + self._played_on()
                if self._waiting is not None and self._waiting.event_index <= shown:
                    self._current, self._waiting = self._waiting, None
                current = self._current
                if current is not None and current.event_index >= shown:
                    # camera frames the table has shown the action still since a hand left it
                    # (the still table of top ups played on is no action to propose yet)
                    self._settled = self._settled + 1 if current.settled else 0
            return None if self._current is None else self._current.table

    def _played_on(self) -> int:
        """How many top ups that lay no card come next, when an action follows them: the
        table goes on to that action (the next player's, or the player's own second one);
        else 0."""
        silent = self._next
        while silent < len(self.script) and isinstance(self.script[silent], TopUp) and \
                not self.script[silent].discard:  # type: ignore[union-attr]
            silent += 1
        if silent == self._next or silent >= len(self.script) or \
                not isinstance(self.script[silent], Jump | Fly | Scan | Develop | Discover):
            return 0
        return silent - self._next

    def read_tray(self) -> np.ndarray | None:
        with self._lock:
            return None if self._current is None else self._current.tray

    def close(self) -> None:
        pass

    @property
    def calibration(self) -> Calibration:
        """The demo table's calibration: its deck taught and its ring found."""
        calibration = demo_calibration()
        calibration.ring = self.ring
        return calibration

    # -- the player (the app's thread) ---------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self._next >= len(self.script)

    @property
    def inventory_for(self) -> str | None:
        """Whose tiles the player shows in the tray next, at the end."""
        event = self.script[self._next] if not self.finished else None
        return event.player if isinstance(event, Inventory) else None

    def decide(self, view: TrackerView) -> DemoMove | None:
        """The next move when the table shows it: the camera's proposal when it matches, else
        by touch once the camera has had its chance; None while waiting."""
        with self._lock:
            frame = self._current
            if self.paused or self.finished or frame is None or frame.event_index < self._next:
                return None
            event = self.script[self._next]
            settled = self._settled
        if isinstance(event, End):
            return DemoMove(event, "touch")
        if view.moving:
            return None  # a player taps once the hands have left the table
        for proposal in view.proposals:
            if _matches(proposal.event, event):
                confirmed = proposal.event
                if hasattr(event, "reveal"):  # what no camera sees: the players set it
                    confirmed = replace(confirmed, reveal=event.reveal)  # type: ignore[arg-type]
                if not frame.settled:
                    self.counts["camera under a hand"] += 1
                self.waits.append(settled)
                return DemoMove(confirmed, "camera", proposal)
        if settled > self.patience:
            return DemoMove(event, "touch")
        return None

    def moved(self, move: DemoMove, ok: bool) -> None:
        """The move was made (or refused: then the demo stops, the game stays as it is)."""
        with self._lock:
            if not ok:
                self.paused = True
                return
            self.counts[move.how] += 1
            self._next += 1
            self._settled = 0

    def pause(self) -> None:
        with self._lock:
            self.paused = True


def play_demo(demo: DemoTable, session: Session, eyes: TableEyes | None = None) -> None:
    """Run a demo to its end without a screen: camera, vision, tracker, engine."""
    eyes = eyes or TableEyes(demo.calibration)
    while not demo.finished and not demo.paused:
        frame = demo.read()
        if frame is None:
            break
        seen: Observation = eyes.see(frame, demo.read_tray())
        view, _played = session.look_and_auto_confirm(seen, inventory_for=demo.inventory_for)
        move = demo.decide(view)
        if move is not None:
            demo.moved(move, bool(session.play(move.event)))


def _demo_ring(playback: TablePlayback, setup: Setup) -> Ring | None:
    """The ring found on the table's start as a user would calibrate it: a tap on the first
    planet's board."""
    start = playback.start_frame()
    first = next(t for t in start.truth if t.kind == "board" and t.label == setup.planets[0].name)
    x, y = first.corners.mean(axis=0)
    try:
        return find_ring(start.image, [p.name for p in setup.planets], (float(x), float(y)),
                         [seat.color for seat in setup.players])
    except RingNotFound:
        return None


def _matches(proposed: Event, scripted: Event) -> bool:
    if isinstance(proposed, Inventory) and isinstance(scripted, Inventory):
        return (proposed.player == scripted.player
                and sorted(proposed.tiles) == sorted(scripted.tiles))
    return same_action(proposed, scripted)
