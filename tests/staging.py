"""Tile orders that stage a rare case for a simulated game."""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.rules import SPACE, TILES_PER_STACK

POINT_TILES = {"MIN-R": 4, "MIN-P": 4, "MIN-G": 4, "MIN-B": 4, "ALI-N": 5, "ALI-B": 5,
               "MAT-G": 4, "MAT-B": 4, "WAT": 8, "MED": 6}
SPACE_TILES = 16


def only_space_at(planets: Sequence[int], rng: random.Random) -> list[str]:
    """The 64 tiles in dealing order (8 per planet around the ring) with the stacks of the
    given ring positions (at most two) holding only space tiles: the special case of a first
    scan that finds only space. The other space tiles are shuffled among the point tiles."""
    others = SPACE_TILES - TILES_PER_STACK * len(planets)
    rest = [kind for kind, count in POINT_TILES.items() for _ in range(count)] + [SPACE] * others
    rng.shuffle(rest)
    order: list[str] = []
    for planet in range(8):
        if planet in planets:
            order += [SPACE] * TILES_PER_STACK
        else:
            order += rest[:TILES_PER_STACK]
            rest = rest[TILES_PER_STACK:]
    return order
