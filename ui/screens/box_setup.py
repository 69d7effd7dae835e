"""Box set-up: check and correct the box profile; read a planet board with the camera.

Coordinates still at the shipped example values are marked; a corrected planet loses the mark.
The profile is saved in the companion's home, so the shipped file stays as it was.
"""

from __future__ import annotations

from dataclasses import replace

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.box import BoxPlanet
from companion.rules import COORDINATE_NUMBERS, Planet
from ui.i18n import _
from ui.screens.widgets import TouchButton
from ui.camera import tray_crop
from vision.boards import read_board


class NumberButton(TouchButton):
    """A coordinate to correct: tapped, it counts up; outlined in its colour."""

    code = StringProperty("B")


class PlanetRow(BoxLayout):
    """One planet of the box: its name and its four printed coordinates."""

    jump = NumericProperty(1)
    scan = NumericProperty(1)
    land1 = NumericProperty(1)
    land2 = NumericProperty(1)
    example = BooleanProperty(False)


class BoxSetupScreen(Screen):
    message = StringProperty("")

    def on_pre_enter(self, *_args: object) -> None:
        self.message = ""
        self.refresh()

    def refresh(self) -> None:
        box = App.get_running_app().session.box
        grid = self.ids.planets
        grid.clear_widgets()
        for index, entry in enumerate(box.planets):
            p = entry.planet
            row = Factory.PlanetRow(jump=p.jump, scan=p.scan, land1=p.landing[0],
                                    land2=p.landing[1], example=entry.example)
            row.ids.name.text = p.name
            for key in ("jump", "scan", "land1", "land2"):
                row.ids[key].bind(on_release=lambda _w, r=row, k=key: self.cycle(r, k))
            row.ids.read.bind(on_release=lambda _w, i=index: self.read_from_camera(i))
            grid.add_widget(row)

    @staticmethod
    def cycle(row: object, key: str) -> None:
        """A tap on a coordinate counts it up, 1 to 4 and round again."""
        value = getattr(row, key)
        setattr(row, key, COORDINATE_NUMBERS[value % len(COORDINATE_NUMBERS)])
        row.example = False  # looked at and set by hand: checked, even back to the same value

    def rows(self) -> list:  # type: ignore[type-arg]
        return list(reversed(self.ids.planets.children))

    def save(self) -> None:
        app = App.get_running_app()
        planets = []
        box = app.session.box
        for entry, row in zip(box.planets, self.rows()):
            planet = Planet(row.ids.name.text.strip() or entry.planet.name, row.jump, row.scan,
                            (row.land1, row.land2))
            planets.append(BoxPlanet(planet, row.example and planet == entry.planet))
        names = [p.planet.name for p in planets]
        if len(set(names)) != len(names):
            self.message = _("Two planets have the same name.")
            return
        outcome = app.session.set_box(replace(box, planets=tuple(planets)))
        self.message = outcome.said
        if outcome:
            self.refresh()

    def read_from_camera(self, index: int) -> None:
        """Read the board lying in the scan tray into row ``index``."""
        app = App.get_running_app()
        frame = app.camera_frame()
        if frame is None:
            self.message = _("No camera picture to read.")
            return
        calibration = app.session.calibration
        board = calibration.boards
        if board is None:
            self.message = calibration.boards_problem or _(
                "The camera does not know the boards' print yet: tap Teach the boards first.")
            return
        if calibration.image_to_table is not None and calibration.image_size is not None:
            # the tray alone: the boards laid out on the table are not the one to read
            crop = tray_crop(calibration, (frame.shape[1], frame.shape[0]))
            if crop is not None:
                x, y, width, height = crop
                frame = frame[y:y + height, x:x + width]
        read = read_board(frame, board)
        if not read.complete or read.landing is None:
            self.message = _("Not sure of that board: lay it alone in the scan tray, flat and "
                             "well lit, and try again.")
            return
        row = self.rows()[index]
        row.jump, row.scan = read.jump, read.scan
        row.land1, row.land2 = read.landing
        row.example = False  # read from the box's own board: checked, once saved
        self.message = _("Read {planet}: check it, then save.").format(planet=row.ids.name.text)
