"""Play: the ring, the jump gate, the end gauge, whose turn; six actions offering only legal
targets; the camera's proposals with one-tap confirm; undo and redo.

Only what the physical table shows is on screen: counts of tiles and cards, never their kinds.
"""

from __future__ import annotations

from dataclasses import replace

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.rules import (ACTION_TYPES, HAND_SIZE, TILE_KINDS, TILE_NAMES, Action, End,
                             Event, GameState, legal_events, takes_tile)
from companion.scoring import standings
from companion.tracker import TrackerView
from ui.widgets import PLAYER_RGBA, fill_proposals

ACTION_LABELS = {"top_up": "Top up", "jump": "Jump", "fly": "Fly", "scan": "Scan",
                 "develop": "Develop", "discover": "Discover"}
UNKNOWN = "kind not known"
KIND_CHOICES = {UNKNOWN: None, **{f"{kind} {TILE_NAMES[kind]}": kind for kind in TILE_KINDS}}
"""What the tile spinner shows, and the kind each entry means."""


class PlayScreen(Screen):
    standings = ObjectProperty(None, allownone=True)
    turn_text = StringProperty("")
    gauge_text = StringProperty("")
    gauge = NumericProperty(0)
    banner = StringProperty("")
    message = StringProperty("")
    camera_text = StringProperty("")
    """The camera's state when it is not well ("camera lost: manual entry still works")."""
    entering = StringProperty("")
    """The action being entered by touch ('' when none)."""
    targets = ListProperty([])
    view: TrackerView = ObjectProperty(TrackerView())

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.refresh_soon = Clock.create_trigger(self.refresh)  # repaints coalesced
        self._shown: tuple[object, TrackerView] | None = None

    def on_pre_enter(self, *_: object) -> None:
        self.entering = ""
        self.refresh()

    # -- painting ------------------------------------------------------------------------------

    def show(self, state: GameState, view: TrackerView) -> None:
        """New state or proposals from the app's clock: repaint once, on the next frame."""
        if self._shown != (state, view):
            self._shown = (state, view)
            self.view = view
            self.refresh_soon()

    def refresh(self, *_: object) -> None:
        app = App.get_running_app()
        state = app.session.state
        if state is None:
            return
        board = standings(state)
        self.standings = board
        me = board.players[[p.name for p in board.players].index(board.current)]
        self.turn_text = (f"[b][color={_hex(me.color)}]{board.current}[/color][/b] ({me.color}) - "
                          f"action {board.action} of 2 - round {board.round}\n"
                          f"hand {me.hand} cards, {me.chips_left} chips left")
        self.gauge = min(1.0, board.revealed_space / board.threshold)
        self.gauge_text = f"space revealed {board.revealed_space} / {board.threshold}"
        self.banner = ("GAME OVER" if board.ended else
                       "FINAL ROUND - play to the end of the round" if board.final_round else "")
        self.message = app.session.message
        legal: dict[str, list[Action]] = {}
        for event in legal_events(state):
            legal.setdefault(event.type, []).append(event)
        for kind in ACTION_TYPES:
            self.ids[f"action_{kind}"].disabled = kind not in legal
        self.ids.undo.disabled = not app.session.can_undo
        self.ids.redo.disabled = not app.session.can_redo
        self._show_choices(state, legal)
        fill_proposals(self.ids.proposals, self.view, self.confirm)
        if state.ended and app.root.current == "play":
            Clock.schedule_once(lambda _: app.show("end"), 0)

    def _show_choices(self, state: GameState, legal: dict[str, list[Action]]) -> None:
        box = self.ids.choices
        box.clear_widgets()
        kind = self.entering
        events = legal.get(kind, [])
        self.targets = [e.to for e in events] if kind in ("jump", "fly") else []
        if not events:
            self.entering = ""
            return
        if kind == "top_up":
            for event in events:
                self._choice(f"discard {event.discard}, draw to {HAND_SIZE}", event)
        elif kind in ("jump", "fly"):
            for event in events:
                self._choice(event.to, event)
        else:
            taking = [e for e in events if takes_tile(state, e)]
            for event in events:
                if event in taking:
                    continue
                only_space = getattr(event, "only_space", False)
                label = "only space tiles found (first scan)" if only_space else f"Confirm {kind}"
                self._choice(label, event)
            if taking:
                row = Factory.TileChoice()
                row.ids.kind.values = list(KIND_CHOICES)
                row.ids.kind.text = UNKNOWN
                box.add_widget(row)
                self._tile_row, self._tile_base = row, taking[0]
                self._choice(f"Confirm {kind}", None)

    def _choice(self, text: str, event: Event | None) -> None:
        button = Factory.BigButton(text=text)
        button.bind(on_release=lambda _: self.confirm(event or self._tile_event()))
        self.ids.choices.add_widget(button)

    def _tile_event(self) -> Event:
        """The action being entered, with the tile kind and reveal the player chose (the
        engine judges it when it is played, and says why if it refuses)."""
        row = self._tile_row
        return replace(self._tile_base, tile=KIND_CHOICES[row.ids.kind.text],
                       reveal=row.ids.reveal.active)

    # -- touches -------------------------------------------------------------------------------

    def begin(self, kind: str) -> None:
        self.entering = "" if self.entering == kind else kind
        self.refresh()

    def confirm(self, event: Event) -> None:
        app = App.get_running_app()
        if app.session.play(event):
            self.entering = ""
        self.refresh()

    def undo(self) -> None:
        App.get_running_app().session.undo()
        self.entering = ""
        self.refresh()

    def redo(self) -> None:
        App.get_running_app().session.redo()
        self.refresh()

    def end_now(self) -> None:
        self.confirm(End())


def _hex(color: str) -> str:
    r, g, b, _ = PLAYER_RGBA[color]
    return f"{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
