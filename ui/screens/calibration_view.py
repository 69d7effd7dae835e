"""Camera and calibration: the camera's view with the markers and zones drawn on it, how well
each zone can read stickers, one tap to calibrate, and the steps for a table never calibrated (with
the sheets to print put on a USB stick); a debug view of what the readers see."""

from __future__ import annotations


import cv2
import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from calibration.album import missing_codes
from companion.backup import stick_mount, stick_ready
from ui.i18n import _, ngettext
from vision.config import Calibration
from vision.rectify import MarkerDetector, rectify

def deck_words(calibration: Calibration) -> tuple[str, str]:
    """The deck's state in a sentence or two, and whether it asks for the user's help."""
    model = calibration.cards
    if model is None:
        reason = calibration.cards_problem or _("The deck is not taught yet")
        # how to teach is the teach screen's to say, a tap away
        return (_("{reason}: cards are not read. Tap Teach the deck.").format(reason=reason),
                "refused")
    words = [ngettext("The reader knows {count} code of the deck.",
                      "The reader knows {count} codes of the deck.",
                      len(model.codes)).format(count=len(model.codes))]
    kind = "done"
    missing = missing_codes(model.codes)
    if missing:
        words.append(_("Not taught yet: {codes}").format(
            codes=", ".join(missing[:10]) + (" …" if len(missing) > 10 else "")))
        kind = "refused"
    if model.weak:
        words.append(_("Hard to read: {codes}. Photograph each again (another copy, or "
                       "other light).").format(codes=", ".join(model.weak[:10])))
        kind = "refused"
    return " ".join(words), kind


class CalibrationScreen(Screen):
    advice = StringProperty("")
    """The result of the last tap on Calibrate now."""
    advice_kind = StringProperty("done")
    debug = BooleanProperty(False)
    calibrated = BooleanProperty(False)
    picture = BooleanProperty(False)
    """The camera has given a picture (else a dark panel says why not)."""

    deck = StringProperty("")
    """What the reader knows of the deck, and what to photograph again."""
    deck_kind = StringProperty("done")
    offer_sheets = BooleanProperty(False)
    camera = BooleanProperty(True)
    """A camera was opened at start (False: touch-only play, where there is nothing to
    calibrate, and the screen says how to get a camera instead)."""
    """Not calibrated and a USB stick is in: the sheets to print can go on it."""

    def on_pre_enter(self, *_args: object) -> None:
        session = App.get_running_app().session
        self.camera = session.has_camera
        self.calibrated = session.calibration.image_to_table is not None
        self.deck, self.deck_kind = deck_words(session.calibration)
        if session.calibration_problem and not self.advice:
            # the file's fault in a programmer's words ("not 1e+308") is the log's; the
            # table needs only what to do
            self.advice, self.advice_kind = _(
                "The saved calibration is damaged and cannot be used: calibrate again. Play "
                "goes on by touch."), "refused"
        self._event = Clock.schedule_interval(self.update_view, 0.5)
        self.update_view()

    def on_leave(self, *_args: object) -> None:
        self._event.cancel()
        App.get_running_app().first_boot = False  # the welcome is said once

    def update_view(self, *_args: object) -> None:
        app = App.get_running_app()
        self.offer_sheets = not self.calibrated and stick_ready(stick_mount())
        frame = app.camera_frame()
        self.picture = frame is not None
        if frame is not None:
            self.ids.view.texture = to_texture(self.annotate(frame))

    def annotate(self, frame: np.ndarray) -> np.ndarray:
        """Markers and zones drawn on a copy of the frame; with debug, what the readers see."""
        app = App.get_running_app()
        picture = frame.copy()
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        markers = MarkerDetector().detect(gray)
        for marker in markers:
            points = np.array(marker.corners, np.int32)
            cv2.polylines(picture, [points], True, (0, 255, 255), 2)
            cv2.putText(picture, str(marker.marker_id), tuple(int(v) for v in points[0]),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 255, 255), 2)
        layout = app.session.calibration.layout
        rectification = rectify(markers, layout)
        if rectification is not None:
            for name, polygon in layout.zones.items():
                points = rectification.to_image(np.array(polygon)).astype(np.int32)
                cv2.polylines(picture, [points], True, (255, 200, 0), 1)
                cv2.putText(picture, name, tuple(int(v) for v in points[0]),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 200, 0), 1)
        if self.debug:
            seen = app.session.camera_seen()
            for card in seen.cards:
                cv2.polylines(picture, [np.array(card.corners, np.int32)], True, (0, 255, 0), 2)
            for tile in seen.tiles:
                cv2.polylines(picture, [np.array(tile.corners, np.int32)], True, (255, 0, 255),
                              2)
        return picture

    def calibrate(self) -> None:
        app = App.get_running_app()
        frame = app.camera_frame()
        if frame is None:
            self.say(_("No camera picture to calibrate from."), "refused")
            return
        outcome = app.session.calibrate(frame)
        if outcome.done:
            self.calibrated = True
            self.offer_sheets = False
        self.say(outcome.said, outcome.kind)

    def copy_sheets(self) -> None:
        """The marker sheet and the box's sticker sheet as PDFs on the stick, each whole."""
        outcome = App.get_running_app().session.copy_sheets(stick_mount())
        self.say(outcome.said, outcome.kind)

    def say(self, text: str, kind: str) -> None:
        self.advice, self.advice_kind = text, kind


def to_texture(bgr: np.ndarray) -> Texture:
    rgb = cv2.cvtColor(cv2.flip(bgr, 0), cv2.COLOR_BGR2RGB)
    texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
    texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture

