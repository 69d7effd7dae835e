"""Kill a process that is appending to a journal, then check what survived.

Run as a script, this file is the child: it appends a simulated game's events to a journal,
printing each event's number on stdout once ``append`` has returned. ``kill_cycle`` starts it,
SIGKILLs it at a random moment and reopens the journal, as the app does after a power cut.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from companion.journal import Journal, encode
from companion.simulate import simulate

CHILD = Path(__file__).resolve()
ROOT = CHILD.parent.parent


@dataclass(frozen=True)
class KillResult:
    acknowledged: int
    """Events whose append had returned when the child was killed."""
    stored: int
    """Events found on reopening."""
    lost: int
    dropped_partial_line: bool
    prefix_ok: bool
    """The stored events are exactly the first events the child meant to write."""


def kill_cycle(directory: Path, seed: int, rng: random.Random) -> KillResult:
    path = directory / f"kill-{seed}.jsonl"
    child = subprocess.Popen([sys.executable, str(CHILD), str(path), str(seed)],
                             stdout=subprocess.PIPE, cwd=ROOT, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    time.sleep(rng.uniform(0.0, 0.25))
    child.send_signal(signal.SIGKILL)
    rest = child.stdout.read()
    child.wait()
    numbers = [int(line) for line in rest.split()]
    acknowledged = max(numbers, default=0)
    with Journal.open(path) as journal:  # replays, and cuts off a partial last line
        dropped = journal.dropped is not None
    written = [{k: v for k, v in json.loads(line).items() if k != "at"}  # when: not what
               for line in path.read_text().splitlines()[1:]]
    intended = [json.loads(encode(e)) for e in simulate(seed, 2 + seed % 4).events]
    return KillResult(acknowledged, len(written), max(0, acknowledged - len(written)), dropped,
                      written == intended[:len(written)])


def child_main(path: str, seed: int) -> None:
    game = simulate(seed, 2 + seed % 4)
    journal = Journal.create(path, game.setup)
    print("ready", flush=True)
    for number, event in enumerate(game.events, start=1):
        journal.append(event)
        print(number, flush=True)
    journal.close()


if __name__ == "__main__":
    child_main(sys.argv[1], int(sys.argv[2]))
