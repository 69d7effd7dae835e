"""Fault figures for `make bench`: fuzzed inputs, SIGKILLs of the running app, a soak run."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from companion.journal import Journal
from tests import fuzz_targets as fuzz
from tests.conftest import setup_json

ROOT = Path(__file__).resolve().parents[2]
WORDS = ["type", "jump", "fly", "scan", "develop", "discover", "top_up", "undo", "end",
         "tiles", "to", "card", "cards", "tile", "player", "reveal", "B3/G2", "G2/B3", "O?/O1",
         "MIN-R", "SPC", "Freezer", "Ann", "SM1:T17:MIN-R", "v", "planets", "players"]


def random_json(rng: random.Random, depth: int = 0):  # type: ignore[no-untyped-def]
    roll = rng.random()
    if depth > 3 or roll < 0.45:
        return rng.choice([None, True, False, rng.randint(-5, 70), rng.random() * 1e6,
                           rng.choice(WORDS), "", "\u0000", "x" * rng.randint(0, 50)])
    if roll < 0.7:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(WORDS): random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def mutate(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(chars) + 1)
        choice = rng.random()
        if choice < 0.4 and chars:
            del chars[min(at, len(chars) - 1)]
        elif choice < 0.8:
            chars.insert(at, rng.choice("{}[]\":,0123456789abSMT-/?\n\xff"))
        elif chars:
            chars[min(at, len(chars) - 1)] = chr(rng.randrange(32, 0x3000))
    return "".join(chars)


def hostile_line(rng: random.Random) -> bytes:
    """A journal line as a damaged, hostile or foreign file may hold it."""
    roll = rng.random()
    if roll < 0.15:
        n = rng.randint(500, 5000)
        return ("[" * n + "]" * n).encode()
    if roll < 0.3:
        return b'{"type": "jump", "to": "Freezer", "x": ' + b"9" * rng.randint(4000, 6000) + b"}"
    if roll < 0.45:
        name = rng.choice(["\\ud800x", "Zo\u00eb", "\\udfff", "\u0000", "\\u0041"])
        return ('{"type": "tiles", "player": "' + name + '", "tiles": []}').encode()
    if roll < 0.55:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 30)))
    text = json.dumps(random_json(rng), ensure_ascii=rng.random() < 0.5)
    return mutate(text, rng).encode("utf-8", "surrogatepass")


def hostile_record(rng: random.Random) -> bytes:
    first = json.dumps(setup_json(2)).encode() if rng.random() < 0.7 else hostile_line(rng)
    lines = [hostile_line(rng) if rng.random() < 0.5 else b'{"type": "top_up"}'
             for _ in range(rng.randint(0, 5))]
    return b"\n".join([first, *lines]) + (b"\n" if rng.random() < 0.6 else b"")


def one_input(rng: random.Random) -> tuple[str, object]:
    kind = rng.choice(["sticker", "sticker", "event", "event", "journal", "journal_lines",
                       "box", "calibration", "image", "score_command", "journal_open",
                       "box_file", "calibration_file"])
    if kind in ("score_command", "journal_open", "box_file", "calibration_file"):
        return kind, hostile_record(rng)
    if kind == "sticker":
        return kind, mutate("SM1:T17:MIN-R", rng)
    if kind == "event":
        return kind, random_json(rng) if rng.random() < 0.5 else {
            "type": rng.choice(WORDS), **{rng.choice(WORDS): random_json(rng) for _ in range(3)}}
    if kind == "journal":
        return kind, mutate(json.dumps(setup_json(2)) + '\n{"type": "jump", "to": "Freezer"}\n',
                            rng).encode("utf-8", "surrogatepass")
    if kind == "journal_lines":
        return kind, [setup_json(2)] + [random_json(rng) for _ in range(rng.randint(0, 6))]
    if kind in ("box", "calibration"):
        return kind, random_json(rng)
    h, w = rng.randint(1, 160), rng.randint(1, 160)
    return kind, np.random.default_rng(rng.randrange(2**32)).integers(
        0, 256, (h, w, rng.choice([1, 3, 4])), dtype=np.uint8)


def bench_fuzz(report, count: int = 10_000) -> None:
    rng = random.Random(2026)
    crashes: dict[str, int] = {}
    for _ in range(count):
        kind, value = one_input(rng)
        try:
            fuzz.TARGETS[kind](value)  # type: ignore[operator]
        except Exception as error:  # noqa: BLE001 - counting crashes is the point
            crashes[f"{kind}: {type(error).__name__}"] = crashes.get(
                f"{kind}: {type(error).__name__}", 0) + 1
    report(f"fuzzed inputs ({count}): crashes", sum(crashes.values()), "inputs", "0",
           not crashes)
    for name, n in crashes.items():
        report(f"  {name}", n, "inputs", "-", False)


def bench_app_kills(report, cycles: int = 200) -> None:
    rng = random.Random(7)
    lost = acknowledged = 0
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as out:
        for cycle in range(cycles):
            env = dict(os.environ, SDL_VIDEODRIVER="offscreen", UI_SEED=str(cycle))
            env.pop("KIVY_HOME", None)
            child = subprocess.Popen([sys.executable, str(ROOT / "tests" / "ui_driver.py"),
                                      "kill_play", "800x480", f"{home}/{cycle}", out],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=env, text=True)
            assert child.stdout is not None
            while child.stdout.readline().strip() != "ready":
                pass
            time.sleep(rng.uniform(0.0, 1.5))
            child.send_signal(signal.SIGKILL)
            numbers = [int(x) for x in child.stdout.read().split() if x.isdigit()]
            child.wait()
            confirmed = max(numbers, default=0)
            games = list(Path(f"{home}/{cycle}/games").glob("*.jsonl"))
            with Journal.open(games[0]) as journal:
                stored = len(games[0].read_text().splitlines()) - 1
                assert journal.state is not None
            acknowledged += confirmed
            lost += max(0, confirmed - stored)
    report(f"SIGKILLs of the running app ({cycles}): actions lost", lost, "actions", "0",
           lost == 0)
    report("  confirmed actions across all kills", acknowledged, "actions", "-", True)


def bench_soak(report) -> None:
    seconds = float(os.environ.get("SOAK_SECONDS", "300"))
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, SDL_VIDEODRIVER="offscreen", UI_SOAK_SECONDS=str(seconds))
        env.pop("KIVY_HOME", None)
        subprocess.run([sys.executable, str(ROOT / "tests" / "ui_driver.py"), "soak",
                        "800x480", home, out], env=env, capture_output=True,
                       timeout=seconds + 300)
        result = json.loads((Path(out) / "result-soak-en-800x480.json").read_text())
    growth = result["rss_end_mb"] - result["rss_start_mb"]
    report(f"soak on the demo table, {result['seconds'] / 60:.0f} min: memory growth", growth,
           "MB", "< 10 MB", growth < 10)
    report("  resident memory at start / end", result["rss_start_mb"],
           f"/ {result['rss_end_mb']:.0f} MB", "-", True)
    print("  samples every 30 s (MB):", result.get("rss_samples_mb"), flush=True)
    dropped = result["expected_frames"] - result["frames"]
    report("  frames dropped (15 fps asked)", dropped,
           f"of {result['expected_frames']}", "-", True)


WORST_PHOTOS = {"12 MP noise PNG": ((3000, 4000), ".png"),
                "60 MP noise JPEG": ((6700, 8900), ".jpg")}
"""The costliest photos that pass every check at the door: colour noise makes the most spots,
60 megapixels is the most a photo may hold, 64 MB the most a file may weigh."""


def _child_cost(command: list[str]) -> tuple[float, float, int]:
    """Seconds and peak resident megabytes of one command, run alone in a fresh process."""
    probe = ("import resource, subprocess, sys, time\n"
             "start = time.monotonic()\n"
             "code = subprocess.run(sys.argv[1:], capture_output=True).returncode\n"
             "print(time.monotonic() - start, "
             "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, code)")
    out = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True,
                         text=True, timeout=1800).stdout.split()
    return float(out[0]), float(out[1]), int(out[2])


def bench_worst_photos(report) -> None:
    """`companion scan` (with a taught deck) and `companion calibrate cards` on the worst
    photos one can make: the work is bounded by the image's size, not by what it shows."""
    import cv2

    from synthetic.teaching import demo_calibration
    from vision.config import save_calibration
    companion = str(Path(sys.executable).with_name("companion"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        save_calibration(demo_calibration(), folder / "deck.json")
        for name, ((height, width), suffix) in WORST_PHOTOS.items():
            album = folder / f"album{suffix}"
            album.mkdir()
            photo = album / f"B3-O1{suffix}"
            noise = np.random.default_rng(height).integers(0, 256, (height, width, 3), np.uint8)
            cv2.imwrite(str(photo), noise, [cv2.IMWRITE_JPEG_QUALITY, 60])
            del noise
            for what, command in (
                    ("scan", [companion, "scan", str(photo), "--calibration",
                              str(folder / "deck.json")]),
                    ("calibrate cards", [companion, "calibrate", "cards", str(album), "--out",
                                         str(folder / "taught.json")])):
                seconds, megabytes, code = _child_cost(command)
                report(f"worst photo, {what}, {name}: peak", megabytes, "MB", "<= 1024 MB",
                       megabytes <= 1024)
                report(f"  time (exit {code})", seconds, "s", "<= 60 s", seconds <= 60)
