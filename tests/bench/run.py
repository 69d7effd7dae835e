"""`make bench`: speed and durability figures, measured in one run, with their targets.

Run from the project root: `python tests/bench/run.py [SECTION...]` (sections: core, vision,
app, faults; all when none is named). Prints one line per figure.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # for tests.powercut

from companion.journal import read_journal, write_journal  # noqa: E402
from companion.rules import Card, legal_events  # noqa: E402
from companion.scoring import score  # noqa: E402
from companion.simulate import simulate  # noqa: E402
from tests.bench import (board_bench, cardgen_bench, pi_bench, pieces_bench,  # noqa: E402
                         ui_bench, vision_bench)
from tests.powercut import kill_cycle  # noqa: E402


def report(name: str, value: float, unit: str, target: str, ok: bool) -> None:
    print(f"{name:<52} {value:>10.2f} {unit:<12} target {target:<11} {'ok' if ok else 'MISSED'}",
          flush=True)


def journal_of(events: int, directory: Path) -> Path:
    """A real record of at least ``events`` events, cut to exactly that many."""
    for seed in range(1000):
        game = simulate(seed, 5)
        if len(game.events) >= events:
            path = directory / f"replay-{events}.jsonl"
            write_journal(path, game.setup, game.events[:events])
            return path
    raise RuntimeError("no simulated game is that long")


def bench_replay(directory: Path) -> None:
    path = journal_of(400, directory)
    times = []
    for _ in range(50):
        start = time.perf_counter()
        score(read_journal(path).game.state)
        times.append((time.perf_counter() - start) * 1000)
    median = statistics.median(times)
    report("replay + score, 400-event journal (median)", median, "ms", "<= 20 ms", median <= 20)
    report("  ratio target / measured", 20 / median, "x", ">= 1", median <= 20)


def bench_generator() -> None:
    """The move generator on every state of a few real games: what the touch screen asks
    (everything, no cards named) and what the tracker asks (a card seen on the pile)."""
    states = []
    for seed in range(6):
        game = simulate(seed, 2 + seed % 4)
        states += [game.game.replay(game.setup, game.events[:n]).state
                   for n in range(0, len(game.events), 3)]
    states = [s for s in states if not s.ended]
    card = Card.parse("B3/G2")
    for label, ask in (("touch: every action", lambda s: list(legal_events(s))),
                       ("camera: a card seen", lambda s: list(legal_events(s, cards=[card])))):
        times = []
        for state in states:
            start = time.perf_counter()
            ask(state)
            times.append((time.perf_counter() - start) * 1e6)
        times.sort()
        median, worst = statistics.median(times), times[int(len(times) * 0.99)]
        report(f"move generator, {label} (median)", median, "us/call", "-", True)
        report(f"  99th percentile over {len(states)} states", worst, "us/call", "-", True)


def bench_games() -> None:
    start, games = time.perf_counter(), 0
    while time.perf_counter() - start < 3.0:
        simulate(games, 2 + games % 4)
        games += 1
    rate = games / (time.perf_counter() - start)
    report("random legal games (2-5 players)", rate, "games/s", "-", True)


def bench_kills(directory: Path, cycles: int = 200) -> None:
    rng = random.Random(1)
    start = time.perf_counter()
    results = [kill_cycle(directory, seed, rng) for seed in range(cycles)]
    lost = sum(r.lost for r in results)
    partial = sum(r.dropped_partial_line for r in results)
    report(f"kill-and-reopen cycles: events lost ({cycles})", lost, "events", "0",
           lost == 0 and all(r.prefix_ok for r in results))
    report("  acknowledged events across all cycles", sum(r.acknowledged for r in results),
           "events", "-", True)
    report("  partial last lines dropped on reopen", partial, "lines", "-", True)
    report("  time per cycle", (time.perf_counter() - start) / cycles * 1000, "ms", "-", True)


def bench_core() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        bench_replay(directory)
        bench_generator()
        bench_games()
        bench_kills(directory)


SECTIONS = {
    "core": [bench_core],
    "vision": [lambda: vision_bench.bench_still(report),
               lambda: vision_bench.bench_live(report),
               lambda: vision_bench.bench_read_rates(report),
               lambda: vision_bench.bench_fallbacks(report),
               lambda: vision_bench.bench_tilted_stickers(report),
               lambda: vision_bench.bench_qr_photos(report),
               lambda: vision_bench.bench_cards(report),
               lambda: board_bench.bench_boards(report),
               lambda: pieces_bench.bench_pieces(report),
               lambda: pieces_bench.bench_pieces(report, pieces_bench.TILTS),
               lambda: pieces_bench.bench_automation(report),
               lambda: cardgen_bench.bench_cardgen(report)],
    "app": [lambda: ui_bench.bench_start(report), lambda: ui_bench.bench_card_latency(report),
            lambda: ui_bench.bench_ui_thread(report), lambda: ui_bench.bench_memory(report)],
    "faults": [lambda: pi_bench.bench_fuzz(report), lambda: pi_bench.bench_app_kills(report),
               lambda: pi_bench.bench_worst_photos(report), lambda: pi_bench.bench_soak(report)],
}


def main(names: list[str]) -> None:
    unknown = [n for n in names if n not in SECTIONS]
    if unknown:
        raise SystemExit(f"unknown section {unknown[0]!r} (one of {', '.join(SECTIONS)})")
    print(f"{'figure':<52} {'measured':>10} {'unit':<12} target")
    for name in names or list(SECTIONS):
        start, stolen = time.perf_counter(), stolen_seconds()
        for bench in SECTIONS[name]:
            bench()
        if stolen is not None:
            took, lost = time.perf_counter() - start, (stolen_seconds() or stolen) - stolen
            share = 100 * lost / max(took * (os.cpu_count() or 1), 1e-9)
            report(f"section '{name}': processor time the host took", share,
                   f"% of {took:.0f} s", "-", True)


def stolen_seconds() -> float | None:
    """Processor seconds the host of this virtual machine has run others on, all cores
    together, since it started (Linux's "steal"); None where that is not told. Time taken
    so slows every timed figure of a section: on the development machine, the same deck
    was taught in 32 s in one hour and in 70 s in another, when the host took a tenth or
    more of the processors' time."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


if __name__ == "__main__":
    main(sys.argv[1:])
