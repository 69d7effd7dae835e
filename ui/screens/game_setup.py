"""Game set-up, in steps a newcomer can follow: who plays (the table's regulars with their
favourite colours, or a new name; seating order; the start player, chosen or random), then the
ring of planets (placed by tapping, or at random) and the rules variant, explained in one line;
with a camera, last, the table as laid out: one tap on the first planet in the camera's picture
names the eight, shown named on it, and from then on the camera follows the pieces. A wrong
name is corrected by tapping the right first planet, or the ring's order one step back.
"""

from __future__ import annotations

import random
import threading

import cv2
import numpy as np
from kivy.app import App
from kivy.clock import Clock, mainthread
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
from ui.screens.calibration_view import to_texture
from ui.screens.widgets import Chip, TouchButton, player_marks
from ui.session import Outcome, Session
from ui.words import error_text
from vision.pieces import Ring

RING_INK = (245, 245, 245)
"""BGR of the found boards' outlines (on a black one): white, no player's colour."""


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
    camera = BooleanProperty(False)
    """A camera watches the table: a third step finds the ring on it."""
    picture = BooleanProperty(False)
    """The camera has given a picture of the table."""
    looking = BooleanProperty(False)
    """The ring is being looked for (a second or so on a Pi)."""
    found = StringProperty("")
    """What the last tap on the table's picture found, or why nothing."""
    found_kind = StringProperty("info")
    ring_ready = BooleanProperty(False)
    """The ring is found for this ring of planets and these players: the camera will follow
    the pieces."""

    def on_step(self, *_args: object) -> None:
        self.ids.steps.current = self.step
        self.ring_ready = self.found_ring is not None
        if self.step == "table":
            if not self.ring_ready and not self.looking:
                self.found = ""  # what a tap found was for another ring or other players
            self._watch = Clock.schedule_interval(self.update_view, 0.5)
            self.update_view()
        elif self._watch is not None:
            self._watch.cancel()
            self._watch = None

    def on_kv_post(self, _base_widget: object) -> None:
        self._watch = None
        self._ring: Ring | None = None
        self._ring_for: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        """The planets and colours the ring was found for: another ring or seating needs
        another tap."""

    def on_pre_enter(self, *_args: object) -> None:
        if len(self.ring) != RING_SIZE:
            self.random_ring()
        app = App.get_running_app()
        # the demo's make-believe camera goes when the players' own game begins
        self.camera = app.session.has_camera and app.demo is None
        self.step = "players"
        self.message = ""
        self.refresh()

    def on_leave(self, *_args: object) -> None:
        self.step = "players"  # and the camera's picture is no longer refreshed

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

    def heading(self, step: str, camera: bool) -> str:
        titles = {"players": _("New game: who plays?"),
                  "ring": _("New game: the ring and the rules"),
                  "table": _("New game: the table as laid out")}
        steps = self.steps
        return _("{title} ({step} of {steps})").format(
            title=titles[step], step=steps.index(step) + 1, steps=len(steps))

    def table_steps(self, ring: list[str], ready: bool) -> str:
        """What to do at the table for the camera to follow the pieces."""
        if ready:
            return _("The ring is found. Check that each name sits on its board, then start "
                     "the game.")
        return _("Lay the eight planets in their ring, clockwise as on the last step, and "
                 "stand every player's ship on the jump gate. Then tap the first planet, "
                 "{first}, on the picture: the camera names the others.").format(
            first=ring[0] if ring else "")

    @property
    def steps(self) -> list[str]:
        return ["players", "ring", "table"] if self.camera else ["players", "ring"]

    def next_step(self) -> None:
        if len(self.seats) < MIN_PLAYERS:
            self.message = _("Seat at least {count} players.").format(count=MIN_PLAYERS)
            return
        self.message = ""
        steps = self.steps
        if self.step == steps[-1]:
            self.start()
        else:
            self.step = steps[steps.index(self.step) + 1]

    def step_back(self) -> None:
        steps = self.steps
        if self.step == steps[0]:
            App.get_running_app().show("home")
        else:
            self.step = steps[steps.index(self.step) - 1]

    # -- the table as laid out -----------------------------------------------------------------

    def _ring_key(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(self.ring), tuple(c for _n, c in self.seats)

    @property
    def found_ring(self) -> Ring | None:
        """The ring found for this ring of planets and these players' colours (None when it
        was found for others, or not yet)."""
        return self._ring if self._ring_for == self._ring_key() else None

    def update_view(self, *_args: object) -> None:
        """The camera's picture: the whole table until the ring is found, then the ring
        alone, large, outlined and named."""
        frame = App.get_running_app().camera_frame()
        self.picture = frame is not None
        if frame is None:
            return
        self._frame = frame
        ring = self.found_ring
        if ring is not None and ring.image_size != (frame.shape[1], frame.shape[0]):
            ring = None  # the camera's picture changed size: the outlines are not on it
        if ring is None:
            left, top, shown = 0, 0, frame
        else:
            left, top, right, bottom = ring_box(ring)
            shown = outlined_ring(frame, ring)[top:bottom, left:right]
        self._shown = (left, top, shown.shape)
        self.ids.view.texture = to_texture(shown)
        self._name_boards(ring)

    def _name_boards(self, ring: Ring | None) -> None:
        """Each found board's name laid over its middle in the picture ("1. Caldera"), so a
        player sees at once whether the names sit on the right boards."""
        names = self.ids.board_names
        names.clear_widgets()
        if ring is None:
            return
        view = self.ids.view
        left, top, shape = self._shown
        gate = np.array(ring.gate)
        # the gate's name above it, not over the ships standing on it
        boards = [(_("Jump gate"), (gate[:, 0].mean(), gate[:, 1].min()), "bottom")] + [
            (f"{k + 1}. {name}", tuple(np.array(corners).mean(axis=0)), "center")
            for k, (name, corners) in enumerate(ring.planets)]
        for text, (x, y), anchor in boards:
            label = Factory.BoardName(text=text)
            label.texture_update()  # its size now, so that it is placed on the board
            label.size = (label.texture_size[0] + label.padding_x * 2,
                          label.texture_size[1] + label.padding_y * 2)
            label.center = view.widget_point((float(x) - left, float(y) - top), shape)
            if anchor == "bottom":
                label.y += label.height / 2
            names.add_widget(label)

    def table_tapped(self, touch) -> None:  # type: ignore[no-untyped-def]
        """A tap on the first planet in the camera's picture: the ring is looked for in the
        picture of that moment, off the UI thread."""
        frame = getattr(self, "_frame", None)
        if frame is None or self.looking:
            return
        left, top, shape = self._shown
        shown = self.ids.view.image_point(touch.pos, shape)
        if shown is None:
            return
        point = (shown[0] + left, shown[1] + top)
        self.looking = True
        self.found, self.found_kind = _("Looking for the ring…"), "info"
        key = self._ring_key()  # read here: the thread touches no widget's property
        planets, colours = list(key[0]), list(key[1])
        threading.Thread(target=lambda: self._ring_found(
            key, *Session.find_ring(frame, planets, point, colours)), daemon=True).start()

    @mainthread
    def _ring_found(self, key: tuple[tuple[str, ...], tuple[str, ...]], outcome: Outcome,
                    ring: Ring | None) -> None:
        self.looking = False
        self._ring, self._ring_for = ring, key if ring is not None else None
        self.ring_ready = self.found_ring is not None
        self.found, self.found_kind = outcome.said, outcome.kind
        self.update_view()

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
        App.get_running_app().start_game(setup, self.found_ring if self.camera else None)

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


def ring_box(ring: Ring) -> tuple[int, int, int, int]:
    """The part of the camera's picture the ring lies in, with half a board around it: left,
    top, right, bottom (pixels)."""
    corners = np.array([*ring.gate, *[p for _name, c in ring.planets for p in c]])
    margin = 0.5 * ring.side_at(ring.middle)
    width, height = ring.image_size
    left, top = np.maximum(corners.min(axis=0) - margin, 0).astype(int)
    right, bottom = corners.max(axis=0) + margin
    return int(left), int(top), int(min(right, width)), int(min(bottom, height))


def outlined_ring(frame: np.ndarray, ring: Ring) -> np.ndarray:
    """The camera's picture with the found jump gate and planet boards outlined (their names
    are laid over it as labels, in the screen's font)."""
    picture = frame.copy()
    thick = max(2, frame.shape[0] // 240)
    for corners in [ring.gate] + [corners for _name, corners in ring.planets]:
        points = np.round(np.array(corners)).astype(np.int32)
        cv2.polylines(picture, [points], True, (0, 0, 0), thick + 3)
        cv2.polylines(picture, [points], True, RING_INK, thick)
    return picture
