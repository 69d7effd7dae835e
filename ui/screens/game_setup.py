"""Game set-up, in two steps a newcomer can follow: who plays (the table's regulars with their
favourite colours, or a new name; seating order; the start player, chosen or random), then the
ring of planets (placed by tapping, or at random) and the rules variant, explained in one line.
"""

from __future__ import annotations

import random

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.library import person
from companion.rules import (MAX_PLAYERS, MIN_PLAYERS, PLAYER_COLORS, RING_SIZE, PlayerSeat,
                             RulesError, Setup)
from ui.i18n import _, ngettext
from ui.preferences import NAME_LENGTH
from ui.screens.board import RING_CELLS
from ui.screens.widgets import Chip, TouchButton, player_marks
from ui.words import error_text


class SeatRow(BoxLayout):
    name = StringProperty("")
    color_name = StringProperty("red")
    mark = StringProperty("")
    first_seat = BooleanProperty(False)


class ChipButton(ButtonBehavior, Chip):
    """A player's chip that changes colour when tapped."""


class RosterButton(TouchButton):
    """A regular of this table, with their favourite colour beside the name."""

    color_name = StringProperty("red")


class PlanetPicker(ModalView):
    title = StringProperty("")


class GameSetupScreen(Screen):
    seats = ListProperty([])
    """[name, colour] per seated player, clockwise."""
    first = StringProperty("")
    """The start player's name; '' for a random one, as on Yucata."""
    variant = StringProperty("table")
    ring = ListProperty([])
    """The 8 planet names, clockwise from the top."""
    message = StringProperty("")
    examples = StringProperty("")
    """Which planets of the ring still have the shipped example coordinates ("" when
    none): the camera would read their cards wrong until they are checked."""
    step = StringProperty("players")

    def on_step(self, *_args: object) -> None:
        self.ids.steps.current = self.step

    def on_pre_enter(self, *_args: object) -> None:
        if len(self.ring) != RING_SIZE:
            self.random_ring()
        self.step = "players"
        self.message = ""
        self.refresh()

    # -- players -------------------------------------------------------------------------------

    def seat(self, name: str, color: str | None = None) -> None:
        """Seats a player; a name that is a regular's but for case and spaces seats that
        regular (one person, one line in the statistics)."""
        name = " ".join(name.split())
        regular = next((r for r in App.get_running_app().preferences.roster
                        if person(r.name) == person(name)), None)
        if regular is not None:
            name, color = regular.name, color or regular.color
        if not name:
            self.message = _("A player needs a name.")
            return
        if len(name) > NAME_LENGTH:
            self.message = _("Names of up to {count} letters fit the screen.").format(
                count=NAME_LENGTH)
            return
        if any(person(n) == person(name) for n, _c in self.seats):
            self.message = _("{name} is already at the table.").format(name=name)
            return
        if len(self.seats) >= MAX_PLAYERS:
            self.message = _("Space Mission is for at most {count} players.").format(
                count=MAX_PLAYERS)
            return
        taken = {c for _n, c in self.seats}
        if color is None or color in taken:
            color = next(c for c in PLAYER_COLORS if c not in taken)
        self.seats = [*self.seats, [name, color]]
        self.message = ""
        self.refresh()

    def add_new(self) -> None:
        field = self.ids.new_name
        self.seat(field.text)
        if not self.message:
            field.text = ""

    def unseat(self, index: int) -> None:
        name = self.seats[index][0]
        self.seats = [s for i, s in enumerate(self.seats) if i != index]
        if self.first == name:
            self.first = ""
        self.refresh()

    def move_up(self, index: int) -> None:
        if index > 0:
            seats = list(self.seats)
            seats[index - 1], seats[index] = seats[index], seats[index - 1]
            self.seats = seats
            self.refresh()

    def next_color(self, index: int) -> None:
        """A tap on a player's chip gives them the next free colour."""
        taken = {c for i, (_n, c) in enumerate(self.seats) if i != index}
        current = PLAYER_COLORS.index(self.seats[index][1])
        for step in range(1, len(PLAYER_COLORS) + 1):
            color = PLAYER_COLORS[(current + step) % len(PLAYER_COLORS)]
            if color not in taken:
                seats = [list(s) for s in self.seats]
                seats[index][1] = color
                self.seats = seats
                break
        self.refresh()

    def choose_first(self, name: str) -> None:
        self.first = name
        self.refresh()

    def seat_players(self, seats: list[tuple[str, str]], variant: str) -> None:
        """A rematch: the same players in the same seats and colours, a new ring."""
        self.seats = [[n, c] for n, c in seats]
        self.variant = variant
        self.first = ""
        self.random_ring()
        self.refresh()

    # -- the ring and the rules ----------------------------------------------------------------

    def random_ring(self) -> None:
        names = [p.planet.name for p in App.get_running_app().session.box.planets]
        self.ring = random.sample(names, RING_SIZE)
        self.refresh()

    def pick_planet(self, position: int) -> None:
        """Choose the planet at a ring position; the one it replaces swaps places with it."""
        app = App.get_running_app()
        picker = Factory.PlanetPicker(title=_("Ring position {number}: which planet?").format(
            number=position + 1))
        for entry in app.session.box.planets:
            name = entry.planet.name
            # one look for all (a dim one read as unavailable); a planet already in the ring
            # says where, as the ring does ("2. Ruby Red"): picked, it swaps places
            text = f"{self.ring.index(name) + 1}. {name}" if name in self.ring else name
            button = Factory.TouchButton(text=text, selected=name == self.ring[position])
            button.bind(on_release=lambda _w, n=name: (self._place(position, n),
                                                      picker.dismiss()))
            picker.ids.names.add_widget(button)
        picker.open()

    def _place(self, position: int, name: str) -> None:
        ring = list(self.ring)
        if name in ring:
            ring[ring.index(name)] = ring[position]
        ring[position] = name
        self.ring = ring
        self.refresh()

    def choose_variant(self, variant: str) -> None:
        self.variant = variant

    # -- going on ------------------------------------------------------------------------------

    def next_step(self) -> None:
        if len(self.seats) < MIN_PLAYERS:
            self.message = _("Seat at least {count} players.").format(count=MIN_PLAYERS)
            return
        self.message = ""
        self.step = "ring"

    def build_setup(self) -> Setup:
        box = {p.planet.name: p.planet for p in App.get_running_app().session.box.planets}
        seats = tuple(PlayerSeat(n, c) for n, c in self.seats)
        first = self.first or random.choice(seats).name
        return Setup(seats, tuple(box[n] for n in self.ring), first, self.variant)

    def start(self) -> None:
        try:
            setup = self.build_setup()
        except (RulesError, KeyError, IndexError) as error:
            self.message = error_text(error) if isinstance(error, RulesError) else str(error)
            return
        App.get_running_app().start_game(setup)

    # -- painting ------------------------------------------------------------------------------

    def refresh(self) -> None:
        app = App.get_running_app()
        marks = player_marks([n for n, _c in self.seats])
        seated = self.ids.seated
        seated.clear_widgets()
        for index, (name, color) in enumerate(self.seats):
            row = Factory.SeatRow(name=name, color_name=color, mark=marks[name],
                                  first_seat=index == 0)
            row.ids.chip.bind(on_release=lambda _w, i=index: self.next_color(i))
            row.ids.up.bind(on_release=lambda _w, i=index: self.move_up(i))
            row.ids.unseat.bind(on_release=lambda _w, i=index: self.unseat(i))
            seated.add_widget(row)
        roster = self.ids.roster
        roster.clear_widgets()
        people = {person(n) for n, _c in self.seats}
        for regular in app.preferences.roster:
            # a seated regular stays in its place, dimmed: the list does not move under a
            # finger tapping several names in a row
            button = Factory.RosterButton(text=regular.name, color_name=regular.color,
                                          disabled=person(regular.name) in people)
            button.bind(on_release=lambda _w, r=regular: self.seat(r.name, r.color))
            roster.add_widget(button)
        starters = self.ids.starters
        starters.clear_widgets()
        for name in ["", *[n for n, _c in self.seats]]:
            button = Factory.TouchButton(text=name or _("Random"), selected=self.first == name)
            button.bind(on_release=lambda _w, n=name: self.choose_first(n))
            starters.add_widget(button)
        self._fill_ring()

    def _fill_ring(self) -> None:
        """The ring as the board shows it: eight cells around the gate, clockwise from the
        top; the middle one draws a random ring."""
        grid = self.ids.ring
        grid.clear_widgets()
        positions = {row * 3 + col: position for position, (col, row) in enumerate(RING_CELLS)}
        for cell in range(9):
            position = positions.get(cell)
            if position is None:
                button = Factory.TouchButton(text=_("Random ring"))
                button.bind(on_release=lambda _w: self.random_ring())
            else:
                name = self.ring[position] if position < len(self.ring) else ""
                button = Factory.TouchButton(text=f"{position + 1}. {name}")
                button.bind(on_release=lambda _w, p=position: self.pick_planet(p))
            grid.add_widget(button)
        unchecked = App.get_running_app().session.box.example_planets
        named = [name for name in self.ring if name in unchecked]
        self.examples = "" if not named else ngettext(
            "{names} has example coordinates, not your box's: check it in Box set-up.",
            "{names} have example coordinates, not your box's: check them in Box set-up.",
            len(named)).format(names=", ".join(named))
