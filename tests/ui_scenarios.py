"""The UI scenarios ``ui_driver.py`` runs: the real app in an offscreen window, driven by
touches, one scenario per run (see ``ui_driver.py`` for how to run one and what it writes).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

SCENARIO, SIZE, HOME, OUT = sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])


def _process_start() -> float:
    """When this process began, on the monotonic clock: the interpreter's own start counts in
    the app's start time (the kernel's start tick, against the time since boot)."""
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        since_boot = float(Path("/proc/uptime").read_text().split()[0])
        return time.monotonic() - (since_boot - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return time.monotonic()


START = _process_start()
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui.system  # noqa: E402
from ui.launch import prepare_kivy  # noqa: E402

# the kiosk's input devices as the test asks (the machine running the tests may have a keyboard)
ui.system.INPUT_DEVICES = Path(os.environ.get("UI_INPUT_DEVICES", HOME / "no-input-devices"))

WIDTH, HEIGHT = (int(v) for v in SIZE.split("x"))
prepare_kivy(HOME, (WIDTH, HEIGHT))

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.modalview import ModalView  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402

from companion.journal import read_journal  # noqa: E402
from companion.library import bg_stats_play, record_of  # noqa: E402
from companion.rules import (TILE_KINDS, Develop, Discover, End, Fly, Inventory, Jump,  # noqa: E402
                             Redo, Scan, TopUp, Undo, takes_tile)
from companion.scoring import score  # noqa: E402
from companion.simulate import Simulation, simulate  # noqa: E402
from companion.tracker import Proposal, TrackerView  # noqa: E402
from ui import i18n  # noqa: E402
from ui.app import CompanionApp, camera_words  # noqa: E402
from staging import only_space_at  # noqa: E402
from ui_geometry import layout_problems, untranslated, window_rect  # noqa: E402

LANGUAGES = os.environ.get("UI_LANG", "en").split(",")
LANGUAGE = LANGUAGES[0]
"""The language being shown now (a scenario may go through several)."""
CAMERA = "demo" if SCENARIO in ("demo", "first_frame", "soak", "ui_work") else "none"
STICK = HOME / "usb-stick"
"""A backup stick: the folder stands in for the mount point (mounted when it exists)."""
os.environ["COMPANION_USB_STICK"] = str(STICK)
# The replay cameras below loop over one image, 15 times a second: kept as BMP, read in 1 ms
# rather than the 34 ms a PNG takes to decode (pixel for pixel the same).
if SCENARIO == "first_boot":  # a camera over a table never calibrated, markers laid
    import cv2  # noqa: E402

    from synthetic.scene import Scene, View, render  # noqa: E402
    _table = Scene.table()
    (HOME / "camera").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(HOME / "camera" / "table.bmp"),
                render(_table, View.whole_table(_table.layout), seed=1).image)
    CAMERA = f"replay:{HOME / 'camera'}"
if SCENARIO == "hostile_calibration":  # a camera over a table whose markers are covered
    import socket  # noqa: E402

    import cv2  # noqa: E402
    import numpy as np  # noqa: E402
    (HOME / "camera").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(HOME / "camera" / "table.bmp"),
                np.random.default_rng(1).integers(60, 90, (720, 1280, 3), dtype=np.uint8))
    CAMERA = f"replay:{HOME / 'camera'}"
    # systemd's notify socket, to count the watchdog's pings
    WATCHDOG = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    WATCHDOG.bind(str(HOME / "notify"))
    WATCHDOG.setblocking(False)
    os.environ["NOTIFY_SOCKET"] = str(HOME / "notify")
if SCENARIO == "ring_setup":  # a camera over a ring laid out for a game, every ship on the gate
    import cv2  # noqa: E402

    from synthetic.pieces import ring_shoot  # noqa: E402
    RING = ring_shoot(int(os.environ.get("UI_RING_SEED", "202")), 0)
    (HOME / "camera").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(HOME / "camera" / "table.bmp"), RING.start.image)
    CAMERA = f"replay:{HOME / 'camera'}"
TEACH_CARD = "B3/O1"
if SCENARIO == "teach":  # a card of the reference deck in the scan tray, seen by a camera
    import cv2  # noqa: E402
    import numpy as np  # noqa: E402

    from companion.rules import Card  # noqa: E402
    from synthetic.card_faces import REFERENCE_STYLE  # noqa: E402
    from synthetic.scene import Degradation, Scene, View, render  # noqa: E402
    _scene = Scene.table()
    _scene.add_card(Card.parse(TEACH_CARD), (1050.0, 335.0), 25.0)
    _frame = render(_scene, View.around(_scene.layout.zones["scan-tray"], 20.0),
                    Degradation(noise=2), 3)
    (HOME / "tray").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(HOME / "tray" / "tray.bmp"), _frame.image)
    _corners = next(t.corners for t in _frame.truth if t.kind == "card")
    _face = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], np.float32)
    _to_image = cv2.getPerspectiveTransform(_face, _corners.astype(np.float32))
    BADGES = cv2.perspectiveTransform(np.array([REFERENCE_STYLE.badge_centers_mm],
                                               np.float64), _to_image)[0]
    """Image points of the card's top and bottom coordinates."""
    CAMERA = f"replay:{HOME / 'tray'}"
TEACH_BOARD = tuple(int(n) for n in os.environ.get("UI_BOARD", "2,2,1,4").split(","))
"""The board laid in the tray (to teach: no 3 on it, so a print is not taught from it alone)."""
if SCENARIO in ("teach_boards", "box_read"):  # a planet board of the demo's print in the tray
    import cv2  # noqa: E402
    import numpy as np  # noqa: E402

    from companion.rules import Planet  # noqa: E402
    from synthetic.board_faces import BOARD_STYLES  # noqa: E402
    from synthetic.scene import Degradation, Scene, View, render  # noqa: E402
    from vision.layout import PLANET_BOARD  # noqa: E402
    _scene = Scene.table()
    _tray = _scene.layout.zones["scan-tray"]
    _centre = tuple(np.mean(np.array(_tray), axis=0))
    _board = _scene.add_board(Planet("Freezer", TEACH_BOARD[0], TEACH_BOARD[1],
                                     TEACH_BOARD[2:]), _centre, 20.0)
    _frame = render(_scene, View.around(_tray, 20.0), Degradation(noise=2), 3)
    (HOME / "tray").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(HOME / "tray" / "tray.bmp"), _frame.image)
    _scale = _board.face.shape[1] / PLANET_BOARD
    _places = np.array([[x * _scale, y * _scale, 1.0]
                        for x, y in BOARD_STYLES["badges"].places_mm]).T
    _points = _frame.table_to_image @ _board.to_table() @ _places
    BOARD_TAPS = (_points[:2] / _points[2]).T
    """Image points of the board's jump, scan and two landings."""
    CAMERA = f"replay:{HOME / 'tray'}"
result: dict[str, object] = {"scenario": SCENARIO, "size": [WIDTH, HEIGHT],
                             "language": LANGUAGE}
app = CompanionApp(camera=CAMERA, home=HOME)

import ui.screens.calibration_view  # noqa: E402
import ui.screens.home  # noqa: E402
from ui.screens import theme  # noqa: E402

# no real mount in a test: the stick's folder existing stands for it
ui.screens.home.stick_ready = ui.screens.calibration_view.stick_ready = Path.is_dir


# -- touching ---------------------------------------------------------------------------------

def tap(widget) -> None:  # type: ignore[no-untyped-def]
    """A real touch, down and up, at the widget's centre (through the window), after
    scrolling it into view as a player would."""
    node = widget.parent
    while node is not None and node is not Window and not isinstance(node, ScrollView):
        node = node.parent
    if isinstance(node, ScrollView):
        node.scroll_to(widget, padding=0, animate=False)
        node._update_effect_bounds()
        node.update_from_scroll()
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def settle():  # type: ignore[no-untyped-def]
    """A few frames: nested layouts (a grid in a scroll view) settle over more than one."""
    for _ in range(2):
        yield


def screen(name: str):  # type: ignore[no-untyped-def]
    return app.manager.get_screen(name)


def modal():  # type: ignore[no-untyped-def]
    return next((w for w in Window.children if isinstance(w, ModalView)), None)


def find(root, class_name: str, **match):  # type: ignore[no-untyped-def]
    """The first widget under ``root`` of class ``class_name`` whose attributes match."""
    for widget in root.walk(restrict=True):
        if type(widget).__name__ == class_name and all(getattr(widget, k, None) == v
                                                 for k, v in match.items()):
            return widget
    raise LookupError(f"no {class_name} {match} on screen")


def fade_height(play) -> float:  # type: ignore[no-untyped-def]
    """How tall the fade over the log's lower edge is drawn (0: none)."""
    return find(play, "FadingScroll").fade_height


# UI_DRAW=shots (the tests): the window is drawn when what it shows is looked at (a
# screenshot), not every frame. With no GPU, drawing a frame (Mesa's llvmpipe) and filling its
# labels' textures took half of a whole game's run, and no check looks at the frames between;
# layout, touches and the clock run as always. The benchmarks draw every frame, as the app
# does.
_drawing = False
if os.environ.get("UI_DRAW") == "shots":
    Window.fbind("on_draw", lambda *_: not _drawing)  # True: the window's drawing is skipped


def drawn_screenshot(name: str) -> str | None:
    """``Window.screenshot`` of the window as it is now, drawn first."""
    global _drawing
    _drawing = True
    try:
        Window.dispatch("on_draw")
    finally:
        _drawing = False
    return Window.screenshot(name=name)


def shot(name: str) -> None:
    """A screenshot, and what is wrong with the screen's layout (and language) now."""
    size = f"{Window.width}x{Window.height}"
    target = OUT / f"{name}-{LANGUAGE}-{size}.png"
    taken = drawn_screenshot(str(target))  # Kivy numbers the file: give it its name
    if taken:
        Path(taken).replace(target)
    problems = layout_problems(Window, app.scale)
    if LANGUAGE == i18n.PSEUDO:
        problems += untranslated(Window, data_words())
    # one entry a language: the screens scenario shows each state in each language in turn
    state = f"{name} {LANGUAGE} {size}"
    result.setdefault("problems", {})[state] = problems  # type: ignore[index]
    result.setdefault("shots", []).append(name)  # type: ignore[union-attr]


def data_words() -> set[str]:
    """What the screens show as it is, in every language: names and the language names."""
    words = {"Space Mission", "English", "Deutsch", "Italiano", "BG Stats"}
    words |= {p.planet.name for p in app.session.box.planets}
    words |= {r.name for r in app.preferences.roster}
    if app.manager.has_screen("setup"):
        words |= {name for name, _color in screen("setup").seats}
    state = app.session.state
    if state is not None:
        words |= {p.name for p in state.setup.players}
    return words


def close_modal():  # type: ignore[no-untyped-def]
    view = modal()
    if view is not None:
        view.dismiss()
    yield from no_modal()


# -- entering a game by touch -----------------------------------------------------------------

def enter(event):  # type: ignore[no-untyped-def]
    """Enter one event by touch, as a player would, through every guard; a tap that did not
    take (a widget still moving into place) is tapped again, as a player would."""
    journal = app.session.journal
    before = len(journal.game.log)
    for _ in range(3):
        yield from _enter_once(event)
        yield from settle()
        if len(journal.game.log) != before or app.message_kind == "refused":
            return


def no_modal():  # type: ignore[no-untyped-def]
    """Until a dialog being closed has gone (it fades out, and takes touches while it does)."""
    for _ in range(50):
        if modal() is None:
            return
        yield


def _enter_once(event):  # type: ignore[no-untyped-def]
    yield from no_modal()
    play = screen("play")
    if isinstance(event, Undo):
        tap(play.ids.undo)
        return
    if isinstance(event, Redo):
        tap(play.ids.redo)
        return
    if isinstance(event, End):
        tap(play.ids.end_now)
        yield from settle()
        tap(modal().ids.confirm)  # the guard: ending asks once
        return
    if app.entering != event.type:
        tap(play.ids[f"action_{event.type}"])
    yield from settle()
    if isinstance(event, TopUp):
        tap(find(play.ids.panel, "TouchButton", text=str(event.discard)))
    elif isinstance(event, Jump | Fly):
        index = [p.name for p in app.state.setup.planets].index(event.to)
        tap(play.ids.board._views[index])
    elif isinstance(event, Develop) and not takes_tile(app.state, event):
        tap(find(play.ids.panel, "TouchButton", role="good"))
    elif isinstance(event, Scan | Develop | Discover):
        dialog = modal()
        if isinstance(event, Scan) and event.only_space:
            tap(find(dialog, "TouchButton", text=i18n._("First scan: only space tiles")))
            yield from settle()
            tap(modal().ids.confirm)  # the guard: the special case asks once
            return
        assert not dialog.private  # the kinds wait for a tap: the screen is the table's
        if event.tile is not None:
            tap(dialog.ids.show_kinds)
            yield from settle()
            tap(find(dialog.ids.tiles, "TileButton", kind=event.tile))
        if event.reveal:
            tap(find(dialog, "TouchButton",
                     text=i18n._("Only space tiles are left now: turn them face up")))
        yield
        tap(find(dialog, "TouchButton", role="good"))
        yield from settle()
        answered = {id(dialog)}
        for _ in range(2):  # the guards: a space tile's cost, the reveal
            guard = modal()
            if guard is not None and id(guard) not in answered:
                answered.add(id(guard))
                tap(guard.ids.confirm)
                yield from settle()



def enter_tiles(event: Inventory):  # type: ignore[no-untyped-def]
    """A player's tiles on the end screen's picture buttons, then Save."""
    end = screen("end")
    if end.player != event.player:
        tap(find(end.ids.players, "TouchButton", text=event.player))
        yield from settle()
    for kind in sorted(set(event.tiles)):
        counter = find(end.ids.counts, "TileCounter", kind=kind)
        while counter.count < event.tiles.count(kind):
            tap(counter.ids.plus)
            yield
    tap(end.ids.save)
    yield from settle()


def start_game(players: int):  # type: ignore[no-untyped-def]
    """Set-up by touch: seat new players by name, the start player, then the ring."""
    tap(screen("home").ids.new_game)
    yield from settle()
    if modal() is not None:
        tap(modal().ids.confirm)  # a game is unfinished: the guard asks once
        yield from settle()
    setup = screen("setup")
    for name in ("Ann", "Ben", "Cleo", "Dev", "Eve")[:players]:
        setup.ids.new_name.text = name
        tap(setup.ids.add)
        yield
    tap(find(setup.ids.starters, "TouchButton", text="Ann"))
    yield
    tap(setup.ids.go)
    yield from settle()
    tap(setup.ids.go)
    yield from settle()


# -- scenarios --------------------------------------------------------------------------------

SCREEN_NAMES = ("Ann", "Jean-Christophe", "Cleo", "Dev", "Maria Antonietta")


def scenario_screens():  # type: ignore[no-untyped-def]
    """Every screen and state in each language asked for (UI_LANG, comma separated), at the
    window's size (a window resized after it was opened no longer shows what it draws, so
    each size is a process of its own): screenshots and the layout check."""
    global LANGUAGE
    for language in LANGUAGES:
        LANGUAGE = language
        app.set_language(language)
        yield from settle()
        yield from every_state()
    result["missing"] = sorted(i18n.missing)


def every_state():  # type: ignore[no-untyped-def]
    app.session.close()
    app._publish()
    app.show("home")
    yield from settle()
    shot("home")
    app.show("settings")
    yield from settle()
    shot("settings")
    app.show("setup")
    yield from settle()
    setup = screen("setup")
    setup.seats = []
    setup.refresh()
    yield from settle()
    shot("setup-empty")
    next_available = [screen("setup").ids.go.available]
    for name in ("Ann", "Benedetta", "Cleo", "Dev", "Eve"):
        setup.seat(name)
    yield from settle()
    shot("setup-players")
    next_available.append(screen("setup").ids.go.available)
    result.setdefault("next_available", {})[LANGUAGE] = next_available
    setup.next_step()
    yield from settle()
    shot("setup-ring")
    result.setdefault("ring_examples", {})[LANGUAGE] = [
        screen("setup").examples, not screen("setup").ids.box_setup.disabled]
    setup.pick_planet(3)
    yield from settle()
    shot("setup-planet-picker")
    result.setdefault("picker", {})[LANGUAGE] = [
        [button.text, button.role] for button in modal().walk(restrict=True)
        if type(button).__name__ == "TouchButton"]
    yield from close_modal()
    # five players, two with long names: they end in "…" rather than shrink unreadably
    sim = Simulation(5, 5, hide_rate=0.3, names=SCREEN_NAMES)
    game = sim.run()
    result["names"] = [seat.name for seat in game.setup.players]
    app.session.start(game.setup)
    app._publish()
    app.show("play")
    yield from settle()
    shot("play-start")
    play = screen("play")
    # with no camera, the first hint asks for a tap only (it said "or lay a card on the pile")
    result.setdefault("first_hint", {})[LANGUAGE] = [
        play._log_rows[0].text, i18n._("{player} begins. Tap an action.").format(
            player=app.session.state.current_name)]
    gate = find(play, "GateView")
    note = find(gate, "GateNote")
    # the note's widest line beside the inner ring's width across (0.72 of the gate)
    widest = max(line.w for line in note._label._cached_lines)
    result.setdefault("gate_note", {})[LANGUAGE] = [widest, 0.72 * min(gate.size)]
    result.setdefault("log_fade", {})[LANGUAGE] = [fade_height(play)]
    play.tap_action("scan")  # not possible on the gate: the reason is said
    yield from settle()
    shot("play-refused")
    # each camera banner on the status line (a camera knocked aside since the game began last)
    for status in ("starting", "missing", "lost", "fault", "moved"):
        words = camera_words(status)
        app._camera_words = lambda words=words: words
        for _ in range(60):  # the camera's words are handed over ten times a second
            if play.status == words:
                break
            yield
        yield from settle()
        shot(f"play-camera-{status}")
        result.setdefault("camera_words_shown", {}).setdefault(LANGUAGE, []).append(
            [status, play.status == words and bool(words)])
        del app._camera_words  # the class's own again
    yield from settle()
    for event in game.events[:40]:
        app.session.play(event)
    app._publish()
    app.say(app.session.log_lines()[-1].text, "done")
    yield from settle()
    shot("play-mid")
    token = find(play, "PlayerToken", current=True)
    result.setdefault("current_token", {})[LANGUAGE] = [token.color_name,
                                                        list(window_rect(token))]
    result["log_fade"][LANGUAGE].append(fade_height(play))
    play.tap_action("jump")
    yield from settle()
    shot("play-jump")
    play.cancel()
    play.tap_action("top_up")
    yield from settle()
    shot("play-top-up")
    play.cancel()
    kind = next(k for k in ("discover", "scan", "develop") if play.available[k])
    play.tap_action(kind)
    yield from settle()
    shot("play-tile-dialog")
    dialog = modal()
    if dialog is not None and hasattr(dialog, "choose"):
        dialog.private = True
        dialog.choose("SPC" if game.setup.variant == "table" else None)
        dialog.toggle_reveal()
        yield from settle()
        shot("play-tile-dialog-space")
    yield from close_modal()
    play.cancel()
    state = app.state
    jump = next(e for e in play._legal["jump"])
    app.view = TrackerView((Proposal(jump, cards=(_card("B3/G2"),)),))
    yield from settle()
    shot("play-proposal")
    question = find(play.ids.panel.card("proposal"), "FitLabel", text=play.ids.panel.card(
        "proposal").question)
    result.setdefault("question_font", {})[LANGUAGE] = question.font_size / app.scale
    result.setdefault("proposed_targets", {})[LANGUAGE] = [[list(play.targets), [jump.to]]]
    # a top up no camera sees, proposed from the next player's turn begun on the table
    seats = state.setup.players
    following = seats[(state.current + 1) % len(seats)].name
    app.view = TrackerView((Proposal(TopUp(0), begun_by=following),))
    yield from settle()
    shot("play-proposal-turn-over")
    # a move taken back on the table: the camera proposes the undo, naming the move
    flight = next(iter(play._legal.get("fly", [])), None) or jump
    app.view = TrackerView((Proposal(Undo(), tap_only=True, undone_or_redone=(state, flight)),))
    yield from settle()
    shot("play-proposal-undo")
    result.setdefault("undo_question", {})[LANGUAGE] = [
        play.ids.panel.card("proposal").question, flight.to]
    scans = [Proposal(e, cards=(_card("G2/O1"),)) for e in play._legal.get("jump", [])[:3]]
    app.view = TrackerView(tuple(scans))
    yield from settle()
    shot("play-proposals")
    choices = play.ids.panel.card("proposal").ids.choices.children[::-1]
    result.setdefault("choices", {})[LANGUAGE] = [
        [choice.text, len(choice._label._cached_lines)] for choice in choices]
    result["proposed_targets"][LANGUAGE].append(
        [sorted(play.targets), sorted(p.event.to for p in scans)])
    result.setdefault("choices_question", {})[LANGUAGE] = [
        play.ids.panel.card("proposal").question, i18n._("Jump to which planet?")]
    # the camera counts the jump gate: the same as the record, then one more probe of the
    # first player's and one of a player the record has none of
    gate = play.ids.board.gate
    probes = {seat.color: player.probes
              for seat, player in zip(app.state.setup.players, app.state.players)}
    app.view = TrackerView(gate=tuple(probes.items()))
    yield from settle()
    result.setdefault("gate_same", {})[LANGUAGE] = [gate.camera, len(gate.ids.rows.children)]
    first, *others = probes
    none = next((c for c in others if probes[c] == 0), others[-1])
    differing = {**probes, first: probes[first] + 1, none: probes[none] + 1}
    app.view = TrackerView(gate=tuple(differing.items()))
    yield from settle()
    shot("play-camera-gate")
    rows = {row.color_name: row for row in gate.ids.rows.children}
    result.setdefault("gate_differs", {})[LANGUAGE] = {
        "camera": gate.camera, "expected": [first, none],
        "shown": sorted(c for c, row in rows.items() if any(
            type(w).__name__ == "FitLabel" and w.color == list(theme.ACCENT)
            and w.text == str(differing[c]) for w in row.walk(restrict=True)))}
    app.view = TrackerView()
    play.end_game()
    yield from settle()
    shot("play-end-guard")
    yield from close_modal()
    play.inspect_planet(state.setup.planets[0].name)
    yield from settle()
    shot("play-planet")
    yield from close_modal()
    play.inspect_player(state.setup.players[0].name)
    yield from settle()
    shot("play-player")
    yield from close_modal()
    play.show_legend()
    yield from settle()
    shot("play-legend")
    yield from close_modal()
    for event in game.events[40:]:
        if isinstance(event, Inventory):
            break
        app.session.play(event)
    app._publish()
    yield from settle()
    if app.manager.current != "end":
        shot("play-final")
        app.session.play(End())
        app._publish()
        yield from settle()
    app.show("end")
    yield from settle()
    shot("end-tiles")
    for event in game.events:
        if isinstance(event, Inventory):
            app.session.play(event)
    app._publish()
    yield from settle()
    shot("end-results")
    space = find(screen("end"), "TileIcon", kind="SPC")
    result.setdefault("sheet_heads", {})[LANGUAGE] = [
        [head.category, len(find(head, "CategoryIcon").children),
         find(head, "FitLabel").text] for head in screen("end").ids.sheet.children[::-1]
        if type(head).__name__ == "SheetHeader"] + [[i18n._("Player")]]
    result.setdefault("legend_icons", {})[LANGUAGE] = [
        len(find(entry, "CategoryIcon").children) for entry in screen("end").walk()
        if type(entry).__name__ == "LegendEntry"]
    result.setdefault("space_icon", {})[LANGUAGE] = list(window_rect(space))
    tap(screen("end").ids.qr)  # a phone reads it better large
    yield from settle()
    yield from settle()
    shot("end-qr")
    shown = modal()
    result["qr_enlarged"] = shown is not None and type(shown).__name__ == "QRDialog" and \
        shown.data == screen("end").link
    yield from close_modal()
    app.show("history")
    yield from settle()
    shot("history")
    cells = [w for w in screen("history").ids.stats.children if w.text]
    result.setdefault("stat_cells_cut", {})[LANGUAGE] = [
        w.text for w in cells if w.shorten or w.texture_size[0] > w.width + 1]
    table = screen("history").ids.stats.children[::-1]  # in reading order
    result.setdefault("stat_aligns", {})[LANGUAGE] = [
        sorted({w.halign for w in table[column::6]}) for column in range(6)]
    result.setdefault("win_rates", {})[LANGUAGE] = [w.text for w in table[9::6]]
    result.setdefault("game_summary", {})[LANGUAGE] = [
        screen("history").ids.games.children[-1].summary,
        i18n.ngettext("winner: {names}", "shared win: {names}", 1).format(
            names="Jean-Christophe")]
    app.show("home")
    yield from settle()
    shot("home-games")
    app.show("box")
    yield from settle()
    shot("box")
    result.setdefault("box_fade", {})[LANGUAGE] = find(screen("box"), "FadingScroll").fade_height
    app.show("teach_boards")
    yield from settle()
    shot("teach-boards")
    app.show("calibration")
    yield from settle()
    shot("calibration")
    calibration = screen("calibration")
    result.setdefault("no_camera_says", {})[LANGUAGE] = [
        [label.text for label in calibration.walk(restrict=True)
         if type(label).__name__ == "FitLabel"],
        i18n._("No camera: everything is entered by touch.\n\nTo let it read the table, "
               "plug in the Pi camera or a USB webcam, then restart the companion.")]
    result.setdefault("no_camera", {})[LANGUAGE] = {  # offered: seen, even dimmed
        name: button.opacity > 0 and button.height > 0
        for name, button in (("calibrate", calibration.ids.calibrate),
                             ("teach", calibration.ids.teach))}


def _card(code: str):  # type: ignore[no-untyped-def]
    from companion.rules import Card
    return Card.parse(code)


def touch_game_script():  # type: ignore[no-untyped-def]
    """The simulated game to enter: UI_PLAYERS, UI_SEED, UI_ONLY_SPACE (ring positions whose
    stacks hold only space tiles, for the special case) and UI_SPACE_MISTAKES (how often a
    player takes a space tile)."""
    players = int(os.environ.get("UI_PLAYERS", "2"))
    seed = int(os.environ.get("UI_SEED", "11"))
    staged = os.environ.get("UI_ONLY_SPACE")
    order = None if not staged else only_space_at([int(v) for v in staged.split(",")],
                                                  random.Random(seed))
    mistakes = float(os.environ.get("UI_SPACE_MISTAKES", "0.02"))
    return Simulation(seed, players, hide_rate=0.4, tile_order=order,
                      space_mistake_rate=mistakes).run()


def scenario_touch_game():  # type: ignore[no-untyped-def]
    """A simulated game entered by touches through every guard, with undo and redo, the tiles
    entered at the end (one player's later, after leaving the end screen and reopening the game
    from home), and the BG Stats code read back. Cards cannot be named by touch, so the expected
    record is the simulation's without card codes."""
    game = touch_game_script()
    players = len(game.setup.players)
    yield from start_game(players)
    result["setup_seen"] = [p.name for p in app.state.setup.players]
    # the set-up screen made its own ring: play the simulation's instead (same players)
    app.session.start(game.setup)
    app._publish()
    app.show("play")
    yield from settle()
    journal = app.session.journal
    for number, event in enumerate(game.events):
        if isinstance(event, Inventory):
            break
        before = len(journal.game.log)
        yield from enter(event)
        if len(journal.game.log) == before:
            result["refused"] = f"event {number} {event.to_json()} not entered: {app.message}"
            return
    for _ in range(20):
        yield
    result["screen_at_end"] = app.manager.current
    result["ended"] = app.state.ended
    state = app.state
    missing = [seat.name for seat, p in zip(state.setup.players, state.players)
               if any(t is None for t in p.tiles)]
    inventories = [e for e in game.events if isinstance(e, Inventory) and e.player in missing]
    for event in inventories[:-1]:
        yield from enter_tiles(event)
    # leave before the last player's tiles: home offers to enter them, any time later
    tap(screen("end").ids.menu)
    yield from settle()
    tap(modal().ids.home)
    yield from no_modal()
    yield from settle()
    waiting = [b for b in screen("home").ids.waiting.children]
    result["home_offers_tiles"] = len(waiting)
    app.session.close()
    tap(waiting[0])
    yield from settle()
    yield from enter_tiles(inventories[-1])
    yield from settle()
    shot(f"end-touch-game-{players}")
    contents = read_journal(journal.path)
    result["journal"] = [e.to_json() for e in contents.events]
    result["score"] = score(contents.game.state).to_json()
    end = screen("end")
    result["bg_stats_link"] = end.link
    result["bg_stats_play"] = bg_stats_play(record_of(journal.path)) if end.link else None
    result["qr_text"] = decode_qr(end.ids.qr)


def decode_qr(widget) -> str | None:  # type: ignore[no-untyped-def]
    """Read the QR code the screen shows, from its pixels, as a phone would."""
    import numpy as np
    import zxingcpp
    texture = widget.texture
    if texture is None:
        return None
    pixels = np.frombuffer(texture.pixels, np.uint8).reshape(texture.height, texture.width, 4)
    found = zxingcpp.read_barcodes(np.ascontiguousarray(pixels[::-1, :, :3]))
    return found[0].text if found else None


def scenario_legal():  # type: ignore[no-untyped-def]
    yield from start_game(2)
    play = screen("play")
    kinds = ("top_up", "jump", "fly", "scan", "develop", "discover")
    result["unavailable_at_start"] = sorted(k for k in kinds if not play.available[k])
    tap(play.ids.action_scan)  # not possible on the gate: a tap says why
    yield from settle()
    result["scan_refused"] = app.message
    tap(play.ids.action_jump)
    yield from settle()
    result["jump_targets"] = list(play.targets)
    tap(play.ids.board._views[2])
    yield from settle()
    tap(play.ids.action_fly)
    yield from settle()
    result["fly_targets"] = list(play.targets)
    shot("play-fly")
    tap(play.ids.undo)
    yield from settle()
    result["undo_said"] = app.message
    result["after_undo"] = {"at": app.state.players[0].at, "probes": app.state.players[0].probes,
                            "action": app.state.action}
    tap(play.ids.redo)
    yield from settle()
    result["redo_said"] = app.message
    result["after_redo_at"] = app.state.players[0].at
    result["rss_mb"] = rss_mb()


NAMES = {"de": "jürgen"}
"""A name typed in each language (a German keyboard has the umlauts)."""


def scenario_keyboard():  # type: ignore[no-untyped-def]
    """On the kiosk (no keyboard attached) a name is typed on Kivy's docked keyboard: tapping
    the name field brings it up, its keys type, Seat seats the player."""
    from kivy.uix.vkeyboard import VKeyboard
    app.set_language(LANGUAGE)
    yield from settle()
    tap(screen("home").ids.new_game)
    yield from settle()
    setup = screen("setup")
    tap(setup.ids.new_name)
    for _ in range(10):
        yield
    keyboard = next((w for w in Window.children if isinstance(w, VKeyboard)), None)
    result["keyboard"] = keyboard is not None and keyboard.docked
    shot("setup-keyboard")
    if keyboard is None:  # a keyboard is plugged in: names are typed on it
        return
    result["layout"] = keyboard.layout
    for letter in NAMES.get(LANGUAGE, "zoe"):
        tap_key(keyboard, letter)
        yield
    result["typed"] = setup.ids.new_name.text
    tap(setup.ids.add)
    yield from settle()
    result["seated"] = [name for name, _color in setup.seats]


def scenario_regulars():  # type: ignore[no-untyped-def]
    """The table's regulars at set-up: a regular seated stays in its place in the list
    (dimmed), and a name typed that differs from a regular's only in case and spaces is
    that regular."""
    app.preferences = app.preferences.with_players(
        [("Anna", "red"), ("Bruno", "blue"), ("Carla", "green")])
    tap(screen("home").ids.new_game)
    yield from settle()
    setup = screen("setup")

    def places() -> dict[str, list]:  # type: ignore[type-arg]
        return {b.text: [round(b.x), round(b.y), b.disabled]
                for b in setup.ids.roster.children}
    result["before"] = places()
    tap(find(setup.ids.roster, "RosterButton", text="Anna"))
    yield from settle()
    result["after"] = places()
    setup.ids.new_name.text = "  anna "
    tap(setup.ids.add)
    yield from settle()
    result["message"] = setup.message
    setup.ids.new_name.text = "bruno"
    tap(setup.ids.add)
    yield from settle()
    result["seated"] = [list(seat) for seat in setup.seats]
    shot("setup-regulars")


def tap_key(keyboard, letter: str) -> None:  # type: ignore[no-untyped-def]
    """A touch on the docked keyboard's key for ``letter`` (found by its place on the
    keyboard's layout, as a finger finds it)."""
    width, height = keyboard.size
    for row in range(40):
        for column in range(80):
            x, y = (column + 0.5) * width / 80, (row + 0.5) * height / 40
            key = keyboard.get_key_at_pos(x, y)
            if key is not None and key[0][1] == letter:
                # the keyboard is a scatter: its own coordinates become the window's
                touch = UnitTestTouch(*keyboard.to_window(*keyboard.to_parent(x, y)))
                touch.touch_down()
                touch.touch_up()
                return
    raise LookupError(f"no key {letter!r} on the keyboard")


def scenario_first_boot():  # type: ignore[no-untyped-def]
    """A camera and no calibration: the app opens on calibration with its guidance; Calibrate
    now saves it; the way back leads to the games."""
    app.set_language(LANGUAGE)
    result["start_screen"] = app.manager.current
    calibration = screen("calibration")
    deadline = time.monotonic() + 20
    while not calibration.picture and time.monotonic() < deadline:
        yield
    yield from settle()
    result["welcome"] = app.first_boot
    result["back_text"] = calibration.ids.back.text
    shot("first-boot")
    steps = [screen("calibration").ids.steps.text]
    STICK.mkdir()  # no computer at hand: the sheets to print come on a stick
    while not calibration.offer_sheets and time.monotonic() < deadline + 5:
        yield
    yield from settle()
    shot("first-boot-stick")
    result["steps"] = steps + [screen("calibration").ids.steps.text]
    tap(calibration.ids.sheets)
    yield from settle()
    result["sheets"] = sorted(p.name for p in (STICK / "space-mission-records").iterdir())
    result["sheets_said"] = calibration.advice
    shot("first-boot-sheets")
    tap(calibration.ids.calibrate)
    yield from settle()
    result["calibrated"] = (app.session.library.home / "calibration.json").exists()
    result["advice"] = calibration.advice
    yield from settle()
    result["back_text_after"] = calibration.ids.back.text
    shot("first-boot-calibrated")
    tap(calibration.ids.back)
    yield from settle()
    result["after"] = app.manager.current
    result["welcome_after"] = app.first_boot


def tap_picture(view, point, shape) -> None:  # type: ignore[no-untyped-def]
    """A real touch on the pixel ``point`` of the picture shown whole in ``view``."""
    touch = UnitTestTouch(*view.to_window(*view.widget_point(point, shape)))
    touch.touch_down()
    touch.touch_up()


def scenario_ring_setup():  # type: ignore[no-untyped-def]
    """Game set-up with a camera over the table as laid out: the players and the ring as the
    table has them, then a tap on a bare spot (refused, saying what to do), a tap on the
    first planet (the eight named on the picture), and Start game: the camera follows the
    pieces of this ring."""
    app.set_language(LANGUAGE)
    app.show("setup")
    yield from settle()
    setup = screen("setup")
    setup.seats = [[name, colour] for name, colour in zip(("Ann", "Ben", "Cleo", "Dev", "Eve"),
                                                          RING.players)]
    setup.ring = list(RING.planets)
    setup.refresh()
    result["headings"] = [setup.ids.steps.current + ": " + setup.heading(setup.step, True)]
    tap(setup.ids.go)
    yield from settle()
    result["go_texts"] = [setup.ids.go.text]
    tap(setup.ids.go)
    yield from settle()
    result["headings"].append(setup.ids.steps.current + ": " + setup.heading(setup.step, True))
    result["go_texts"].append(setup.ids.go.text)
    deadline = time.monotonic() + 20
    while not setup.picture and time.monotonic() < deadline:
        yield
    yield from settle()
    shot("ring-setup")
    result["table_steps"] = setup.ids.table_steps.text
    result["before_tap"] = setup.ids.found.text
    shape = RING.start.image.shape
    tap_picture(setup.ids.view, (30.0, 30.0), shape)  # the bare table in a corner
    while (setup.looking or not setup.found) and time.monotonic() < deadline + 20:
        yield
    result["bare_found"], result["bare_kind"] = setup.found, setup.found_kind
    tap_picture(setup.ids.view, RING.first, shape)
    yield
    result["looking_said"] = setup.found
    while setup.looking and time.monotonic() < deadline + 40:
        yield
    yield from settle()
    yield from settle()
    shot("ring-setup-found")
    result["found"], result["found_kind"] = setup.found, setup.found_kind
    result["go_texts"].append(setup.ids.go.text)
    result["table_steps_found"] = setup.ids.table_steps.text
    result["names_shown"] = [label.text for label in reversed(setup.ids.board_names.children)]
    view, ring = setup.ids.view, setup.found_ring
    left, top, shown = setup._shown  # the picture is the ring's part of the camera's
    result["shown_share"] = shown[1] * shown[0] / (shape[1] * shape[0])
    result["names_on_boards"] = []
    for label in reversed(setup.ids.board_names.children):
        x, y = view.image_point(label.center, shown)
        name = label.text.split(". ", 1)[-1]
        if ring is not None and name in dict(ring.planets) \
                and ring.inside(name, (x + left, y + top)) > 0:
            result["names_on_boards"].append(label.text)
    tap(setup.ids.go)
    yield from settle()
    result["after"] = app.manager.current
    followed = app.session.calibration.ring
    result["followed"] = None if followed is None else [n for n, _c in followed.planets]
    result["colours"] = None if followed is None else sorted(followed.colours)
    saved = json.loads((app.session.library.home / "calibration.json").read_text())
    result["saved"] = [p["name"] for p in saved.get("ring", {}).get("planets", [])]
    # a later game without the step: this ring is not that game's, and is forgotten
    app.show("setup")
    yield from settle()
    setup.ring = list(reversed(RING.planets))
    setup.refresh()
    tap(setup.ids.go)
    yield from settle()
    tap(setup.ids.go)
    yield from settle()
    result["second_found"] = setup.ids.found.text
    tap(setup.ids.go)
    yield from settle()
    if modal() is not None:
        tap(modal().ids.confirm)
        yield from settle()
    result["second_after"] = app.manager.current
    result["second_ring"] = app.session.calibration.ring is not None


def scenario_usb_backup():  # type: ignore[no-untyped-def]
    """A finished game kept; a stick is plugged in: home offers to copy the records, a tap
    copies them and says where they went. With UI_UNSCORED, a finished game whose tiles were
    never entered is kept too (an ordinary case that once crashed the copy)."""
    app.set_language(LANGUAGE)
    if os.environ.get("UI_UNSCORED"):
        from companion.journal import write_journal
        hidden = simulate(6, 3, hide_rate=1.0)
        write_journal(app.session.library.games / "20261101-200000.jsonl", hidden.setup,
                      [e for e in hidden.events if not isinstance(e, Inventory)])
    game = simulate(5, 2)
    app.session.start(game.setup)
    for event in game.events:
        app.session.play(event)
    app.session.close()
    app._publish()
    app.show("home")
    home = screen("home")
    home.refresh()
    yield from settle()
    result["offered_without_stick"] = home.stick
    STICK.mkdir()
    deadline = time.monotonic() + 5
    while not home.stick and time.monotonic() < deadline:
        yield
    yield from settle()
    result["offered"] = home.stick
    shot("home-stick")
    tap(home.ids.back_up)
    yield from settle()
    shot("home-stick-copied")
    result["message"], result["kind"] = home.stick_words, home.stick_kind
    result["copied"] = sorted(str(p.relative_to(STICK)) for p in STICK.rglob("*")
                              if p.is_file())
    tap(home.ids.back_up)  # a second copy works as the first did
    yield from settle()
    result["second_kind"] = home.stick_kind
    result["journals"] = sorted(p.name for p in app.session.library.games.glob("*.jsonl"))


def longest_word_shown() -> int:
    """The longest run of letters without a space in any label on the window."""
    from kivy.uix.label import Label
    texts = [w.text for root in Window.children for w in root.walk(restrict=True)
             if isinstance(w, Label)]
    return max((len(word) for text in texts for word in text.split()), default=0)


def scenario_resume():  # type: ignore[no-untyped-def]
    state = app.session.state
    result["resumed_screen"] = app.manager.current
    result["longest_word"] = longest_word_shown()
    from ui.screens.widgets import LONGEST_WORD
    result["longest_word_allowed"] = LONGEST_WORD
    result["resumed"] = None if state is None else {
        "current": state.current_name, "action": state.action, "turn": state.turn,
        "redo": app.session.can_redo}
    if os.environ.get("UI_PLAY"):
        yield from start_game(2)
        planets = app.state.setup.planets
        yield from enter(Jump(planets[0].name))
        yield from enter(Fly(planets[1].name))
        yield from enter(TopUp(0))
        yield from enter(Undo())  # redo waits in the record across the restart
        state = app.state
        result["played"] = {"current": state.current_name, "action": state.action,
                            "turn": state.turn, "redo": app.session.can_redo}
    yield


def filled_share(widget) -> float:  # type: ignore[no-untyped-def]
    """The share of a widget's pixels on screen, and of a strip as tall under it (where a
    fill drawn for a taller panel was left), drawn in the gauge's fill colours."""
    import cv2
    import numpy as np
    # one name per run: Kivy numbers its screenshots, and two runs side by side (pytest -n 2)
    # took and deleted each other's
    path = OUT / f"gauge-check-{LANGUAGE}-{Window.width}x{Window.height}.png"
    taken = drawn_screenshot(str(path))
    image = cv2.imread(taken)[::-1]  # rows from the bottom, as Kivy counts
    Path(taken).unlink()
    x, y = (int(v) for v in widget.to_window(widget.x, widget.y))
    height = int(widget.height)
    area = image[max(0, y - height):y + height, x:x + int(widget.width)].astype(int)
    fills = [theme.ACCENT, theme.COORDINATE["B"]]
    near = [np.abs(area - np.array([c[2], c[1], c[0]]) * 255).max(axis=2) < 40 for c in fills]
    return float(np.logical_or(*near).mean())


def scenario_final_round():  # type: ignore[no-untyped-def]
    """A game played on to its final round, and past the threshold: the play screen from
    across the table."""
    app.set_language(LANGUAGE)
    game = simulate(1, 4)  # its final round starts with 12 space tiles up, 10 ending it
    app.session.start(game.setup)
    for event in game.events:
        if app.session.state.final_round:
            break
        app.session.play(event)
    app.show("play")
    app._publish()
    yield from settle()
    play = screen("play")
    result["final"] = {"banner": play.final_text if play.final_round else "",
                       "gauge": play.gauge_text}
    sheet = score(app.session.state)  # the score sheet's own count of what is public
    result["points"] = {token.name: token.points for token in play._tokens}
    result["public_points"] = {row.name: row.jump_gate + row.station_points
                               for row in sheet.players}
    # the gauge's words and its fill (whole past the threshold), read together
    result["gauge_colours"] = [list(play.ids.gauge.color), list(theme.ACCENT)]
    result["final_gauge"] = filled_share(play.ids.gauge)
    shot("play-final")
    # a new game after it: its gauge is empty, no fill left over from the last one
    app.session.start(simulate(2, 4).setup)
    app._publish()
    for _ in range(3):
        yield from settle()
    result["new_gauge"] = [play.gauge, filled_share(play.ids.gauge)]


def scenario_language():  # type: ignore[no-untyped-def]
    """The language changed in Settings after a finished game stays in Settings; in play,
    the menu changes it in two taps and play goes on; Settings opened from play goes back
    there."""
    app.show("settings")  # built before the game's screens, so it is not the last one
    yield from settle()
    game = simulate(3, 2)
    app.session.start(game.setup)
    for event in game.events:
        app.session.play(event)
    app._publish()
    app.show("play")  # a finished game: its play screen sends the user on to the score sheet
    yield from settle()
    app.show("home")
    yield from settle()
    tap(screen("home").ids.settings)
    yield from settle()
    tap(screen("settings").ids.lang_it)
    for _ in range(5):
        yield from settle()
    result["after_settings"] = [app.manager.current, app.language]
    app.show("home")
    yield from settle()
    yield from start_game(2)
    tap(screen("play").ids.menu)
    yield from settle()
    shot("play-menu")
    tap(modal().ids.lang_de)
    for _ in range(5):
        yield from settle()
    result["after_menu"] = [app.manager.current, app.language, modal() is None]
    tap(screen("play").ids.menu)
    yield from settle()
    tap(modal().ids.settings)
    yield from settle()
    tap(screen("settings").ids.lang_it)  # the screens built anew: Back still knows the way
    for _ in range(5):
        yield from settle()
    tap(screen("settings").ids.back)
    yield from settle()
    result["back"] = [app.manager.current, app.language]
    # box set-up opened from the game's set-up goes back there, past teaching the boards
    app.show("setup")
    yield from settle()
    app.show("box")
    yield from settle()
    app.show("teach_boards")
    yield from settle()
    app.show("box")
    yield from settle()
    tap(screen("box").ids.back)
    yield from settle()
    result["box_back"] = app.manager.current
    # a finished game's score sheet: its Menu is the menu (language, home, settings), not a
    # jump home
    app.session.start(game.setup)
    for event in game.events:
        app.session.play(event)
    app._publish()
    app.show("end")
    yield from settle()
    tap(screen("end").ids.menu)
    yield from settle()
    result["end_menu"] = [app.manager.current, type(modal()).__name__]
    yield from close_modal()


def scenario_tile_entry():  # type: ignore[no-untyped-def]
    """The score sheet's tile entry: a player entered is corrected by entering again; counts
    not saved wait when the user looks elsewhere; Undo asks first, and Redo plays again."""
    game = Simulation(4, 2, hide_rate=1.0).run()  # no kind known: each player's are entered
    app.session.start(game.setup)
    inventories = [e for e in game.events if isinstance(e, Inventory)]
    for event in game.events:
        if isinstance(event, Inventory):
            break
        app.session.play(event)
    app._publish()
    app.show("end")
    yield from settle()
    end = screen("end")
    first, second = inventories[0], inventories[1]
    yield from enter_tiles(first)
    tap(find(end.ids.players, "TouchButton", text=f"{first.player}: done"))
    yield from settle()
    result["save_unchanged"] = end.ids.save.disabled
    kinds = sorted(set(first.tiles))
    other = next(k for k in TILE_KINDS if k not in kinds and k != "SPC")
    tap(find(end.ids.counts, "TileCounter", kind=kinds[0]).ids.minus)
    tap(find(end.ids.counts, "TileCounter", kind=other).ids.plus)
    yield from settle()
    tap(end.ids.save)
    yield from settle()
    held = app.state.players[app.state.setup.player_index(first.player)].tiles
    result["corrected"] = [held.count(kinds[0]) == first.tiles.count(kinds[0]) - 1,
                           other in held, app.message_kind]
    tap(find(end.ids.players, "TouchButton", text=second.player))
    yield from settle()
    tap(find(end.ids.counts, "TileCounter", kind=second.tiles[0]).ids.plus)
    yield from settle()
    app.show("home")
    yield from settle()
    result["left_unsaved"] = app.message
    app.show("end")
    yield from settle()
    tap(find(end.ids.players, "TouchButton", text=second.player))
    yield from settle()
    result["draft_kept"] = end.counts.get(second.tiles[0], 0)
    before = len(app.session.journal.game.log)
    tap(end.ids.undo)
    yield from settle()
    asked = modal()
    result["undo_asks"] = None if asked is None else asked.text
    tap(asked.ids.cancel)
    yield from settle()
    result["kept"] = len(app.session.journal.game.log) == before and not end.can_redo
    tap(end.ids.undo)
    yield from settle()
    tap(modal().ids.confirm)
    yield from settle()
    result["undone_redo"] = end.can_redo
    shot("end-undone")
    tap(end.ids.redo)
    yield from settle()
    held = app.state.players[app.state.setup.player_index(first.player)].tiles
    result["redone"] = other in held


def scenario_long_game():  # type: ignore[no-untyped-def]
    """A record of many thousands of lines resumed: each tap words the one new line, not the
    whole record again."""
    result["resumed_screen"] = app.manager.current
    result["lines"] = len(app.session.journal.game.log)
    yield from settle()
    play = screen("play")
    log = app.session._log
    worded = 0
    import ui.words
    sentence = ui.words.event_sentence

    def counted(*args):  # type: ignore[no-untyped-def]
        nonlocal worded
        worded += 1
        return sentence(*args)
    ui.words.event_sentence = counted
    cards = dict(play.ids.panel.cards)
    shown = []
    for button in ("undo", "redo", "action_jump", "action_jump", "action_top_up", "undo",
                   "redo"):
        tap(play.ids[button])
        yield from settle()
        shown.append(play.ids.panel.shown)
    ui.words.event_sentence = sentence
    result["panels_shown"] = shown
    result["same_cards"] = all(play.ids.panel.cards[name] is card for name, card in cards.items())
    result["same_log"] = app.session._log is log
    result["worded"] = worded
    result["lines_after"] = len(app.session.journal.game.log)
    result["log_top"] = app.session.log_lines()[-1].text
    shot("long-game")


def scenario_read_only_home():  # type: ignore[no-untyped-def]
    """The companion's home on a disk that cannot be written: the app starts, and says why no
    game is kept or resumed."""
    yield from settle()
    result["screen"] = app.manager.current
    result["message"], result["kind"] = app.message, app.message_kind
    result["library_problem"] = app.session.library.problem
    result["resume_available"] = screen("home").ids.resume.available
    result["new_game_available"] = screen("home").ids.new_game.available
    shot("read-only-home")
    tap(screen("home").ids.new_game)
    yield from settle()
    result["new_game_said"], result["after_new_game"] = app.message, app.manager.current


def scenario_hostile_calibration():  # type: ignore[no-untyped-def]
    """A calibration file that once killed the camera thread on its first frame: refused at
    start and said on the calibration screen; and a calibration no check foresaw, given to
    the camera in memory, costs frames, not the thread: the watchdog is fed all along."""
    import numpy as np

    from ui.camera import CameraWorker, source_opener
    from vision.config import Calibration
    result["calibration_problem"] = app.session.calibration_problem
    app.show("calibration")
    yield from settle()
    result["advice"] = screen("calibration").advice
    shot("calibration-refused")
    hostile = Calibration()
    hostile.image_to_table, hostile.image_size = np.zeros((3, 3)), (1280, 720)
    app.camera.stop()
    app.session.camera = CameraWorker(source_opener(CAMERA), hostile)
    app.camera.start()
    seconds = float(os.environ.get("UI_SOAK_SECONDS", "10"))
    start, frames = time.monotonic(), app.camera.frames
    pings, statuses, words = 0, set(), set()
    while time.monotonic() - start < seconds:
        statuses.add(app.camera.latest.status)
        words.add(app.camera_status)
        try:
            while WATCHDOG.recv(64) == b"WATCHDOG=1":
                pings += 1
        except BlockingIOError:
            pass
        yield
    result["seconds"], result["pings"] = time.monotonic() - start, pings
    result["frames"] = app.camera.frames - frames
    result["camera_alive"] = app.camera.alive
    result["statuses"] = sorted(statuses)
    result["camera_words"] = sorted(words)


def scenario_teach_photos():  # type: ignore[no-untyped-def]
    """The album holds a photo a power cut left empty: the photos dialog names it as one that
    cannot be read, and a tap removes it."""
    app.set_language(LANGUAGE)
    app.show("teach")
    yield from settle()
    teach = screen("teach")
    shot("teach-buttons")
    tap(teach.ids.photos)
    yield from settle()

    def rows():  # type: ignore[no-untyped-def]
        return [w for w in modal().walk(restrict=True) if type(w).__name__ == "PhotoRow"]
    result["rows"] = [row.text for row in rows()]
    shot("teach-photos")
    tap(next(row for row in rows() if row.text == result["rows"][-1]).ids["remove"])
    yield from settle()
    result["rows_after"] = [row.text for row in rows()]
    result["album"] = sorted(p.name for p in (app.session.library.home / "deck-photos").iterdir())
    result["message"] = teach.message
    yield from close_modal()


def scenario_demo():  # type: ignore[no-untyped-def]
    app.set_language(LANGUAGE)
    deadline = time.monotonic() + float(os.environ.get("UI_DEMO_SECONDS", "10"))
    while time.monotonic() < deadline and app.demo.counts["camera"] < 3:
        yield
    yield from settle()
    shot("demo")
    result["events"] = len(app.session.journal.game.events_in_effect)
    result["demo_counts"] = dict(app.demo.counts)
    result["camera_frames"] = app.camera.frames
    result["demo_hint_shown"] = bool(app.demo_hint)
    banner = screen("play").ids.takeover
    result["take_over_said"] = [banner.text, banner.opacity, banner.font_size]
    # a player's touch pauses the demo and hands the table over, and does nothing else (it
    # is no tap on the legend under the finger); play goes on by touch
    tap(screen("play").ids.legend)
    yield from settle()
    result["touch_opened"] = type(modal()).__name__ if modal() is not None else None
    yield from close_modal()
    result["running_after_touch"] = app.demo_running
    play = screen("play")
    result["taken_over_said"] = [play.ids.message.text, play.status_strong, banner.opacity,
                                 play.ids.undo.opacity]
    shot("demo-taken-over")
    before = len(app.session.journal.game.log)
    tap(screen("play").ids.undo)
    yield from settle()
    for _ in range(20):
        yield
    result["undo_after_touch"] = len(app.session.journal.game.log) - before
    # frames stop coming: the tracker is not asked again about the same frame every tick
    app.camera.stop()
    started = time.monotonic()
    while time.monotonic() - started < 1.0:  # the last frame and the undo looked at
        yield
    looks = []
    tracker = app.session.tracker
    update = tracker.update
    tracker.update = lambda *args, **kwargs: looks.append(1) or update(*args, **kwargs)
    started = time.monotonic()
    while time.monotonic() - started < 1.0:
        yield
    result["looks_on_a_still_frame"] = len(looks)
    result["calibration_path"] = str(app.session.calibration_path)
    # the players' own game begun where the demo ran: the demo's camera, which sees only the
    # demo's table, goes, and nothing it saw is proposed for the new game
    tracker.update = update
    app.show("home")
    yield from settle()
    yield from start_game(2)
    for _ in range(10):
        yield
    shot("demo-own-game")
    result["own_game"] = {"screen": app.manager.current, "camera": app.camera is not None,
                          "watching": screen("play").watching,
                          "proposals": len(app.view.proposals),
                          "players": [p.name for p in app.session.state.setup.players]}
    result["rss_mb"] = rss_mb()


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmRSS"))
    return int(line.split()[1]) / 1024


def scenario_kill_play():  # type: ignore[no-untyped-def]
    """Simulated play through the app's session, each confirmed action reported on stdout (the
    bench kills the process at a random moment and counts what the journal kept)."""
    game = simulate(int(os.environ.get("UI_SEED", "3")), 3)
    app.session.start(game.setup)
    print("ready", flush=True)
    confirmed = 0
    for event in game.events:
        if app.session.play(event):
            confirmed += 1
            print(confirmed, flush=True)
        yield


def scenario_soak():  # type: ignore[no-untyped-def]
    """The demo at 15 fps for UI_SOAK_SECONDS: memory at the start and the end, frames."""
    seconds = float(os.environ.get("UI_SOAK_SECONDS", "300"))
    warm = time.monotonic()
    while time.monotonic() - warm < min(20.0, seconds / 4):
        yield
    result["rss_start_mb"], start, frames = rss_mb(), time.monotonic(), app.camera.frames
    samples, next_sample = [], start
    while time.monotonic() - start < seconds:
        if app.demo.finished:  # a new demo game, as the kiosk would start one
            app.demo.__post_init__()
        if time.monotonic() >= next_sample:
            samples.append(round(rss_mb(), 1))
            next_sample += 30
        yield
    result["rss_samples_mb"] = samples
    elapsed = time.monotonic() - start
    result["rss_end_mb"] = rss_mb()
    result["frames"] = app.camera.frames - frames
    result["expected_frames"] = int(elapsed * app.camera.fps)
    result["seconds"] = elapsed


def scenario_ui_work():  # type: ignore[no-untyped-def]
    """The demo table for UI_DEMO_SECONDS: the UI thread's time per tick and per panel paint,
    and the app's resident memory at the end."""
    deadline = time.monotonic() + float(os.environ.get("UI_DEMO_SECONDS", "30"))
    for samples in app.ui_seconds.values():
        samples.clear()
    while time.monotonic() < deadline:
        yield
    for name, samples in app.ui_seconds.items():
        result[f"{name}_ms"] = sorted(round(s * 1000, 3) for s in samples)
    result["demo_counts"] = dict(app.demo.counts)
    result["rss_mb"] = rss_mb()


def scenario_first_frame():  # type: ignore[no-untyped-def]
    yield
    result["first_frame_s"] = time.monotonic() - START


def opened_showing_the_camera(via: str, button: str, name: str):  # type: ignore[no-untyped-def]
    """The screen ``name``, opened by ``button`` on the screen ``via``, once the camera's
    picture shows on it (the scenario's return value)."""
    app.show(via)
    yield from settle()
    tap(screen(via).ids[button])
    yield from settle()
    opened = screen(name)
    deadline = time.monotonic() + 20
    while not opened.picture and time.monotonic() < deadline:
        yield
    yield from settle()
    return opened


def kept_in(teach, folder: str) -> None:  # type: ignore[no-untyped-def]
    """What Keep left in the album ``folder`` (its photos and taps), and the progress line
    of the teaching screen ``teach``."""
    album = app.session.library.home / folder
    result["album"] = sorted(p.name for p in album.iterdir())
    result["taps"] = json.loads((album / "taps.json").read_text())
    result["progress"] = teach.progress


def taught_now(teach, seconds: float):  # type: ignore[no-untyped-def]
    """Teach now tapped on ``teach``: its message once teaching is done (``seconds`` at the
    most)."""
    tap(teach.ids.teach)
    deadline = time.monotonic() + seconds
    while (teach.busy or teach.message_kind == "info") and time.monotonic() < deadline:
        yield
    result["taught_message"] = teach.message


def scenario_teach():  # type: ignore[no-untyped-def]
    app.set_language(LANGUAGE)
    teach = yield from opened_showing_the_camera("calibration", "teach", "teach")
    shot("teach")
    teach_available = [teach.ids.teach.available]
    result["first_instruction"] = teach.message
    # the bottom coordinate first: the order of the taps is the user's
    for (x, y), coordinate in ((BADGES[1], "O1"), (BADGES[0], "B3")):
        tap_picture(teach.ids.view, (x, y), teach._frame.shape)
        yield from settle()
        tap(find(teach, "CoordinateButton", coordinate=coordinate))
        yield from settle()
    result["card_ready"] = teach.card_ready
    shot("teach-ready")
    tap(teach.ids.keep)
    yield from settle()
    kept_in(teach, "deck-photos")
    result["ready_after_keep"] = teach.card_ready
    shot("teach-kept")
    result["teach_available"] = teach_available + [teach.ids.teach.available]
    yield from taught_now(teach, 120)
    cards = app.session.calibration.cards
    result["codes_taught"] = sorted(cards.codes) if cards else []
    yield from settle()
    shot("teach-taught")
    app.show("calibration")
    yield from settle()
    result["deck_words"] = screen("calibration").deck
    shot("calibration-taught")
    app.show("teach")
    yield from settle()
    result["progress_taught"] = screen("teach").progress


def scenario_teach_boards():  # type: ignore[no-untyped-def]
    app.set_language(LANGUAGE)
    teach = yield from opened_showing_the_camera("box", "teach_boards", "teach_boards")
    shot("teach-boards")
    result["first_instruction"] = teach.message
    for x, y in BOARD_TAPS:
        tap_picture(teach.ids.view, (x, y), teach._frame.shape)
        yield from settle()
    result["keep_before_numbers"] = not teach.ids.keep.disabled
    for key, number in zip(("jump", "scan", "land1", "land2"), TEACH_BOARD):
        for _ in range(number - 1):
            tap(teach.ids[key])
            yield from settle()
    result["numbers"] = list(teach.numbers())
    shot("teach-boards-ready")
    tap(teach.ids.keep)
    yield from settle()
    kept_in(teach, "board-photos")
    result["kept_message"] = teach.message
    shot("teach-boards-kept")
    yield from taught_now(teach, 60)
    result["boards_taught"] = app.session.calibration.boards is not None
    yield from settle()
    shot("teach-boards-refused")
    tap(teach.ids.back)
    yield from settle()
    tap(screen("box").ids.planets.children[-1].ids.read)
    yield from settle()
    result["read_message"] = screen("box").message


def scenario_box_read():  # type: ignore[no-untyped-def]
    """Box set-up's Read on the first planet, the board in the tray."""
    app.set_language(LANGUAGE)
    app.show("box")
    yield from settle()
    box = screen("box")
    deadline = time.monotonic() + 20
    while app.camera_frame() is None and time.monotonic() < deadline:
        yield
    row = box.rows()[0]
    result["before"] = [row.jump, row.scan, row.land1, row.land2]
    tap(row.ids.read)
    yield from settle()
    result["read_message"] = box.message
    result["after"] = [row.jump, row.scan, row.land1, row.land2]
    result["example_after_read"] = row.example
    shot("box-read")
    tap(box.ids.save)
    yield from settle()
    result["saved_message"] = box.message
    result["example_after_save"] = app.session.box.planets[0].example


SCENARIOS = {"teach": scenario_teach, "teach_boards": scenario_teach_boards,
             "box_read": scenario_box_read,
             "screens": scenario_screens, "legal": scenario_legal,
             "kill_play": scenario_kill_play, "soak": scenario_soak,
             "touch_game": scenario_touch_game, "resume": scenario_resume,
             "demo": scenario_demo, "first_frame": scenario_first_frame,
             "ui_work": scenario_ui_work,
             "keyboard": scenario_keyboard, "first_boot": scenario_first_boot,
             "ring_setup": scenario_ring_setup,
             "usb_backup": scenario_usb_backup, "long_game": scenario_long_game,
             "read_only_home": scenario_read_only_home,
             "teach_photos": scenario_teach_photos, "regulars": scenario_regulars,
             "final_round": scenario_final_round, "language": scenario_language,
             "tile_entry": scenario_tile_entry,
             "hostile_calibration": scenario_hostile_calibration}


def drive(steps):  # type: ignore[no-untyped-def]
    def step(_dt: float) -> None:
        try:
            next(steps)
            Clock.schedule_once(step, 0)  # the next frame
        except StopIteration:
            finish()
        except Exception as error:  # report it, and stop the app
            import traceback
            result["error"] = repr(error)
            result["traceback"] = traceback.format_exc()
            finish()
    Clock.schedule_once(step, 0.3)


def finish() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    language = "-".join(LANGUAGES)
    name = f"result-{SCENARIO}-{language}-{os.environ.get('UI_PLAYERS', '')}{SIZE}.json"
    text = json.dumps(result, default=str)
    (OUT / name).write_text(text)
    if os.environ.get("UI_RESULT"):
        Path(os.environ["UI_RESULT"]).write_text(text)
    app.stop()


def on_start(*_args: object) -> None:
    drive(SCENARIOS[SCENARIO]())


OUT.mkdir(parents=True, exist_ok=True)
app.bind(on_start=on_start)
app.run()
