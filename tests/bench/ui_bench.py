"""Table app figures for `make bench`: start to first frame, card to proposal, memory."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from companion.rules import Game, Jump, Scan
from companion.simulate import simulate
from companion.tracker import Tracker
from ui.camera import TableEyes
from synthetic.playback import TablePlayback
from synthetic.teaching import demo_calibration

ROOT = Path(__file__).resolve().parents[2]


def _drive(scenario: str, **env: str) -> dict:
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as out:
        environment = dict(os.environ, SDL_VIDEODRIVER="offscreen", **env)
        environment.pop("KIVY_HOME", None)
        subprocess.run([sys.executable, str(ROOT / "tests" / "ui_driver.py"), scenario,
                        "800x480", home, out], env=environment, capture_output=True, timeout=600)
        return json.loads((Path(out) / f"result-{scenario}-en-800x480.json").read_text())


def bench_start(report) -> None:
    times = [_drive("first_frame")["first_frame_s"] for _ in range(3)]
    median = statistics.median(times)
    report("app start to first frame shown (median of 3)", median, "s", "<= 2 s", median <= 2)


def bench_card_latency(report) -> None:
    """Frames from a card lying still on the pile (the hand gone) to its proposal, each card
    of a whole game (51 cards)."""
    game = simulate(21, 3)
    events = game.events
    # the demo table's camera: its calibration carries the deck as taught
    eyes, tracker, replay = TableEyes(demo_calibration()), Tracker(), Game(game.setup)
    applied = 0
    latencies: list[int] = []
    waiting: dict[int, int] = {}
    for frame in TablePlayback(game.setup, events, seed=4):
        seen = eyes.see(frame.table, frame.tray)
        while applied < frame.event_index:  # the record up to the event on the table
            replay.play(events[applied])
            applied += 1
        # every frame, as the app does: the tracker follows the pile as it changes
        view = tracker.update(replay.state, seen)
        event = events[frame.event_index] if frame.event_index >= 0 else None
        card = getattr(event, "card", None)
        if not (isinstance(event, Jump | Scan) and card is not None and frame.settled):
            continue
        if frame.event_index in waiting and waiting[frame.event_index] < 0:
            continue  # already proposed
        waiting[frame.event_index] = waiting.get(frame.event_index, 0) + 1
        if any(getattr(p.event, "card", None) == card for p in view.proposals):
            latencies.append(waiting[frame.event_index])
            waiting[frame.event_index] = -1
    missed = sum(1 for v in waiting.values() if v >= 0)
    latencies.sort()
    p99 = _percentile(latencies, 0.99)
    report("card placed to proposal, p99 (frames)", p99, "frames", "<= 3",
           p99 <= 3 and not missed)
    report("  median / cards proposed / not proposed", statistics.median(latencies)
           if latencies else float("nan"), f"/ {len(latencies)} / {missed}", "-", True)


def _percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(share * len(values)))] if values else float("nan")


def bench_ui_thread(report) -> None:
    """The demo table for 30 s: the UI thread's work on each tick (the camera's view handed to
    the tracker and the screens) and on each paint of the play screen's panel."""
    work = _drive("ui_work", UI_DEMO_SECONDS="30")
    for name, what in (("tick", "UI thread per tick (view handed over)"),
                       ("panel", "UI thread per panel paint")):
        times = work[f"{name}_ms"]
        p99 = _percentile(times, 0.99)
        report(f"{what}, p50 / p99 of {len(times)}", _percentile(times, 0.5),
               f"/ {p99:.1f} ms", "p99 <= 33 ms", p99 <= 33)


BARE_WINDOW = """
import os
os.environ.update(KIVY_NO_ARGS="1", KIVY_HOME=os.environ["BARE_HOME"])
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.label import Label

def resident(*_):
    status = open("/proc/self/status").read().split("VmRSS:")[1]
    print(int(status.split()[0]) / 1024)
    App.get_running_app().stop()

class Bare(App):
    def build(self):
        Clock.schedule_once(resident, 2)
        return Label(text="a bare window")

Bare().run()
"""
"""A Kivy window with one label, under the same GL driver: what any Kivy app holds here (under
Mesa's software drivers, not the Pi's GPU, much of it the driver's)."""


def bench_memory(report) -> None:
    manual = _drive("legal")["rss_mb"]
    demo = _drive("demo", UI_DEMO_SECONDS="30")["rss_mb"]
    with tempfile.TemporaryDirectory() as home:
        script = Path(home) / "bare.py"  # (Kivy looks for an app's kv file beside its source)
        script.write_text(BARE_WINDOW)
        bare = float(subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, timeout=120,
            env=dict(os.environ, SDL_VIDEODRIVER="offscreen", BARE_HOME=home),
            check=True).stdout.split()[-1])
    report("resident memory, a bare Kivy window (the same GL driver)", bare, "MB", "-", True)
    report("resident memory, app playing by touch", manual, "MB", "<= 200 MB", manual <= 200)
    report("resident memory, app playing the demo table", demo, "MB", "<= 200 MB", demo <= 200)
