"""Which tile a scan, a develop or a discover takes: large pictures by category, whether only
space tiles are left now, and the special case, each guard asked once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.rules import (DEVELOP, DISCOVER, SCAN, SPACE, TILE_KINDS, Action, GameState,
                             RulesError, Scan, apply, takes_tile)
from ui.i18n import _
from ui.screens.widgets import ask
from ui.words import error_text, tile_name


class TileDialog(ModalView):
    """Scan, develop or discover: whether only space tiles are left now, and the special case;
    the tile's kind stays unknown unless a player asks to enter it (large pictures by
    category, the others looking away)."""

    kind = StringProperty(SCAN)
    title = StringProperty("")
    tile = StringProperty("", allownone=True)
    reveal = BooleanProperty(False)
    warning = StringProperty("")
    only_space = BooleanProperty(False)
    """The special case is open (an untouched stack)."""
    taking = BooleanProperty(True)
    answered = BooleanProperty(False)
    private = BooleanProperty(False)
    """The kinds are shown: a player asked to enter the tile's kind now, the others looking
    away (by default it stays unknown until the end)."""

    def __init__(self, kind: str, events: list[Action], play: Callable[[Action], None],
                 cancel: Callable[[], None], **kwargs: object) -> None:
        self.events = events
        self._play_event, self._cancel = play, cancel
        super().__init__(kind=kind, **kwargs)
        app = App.get_running_app()
        state: GameState = app.state
        me = state.current_name
        at = state.players[state.current].at
        self.planet = state.setup.planets[at].name if at is not None else ""
        self.taking = any(takes_tile(state, e) for e in events)
        self.only_space = any(isinstance(e, Scan) and e.only_space for e in events)
        self.title = {
            SCAN: _("Scan {planet}: {player} reserves a tile"),
            DEVELOP: _("Develop {planet}: {player} takes a tile"),
            DISCOVER: _("Discover on {planet}: {player} takes a tile")}[kind].format(
            planet=self.planet, player=me)
        grid = self.ids.tiles
        for kind_ in (None, *TILE_KINDS):
            if kind_ == SPACE and state.setup.variant == "yucata":
                continue  # never possible in this variant
            button = Factory.TileButton(kind=kind_ or "", text=tile_name(kind_),
                                        selected=kind_ is None)
            button.bind(on_release=lambda b, k=kind_: self.choose(k))
            grid.add_widget(button)

    def choose(self, kind: str | None) -> None:
        self.tile = kind or ""
        for button in self.ids.tiles.children:
            button.selected = (button.kind or None) == kind
        app = App.get_running_app()
        self.warning = (_("A space tile costs {player} 10 points at the end.").format(
            player=app.state.current_name) if kind == SPACE else "")

    def toggle_reveal(self) -> None:
        self.reveal = not self.reveal

    def event(self) -> Action:
        base = next(e for e in self.events
                    if takes_tile(App.get_running_app().state, e))
        return replace(base, tile=self.tile or None, reveal=self.reveal)  # type: ignore[arg-type]

    def confirm(self) -> None:
        """The guards, each asked once: a space tile's cost, then the reveal."""
        app = App.get_running_app()
        event = self.event()
        try:
            after = apply(app.state, event)
        except RulesError as error:
            self.warning = error_text(error)
            return
        steps: list[Callable[[Callable[[], None]], None]] = []
        if event.tile == SPACE:  # only the printed rules let it be chosen
            steps.append(lambda go: ask(
                _("Take a space tile?"),
                _("Space tiles are not point tiles: {player} loses 10 points at the end for "
                  "it.").format(player=app.state.current_name),
                _("Take the space tile"), _("Back"), go))
        if self.reveal:
            steps.append(lambda go: ask(
                _("Turn the space tiles face up?"), self._reveal_text(after),
                _("Turn them face up"), _("Back"), go))
        self._run(steps, lambda: self._play(event))

    def _reveal_text(self, after: GameState) -> str:
        text = _("Only space tiles are left on {planet}: they are laid face up. Space tiles "
                 "face up: {revealed} of {threshold}.").format(
            planet=self.planet, revealed=after.revealed_space,
            threshold=after.setup.threshold)
        if after.final_round:
            text += " " + _("This starts the final round.")
        return text

    def special_case(self) -> None:
        """The only-space first scan: asked once, with what it does."""
        app = App.get_running_app()
        event = next(e for e in self.events if isinstance(e, Scan) and e.only_space)
        after = apply(app.state, event)
        ask(_("Only space tiles in this stack?"),
            _("The first scan of {planet} finds only space tiles: {player} plays the card, "
              "reserves nothing, and all the tiles are turned face up ({revealed} of "
              "{threshold} face up).").format(planet=self.planet,
                                              player=app.state.current_name,
                                              revealed=after.revealed_space,
                                              threshold=after.setup.threshold)
            + (" " + _("This starts the final round.") if after.final_round else ""),
            _("Only space tiles"), _("Back"), lambda: self._play(event))

    @staticmethod
    def _run(steps: list[Callable[[Callable[[], None]], None]], last: Callable[[], None]) -> None:
        if not steps:
            last()
            return
        steps[0](lambda: TileDialog._run(steps[1:], last))

    def _play(self, event: Action) -> None:
        if self.answered:
            return  # a second tap while the dialog fades away
        self.answered = True
        self.dismiss()
        self._play_event(event)

    def cancel(self) -> None:
        if self.answered:
            return
        self.answered = True
        self.dismiss()
        self._cancel()
