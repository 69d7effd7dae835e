"""Camera and calibration: the camera's view with markers and zones drawn, the sizing advice
per zone, one tap to calibrate; a debug view of what the readers see."""

from __future__ import annotations

import cv2
import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from calibration.table import CalibrationFailed, calibrate_table
from vision.config import save_calibration
from vision.rectify import MarkerDetector, rectify


class CalibrationScreen(Screen):
    advice = StringProperty("")
    debug = BooleanProperty(False)

    def on_pre_enter(self, *_: object) -> None:
        self._event = Clock.schedule_interval(self.update_view, 0.5)
        self.update_view()

    def on_leave(self, *_: object) -> None:
        self._event.cancel()

    def update_view(self, *_: object) -> None:
        app = App.get_running_app()
        frame = app.camera_frame()
        status = app.camera_status()
        if frame is None:
            self.advice = status or "no camera picture yet"
            return
        self.ids.view.texture = to_texture(self.annotate(frame))
        if status:
            self.advice = status

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
            self.advice = "no camera picture to calibrate from"
            return
        try:
            result = calibrate_table(frame, app.calibration.layout, base=app.calibration)
        except CalibrationFailed as error:
            self.advice = str(error)
            return
        save_calibration(result.calibration, app.calibration_path)
        app.calibration = result.calibration
        if app.camera is not None:
            app.camera.lock_exposure()  # the colours measured now must hold all evening
        lines = [zone.advice(25.0) for zone in result.sizing if zone.zone in
                 ("scan-tray", "discard", "planet-1", "player-1")]
        self.advice = "\n".join(["calibrated and saved"] + lines + result.notes)


def to_texture(bgr: np.ndarray) -> Texture:
    rgb = cv2.cvtColor(cv2.flip(bgr, 0), cv2.COLOR_BGR2RGB)
    texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
    texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture
