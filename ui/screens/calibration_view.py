"""Camera and calibration: the camera's view with the markers and zones drawn on it, how well
each zone can read stickers, one tap to calibrate, and the steps for a table never calibrated;
a debug view of what the readers see."""

from __future__ import annotations

import cv2
import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from calibration.table import CalibrationFailed, ZoneSizing, calibrate_table
from calibration.teach import missing_codes
from ui.i18n import _
from vision.config import Calibration, save_calibration
from vision.rectify import MarkerDetector, rectify

STICKER_MM = 25.0
"""The sticker size the sizing advice is given for (the printed default)."""


def zone_words(zone: str) -> str:
    if zone.startswith("planet-"):
        return _("planet {number}").format(number=zone.split("-")[1])
    if zone.startswith("player-"):
        return _("player area {number}").format(number=zone.split("-")[1])
    return {"scan-tray": _("scan tray"), "discard": _("discard pile"),
            "jump-gate": _("jump gate")}.get(zone, zone)


def sizing_words(zone: ZoneSizing) -> str:
    if zone.readable:
        return _("{zone}: {px:.1f} px per module with {mm:g} mm stickers: readable").format(
            zone=zone_words(zone.zone), px=zone.px_per_module, mm=STICKER_MM)
    return _("{zone}: {px:.1f} px per module with {mm:g} mm stickers: too few; stickers of "
             "{need:.0f} mm would read, or a camera closer to the table").format(
        zone=zone_words(zone.zone), px=zone.px_per_module, mm=STICKER_MM,
        need=zone.min_sticker_mm)


def deck_words(calibration: Calibration) -> tuple[str, str]:
    """The deck's state in a sentence or two, and whether it asks for the user's help."""
    model = calibration.cards
    if model is None:
        reason = calibration.cards_problem or _("The deck is not taught yet")
        return (_("{reason}: cards are not read. Tap Teach the deck and photograph each card "
                  "in the scan tray.").format(reason=reason), "refused")
    words = [_("Codes taught: {count}.").format(count=len(model.codes))]
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

    def on_pre_enter(self, *_args: object) -> None:
        app = App.get_running_app()
        self.calibrated = app.calibration.image_to_table is not None
        self.deck, self.deck_kind = deck_words(app.calibration)
        self._event = Clock.schedule_interval(self.update_view, 0.5)
        self.update_view()

    def on_leave(self, *_args: object) -> None:
        self._event.cancel()

    def update_view(self, *_args: object) -> None:
        app = App.get_running_app()
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
        rectification = rectify(markers, app.calibration.layout)
        if rectification is not None:
            for name, polygon in app.calibration.layout.zones.items():
                points = rectification.to_image(np.array(polygon)).astype(np.int32)
                cv2.polylines(picture, [points], True, (255, 200, 0), 1)
                cv2.putText(picture, name, tuple(int(v) for v in points[0]),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 200, 0), 1)
        if self.debug:
            seen = app.camera_seen()
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
        try:
            result = calibrate_table(frame, app.calibration.layout, base=app.calibration)
        except CalibrationFailed:
            self.say(_("The camera does not see two of the table's corner markers. Lay the "
                       "printed markers at the table's corners, in the camera's view, and try "
                       "again."), "refused")
            return
        try:
            save_calibration(result.calibration, app.calibration_path)
        except OSError as error:
            self.say(_("Not saved: {reason}").format(reason=error.strerror), "refused")
            return
        app.calibration = result.calibration
        self.calibrated = True
        if app.camera is not None:
            app.camera.lock_exposure()  # the colours measured now must hold all evening
        lines = [sizing_words(zone) for zone in result.sizing
                 if zone.zone in ("scan-tray", "discard", "planet-1", "player-1")]
        self.say("\n".join([_("Calibrated and saved.")] + lines), "done")

    def say(self, text: str, kind: str) -> None:
        self.advice, self.advice_kind = text, kind


def to_texture(bgr: np.ndarray) -> Texture:
    rgb = cv2.cvtColor(cv2.flip(bgr, 0), cv2.COLOR_BGR2RGB)
    texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
    texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture

