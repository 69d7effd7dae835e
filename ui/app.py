"""The table app (`companion run`): one App whose typed properties the screens bind to.

The app builds the controller (``ui.session.Session``: the game, the library, the box, the
calibration and the camera) and the demo table, and publishes what the screens show as Kivy
properties: the game state and its revision, the camera's proposals, the camera's status, the
last message, the window's scale and the language. Screens bind to them, call the controller's
actions and hand each outcome to ``act``, which shows it; the clock only hands the camera's
newest view over, ten times a second.

Import this module only after ``ui.launch.prepare_kivy``: Kivy reads its settings on import.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.config import Config
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import (BooleanProperty, NumericProperty, ObjectProperty, OptionProperty,
                             StringProperty)
from kivy.uix.screenmanager import NoTransition, ScreenManager
from kivy.uix.vkeyboard import VKeyboard

from companion.box import BoxProfileError, load_box
from companion.journal import Journal
from companion.library import Library, default_home
from companion.rules import Setup
from companion.tracker import Proposal, TrackerView
from ui import i18n
from ui.camera import CameraWorker, source_opener
from ui.demo import DemoMove, DemoTable
from ui.i18n import _
from ui.preferences import Preferences, load_preferences, save_preferences
from ui.system import screen_area
from ui.screens import theme
from ui.screens.box_setup import BoxSetupScreen
from ui.screens.calibration_view import CalibrationScreen
from ui.screens.teach_boards import TeachBoardsScreen
from ui.screens.teach_cards import TeachCardsScreen
from ui.screens.end import EndScreen
from ui.screens.game_setup import GameSetupScreen
from ui.screens.history import HistoryScreen
from ui.screens.home import HomeScreen
from ui.screens.play import PlayScreen
from ui.screens.settings import SettingsScreen
from ui.session import Outcome, Session
from ui.system import notify
from ui.words import error_text
from vision.config import Calibration, CalibrationError, load_calibration
from vision.pieces import Ring
from synthetic.teaching import demo_calibration

log = logging.getLogger(__name__)

KV_FILES = ("widgets", "board", "home", "game_setup", "play_panel", "menu", "legend",
            "tile_picker", "play", "end", "history", "settings", "box_setup", "calibration_view",
            "teach_cards", "teach_boards")
SCREENS = {"home": HomeScreen, "setup": GameSetupScreen, "play": PlayScreen, "end": EndScreen,
           "history": HistoryScreen, "settings": SettingsScreen, "box": BoxSetupScreen,
           "calibration": CalibrationScreen, "teach": TeachCardsScreen,
           "teach_boards": TeachBoardsScreen}
DEMO_TAP_SECONDS = 0.9
"""How long the demo's player shows a tap before making it: long enough to be watched."""
RETURNS = {"settings": (), "box": ("teach_boards",)}
"""Screens whose Back goes to the screen they were opened from (not to one they lead on to:
box set-up's Back after teaching the boards goes where box set-up was opened from)."""
TAKEN_OVER_SECONDS = 6.0
"""How long the screen says, in large type, that the demo stopped and the table is yours."""


KEYBOARD_LAYOUTS = {"de": "de"}
"""The kiosk's on-screen keyboard for each language (German names need ä, ö, ü and ß; the
others type on qwerty)."""


def use_keyboard_layout(language: str) -> None:
    """The layout of the docked keyboard: from the configuration for the one Kivy makes when
    first asked, and switched on the one it keeps if it has made it already."""
    layout = KEYBOARD_LAYOUTS.get(language, "qwerty")
    Config.set("kivy", "keyboard_layout", layout)
    for keyboard in getattr(Window, "_keyboards", {}).values():  # Kivy keeps no public list
        if isinstance(getattr(keyboard, "widget", None), VKeyboard):
            keyboard.widget.layout = layout


UI_SAMPLES = 3000
"""Timings of the UI thread's work kept (five minutes of ticks)."""

FILL_CHECK_SECONDS = 0.25
FILL_CHECKS = 24
"""How often, and how many times after start, the window is checked to fill its screen: X
alone may lose what was asked before it mapped the window, and under load it maps late."""


def _fill_screen() -> None:
    """The window over its whole screen, where no window manager maximised it (only what
    differs is asked again)."""
    area = screen_area()
    if area is None:
        return
    x, y, width, height = area
    if (Window.left, Window.top) != (x, y):
        Window.left, Window.top = x, y
    if tuple(Window.system_size) != (width, height):
        Window.size = (width, height)


def camera_words(status: str) -> str:
    """What the status line says of the camera in ``status`` (``CameraResult.status``)."""
    return {"ready": "", "starting": _("Starting the camera…"),
            "missing": _("No camera found: touch entry works; retrying."),
            "lost": _("Camera lost: touch entry works; retrying."),
            "fault": _("Camera picture unreadable; touch works. Calibrate if it stays."),
            "moved": _("Camera moved: pieces are not followed. Put it back.")
            }.get(status, "")


class CompanionApp(App):
    title = "Space Mission companion"

    state = ObjectProperty(None, allownone=True)
    """The game state of the open record (None when no game is open)."""
    revision = NumericProperty(0)
    """Grows with every line the record gains, and when another record is opened."""
    view = ObjectProperty(TrackerView())
    """What the camera proposes and flags now."""
    camera_status = StringProperty("")
    """The camera's state in the players' words; empty when all is well."""
    message = StringProperty("")
    """The last result the players should read: an action done, undone, or refused."""
    message_kind = OptionProperty("info", options=["info", "done", "refused"])
    scale = NumericProperty(1.0)
    """The window's size over 800x480: every size on screen is multiplied by it."""
    language = StringProperty("en")
    entering = StringProperty("")
    """The action the players are entering by touch ('' when none): the camera fills it in."""
    inventory_for = StringProperty("")
    """Whose tiles the end screen is reading from the scan tray ('' when none)."""
    demo_running = BooleanProperty(False)
    first_boot = BooleanProperty(False)
    """A camera and no calibration yet: the app opened on calibration, with its guidance."""
    demo_hint = StringProperty("")
    """What the demo's player does now, shown so a newcomer can follow the loop."""
    demo_taken_over = BooleanProperty(False)
    """A player's touch has just stopped the demo: the screen says the table is theirs."""
    demo_move = ObjectProperty(None, allownone=True)
    """The demo player's move being shown (its proposal's Confirm looks pressed)."""

    def __init__(self, camera: str = "auto", home: Path | None = None,
                 auto_confirm: bool = False, demo_seed: int = 7, demo_players: int = 3,
                 fill_screen: bool = False, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.fill_screen = fill_screen
        """No size was asked for: the window takes its screen, window manager or not."""
        self.camera_spec = camera
        self.home = Path(home) if home is not None else default_home()
        self.auto_confirm_asked = auto_confirm
        self.demo_seed, self.demo_players = demo_seed, demo_players
        self.demo: DemoTable | None = None
        self._demo_words: Callable[[], str] = lambda: ""
        """The demo's hint, worded in the language of the moment (a switch words it anew)."""
        self.preferences = Preferences()
        self._looked: tuple[object, ...] | None = None
        """The camera frame, entry and record the tracker last looked at."""
        self.came_from: dict[str, str] = {}
        """For each screen of ``RETURNS``, the screen it was opened from, where its Back goes."""
        self._published: tuple[Journal | None, int] = (None, -1)
        self.ui_seconds: dict[str, deque[float]] = {"tick": deque(maxlen=UI_SAMPLES),
                                                    "panel": deque(maxlen=UI_SAMPLES)}
        """How long the UI thread's recurring work took, newest last: the camera's view
        handed over (tick) and the play screen's panel painted (for `make bench`)."""

    # -- building ------------------------------------------------------------------------------

    def build(self) -> ScreenManager:
        try:
            self.home.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # the library says so on the home screen; play goes on
            log.warning("%s cannot be made: %s", self.home, error.strerror)
        self.preferences_path = self.home / "preferences.json"
        self.preferences = load_preferences(self.preferences_path)
        self.language = i18n.set_language(self.preferences.language)
        use_keyboard_layout(self.language)
        box_path = self.home / "box.json"
        try:
            box = load_box(box_path if box_path.exists() else None)
        except BoxProfileError as error:  # a damaged profile of the user's: the shipped one
            log.warning("%s", error)
            box = load_box()
        manual = self.camera_spec == "none"
        opener = None if manual or self.camera_spec == "demo" else source_opener(
            self.camera_spec)
        demo = opener is None and not manual
        # games and calibration: a demo's stay apart from the real ones
        data_home = self.home / "demo" if demo else self.home
        calibration_path = data_home / "calibration.json"
        calibration, calibration_problem = demo_calibration() if demo else Calibration(), ""
        if calibration_path.exists():
            try:
                calibration = load_calibration(calibration_path)
            except CalibrationError as error:
                log.warning("%s", error)  # play goes on by touch
                # the calibration screen says what is wrong; the path is the log's
                calibration_problem = str(error).removeprefix(f"{calibration_path}: ")
            if demo and calibration.cards is None:
                calibration.cards = demo_calibration().cards  # the demo's deck is taught
        self.session = Session(Library(data_home),
                               self.auto_confirm_asked or self.preferences.auto_confirm,
                               box, box_path, calibration, calibration_path, calibration_problem)
        for name in KV_FILES:
            Builder.load_file(str(Path(__file__).parent / "screens" / f"{name}.kv"))
        Window.clearcolor = theme.BACKGROUND
        if self.fill_screen:
            _fill_screen()
            # an interval, not delays from now: under load the first frames come late, and
            # checks due by then would all run at once, before X mapped the window
            checks = iter(range(FILL_CHECKS))
            Clock.schedule_interval(
                lambda _dt: _fill_screen() if next(checks, None) is not None else False,
                FILL_CHECK_SECONDS)
        Window.bind(size=self._rescale, on_touch_down=self._touched)
        self._rescale(Window, Window.size)
        manager = ScreenManager(transition=NoTransition())
        start, problem = "home", ""
        if demo:
            table = self.demo = DemoTable.simulated(self.demo_seed, self.demo_players)
            # the demo's own table, its ring found as it starts
            self.session.start(table.setup, table.ring)
            self.session.camera = CameraWorker(lambda: table, self.session.calibration)
            self.demo_running = True
            self._hint(lambda: _("Demo: a simulated group plays; the camera reads the table."))
            start = "play"
        else:
            if opener is not None:
                self.session.camera = CameraWorker(opener, calibration)
            resumed = self.session.resume()
            if resumed:
                state = self.session.state
                start = "end" if state is not None and state.ended else "play"
            elif resumed is not None:
                problem = resumed.said
            elif opener is not None and not calibration_path.exists():
                self.first_boot = True  # not an empty table: what to do first
                start = "calibration"
        self._publish()
        self.manager = manager
        self.show(start)
        reason = self.session.unwritable
        if reason:
            said = _("No new game can be saved either.") if problem and reason in problem \
                else _("No game can be saved: {reason}.").format(reason=reason)
            problem = " ".join(filter(None, [problem, said]))
        if problem:
            self.say(problem, "refused")
        Clock.schedule_interval(self._tick, 0.1)
        return manager

    def _rescale(self, _window: object, size: tuple[int, int]) -> None:
        self.scale = theme.scale_for(*size)

    def show(self, name: str) -> None:
        """Go to a screen, building it the first time it is shown. What was said on the last
        screen is not carried over to the next."""
        if self.manager.current != name:
            self.say("")
            # its Back returns there (a language switch shows a screen again from none)
            before = self.manager.current
            if name in RETURNS and before and before not in RETURNS[name]:
                self.came_from[name] = before
        if not self.manager.has_screen(name):
            self.manager.add_widget(SCREENS[name](name=name))
        self.manager.current = name

    def back(self, name: str) -> None:
        """Leave screen ``name`` for the one it was opened from (home when none)."""
        self.show(self.came_from.get(name, "home"))

    @property
    def camera(self) -> CameraWorker | None:
        return self.session.camera

    def on_start(self) -> None:
        if self.camera is not None:
            self.camera.start()
        notify("READY=1")

    def on_stop(self) -> None:
        if self.camera is not None:
            self.camera.stop()
        self.session.close()

    # -- the loop ------------------------------------------------------------------------------

    def _tick(self, _dt: float) -> None:
        started = time.perf_counter()
        self._hand_over()
        self.ui_seconds["tick"].append(time.perf_counter() - started)

    def _hand_over(self) -> None:
        """Ten times a second: tell systemd's watchdog the app is alive (the loop runs and the
        camera thread has not died; a camera merely missing is retried, not a hang), and hand
        the camera's newest view to the screens."""
        if self.camera is None or self.camera.alive:
            notify("WATCHDOG=1")
        self.camera_status = self._camera_words()
        if self.session.state is None or self.camera is None:
            return
        latest = self.camera.latest
        inventory = self.inventory_for or (self.demo.inventory_for if self.demo_running
                                           and self.demo is not None else None)
        looked = (latest.frame_number, self.entering, inventory, self.session.record_version)
        if looked == self._looked:  # the same frame on the same record: nothing new to see
            if self.demo_running and self.demo_move is None:
                self._demo_decide()
            return
        self._looked = looked
        view, played = self.session.look_and_auto_confirm(latest.seen, self.entering or None,
                                                          inventory or None)
        if played:
            self.act(played)
        if view != self.view:
            self.view = view
        if self.demo_running and self.demo_move is None:
            self._demo_decide()

    def _camera_words(self) -> str:
        return "" if self.camera is None else camera_words(self.camera.latest.status)

    def _publish(self) -> None:
        """The session's game as the screens' properties: a new revision when the record gained
        a line or another record was opened."""
        seen = self.session.record_version
        if seen != self._published:
            self._published = seen
            self.state = self.session.state
            self.revision += 1

    # -- what the screens ask of the game ------------------------------------------------------

    def act(self, outcome: Outcome) -> bool:
        """Show what an action of the session did: the game as it is now, and the outcome's
        words, as done or refused."""
        self._publish()
        self.say(outcome.said, outcome.kind)
        return outcome.done

    def dismiss(self, proposals: list[Proposal]) -> None:
        self.session.dismiss(proposals)
        self.view = TrackerView((), self.view.flags, self.view.gate)

    def say(self, text: str, kind: str = "info") -> None:
        self.message, self.message_kind = text, kind

    def start_game(self, setup: Setup, ring: Ring | None = None) -> bool:
        """A new game; with ``ring`` (found on the table as laid out) the camera follows the
        pieces."""
        started = self.session.start(setup, ring)
        if not started:
            return self.act(started)
        self._leave_demo()
        self.remember_players([(p.name, p.color) for p in setup.players])
        self._publish()
        self.show("play")
        self.say(started.said, "refused" if started.weak else "info")
        return True

    def open_record(self, path: Path) -> bool:
        """Open a kept game: to play on, or to enter the tiles of a finished one."""
        opened = self.session.open(path)
        if not opened:
            return self.act(opened)
        self._leave_demo()
        self._publish()
        state = self.session.state
        self.show("end" if state is not None and state.ended else "play")
        self.say(opened.said, "info")
        return True

    # -- what the app remembers ----------------------------------------------------------------

    def remember_players(self, seats: list[tuple[str, str]]) -> None:
        self._save_preferences(self.preferences.with_players(seats))

    def set_language(self, code: str) -> None:
        """Switch the language, remember it, and build every screen anew in it."""
        self.language = i18n.set_language(code)
        use_keyboard_layout(self.language)
        self._save_preferences(Preferences(self.language, self.preferences.roster,
                                           self.preferences.auto_confirm))
        current = self.manager.current
        # the other screens go first: were the shown one removed while others remain, the
        # manager would show one of those, and a finished game's play screen, entered so,
        # sends the user on to its score sheet
        for screen in [s for s in self.manager.screens if s.name != current]:
            self.manager.remove_widget(screen)
        self.manager.clear_widgets()
        self.say("", "info")
        self.demo_hint = self._demo_words()
        self.show(current)

    def set_auto_confirm(self, on: bool) -> None:
        self.session.auto_confirm = on
        self._save_preferences(Preferences(self.preferences.language, self.preferences.roster,
                                           on))

    def _save_preferences(self, preferences: Preferences) -> None:
        self.preferences = preferences
        try:
            save_preferences(preferences, self.preferences_path)
        except OSError as error:
            self.say(error_text(error), "refused")

    # -- the demo ------------------------------------------------------------------------------

    def _demo_decide(self) -> None:
        assert self.demo is not None
        move = self.demo.decide(self.view)
        if move is None:
            if self.demo.finished:
                self.demo_running = False
                self._hint(lambda: _("Demo: the game is over. Start your own from the menu."))
            return
        self.demo_move = move
        if move.how == "camera":
            self._hint(lambda: _("Demo: the player confirms what the camera proposes."))
        else:
            self._hint(lambda: _("Demo: the player enters this by touch."))
        Clock.schedule_once(self._demo_act, DEMO_TAP_SECONDS)

    def _demo_act(self, _dt: float) -> None:
        move: DemoMove | None = self.demo_move
        self.demo_move = None
        if move is None or self.demo is None or not self.demo_running:
            return
        ok = self.act(self.session.play(move.event))
        self.demo.moved(move, ok)
        if not ok:
            self.demo_running = False
            self._hint(lambda: _("Demo stopped: the table is yours."))

    def _hint(self, words: Callable[[], str]) -> None:
        self._demo_words = words
        self.demo_hint = words()

    def _touched(self, _window: object, _touch: object) -> bool:
        """A player's touch during the demo: it pauses, for good, and the table is theirs.
        The touch does only that (it is no tap on whatever lay under the finger)."""
        if not (self.demo_running and self.demo is not None):
            return False
        self.demo.pause()
        self.demo_running = False
        self.demo_move = None
        self._hint(lambda: _("Demo paused: the table is yours. Play on by touch, or undo."))
        self.say(self.demo_hint, "done")  # said where the screen says what was done
        self.demo_taken_over = True
        Clock.schedule_once(lambda _dt: setattr(self, "demo_taken_over", False),
                            TAKEN_OVER_SECONDS)
        return True

    def _leave_demo(self) -> None:
        """The players' own game begun where the demo ran: the demo's make-believe camera
        goes, for it sees only the demo's table and would propose the demo's moves."""
        if self.demo is None:
            return
        self.demo.pause()
        self.demo_running = self.demo_taken_over = False
        self.demo_move, self.demo = None, None
        self._hint(lambda: "")
        if self.session.camera is not None:
            self.session.camera.stop()
            self.session.camera = None
        self.view = TrackerView()  # nor what it last proposed

    # -- for the screens -----------------------------------------------------------------------

    def camera_frame(self):  # type: ignore[no-untyped-def]
        return None if self.camera is None else self.camera.latest.frame

    def camera_tray_frame(self):  # type: ignore[no-untyped-def]
        """The scan tray as the game reads it: the tray view when the camera has one, else the
        whole table's view (the tray is in it)."""
        if self.camera is None:
            return None
        latest = self.camera.latest
        return latest.tray_frame if latest.tray_frame is not None else latest.frame
