"""The table app (`companion run`): screens, the camera worker, the session.

With no camera (or ``--camera demo``) it runs the demo table: a simulated game played on the
synthetic table, read through the real pipeline, its games kept apart from real ones.
"""

from __future__ import annotations

import os
from pathlib import Path

from companion.library import Library, default_home
from ui.system import kiosk_touch_config, notify

KV_FILES = ("widgets", "home", "game_setup", "play", "end", "box_setup", "calibration_view")


def prepare_kivy(home: Path) -> None:
    """Kivy reads these when first imported: no argument parsing of ours, settings kept in the
    companion's home, the official 800x480 touchscreen size unless told otherwise."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_HOME", str(home / "kivy"))
    Path(os.environ["KIVY_HOME"]).mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # no probing for X clipboard tools


def run(camera: str = "auto", home: Path | None = None, auto_confirm: bool = False,
        fullscreen: bool = False, size: tuple[int, int] = (800, 480)) -> None:
    home = home or default_home()
    prepare_kivy(home)
    from kivy.config import Config
    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    if fullscreen:
        Config.set("graphics", "fullscreen", "auto")
    if fullscreen or os.environ.get("COMPANION_KIOSK"):
        kiosk_touch_config(Config)
    else:
        Config.set("input", "mouse", "mouse,disable_multitouch")
    _app_class()(camera=camera, home=home, auto_confirm=auto_confirm).run()


def _app_class() -> type:
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.lang import Builder
    from kivy.uix.screenmanager import NoTransition, ScreenManager

    from companion.box import load_box
    from companion.observations import Observation
    from companion.tracker import TrackerView
    from ui.box_setup import BoxSetupScreen
    from ui.calibration_view import CalibrationScreen
    from ui.camera import CameraWorker, source_opener
    from ui.demo import DemoTable
    from ui.end import EndScreen
    from ui.game_setup import GameSetupScreen
    from ui.home import HomeScreen
    from ui.play import PlayScreen
    from ui.session import Session
    from vision.config import Calibration, CalibrationError, load_calibration

    class CompanionApp(App):  # type: ignore[misc, valid-type]
        title = "Space Mission companion"

        def __init__(self, camera: str = "auto", home: Path | None = None,
                     auto_confirm: bool = False, demo_seed: int = 7, demo_players: int = 3,
                     **kwargs: object) -> None:
            super().__init__(**kwargs)
            self.camera_spec = camera
            self.home = Path(home) if home is not None else default_home()
            self.auto_confirm = auto_confirm
            self.demo_seed, self.demo_players = demo_seed, demo_players
            self.demo: DemoTable | None = None
            self.camera: CameraWorker | None = None

        # -- building ------------------------------------------------------------------------

        def build(self) -> ScreenManager:
            self.box_path = self.home / "box.json"
            self.box = load_box(self.box_path if self.box_path.exists() else None)
            self.calibration_path = self.home / "calibration.json"
            self.calibration = Calibration()
            if self.calibration_path.exists():
                try:
                    self.calibration = load_calibration(self.calibration_path)
                except CalibrationError:
                    pass  # shown on the calibration screen; play goes on uncalibrated
            manual = self.camera_spec == "none"
            opener = None if manual or self.camera_spec == "demo" else source_opener(
                self.camera_spec)
            demo = opener is None and not manual
            self.library = Library(self.home / "demo" if demo else self.home)
            self.session = Session(self.library, self.auto_confirm)
            for name in KV_FILES:
                Builder.load_file(str(Path(__file__).with_name(f"{name}.kv")))
            manager = ScreenManager(transition=NoTransition())
            self._screens = {"home": HomeScreen, "setup": GameSetupScreen, "play": PlayScreen,
                             "end": EndScreen, "box": BoxSetupScreen,
                             "calibration": CalibrationScreen}
            start = "home"
            if demo:
                table = self.demo = DemoTable.simulated(self.demo_seed, self.demo_players)
                self.session.start(table.setup)
                self.camera = CameraWorker(lambda: table, Calibration(),
                                           on_frame=self._demo_frame)
                start = "play"
            else:
                if opener is not None:
                    self.camera = CameraWorker(opener, self.calibration)
                if self.session.resume():
                    ended = self.session.state is not None and self.session.state.ended
                    start = "end" if ended else "play"
            self._add_screen(manager, start)
            Clock.schedule_interval(self._tick, 0.1)
            return manager

        def _add_screen(self, manager: ScreenManager, name: str) -> None:
            """Screens are built when first shown: the kiosk's memory goes to the camera."""
            if not manager.has_screen(name):
                manager.add_widget(self._screens[name](name=name))
            manager.current = name

        def on_start(self) -> None:
            if self.camera is not None:
                self.camera.start()
            notify("READY=1")

        def on_stop(self) -> None:
            if self.camera is not None:
                self.camera.stop()
            self.session.close()

        # -- the loop ------------------------------------------------------------------------

        def _demo_frame(self, _: int) -> None:
            """On the camera thread: the demo's simulated player looks and acts."""
            assert self.demo is not None and self.camera is not None
            self.demo.act(self.session, self.camera.latest.seen)

        def _tick(self, _: float) -> None:
            """On the UI thread, ten times a second: hand what the camera sees to the screen,
            and tell systemd's watchdog the app is alive (the UI loop runs and the camera loop
            has not died; a camera that is merely missing is retried, not a hang)."""
            if self.camera is None or self.camera.alive:
                notify("WATCHDOG=1")
            state = self.session.state
            if state is None:
                return
            screen = self.root.current_screen
            # with no camera, or with the demo's own player confirming, nothing is proposed here
            looking = self.camera is not None and self.demo is None
            seen = self.camera_seen()
            if isinstance(screen, PlayScreen):
                view = (self.session.look(seen, screen.entering or None) if looking
                        else TrackerView())
                screen.camera_text = self.camera.latest.status if self.camera else ""
                screen.show(self.session.state, view)
            elif isinstance(screen, EndScreen) and screen.player and looking:
                screen.show(self.session.look(seen, inventory_for=screen.player))

        # -- for the screens -----------------------------------------------------------------

        def show(self, name: str) -> None:
            self._add_screen(self.root, name)

        def camera_frame(self):  # type: ignore[no-untyped-def]
            return None if self.camera is None else self.camera.latest.frame

        def camera_status(self) -> str:
            if self.camera is None:
                return "no camera: touch-only play"
            return self.camera.latest.status

        def camera_seen(self) -> Observation:
            return Observation() if self.camera is None else self.camera.latest.seen

        @staticmethod
        def total_text(total: int | None) -> str:
            return "?" if total is None else str(total)

    return CompanionApp


def __getattr__(name: str) -> type:
    # the App class needs Kivy, and Kivy must be prepared before it is imported
    if name == "CompanionApp":
        return _app_class()
    raise AttributeError(name)
