"""Teaching the planet boards' print on the touchscreen: a board in the scan tray, a tap on
each of its four coordinates (the blue jump, the green scan, the two orange landings), the
numbers printed there set, and the photo is kept. Teach now learns the print from every board
kept (each number 1-4 must show on some board); box set-up then reads boards with it."""

from __future__ import annotations

import logging
import threading

import cv2
import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from calibration.board_album import add_board_photo, board_photos, teach_board_folder
from companion.rules import COORDINATE_NUMBERS
from ui.i18n import _
from ui.screens.calibration_view import to_texture
from ui.words import error_text
from vision.boards import BoardTeachingError, TaughtBoards

log = logging.getLogger(__name__)

KEYS = ("jump", "scan", "land1", "land2")
"""The four number buttons, in the order the coordinates are tapped."""
TAP_COLOURS = ((255, 200, 120), (140, 255, 140), (90, 200, 255), (90, 200, 255))
"""BGR of each tap's ring: a pale tint of the ink of the coordinate it marks (a ring in the
ink itself vanishes against a badge printed in it)."""


class TeachBoardsScreen(Screen):
    message = StringProperty("")
    message_kind = StringProperty("info")
    progress = StringProperty("")
    taps = ListProperty([])
    """Image points tapped on the board in the tray, in the order jump, scan, landing,
    landing."""
    busy = BooleanProperty(False)
    has_photos = BooleanProperty(False)
    """Photos are kept to teach from (Teach now looks unavailable before)."""
    picture = BooleanProperty(False)

    def on_pre_enter(self, *_args: object) -> None:
        self.taps, self._frame = [], None
        for key in KEYS:
            self.ids[key].number = 1
        self._event = Clock.schedule_interval(self.update_view, 0.5)
        self.update_view()
        self.count()
        if not self.busy:
            self.prompt()

    def on_leave(self, *_args: object) -> None:
        self._event.cancel()

    @property
    def album(self):  # type: ignore[no-untyped-def]
        return App.get_running_app().session.photo_folder("board-photos")

    def update_view(self, *_args: object) -> None:
        """The live tray view, until the first tap holds the picture still."""
        if self.taps and self._frame is not None:
            return
        frame = App.get_running_app().camera_tray_frame()
        self.picture = frame is not None
        if frame is not None:
            self._frame = frame
            self.show(frame)

    def show(self, frame: np.ndarray) -> None:
        """The picture with a ring in its coordinate's ink on each tap."""
        picture = frame.copy()
        radius = max(10, frame.shape[0] // 22)
        thick = max(3, radius // 4)
        for (x, y), colour in zip(self.taps, TAP_COLOURS):
            cv2.circle(picture, (int(x), int(y)), radius, (0, 0, 0), thick + 4)
            cv2.circle(picture, (int(x), int(y)), radius, colour, thick)
        self.ids.view.texture = to_texture(picture)

    def tapped(self, touch) -> bool:  # type: ignore[no-untyped-def]
        """A tap on the picture: where the next coordinate is printed (image pixels)."""
        view = self.ids.view
        if self._frame is None or not view.collide_point(*touch.pos) or len(self.taps) >= 4:
            return False
        point = view.image_point(touch.pos, self._frame.shape)
        if point is None:
            return False
        self.taps = self.taps + [point]
        self.show(self._frame)
        self.prompt()
        return True

    def cycle(self, key: str) -> None:
        """A tap on a number counts it up, 1 to 4 and round again."""
        button = self.ids[key]
        button.number = COORDINATE_NUMBERS[button.number % len(COORDINATE_NUMBERS)]

    def clear(self) -> None:
        self.taps = []
        self.update_view()
        self.prompt()

    def prompt(self) -> None:
        steps = (_("Lay one planet board alone in the scan tray. Tap its blue jump coordinate "
                   "on the picture."),
                 _("Now tap its green scan coordinate."),
                 _("Now tap its first orange landing coordinate."),
                 _("Now tap its second orange landing coordinate."))
        if len(self.taps) < 4:
            self.say(steps[len(self.taps)], "info")
        else:
            self.say(_("Set the four numbers as the board prints them, then keep the photo."),
                     "info")

    def numbers(self) -> tuple[int, int, int, int]:
        return tuple(int(self.ids[key].number) for key in KEYS)  # type: ignore[return-value]

    def keep(self) -> None:
        if self._frame is None or len(self.taps) < 4:
            self.prompt()
            return
        numbers = self.numbers()
        try:
            add_board_photo(self.album, self._frame, numbers, tuple(self.taps))
        except OSError as error:
            self.say(_("Not saved: {reason}").format(reason=str(error)), "refused")
            return
        self.taps = []
        self.update_view()
        self.count()
        self.say(_("Kept the board {numbers}. Lay the next board.").format(
            numbers="-".join(map(str, numbers))), "done")

    def count(self) -> None:
        kept = board_photos(self.album)
        self.has_photos = bool(kept)
        shown = {int(n) for name in kept for n in name.split(".")[0].split("-")}
        missing = sorted({1, 2, 3, 4} - shown)
        self.progress = _("Boards photographed: {count}.").format(count=len(kept)) + (
            " " + _("No board shows a {numbers} yet.").format(
                numbers=", ".join(map(str, missing))) if kept and missing else "")

    def teach(self) -> None:
        if self.busy:
            return
        if not board_photos(self.album):
            self.say(_("No photos yet: photograph the boards first."), "refused")
            return
        self.busy = True
        self.say(_("Teaching… this takes about a minute."), "info")
        threading.Thread(target=self._teach, daemon=True).start()

    def _teach(self) -> None:
        try:
            taught: TaughtBoards | str = teach_board_folder(self.album)
        except BoardTeachingError as error:
            taught = error_text(error)
        except Exception as error:  # a fault while teaching must not end the app
            log.exception("teaching the boards failed")
            taught = repr(error)
        Clock.schedule_once(lambda _dt: self._taught(taught), 0)

    def _taught(self, taught: TaughtBoards | str) -> None:
        self.busy = False
        if isinstance(taught, str):
            self.say(_("Not taught: {reason}").format(reason=taught), "refused")
            return
        said = _("Taught the boards' print from {count} photos.").format(count=taught.photos)
        if taught.unread:
            said += " " + _("Not read back, take again: {photos}").format(
                photos=", ".join(reason.split(":")[0] for reason in taught.unread))
        outcome = App.get_running_app().session.teach_boards(taught.board, said)
        self.say(outcome.said, outcome.kind)

    def say(self, text: str, kind: str) -> None:
        self.message, self.message_kind = text, kind
