"""Runs the real app in an offscreen window and drives it by touches, one scenario per run.

Usage: python tests/ui_driver.py SCENARIO WIDTHxHEIGHT HOME OUT. Writes OUT/result.json and
screenshots into OUT. The UI tests start it in a fresh process for each scenario: Kivy keeps
one window per process.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

SCENARIO, SIZE, HOME, OUT = sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])
START = time.monotonic()
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ui.app import prepare_kivy  # noqa: E402

prepare_kivy(HOME)
from kivy.config import Config  # noqa: E402

width, height = (int(v) for v in SIZE.split("x"))
Config.set("graphics", "width", str(width))
Config.set("graphics", "height", str(height))

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402

from companion.journal import read_journal  # noqa: E402
from companion.rules import (Develop, Discover, End, Fly, Inventory, Jump, Redo,  # noqa: E402
                             Scan, TopUp, Undo)
from companion.scoring import score  # noqa: E402
from companion.simulate import simulate  # noqa: E402
from ui.app import _app_class  # noqa: E402

result: dict[str, object] = {"scenario": SCENARIO, "size": [width, height]}
CAMERA = "demo" if SCENARIO in ("demo", "first_frame", "soak") else "none"
app = _app_class()(camera=CAMERA, home=HOME)


def tap(widget) -> None:  # type: ignore[no-untyped-def]
    """A real touch, down and up, at the widget's centre (through the window), after
    scrolling it into view as a player would."""
    parent = widget.parent
    while parent is not None and parent is not Window and not isinstance(parent, ScrollView):
        parent = parent.parent
    if not isinstance(parent, ScrollView):
        parent = None
    if parent is not None:
        parent.scroll_to(widget, padding=0, animate=False)
        parent._update_effect_bounds()
        parent.update_from_scroll()
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def shot(name: str) -> None:
    Window.screenshot(name=str(OUT / f"{name}-{SIZE}.png"))


def buttons(widget):  # type: ignore[no-untyped-def]
    return [w for w in widget.walk(restrict=True) if isinstance(w, Button)]


def small_targets(screen) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{b.text[:20]!r} {b.width:.0f}x{b.height:.0f}" for b in buttons(screen)
            if b.opacity > 0 and b.width > 0 and min(b.width, b.height) < 48]


def screen(name: str):  # type: ignore[no-untyped-def]
    return app.root.get_screen(name)


def choice(text: str):  # type: ignore[no-untyped-def]
    for button in buttons(screen("play").ids.choices):
        if button.text == text:
            return button
    raise LookupError(f"no choice {text!r} among "
                      f"{[b.text for b in buttons(screen('play').ids.choices)]}")


def start_game(players: int = 2) -> None:
    app.show("setup")
    setup = screen("setup")
    yield
    for i, row in enumerate(setup.player_rows()):
        row.ids.playing.active = i < players
    setup.ids.first.text = "Ann"
    yield
    tap(setup.ids.start)
    yield


def settle():  # type: ignore[no-untyped-def]
    """A few frames: nested layouts (a grid in a scroll view) settle over more than one."""
    for _ in range(3):
        yield


def enter(event):  # type: ignore[no-untyped-def]
    """Enter one event by touch, as a player would on the play screen; a tap that did not take
    (a widget still moving into place) is tapped again, as a player would."""
    before = len(app.session.journal.game.events_in_effect)
    for _ in range(3):
        yield from _enter_once(event)
        yield from settle()
        if len(app.session.journal.game.events_in_effect) != before or app.session.message:
            return


def _enter_once(event):  # type: ignore[no-untyped-def]
    play = screen("play")
    if isinstance(event, Undo):
        tap(play.ids.undo)
        return
    if isinstance(event, Redo):
        tap(play.ids.redo)
        return
    if isinstance(event, End):
        tap(play.ids.end_now)
        return
    if isinstance(event, Inventory):
        return
    if play.entering != event.type:
        tap(play.ids[f"action_{event.type}"])
    yield from settle()
    if isinstance(event, TopUp):
        tap(choice(f"discard {event.discard}, draw to 5"))
    elif isinstance(event, (Jump, Fly)):
        tap(choice(event.to))
    elif isinstance(event, Scan) and event.only_space:
        tap(choice("only space tiles found (first scan)"))
    elif isinstance(event, (Scan, Develop, Discover)):
        row = play._tile_row
        if event.tile is not None:
            row.ids.kind.text = next(v for v in row.ids.kind.values
                                     if v.split(" ")[0] == event.tile)
        row.ids.reveal.active = event.reveal
        tap(choice(f"Confirm {event.type}"))


def scenario_screens():  # type: ignore[no-untyped-def]
    result["small_targets"] = {}
    for name in ("home", "setup", "box", "calibration"):
        app.show(name)
        yield
        yield
        shot(name)
        result["small_targets"][name] = small_targets(screen(name))
    yield from start_game(3)
    yield
    shot("play")
    result["small_targets"]["play"] = small_targets(screen("play"))
    tap(screen("play").ids.action_jump)
    yield
    shot("play-jump")
    tap(screen("play").ids.end_now)
    yield
    yield
    shot("end")
    result["current"] = app.root.current
    result["small_targets"]["end"] = small_targets(screen("end"))


def scenario_legal():  # type: ignore[no-untyped-def]
    yield from start_game(2)
    play = screen("play")
    kinds = ("top_up", "jump", "fly", "scan", "develop", "discover")
    result["disabled_at_start"] = sorted(k for k in kinds if play.ids[f"action_{k}"].disabled)
    tap(play.ids.action_jump)
    yield
    result["jump_targets"] = [b.text for b in buttons(play.ids.choices)]
    tap(choice(app.session.state.setup.planets[2].name))
    yield
    tap(play.ids.action_fly)
    yield
    result["fly_targets"] = [b.text for b in buttons(play.ids.choices)]
    shot("play-fly")
    tap(play.ids.undo)
    yield
    result["after_undo"] = {"at": app.session.state.players[0].at,
                            "probes": app.session.state.players[0].probes,
                            "action": app.session.state.action}
    tap(play.ids.redo)
    yield
    result["after_redo_at"] = app.session.state.players[0].at
    result["rss_mb"] = rss_mb()


def scenario_touch_game():  # type: ignore[no-untyped-def]
    """A simulated game entered by touches; cards cannot be named by touch, so the expected
    record is the simulation's without card codes."""
    game = simulate(int(os.environ.get("UI_SEED", "11")), 2)
    yield from start_game(2)
    setup = app.session.state.setup
    script = [e for e in game.events]
    # the app's set-up has its own ring: play the simulation's ring instead
    app.session.start(game.setup)
    app.show("play")
    yield
    for number, event in enumerate(script):
        if isinstance(event, Inventory):
            continue
        before = len(app.session.journal.game.events_in_effect)
        yield from enter(event)
        after = len(app.session.journal.game.events_in_effect)
        if after == before:
            result["refused"] = f"event {number} {event.to_json()} not entered: " \
                                f"{app.session.message}"
            break
        if app.session.message:
            result["refused"] = f"{event.to_json()}: {app.session.message}"
            break
    yield
    end = screen("end")
    for event in script:
        if not isinstance(event, Inventory):
            continue
        end.choose(event.player)
        yield
        for kind in set(event.tiles):
            for _ in range(event.tiles.count(kind) - end.counts[kind]):
                end.bump(kind, 1)
        save = next(b for b in buttons(end) if b.text.startswith("Save"))
        tap(save)
        yield
    shot("end-touch-game")
    contents = read_journal(app.session.journal.path)
    result["journal"] = [e.to_json() for e in contents.events]
    result["score"] = score(contents.game.state).to_json()
    result["unused_setup_ring"] = [p.name for p in setup.planets]


def scenario_resume():  # type: ignore[no-untyped-def]
    state = app.session.state
    result["resumed_screen"] = app.root.current
    result["resumed"] = None if state is None else {
        "current": state.current_name, "action": state.action, "turn": state.turn}
    if os.environ.get("UI_PLAY"):
        yield from start_game(2)
        yield from enter(Jump(app.session.state.setup.planets[0].name))
        yield
        yield from enter(Fly(app.session.state.setup.planets[1].name))
        yield
        yield from enter(TopUp(0))
        yield
        state = app.session.state
        result["played"] = {"current": state.current_name, "action": state.action,
                            "turn": state.turn}
    yield


def scenario_demo():  # type: ignore[no-untyped-def]
    for _ in range(int(os.environ.get("UI_DEMO_TICKS", "60"))):
        if app.demo.counts["camera"] >= 3:
            break
        yield
    yield
    yield
    shot("demo")
    result["events"] = len(app.session.journal.game.events_in_effect)
    result["demo_counts"] = dict(app.demo.counts)
    result["camera_frames"] = app.camera.frames
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
        ok = app.session.undo() if isinstance(event, Undo) else app.session.play(event)
        if ok:
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


def scenario_first_frame():  # type: ignore[no-untyped-def]
    yield
    result["first_frame_s"] = time.monotonic() - START


SCENARIOS = {"screens": scenario_screens, "legal": scenario_legal,
             "kill_play": scenario_kill_play, "soak": scenario_soak,
             "touch_game": scenario_touch_game, "resume": scenario_resume,
             "demo": scenario_demo, "first_frame": scenario_first_frame}


def drive(steps):  # type: ignore[no-untyped-def]
    def step(_dt: float) -> None:
        try:
            next(steps)
            Clock.schedule_once(step, 0.05)
        except StopIteration:
            finish()
        except Exception as error:  # report it, and stop the app
            result["error"] = repr(error)
            finish()
    Clock.schedule_once(step, 0.3)


def finish() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"result-{SCENARIO}-{SIZE}.json").write_text(json.dumps(result, default=str))
    app.stop()


def on_start(*_: object) -> None:
    drive(SCENARIOS[SCENARIO]())


OUT.mkdir(parents=True, exist_ok=True)
app.bind(on_start=on_start)
app.run()
