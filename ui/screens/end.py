"""End: each player's tiles, read in the scan tray or counted on picture buttons (moving on to
the next player by itself), then the score sheet by category, the winner with the tie-break
spelled out, a chart with a legend (space tiles' minus points included), and the BG Stats code.
"""

from __future__ import annotations

from collections import Counter

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import (BooleanProperty, DictProperty, ListProperty, NumericProperty,
                             ObjectProperty, StringProperty)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.rules import TILE_KINDS, GameState, Inventory
from companion.scoring import ScoreSheet, score
from companion.tracker import TrackerView
from ui.i18n import _, ngettext
from ui.screens.widgets import CategoryIcon, ask, choice_button
from ui.words import (column_name, notice_text, proposal_question, proposal_source,
                      tile_name)

CATEGORIES = ("jump_gate", "station_points", "minerals", "aliens", "matter", "water", "medals",
              "space")
"""The score sheet's columns before the total, in the rules' order."""


def winner_text(sheet: ScoreSheet) -> str:
    """Who won, and how a tie was broken (most points; then most stations; then shared)."""
    winners = [p for p in sheet.players if p.name in sheet.winners]
    if not winners:
        return ""
    best = winners[0]
    tied = [p for p in sheet.players if p.total == best.total]
    names = ", ".join(p.name for p in winners)
    if len(winners) > 1:
        return _("Shared win: {names}, with {points} points and {stations} stations each.").format(
            names=names, points=best.total, stations=best.stations)
    if len(tied) > 1:
        return _("{tied} tie on {points} points; {name} wins with more stations "
                 "({stations}).").format(tied=", ".join(p.name for p in tied),
                                          points=best.total, name=best.name,
                                          stations=best.stations)
    return _("{name} wins with {points} points.").format(name=best.name, points=best.total)


class TileCounter(BoxLayout):
    kind = StringProperty("")
    text = StringProperty("")
    count = NumericProperty(0)


class SheetHeader(BoxLayout):
    """A score sheet column's head: the picture of its category alone (the legend under the
    chart names each picture: a column 52 px wide holds no "Stationen" at a readable size),
    or a word where there is no picture (the players, the total)."""

    category = StringProperty("")
    text = StringProperty("")
    pictured = BooleanProperty(False)

    def on_category(self, *_args: object) -> None:
        self.pictured = CategoryIcon.has_picture(self.category)


class EndScreen(Screen):
    player = StringProperty("")
    """Whose tiles are being entered."""
    counts = DictProperty({})
    holds = NumericProperty(0)
    all_entered = BooleanProperty(False)
    """As many tiles entered as the player holds: only then can they be saved."""
    complete = BooleanProperty(False)
    """Every player's tiles are known: the score sheet is final."""
    winner = StringProperty("")
    chart_rows = ListProperty([])
    link = StringProperty("")
    changed = BooleanProperty(False)
    """The counts shown differ from the player's tiles as saved: Save has something to do."""
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    view: TrackerView = ObjectProperty(TrackerView())

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._refresh = Clock.create_trigger(self.refresh, -1)
        self._drafts: dict[str, dict[str, int]] = {}
        """Counts entered but not saved, by player: kept when the user looks elsewhere."""
        self._saved: dict[str, int] = {}
        """The chosen player's tiles as the record has them, by kind."""
        app = App.get_running_app()
        app.fbind("revision", self._refresh)
        app.fbind("view", self._on_view)

    def on_complete(self, *_args: object) -> None:
        self.ids.parts.current = "results" if self.complete else "tiles"

    def on_pre_enter(self, *_args: object) -> None:
        self.player = ""
        self.refresh()

    def on_leave(self, *_args: object) -> None:
        app = App.get_running_app()
        app.inventory_for = ""
        if self.changed and self.player:
            self._drafts[self.player] = dict(self.counts)
            app.say(_("{player}'s counts are not saved yet; they wait on the score sheet.")
                    .format(player=self.player), "refused")

    def _on_view(self, _app: object, view: TrackerView) -> None:
        if view != self.view:
            self.view = view
            self._fill_camera()

    # -- painting ------------------------------------------------------------------------------

    def refresh(self, *_args: object) -> None:
        app = App.get_running_app()
        state: GameState | None = app.state
        if state is None or self.manager is None or self.manager.current != self.name:
            return
        if not state.ended:
            app.show("play")  # an undo reopened the game
            return
        self.can_undo, self.can_redo = app.session.can_undo, app.session.can_redo
        sheet = score(state)
        missing = [s.name for s, p in zip(state.setup.players, state.players)
                   if any(t is None for t in p.tiles)]
        self.complete = not missing
        if missing and self.player not in missing:
            self.choose(missing[0])
        elif not missing:
            self.player = ""
            app.inventory_for = ""
        self.winner = winner_text(sheet)
        self._fill_players(state, missing)
        self._fill_sheet(sheet, state)
        self.chart_rows = [(p.name, seat.color, {c: getattr(p, c) or 0 for c in CATEGORIES})
                           for p, seat in zip(sheet.players, state.setup.players)]
        self.link = self._bg_stats() if self.complete else ""
        self._fill_counts()
        self._fill_camera()

    def _bg_stats(self) -> str:
        return App.get_running_app().session.bg_stats_link()

    def _fill_players(self, state: GameState, missing: list[str]) -> None:
        row = self.ids.players
        row.clear_widgets()
        for seat in state.setup.players:
            done = seat.name not in missing
            button = Factory.TouchButton(
                text=_("{name}: done").format(name=seat.name) if done else seat.name,
                selected=seat.name == self.player, role="quiet" if done else "plain")
            button.bind(on_release=lambda _w, n=seat.name: self.choose(n))
            row.add_widget(button)

    def _fill_counts(self) -> None:
        grid = self.ids.counts
        if not grid.children:
            for kind in TILE_KINDS:
                counter = Factory.TileCounter(kind=kind, text=tile_name(kind))
                counter.ids.minus.bind(on_release=lambda _w, k=kind: self.bump(k, -1))
                counter.ids.plus.bind(on_release=lambda _w, k=kind: self.bump(k, 1))
                counter.ids.picture.bind(on_release=lambda _w, k=kind: self.bump(k, 1))
                grid.add_widget(counter)
        for counter in grid.children:
            counter.count = self.counts.get(counter.kind, 0)

    def _fill_sheet(self, sheet: ScoreSheet, state: GameState) -> None:
        table = self.ids.sheet
        table.clear_widgets()
        table.add_widget(Factory.SheetHeader(category="", text=_("Player"), size_hint_x=1.5))
        for column in (*CATEGORIES, "total"):
            table.add_widget(Factory.SheetHeader(category=column, text=column_name(column)))
        for row in sheet.players:
            # a long name ends in "…": the tile tabs above name each player whole
            table.add_widget(Factory.SheetCell(text=row.name, bold=row.name in sheet.winners,
                                               size_hint_x=1.5, cut=True,
                                               shorten_from="right"))
            for column in (*CATEGORIES, "total"):
                value = getattr(row, column)
                table.add_widget(Factory.SheetCell(text="?" if value is None else str(value),
                                                   bold=column == "total"))

    def _fill_camera(self) -> None:
        box = self.ids.camera
        box.clear_widgets()
        app = App.get_running_app()
        state = app.state
        if state is None or self.complete:
            return
        for proposal in self.view.proposals[:1]:
            card = Factory.ProposalCard(
                source=_("Camera: {seen}").format(seen=proposal_source(proposal)),
                question=proposal_question(state, proposal))
            card.ids.choices.add_widget(choice_button(
                _("Not this"), "plain", lambda p=proposal: app.dismiss([p])))
            card.ids.choices.add_widget(choice_button(
                _("Confirm"), "good", lambda p=proposal: self._save(p.event)))
            box.add_widget(card)
        for flag in self.view.flags[:2]:
            box.add_widget(Factory.FlagNote(text=notice_text(flag)))

    # -- touches -------------------------------------------------------------------------------

    def choose(self, player: str) -> None:
        app = App.get_running_app()
        state: GameState = app.state
        index = state.setup.player_index(player)
        if self.player and self.changed:
            self._drafts[self.player] = dict(self.counts)
        self.player = player
        self.holds = len(state.players[index].tiles)
        self._saved = dict(Counter(t for t in state.players[index].tiles if t is not None))
        self.counts = self._drafts.get(player, self._saved)
        self._counted()
        app.inventory_for = player
        self._fill_counts()
        self._fill_players(state, [s.name for s, p in zip(state.setup.players, state.players)
                                   if any(t is None for t in p.tiles)])

    def bump(self, kind: str, step: int) -> None:
        counts = dict(self.counts)
        counts[kind] = max(0, counts.get(kind, 0) + step)
        self.counts = counts
        self._counted()
        self._fill_counts()

    def _counted(self) -> None:
        self.all_entered = self.entered == self.holds
        shown = {kind: n for kind, n in self.counts.items() if n}
        self.changed = shown != {kind: n for kind, n in self._saved.items() if n}

    @property
    def entered(self) -> int:
        return sum(self.counts.values())

    def save_tiles(self) -> None:
        tiles = tuple(kind for kind in TILE_KINDS for _ in range(self.counts.get(kind, 0)))
        self._save(Inventory(self.player, tiles))

    def _save(self, event: Inventory) -> None:
        """Save a player's tiles; on to the next player whose tiles are missing."""
        app = App.get_running_app()
        if app.act(app.session.play(event)):
            self._drafts.pop(event.player, None)
            self.player = ""
            self.changed = False
            self.refresh()

    def export(self) -> None:
        app = App.get_running_app()
        app.act(app.session.export())

    def rematch(self) -> None:
        app = App.get_running_app()
        state: GameState = app.state
        app.show("setup")
        app.manager.get_screen("setup").seat_players(
            [(p.name, p.color) for p in state.setup.players], state.setup.variant)

    def undo(self) -> None:
        """Asked first: on the score sheet one tap would take back a whole tile entry, or
        reopen the game."""
        app = App.get_running_app()
        what = app.session.undoable()
        if not what:
            app.act(app.session.undo())  # says there is nothing to undo
            return
        ask(_("Undo?"), _("This takes back: {what}.").format(what=what), _("Undo"),
            _("Keep it"), lambda: app.act(app.session.undo()), role="plain")

    def redo(self) -> None:
        app = App.get_running_app()
        app.act(app.session.redo())

    def progress_text(self, player: str, holds: int, counts: dict) -> str:  # type: ignore[type-arg]
        entered = sum(counts.values())
        return ngettext("{player} holds {count} tile: {entered} entered.",
                        "{player} holds {count} tiles: {entered} entered.", holds).format(
            player=player, count=holds, entered=entered)
