"""Box set-up: check and correct the box profile; read a planet board with the camera.

Coordinates still at the shipped example values are marked; a corrected planet loses the mark.
The profile is saved in the companion's home, so the shipped file stays as it was.
"""

from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.box import BoxPlanet, BoxProfile, save_box
from companion.rules import Planet
from vision.boards import read_board

NUMBERS = ("1", "2", "3", "4")


class BoxSetupScreen(Screen):
    message = StringProperty("")

    def on_pre_enter(self, *_: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        box = App.get_running_app().box
        grid = self.ids.planets
        grid.clear_widgets()
        for index, entry in enumerate(box.planets):
            row = Factory.PlanetRow()
            p = entry.planet
            row.ids.name.text = p.name
            for key, value in (("jump", p.jump), ("scan", p.scan), ("land1", p.landing[0]),
                               ("land2", p.landing[1])):
                row.ids[key].text = str(value)
            row.ids.example.text = "example" if entry.example else "checked"
            row.ids.read.bind(on_release=lambda _, i=index: self.read_from_camera(i))
            grid.add_widget(row)

    def rows(self) -> list:  # type: ignore[type-arg]
        return list(reversed(self.ids.planets.children))

    def save(self) -> None:
        app = App.get_running_app()
        planets = []
        for entry, row in zip(app.box.planets, self.rows()):
            planet = Planet(row.ids.name.text.strip() or entry.planet.name,
                            int(row.ids.jump.text), int(row.ids.scan.text),
                            (int(row.ids.land1.text), int(row.ids.land2.text)))
            planets.append(BoxPlanet(planet, entry.example and planet == entry.planet))
        names = [p.planet.name for p in planets]
        if len(set(names)) != len(names):
            self.message = "[color=ff8a80]two planets have the same name[/color]"
            return
        box = BoxProfile(tuple(planets), app.box.tiles, app.box.deck, app.box.deck_is_example,
                         app.box.tiles_split_assumed, app.box.about)
        save_box(box, app.box_path)
        app.box = box
        self.message = f"saved to {app.box_path}"
        self.refresh()

    def read_from_camera(self, index: int) -> None:
        """Read the board lying in the scan tray into row ``index``."""
        app = App.get_running_app()
        frame = app.camera_frame()
        if frame is None:
            self.message = "[color=ff8a80]no camera picture to read[/color]"
            return
        read = read_board(frame, app.calibration.card_model())
        if not read.complete:
            self.message = f"[color=ffb74d]not sure: {read.reason}[/color]"
            return
        row = self.rows()[index]
        row.ids.jump.text, row.ids.scan.text = str(read.jump), str(read.scan)
        assert read.landing is not None
        row.ids.land1.text, row.ids.land2.text = (str(n) for n in read.landing)
        row.ids.example.text = "read"
        self.message = f"read {row.ids.name.text}: check it, then save"
