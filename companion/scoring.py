"""Scoring exactly per the rules text, and the public standings shown during play.

Tile points need every tile's kind; while any of a player's tiles is unknown their tile
categories and total are ``None`` (shown as ``null``), never a guess.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any
from collections.abc import Iterable, Sequence

from companion.rules import CHIPS_PER_PLAYER, TILE_CATEGORY, GameState

#: Jump gate points for 1st to 4th place by probes on the gate.
GATE_POINTS = (9, 6, 3, 1)
STATION_POINTS = 3
MEDAL_POINTS = 3
SPACE_POINTS = -10
MATTER_PAIR_POINTS = 7
MATTER_SINGLE_POINTS = 2
#: Water points for 0-4 tiles; beyond four, another set starts (6 tiles = 14 + 5).
WATER_POINTS = (0, 2, 5, 9, 14)


def gate_places(probes: Sequence[int]) -> list[int | None]:
    """Competition ranking by probes on the gate; ``None`` for a player with no probe.

    Tied players share a place and use up the places below them: 1, 2, 2, 2, 5.
    """
    return [None if mine == 0 else 1 + sum(other > mine for other in probes)
            for mine in probes]


def gate_points(probes: Sequence[int]) -> list[int]:
    return [0 if place is None or place > len(GATE_POINTS) else GATE_POINTS[place - 1]
            for place in gate_places(probes)]


def _most_of_a_colour(kinds: Counter[str], category: str) -> int:
    """Set collection for minerals and aliens: all of them × the most of one colour."""
    counts = [n for kind, n in kinds.items() if TILE_CATEGORY[kind] == category]
    return sum(counts) * max(counts, default=0)


def matter_points(green: int, blue: int) -> int:
    pairs = min(green, blue)
    return pairs * MATTER_PAIR_POINTS + (green + blue - 2 * pairs) * MATTER_SINGLE_POINTS


def water_points(count: int) -> int:
    full_sets, rest = divmod(count, len(WATER_POINTS) - 1)
    return full_sets * WATER_POINTS[-1] + WATER_POINTS[rest]


def tile_points(tiles: Iterable[str]) -> dict[str, int]:
    """Points per category for a complete list of tile kinds."""
    kinds = Counter(tiles)
    return {
        "minerals": _most_of_a_colour(kinds, "minerals"),
        "aliens": _most_of_a_colour(kinds, "aliens"),
        "matter": matter_points(kinds["MAT-G"], kinds["MAT-B"]),
        "water": water_points(kinds["WAT"]),
        "medals": MEDAL_POINTS * kinds["MED"],
        "space": SPACE_POINTS * kinds["SPC"],
    }


@dataclass(frozen=True)
class PlayerScore:
    name: str
    probes: int
    stations: int
    jump_gate: int
    station_points: int
    minerals: int | None
    aliens: int | None
    matter: int | None
    water: int | None
    medals: int | None
    space: int | None
    total: int | None
    tiles_known: bool


@dataclass(frozen=True)
class ScoreSheet:
    ended: bool
    final_round: bool
    revealed_space: int
    threshold: int
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    """Empty until the game has ended and every total is known."""

    def to_json(self) -> dict[str, Any]:
        """The ``companion score --json`` document (DESIGN.md §5.2)."""
        data = asdict(self)
        data["players"] = [asdict(p) for p in self.players]
        data["winners"] = list(self.winners)
        return data


def score(state: GameState) -> ScoreSheet:
    probes = [p.probes for p in state.players]
    gate = gate_points(probes)
    rows = []
    for seat, player, gate_score in zip(state.setup.players, state.players, gate):
        known = all(t is not None for t in player.tiles)
        tiles = tile_points(t for t in player.tiles if t is not None) if known else None
        base = gate_score + STATION_POINTS * player.stations
        total = base + sum(tiles.values()) if tiles is not None else None
        points = tiles or {}
        rows.append(PlayerScore(
            name=seat.name, probes=player.probes, stations=player.stations,
            jump_gate=gate_score, station_points=STATION_POINTS * player.stations,
            minerals=points.get("minerals"), aliens=points.get("aliens"),
            matter=points.get("matter"), water=points.get("water"),
            medals=points.get("medals"), space=points.get("space"),
            total=total, tiles_known=known))
    return ScoreSheet(state.ended, state.final_round, state.revealed_space,
                      state.setup.threshold, tuple(rows), winners(state.ended, rows))


def winners(ended: bool, rows: Sequence[PlayerScore]) -> tuple[str, ...]:
    """Most points; on a tie, most stations; on a tie there too, all of them win."""
    if not ended or any(r.total is None for r in rows):
        return ()
    best = max((r.total, r.stations) for r in rows)  # type: ignore[type-var]
    return tuple(r.name for r in rows if (r.total, r.stations) == best)


# ---------------------------------------------------------------------------------------------
# Public standings: what the physical table shows, nothing hidden
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerStanding:
    name: str
    color: str
    at: str | None
    """Planet the ship is on; ``None`` on the jump gate."""
    probes: int
    gate_place: int | None
    gate_tied: bool
    """Another player has the same number of probes on the gate."""
    stations: int
    hand: int
    tiles: int
    """How many tiles the player holds (their kinds stay hidden until the end)."""
    reserved: int
    chips_left: int


@dataclass(frozen=True)
class PlanetStanding:
    name: str
    tiles_left: int
    revealed: bool
    revealed_space: int
    developer: str | None
    reserved_by: tuple[str, ...]
    """One name per reserved tile beside the planet."""
    ships: tuple[str, ...]


@dataclass(frozen=True)
class Standings:
    players: tuple[PlayerStanding, ...]
    planets: tuple[PlanetStanding, ...]
    current: str
    action: int
    turn: int
    round: int
    draw_pile: int
    discard_pile: int
    revealed_space: int
    threshold: int
    final_round: bool
    ended: bool


def standings(state: GameState) -> Standings:
    setup = state.setup
    names = [p.name for p in setup.players]
    probes = [p.probes for p in state.players]
    places = gate_places(probes)
    players = tuple(
        PlayerStanding(
            seat.name, seat.color, None if p.at is None else setup.planets[p.at].name,
            p.probes, places[i], p.probes > 0 and probes.count(p.probes) > 1, p.stations,
            p.hand, len(p.tiles), len(state.reserved_by(i)),
            CHIPS_PER_PLAYER - state.chips_in_play(i))
        for i, (seat, p) in enumerate(zip(setup.players, state.players)))
    planets = tuple(
        PlanetStanding(
            planet.name, stack.left, stack.revealed, stack.left if stack.revealed else 0,
            None if stack.developer is None else names[stack.developer],
            tuple(names[r.player] for r in stack.reservations),
            tuple(names[i] for i, p in enumerate(state.players) if p.at == index))
        for index, (planet, stack) in enumerate(zip(setup.planets, state.stacks)))
    return Standings(players, planets, state.current_name, state.action, state.turn,
                     state.turn // len(state.players) + 1, state.draw, state.discard,
                     state.revealed_space, setup.threshold, state.final_round, state.ended)
