"""Camera and calibration: the camera's view with the markers and zones drawn on it, how well
each zone can read stickers, one tap to calibrate, and the steps for a table never calibrated (with
the sheets to print put on a USB stick); a debug view of what the readers see."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from calibration.printables import print_markers, print_stickers
from calibration.table import CalibrationFailed, ZoneSizing, calibrate_table
from calibration.album import missing_codes
from companion.backup import FOLDER, stick_mount, stick_ready
from companion.observations import (DISCARD_ZONE, JUMP_GATE_ZONE, PLANET_ZONE, PLAYER_ZONE,
                                    TRAY_ZONE)
from ui.i18n import _, ngettext
from vision.config import Calibration
from vision.rectify import MarkerDetector, rectify

STICKER_MM = 25.0
"""The sticker size the sizing advice is given for (the printed default)."""


def zone_words(zone: str) -> str:
    if zone.startswith(PLANET_ZONE):
        return _("planet {number}").format(number=zone.removeprefix(PLANET_ZONE))
    if zone.startswith(PLAYER_ZONE):
        return _("player area {number}").format(number=zone.removeprefix(PLAYER_ZONE))
    return {TRAY_ZONE: _("scan tray"), DISCARD_ZONE: _("discard pile"),
            JUMP_GATE_ZONE: _("jump gate")}.get(zone, zone)


def sizing_words(sizing: list[ZoneSizing]) -> str:
    """Whether the printed stickers are large enough for the camera, in plain words: the zones
    where they are not, and the size that would read there."""
    short = [zone for zone in sizing if not zone.readable]
    if not short:
        return _("The camera reads {mm:g} mm stickers in every zone.").format(mm=STICKER_MM)
    if len(short) == len(sizing):
        zones = _("every zone")
    elif len(short) > 3:
        zones = _("{zones} and {count} more").format(
            zones=", ".join(zone_words(zone.zone) for zone in short[:2]), count=len(short) - 2)
    else:
        zones = ", ".join(zone_words(zone.zone) for zone in short)
    return _("The camera sees {mm:g} mm stickers too small in {zones}: print them at {need:.0f} "
             "mm, or bring the camera closer.").format(
        mm=STICKER_MM, zones=zones, need=max(z.min_sticker_mm for z in short))


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
        self.camera = session.camera is not None
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
        rectification = rectify(markers, app.session.calibration.layout)
        if rectification is not None:
            for name, polygon in app.session.calibration.layout.zones.items():
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
        session = app.session
        try:
            result = calibrate_table(frame, session.calibration.layout, base=session.calibration)
        except CalibrationFailed:
            self.say(_("The camera does not see two of the table's corner markers. Lay the "
                       "printed markers at the table's corners, in the camera's view, and try "
                       "again."), "refused")
            return
        too_small = any(not zone.readable for zone in result.sizing)
        outcome = session.recalibrate(result.calibration, _("Calibrated and saved.") + " "
                                      + sizing_words(result.sizing), weak=too_small)
        self.calibrated = True
        self.offer_sheets = False
        self.say(outcome.said, outcome.kind)

    def copy_sheets(self) -> None:
        """The marker sheet and the box's sticker sheet as PDFs on the stick, each whole."""
        app = App.get_running_app()
        folder = stick_mount() / FOLDER
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for name, write in (("markers.pdf", lambda out: print_markers(
                                    app.session.calibration.layout, out)),
                                ("stickers.pdf", lambda out: print_stickers(app.session.box,
                                                                            out))):
                partial = folder / f".{name}.partial"
                write(partial)
                with open(partial, "rb") as written:
                    os.fsync(written.fileno())
                os.replace(partial, folder / name)
        except OSError as error:
            self.say(_("Not copied: {reason}").format(reason=error.strerror), "refused")
            return
        self.say(_("Done: the marker sheet (markers.pdf) and the tile stickers (stickers.pdf) "
                   "are on the stick, in the folder {folder}. Print them at 100 %, not fitted "
                   "to the page.").format(folder=Path(FOLDER).name), "done")

    def say(self, text: str, kind: str) -> None:
        self.advice, self.advice_kind = text, kind


def to_texture(bgr: np.ndarray) -> Texture:
    rgb = cv2.cvtColor(cv2.flip(bgr, 0), cv2.COLOR_BGR2RGB)
    texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
    texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture

