"""Game set-up: 2-5 players with names and colours, the 8 planets in clockwise ring order,
the start player (random, as on Yucata, or chosen), the variant."""

from __future__ import annotations

import random

from kivy.app import App
from kivy.properties import ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.rules import (MAX_PLAYERS, PLAYER_COLORS, RING_SIZE, MalformedEventError,
                             PlayerSeat, Setup)

RANDOM = "random"


class GameSetupScreen(Screen):
    planet_names = ListProperty([])
    message = StringProperty("")

    def on_pre_enter(self, *_: object) -> None:
        app = App.get_running_app()
        self.planet_names = [p.planet.name for p in app.box.planets]
        if not self.ids.ring.children:
            self.random_ring()

    def random_ring(self) -> None:
        for spinner, name in zip(self._ring_spinners(),
                                 random.sample(self.planet_names, RING_SIZE)):
            spinner.text = name

    def _ring_spinners(self) -> list:  # type: ignore[type-arg]
        return list(reversed(self.ids.ring.children)) or self._make_ring()

    def _make_ring(self) -> list:  # type: ignore[type-arg]
        from kivy.factory import Factory
        spinners = []
        for index in range(RING_SIZE):
            spinner = Factory.RingSpinner(values=self.planet_names, text=self.planet_names[index])
            spinner.ring_index = index + 1
            self.ids.ring.add_widget(spinner)
            spinners.append(spinner)
        return spinners

    def player_rows(self) -> list:  # type: ignore[type-arg]
        return [self.ids[f"player{i}"] for i in range(MAX_PLAYERS)]

    def build_setup(self) -> Setup:
        seats = [PlayerSeat(row.ids.name.text.strip(), row.ids.color.text)
                 for row in self.player_rows() if row.ids.playing.active]
        planets = {p.planet.name: p.planet for p in App.get_running_app().box.planets}
        ring = tuple(planets[s.text] for s in self._ring_spinners())
        first = self.ids.first.text
        if first == RANDOM and seats:
            first = random.choice(seats).name
        return Setup(tuple(seats), ring, first, self.ids.variant.text)

    def start(self) -> None:
        try:
            setup = self.build_setup()
        except (MalformedEventError, KeyError) as error:
            self.message = f"[color=ff8a80]{error}[/color]"
            return
        app = App.get_running_app()
        if not app.session.start(setup):
            self.message = f"[color=ff8a80]{app.session.message}[/color]"
            return
        self.message = ""
        app.show("play")

    @staticmethod
    def default_color(index: int) -> str:
        return PLAYER_COLORS[index]
