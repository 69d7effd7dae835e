"""`make bench`: speed and durability figures, measured in one run, with their targets.

Run from the project root: `python tests/bench/run.py`. Prints one line per figure.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # for tests.powercut

from companion.journal import read_journal, write_journal  # noqa: E402
from companion.scoring import score  # noqa: E402
from companion.simulate import simulate  # noqa: E402
from tests.bench import pi_bench, ui_bench, vision_bench  # noqa: E402
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


def main() -> None:
    print(f"{'figure':<52} {'measured':>10} {'unit':<12} target")
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        bench_replay(directory)
        bench_games()
        bench_kills(directory)
    vision_bench.bench_pipeline(report)
    vision_bench.bench_read_rates(report)
    vision_bench.bench_fallbacks(report)
    vision_bench.bench_still(report)
    ui_bench.bench_start(report)
    ui_bench.bench_card_latency(report)
    ui_bench.bench_memory(report)
    pi_bench.bench_fuzz(report)
    pi_bench.bench_app_kills(report)
    pi_bench.bench_soak(report)


if __name__ == "__main__":
    main()
