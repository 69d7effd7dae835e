"""Play: the board as the table looks, one token per player, whose turn and how close the end
is, the six actions (a tap on one the rules do not allow now says why), the camera's proposals
to confirm, and the game's log with undo and redo.

Only what the physical table shows is on screen: counts of tiles and cards, never their kinds.
"""

from __future__ import annotations

import time


from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import (BooleanProperty, DictProperty, ListProperty, NumericProperty,
                             ObjectProperty, StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.rules import (ACTION_TYPES, DEVELOP, DISCOVER, FLY, JUMP, SCAN, TOP_UP, Action,
                             Fly, GameState, Jump, TopUp, legal_events, takes_tile, why_not)
from companion.scoring import STATION_POINTS, Standings, gate_points, standings
from companion.tracker import Proposal, TrackerView
from ui.i18n import _, ngettext, pgettext
from ui.screens import theme
from ui.screens.legend import LegendDialog
from ui.screens.tile_picker import TileDialog
from ui.screens.widgets import ask, choice_button, player_marks, text_width
from ui.words import (action_name, error_text, last_moves, notice_text, place_words,
                      player_sheet, proposal_question, proposal_source)

LOG_LINES = 40
"""The newest lines the log shows."""
ACTIONS_PER_ROW = 3
MAX_CHOICES = 3
"""Proposals offered side by side: more would be a list to read, not a choice to tap."""


class PlayerToken(ButtonBehavior, BoxLayout):
    """One player as the table sees them: colour and name together, the points already public,
    gate place, stations, tiles held, cards in hand, last move (chips left: a tap away)."""

    name = StringProperty("")
    color_name = StringProperty("red")
    mark = StringProperty("")
    current = BooleanProperty(False)
    gate = StringProperty("")
    points = StringProperty("")
    """The points already public: the gate's (as the place stands now) and the stations'."""
    stations = NumericProperty(0)
    tiles = NumericProperty(0)
    cards = NumericProperty(0)
    last = StringProperty("")


class StatIcon(BoxLayout):
    """A small drawn icon and a number: gate place, stations, tiles, cards, chips."""

    kind = StringProperty("tiles")
    value = NumericProperty(0)
    text = StringProperty("")
    """Shown instead of the value when set."""
    color = ListProperty(list(theme.TEXT))


class PlayScreen(Screen):
    standings = ObjectProperty(None, allownone=True)
    colors = DictProperty({})
    marks = DictProperty({})
    planets = ListProperty([])
    available = DictProperty({kind: False for kind in ACTION_TYPES})
    targets = ListProperty([])
    turn_name = StringProperty("")
    turn_color = StringProperty("red")
    turn_text = StringProperty("")
    gauge = NumericProperty(0)
    gauge_text = StringProperty("")
    final_round = BooleanProperty(False)
    final_text = StringProperty("")
    """In the final round, what the banner says: how many turns are left."""
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    watching = BooleanProperty(False)
    """A camera is on: its picture and what it reads are shown."""
    view: TrackerView = ObjectProperty(TrackerView())
    status = StringProperty("")
    """The line under the panel: the camera's trouble, the demo's step and how to take over, or
    what was just done."""
    status_strong = BooleanProperty(False)
    """The status asks to be read (the camera's trouble, the demo), not only glanced at."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._refresh = Clock.create_trigger(self.refresh, -1)
        self._panel = Clock.create_trigger(self.fill_panel, -1)
        self._legal: dict[str, list[Action]] = {}
        app = App.get_running_app()
        app.fbind("revision", self._refresh)
        app.fbind("view", self._on_view)
        app.fbind("entering", self._panel)
        app.fbind("demo_move", self._panel)
        app.fbind("message", self._panel)
        app.fbind("message_kind", self._panel)
        for name in ("camera_status", "demo_running", "demo_taken_over", "demo_hint", "message",
                     "message_kind"):
            app.fbind(name, self._say_status)
        app.fbind("entering", self._paint_actions)
        self._actions: dict[str, Widget] = {}
        for row_kinds in (ACTION_TYPES[:ACTIONS_PER_ROW], ACTION_TYPES[ACTIONS_PER_ROW:]):
            row = BoxLayout(spacing=theme.GAP * app.scale)
            # each as wide as its name asks, at least an equal share: "Rifornimento carte"
            # keeps one line beside "Jump"
            names = [action_name(kind) for kind in row_kinds]
            widths = [text_width(name, theme.BODY, bold=False) for name in names]
            for kind, name, width in zip(row_kinds, names, widths):
                button = Factory.TouchButton(text=name, one_line=True,
                                             size_hint_x=max(1.0, 3 * width / sum(widths)))
                button.bind(on_release=lambda _b, k=kind: self.tap_action(k))
                row.add_widget(button)
                self.ids[f"action_{kind}"] = self._actions[kind] = button
            self.ids.actions.add_widget(row)
        self.bind(available=self._paint_actions)
        self._paint_actions()
        self._say_status()
        self._tokens: list[PlayerToken] = []
        self._log_rows: list[Widget] = []
        self._log_shown: tuple[int, int, str] | None = None

    def _paint_actions(self, *_args: object) -> None:
        entering = App.get_running_app().entering
        for kind, button in self._actions.items():
            button.available = self.available[kind]
            button.selected = entering == kind

    def _say_status(self, *_args: object) -> None:
        app = App.get_running_app()
        if app.demo_running:  # what the demo shows (how to take over is the banner's)
            said = app.demo_hint
        else:
            said = app.message if app.message_kind != "refused" else ""
        self.status = app.camera_status or said or app.demo_hint
        self.status_strong = bool(app.camera_status) or app.demo_running or \
            app.demo_taken_over

    def on_pre_enter(self, *_args: object) -> None:
        self.watching = App.get_running_app().camera is not None
        self.refresh()

    def on_leave(self, *_args: object) -> None:
        App.get_running_app().entering = ""

    def _on_view(self, _app: object, view: TrackerView) -> None:
        self.view = view
        # set here: kv re-reads no attribute of a plain object (the view's gate)
        self.ids.board.counted = dict(view.gate)
        self._panel()

    # -- painting ------------------------------------------------------------------------------

    def refresh(self, *_args: object) -> None:
        app = App.get_running_app()
        state: GameState | None = app.state
        if state is None or self.manager is None:
            return
        if state.ended and self.manager.current == self.name:
            Clock.schedule_once(lambda _w: app.show("end"), 0)
            return
        board = standings(state)
        names = [p.name for p in state.setup.players]
        self.colors = {p.name: p.color for p in state.setup.players}
        self.marks = player_marks(names)
        self.planets = list(state.setup.planets)
        self.standings = board
        me = board.players[names.index(board.current)]
        self.turn_name, self.turn_color = board.current, me.color
        self.turn_text = _("Action {action} of 2 · round {round}").format(
            action=board.action, round=board.round)
        self.gauge = min(1.0, board.revealed_space / board.threshold)
        if board.revealed_space < board.threshold:
            self.gauge_text = _("Space tiles face up: {revealed} of {threshold}").format(
                revealed=board.revealed_space, threshold=board.threshold)
        else:  # past the threshold, "14 of 8" would read as a count still running
            self.gauge_text = ngettext(
                "{revealed} space tile face up: the game ends after this round",
                "{revealed} space tiles face up: the game ends after this round",
                board.revealed_space).format(revealed=board.revealed_space)
        self.final_round = board.final_round
        # the round ends with the player before the start player (the engine's count)
        turns_left = len(names) - board.turn % len(names)
        self.final_text = (ngettext("Final round: the last turn",
                                    "Final round: {count} turns left", turns_left).format(
            count=turns_left) + " · " + _("action {action} of 2").format(action=board.action))
        self._legal = {}
        for event in legal_events(state):
            self._legal.setdefault(event.type, []).append(event)
        self.available = {kind: kind in self._legal for kind in ACTION_TYPES}
        self.can_undo, self.can_redo = app.session.can_undo, app.session.can_redo
        if app.entering and app.entering not in self._legal:
            app.entering = ""
        self._fill_tokens(state, board)
        self.fill_panel()

    def _fill_tokens(self, state: GameState, board: Standings) -> None:
        bar = self.ids.tokens
        if len(self._tokens) != len(board.players):
            bar.clear_widgets()
            self._tokens = [Factory.PlayerToken() for _ in board.players]
            for token in self._tokens:
                token.bind(on_release=lambda t: self.inspect_player(t.name))
                bar.add_widget(token)
        app = App.get_running_app()
        game = app.session.game
        if game is None:
            return
        moves = last_moves(game)
        gate = gate_points([p.probes for p in board.players])
        for token, player, points in zip(self._tokens, board.players, gate):
            token.points = _("{points} pts").format(
                points=points + player.stations * STATION_POINTS)
            token.name, token.color_name = player.name, player.color
            token.mark = self.marks[player.name]
            token.current = player.name == board.current
            token.gate = place_words(player.gate_place, player.gate_tied)
            token.stations, token.tiles = player.stations, player.tiles
            token.cards = player.hand
            token.last = moves.get(player.name, "")

    def fill_panel(self, *_args: object) -> None:
        app = App.get_running_app()
        started = time.perf_counter()
        self._fill_panel()
        app.ui_seconds["panel"].append(time.perf_counter() - started)

    def _fill_panel(self) -> None:
        """The side panel: a refusal until it is read, else the camera's proposals, else the
        action being entered, else the log."""
        app = App.get_running_app()
        state = app.state
        panel = self.ids.panel
        if state is None:
            return
        if app.entering not in (JUMP, FLY):
            self.targets = []
        flags = "\n".join(notice_text(f) for f in self.view.flags)
        kind = app.entering
        if app.message_kind == "refused" and app.message:
            # the whole panel: a refusal names the rule broken, and is read before going on
            card = panel.card("refusal")
            card.text, card.close_action = app.message, lambda: app.say("")
            panel.shown, flags = "refusal", ""
        elif self.view.proposals and kind in ("", SCAN, DEVELOP, DISCOVER, JUMP, TOP_UP):
            self._fill_proposals(panel.card("proposal"), state, list(self.view.proposals),
                                 flags)
            panel.shown, flags = "proposal", ""
        elif kind == TOP_UP:
            self._fill_top_up(panel.card("top_up"))
            panel.shown = "top_up"
        elif kind in (JUMP, FLY):
            card = panel.card("entering")
            card.title = _("{action}: tap a planet outlined in white").format(
                action=action_name(kind))
            card.cancel_action = self.cancel
            panel.shown = "entering"
        elif kind == DEVELOP:
            self._fill_develop(panel.card("develop"), state)
            panel.shown = "develop"
        else:
            self._fill_log(panel.card("log"), state)
            panel.shown = "log"
        panel.flags = flags

    def _fill_proposals(self, card: Widget, state: GameState, proposals: list[Proposal],
                        flags: str) -> None:
        """One proposal: the question, Not this and Confirm. A few: a short choice. Jumps to
        more planets than fit (a joker): the planets light up on the board to be tapped."""
        app = App.get_running_app()
        card.source = _("Camera: {seen}").format(seen=proposal_source(proposals[0]))
        demo_event = getattr(app.demo_move, "event", None)
        choices = card.ids.choices
        choices.clear_widgets()
        # a proposed jump's planet is outlined on the board too (a tap there confirms it)
        self.targets = [p.event.to for p in proposals[:MAX_CHOICES]
                        if isinstance(p.event, Jump)]
        if len(proposals) == 1:
            card.question = proposal_question(state, proposals[0])
            choices.add_widget(choice_button(_("Not this"), "plain",
                                            lambda: app.dismiss(proposals)))
            confirm = choice_button(_("Confirm"), "good",
                                    lambda: app.act(app.session.confirm(proposals[0])))
            confirm.state = "down" if demo_event == proposals[0].event else "normal"
            choices.add_widget(confirm)
        elif len(proposals) > MAX_CHOICES and all(isinstance(p.event, Jump)
                                                  for p in proposals):
            card.question = _("Jump: tap the planet outlined in white")
            self.targets = [p.event.to for p in proposals if isinstance(p.event, Jump)]
            choices.add_widget(choice_button(_("Not this"), "plain",
                                            lambda: app.dismiss(proposals)))
        else:
            # jumps only (a joker read): the question says "jump", each choice is a planet's
            # name alone, whole on one line ("Jump to Planet 12?" three times wrapped)
            jumps = all(isinstance(p.event, Jump) for p in proposals)
            card.question = _("Jump to which planet?") if jumps else _("Which is it?")
            for proposal in proposals[:MAX_CHOICES]:
                event = proposal.event
                text = event.to if isinstance(event, Jump) and jumps else \
                    proposal_question(state, proposal)
                button = choice_button(text, "good",
                                      lambda p=proposal: app.act(app.session.confirm(p)))
                button.state = "down" if demo_event == proposal.event else "normal"
                choices.add_widget(button)
            dismiss = choice_button("×", "plain", lambda: app.dismiss(proposals))
            dismiss.size_hint_x, dismiss.width = None, theme.TOUCH * app.scale
            choices.add_widget(dismiss)
        card.flags = flags.replace("\n", " · ")

    def _fill_top_up(self, card: Widget) -> None:
        choices = card.ids.choices
        choices.clear_widgets()
        for event in self._legal.get(TOP_UP, []):
            assert isinstance(event, TopUp)
            button = Factory.TouchButton(text=str(event.discard))
            button.bind(on_release=lambda _w, e=event: self.play(e))
            choices.add_widget(button)
        choices.add_widget(choice_button("×", "quiet", self.cancel))

    def _fill_develop(self, card: Widget, state: GameState) -> None:
        at = state.players[state.current].at
        planet = state.setup.planets[at].name if at is not None else ""
        events = self._legal.get(DEVELOP, [])
        card.title = _("Develop {planet}? Its stack is face up or empty: no tile is "
                       "taken.").format(planet=planet)
        card.confirm_text = pgettext("confirm", "Develop")
        card.cancel_action = self.cancel
        card.confirm_action = lambda: self.play(events[0]) if events else None

    def _fill_log(self, view: Widget, state: GameState) -> None:
        """The log, newest first. Its rows are made once, as the log first grows, and given
        new lines as the record grows: building forty rows on every tap made every tap slow."""
        app = App.get_running_app()
        lines = list(reversed(app.session.log_lines()[-LOG_LINES:]))
        while len(self._log_rows) < max(1, len(lines)):  # made as the log first grows
            self._log_rows.append(Factory.LogRow())
        grid = view.ids.lines
        key = (app.revision, len(lines), app.language)
        if key == self._log_shown:
            return
        self._log_shown = key
        grid.clear_widgets()
        if not lines:
            row = self._log_rows[0]
            row.text = (_("{player} begins. Tap an action, or lay a card on the "
                          "discard pile.") if self.watching else
                        _("{player} begins. Tap an action.")).format(
                player=state.current_name)
            unchecked = [planet.name for planet in state.setup.planets
                         if planet.name in app.session.box.example_planets]
            if unchecked:
                row.text += " " + _("Example coordinates, not your box's: {names}; "
                                    "check them in Box set-up.").format(
                    names=", ".join(unchecked))
            row.color_name = row.mark = ""
            grid.add_widget(row)
        for row, line in zip(self._log_rows, lines):
            row.text = line.text
            known = line.player in self.colors
            row.color_name = self.colors[line.player] if known else ""
            row.mark = self.marks[line.player] if known else ""
            grid.add_widget(row)

    # -- touches -------------------------------------------------------------------------------

    def tap_action(self, kind: str) -> None:
        """Begin entering an action; a tap on one the rules do not allow says why."""
        app = App.get_running_app()
        state = app.state
        if state is None:
            return
        if app.message_kind == "refused":
            app.say("")  # the last refusal was read: this tap is the next question
        if not self.available.get(kind):
            reason = why_not(state, kind)
            app.say(_("{action} is not possible now: {reason}").format(
                action=action_name(kind), reason=error_text(reason) if reason else ""),
                "refused")
            return
        if app.entering == kind:
            self.cancel()
            return
        app.entering = kind
        events = self._legal.get(kind, [])
        self.targets = [e.to for e in events if isinstance(e, Jump | Fly)]
        if kind in (SCAN, DISCOVER) or (kind == DEVELOP and any(
                takes_tile(state, e) for e in events)):
            TileDialog(kind=kind, events=events, play=self.play, cancel=self.cancel).open()

    def cancel(self, *_args: object) -> None:
        App.get_running_app().entering = ""
        self.targets = []

    def planet_tapped(self, name: str) -> None:
        app = App.get_running_app()
        proposed = [p for p in self.view.proposals
                    if isinstance(p.event, Jump) and p.event.to == name]
        if proposed and not app.entering and name in self.targets:
            # a jump the camera proposed, to the planet tapped
            app.act(app.session.confirm(proposed[0]))
            self.targets = []
            return
        if app.entering in (JUMP, FLY) and name in self.targets:
            event = next(e for e in self._legal[app.entering]
                         if isinstance(e, Jump | Fly) and e.to == name)
            self.play(event)
            return
        self.inspect_planet(name)

    def play(self, event: Action) -> None:
        app = App.get_running_app()
        if app.act(app.session.play(event)):
            self.cancel()

    def undo(self) -> None:
        self.cancel()
        app = App.get_running_app()
        app.act(app.session.undo())

    def redo(self) -> None:
        self.cancel()
        app = App.get_running_app()
        app.act(app.session.redo())

    def end_game(self) -> None:
        """Ending the game asks once: a stray tap must not end an evening."""
        app = App.get_running_app()
        ask(_("End the game now?"),
            _("The game ends at once, by the players' agreement, and goes to the score sheet. "
              "Undo brings it back."),
            _("End the game"), _("Keep playing"), lambda: app.act(app.session.end()))

    def show_legend(self) -> None:
        LegendDialog(color=self.turn_color).open()

    # -- inspecting ----------------------------------------------------------------------------

    def inspect_planet(self, name: str) -> None:
        board: Standings | None = self.standings
        if board is None:
            return
        index = [p.name for p in self.planets].index(name)
        planet, standing = self.planets[index], board.planets[index]
        lines = [_("Jump: blue {jump} · scan: green {scan} · landing: orange {a} and "
                   "orange {b}").format(jump=planet.jump, scan=planet.scan,
                                        a=planet.landing[0], b=planet.landing[1])]
        if standing.revealed:
            lines.append(ngettext("{count} space tile lies face up here.",
                                  "{count} space tiles lie face up here.",
                                  standing.tiles_left).format(count=standing.tiles_left))
        else:
            lines.append(ngettext("{count} tile left in the stack.",
                                  "{count} tiles left in the stack.",
                                  standing.tiles_left).format(count=standing.tiles_left))
        if standing.developer:
            lines.append(_("Station: {player}.").format(player=standing.developer))
        if standing.reserved_by:
            reserved = ", ".join(f"{n} ({standing.reserved_by.count(n)})"
                                 for n in dict.fromkeys(standing.reserved_by))
            lines.append(_("Reserved tiles: {who}.").format(who=reserved))
        if standing.ships:
            lines.append(_("Ships here: {who}.").format(who=", ".join(standing.ships)))
        if name in App.get_running_app().session.box.example_planets:
            lines.append(_("Its coordinates are the shipped examples, not your box's: check "
                           "them in Box set-up (from the home screen)."))
        Factory.InfoDialog(title=name, text="\n".join(lines)).open()

    def inspect_player(self, name: str) -> None:
        board: Standings | None = self.standings
        if board is None:
            return
        lines = player_sheet(board, name)
        last = next((t.last for t in self._tokens if t.name == name), "")
        if last:
            lines.append(_("Last turn: {moves}.").format(moves=last))
        Factory.InfoDialog(title=name, text="\n".join(lines)).open()
