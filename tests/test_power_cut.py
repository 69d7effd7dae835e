"""Power cut: a process appending events is SIGKILLed at random points, 60 times.

Reopening must lose no event whose append had returned, and what is stored must be exactly the
beginning of what was being written.
"""

from __future__ import annotations

import random

from tests.powercut import kill_cycle

KILLS = 60


def test_no_acknowledged_event_is_lost_when_the_writer_is_killed(tmp_path):
    rng = random.Random(2026)
    results = [kill_cycle(tmp_path, seed, rng) for seed in range(KILLS)]
    assert all(r.prefix_ok for r in results)
    assert sum(r.lost for r in results) == 0
    # the kills landed at different points: some early, some late in the game
    assert len({r.stored for r in results}) > KILLS // 4
