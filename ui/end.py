"""End: every player's tiles (read in the scan tray, or counted by touch), the score sheet by
category, the winners with the tie-break, and a chart."""

from __future__ import annotations

from collections import Counter

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.rules import TILE_KINDS, TILE_NAMES, Inventory
from companion.scoring import score
from companion.tracker import TrackerView
from ui.widgets import fill_proposals

COLUMNS = (("jump_gate", "gate"), ("station_points", "stations"), ("minerals", "minerals"),
           ("aliens", "aliens"), ("matter", "matter"), ("water", "water"), ("medals", "medals"),
           ("space", "space"), ("total", "total"))


class EndScreen(Screen):
    player = StringProperty("")
    """Whose tiles are being entered."""
    counts = ObjectProperty(Counter())
    winners_text = StringProperty("")
    message = StringProperty("")
    chart_rows = ListProperty([])
    view: TrackerView = ObjectProperty(TrackerView())

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.refresh_soon = Clock.create_trigger(self.refresh)

    def on_pre_enter(self, *_: object) -> None:
        state = App.get_running_app().session.state
        if state is not None:
            unknown = [s.name for s, p in zip(state.setup.players, state.players)
                       if any(t is None for t in p.tiles)]
            self.choose(unknown[0] if unknown else state.setup.players[0].name)

    def choose(self, player: str) -> None:
        self.player = player
        state = App.get_running_app().session.state
        index = state.setup.player_index(player)
        self.counts = Counter(t for t in state.players[index].tiles if t is not None)
        self.refresh()

    def show(self, view: TrackerView) -> None:
        if view != self.view:
            self.view = view
            self.refresh_soon()

    def bump(self, kind: str, step: int) -> None:
        counts = Counter(self.counts)
        counts[kind] = max(0, counts[kind] + step)
        self.counts = counts
        self.refresh()

    def save_tiles(self) -> None:
        tiles = tuple(kind for kind in TILE_KINDS for _ in range(self.counts[kind]))
        self._play(Inventory(self.player, tiles))

    def _play(self, event: Inventory) -> None:
        session = App.get_running_app().session
        self.message = "" if session.play(event) else session.message
        self.refresh()

    def refresh(self, *_: object) -> None:
        session = App.get_running_app().session
        state = session.state
        if state is None:
            return
        sheet = score(state)
        players = self.ids.players
        players.clear_widgets()
        for seat in state.setup.players:
            button = Factory.ToggleButton(text=seat.name, group="who", font_size="16sp",
                                          state="down" if seat.name == self.player else "normal")
            button.bind(on_release=lambda _, n=seat.name: self.choose(n))
            players.add_widget(button)
        self._fill_counts(state)
        self._fill_table(sheet)
        self.chart_rows = [(p.name, {c: getattr(p, c) or 0 for c, _ in COLUMNS[:-2]})
                           for p in sheet.players]
        if sheet.winners:
            self.winners_text = ("Winner: " if len(sheet.winners) == 1 else "Shared win: ") + \
                ", ".join(sheet.winners) + _tie_note(sheet)
        else:
            self.winners_text = "Enter every player's tiles to see the winner."
        fill_proposals(self.ids.proposals, self.view, self._play, "Confirm from camera")

    def _fill_counts(self, state: object) -> None:
        grid = self.ids.counts
        grid.clear_widgets()
        for kind in TILE_KINDS:
            row = Factory.KindCounter()
            row.ids.name.text = f"{TILE_NAMES[kind]}: {self.counts[kind]}"
            row.ids.minus.bind(on_release=lambda _, k=kind: self.bump(k, -1))
            row.ids.plus.bind(on_release=lambda _, k=kind: self.bump(k, 1))
            grid.add_widget(row)

    def _fill_table(self, sheet: object) -> None:
        table = self.ids.table
        table.clear_widgets()
        table.cols = len(COLUMNS) + 1
        for text in ["player"] + [title for _, title in COLUMNS]:
            table.add_widget(Factory.Cell(text=f"[b]{text}[/b]"))
        for row in sheet.players:  # type: ignore[attr-defined]
            table.add_widget(Factory.Cell(text=row.name))
            for column, _ in COLUMNS:
                value = getattr(row, column)
                table.add_widget(Factory.Cell(text="?" if value is None else str(value)))


def _tie_note(sheet: object) -> str:
    rows = [p for p in sheet.players if p.name in sheet.winners]  # type: ignore[attr-defined]
    others = [p for p in sheet.players if p.name not in sheet.winners]  # type: ignore[attr-defined]
    if any(o.total == rows[0].total for o in others):
        return " (tie on points broken by stations)"
    return ""
