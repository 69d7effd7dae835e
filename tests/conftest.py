"""Shared fixtures: a fixed ring of planets and helpers to play events by their journal form."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.rules import Game, GameState, Setup, parse_event

# What `make test` sets, so that a plain `pytest` runs the same: Kivy with no argument parsing
# of ours and its settings inside the project, one BLAS thread (see vision/__init__.py).
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_HOME", str(Path(__file__).resolve().parents[1] / ".kivy"))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# OpenCV on one thread: with its own threads, the rendered teaching photos and the deck taught
# from them came out a little different in each run (one of several models), and a test's
# result with them. Each worker already has a core of its own.
cv2.setNumThreads(1)

#: A fixed ring for rule tests (clockwise). Jump 1 is shared by Freezer and Hazard, as in the
#: rules text; Hazard's neighbours are Green Heggar and Ruby Red, as in the rules text too.
RING = [
    {"name": "Freezer", "jump": 1, "scan": 2, "landing": [1, 3]},
    {"name": "Green Heggar", "jump": 2, "scan": 1, "landing": [3, 4]},
    {"name": "Hazard", "jump": 1, "scan": 4, "landing": [2, 4]},
    {"name": "Ruby Red", "jump": 3, "scan": 3, "landing": [1, 2]},
    {"name": "Caldera", "jump": 3, "scan": 2, "landing": [1, 4]},
    {"name": "Nova", "jump": 2, "scan": 3, "landing": [2, 3]},
    {"name": "Orbis", "jump": 4, "scan": 1, "landing": [1, 1]},
    {"name": "Vega", "jump": 4, "scan": 4, "landing": [3, 3]},
]
NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eve"]
COLORS = ["red", "blue", "green", "yellow", "black"]


def setup_json(players: int = 2, variant: str = "table", first: str | None = None,
               **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "v": 1, "type": "setup", "variant": variant,
        "players": [{"name": NAMES[i], "color": COLORS[i]} for i in range(players)],
        "planets": [dict(p) for p in RING]}
    if first is not None:
        data["first"] = first
    data.update(extra)
    return data


def new_game(players: int = 2, variant: str = "table", first: str | None = None) -> Game:
    setup = parse_event(setup_json(players, variant, first))
    assert isinstance(setup, Setup)
    return Game(setup)


def play(game: Game, *events: dict[str, Any] | str) -> GameState:
    """Play events given as dicts or as JSON text, as a journal line would hold them."""
    for event in events:
        data = json.loads(event) if isinstance(event, str) else event
        game.play(parse_event(data))
    return game.state


@pytest.fixture
def game2() -> Game:
    return new_game(2)
