"""Random legal games: the fixture factory for tests, benchmarks and the demo table.

A ``Simulation`` holds the hidden world the companion never sees (the shuffled deck, the hands,
the face-down stacks) and lets seeded random players act in it. Every action it produces is
played through the rules engine, so a simulated record is legal by construction and checked.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar
from collections.abc import Callable, Sequence

from companion.box import BoxProfile, load_box
from companion.rules import (CHIPS_PER_PLAYER, HAND_SIZE, PLAYER_COLORS, RING_SIZE, SPACE,
                             TILES_PER_STACK, Card, Develop, Discover, End, Event, Fly, Game,
                             Inventory, Jump, PlayerSeat, Scan, Setup, TopUp, Undo,
                             cards_fit_landing)

T = TypeVar("T")
PLAYER_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eve")
#: How strongly the random players prefer each kind of action when several are open.
ACTION_WEIGHTS = {"develop": 8, "discover": 6, "scan": 4, "jump": 2, "fly": 2, "top_up": 1}
#: Rounds after which the simulated players agree to end (the threshold can become unreachable).
MAX_ROUNDS = 80


@dataclass
class World:
    """What lies on the table, hidden parts included."""

    hands: list[list[Card]]
    draw: list[Card]
    discard: list[Card] = field(default_factory=list)
    stacks: list[list[str]] = field(default_factory=list)
    """Face-down tiles per planet (by ring index)."""
    tiles: list[list[str]] = field(default_factory=list)
    """Tiles each player holds."""
    reserved: list[list[tuple[int, str]]] = field(default_factory=list)
    """Per planet: (player, kind) of each reserved tile."""

    def copy(self) -> World:
        """Cards and kinds are immutable: copying the lists is a full copy."""
        return World([list(h) for h in self.hands], list(self.draw), list(self.discard),
                     [list(s) for s in self.stacks], [list(t) for t in self.tiles],
                     [list(r) for r in self.reserved])


@dataclass(frozen=True)
class SimulatedGame:
    setup: Setup
    events: tuple[Event, ...]
    game: Game


class Simulation:
    def __init__(self, seed: int, players: int, variant: str = "table",
                 box: BoxProfile | None = None, undo_rate: float = 0.03,
                 hide_rate: float = 0.0, space_mistake_rate: float = 0.02,
                 tile_order: Sequence[str] | None = None) -> None:
        """``hide_rate``: chance an optional field (card code, tile kind) is left out, as in
        touch-only play. ``space_mistake_rate``: chance a player takes a space tile on
        purpose (variant ``table`` only). ``tile_order``: the 64 tiles in dealing order
        (8 per planet around the ring) instead of a shuffle, to stage rare cases."""
        self.rng = random.Random(seed)
        self.box = box or load_box()
        self.undo_rate, self.hide_rate = undo_rate, hide_rate
        self.space_mistake_rate = space_mistake_rate if variant == "table" else 0.0
        rng = self.rng
        colors = list(PLAYER_COLORS)
        rng.shuffle(colors)
        seats = tuple(PlayerSeat(PLAYER_NAMES[i], colors[i]) for i in range(players))
        planets = rng.sample([p.planet for p in self.box.planets], RING_SIZE)
        self.setup = Setup(seats, tuple(planets), rng.choice(seats).name, variant)
        self.game = Game(self.setup)
        deck = list(self.box.deck)
        rng.shuffle(deck)
        tiles = [kind for kind, count in self.box.tiles.items() for _ in range(count)]
        rng.shuffle(tiles)
        if tile_order is not None:
            if sorted(tile_order) != sorted(tiles):
                raise ValueError("tile_order must hold exactly the box's 64 tiles")
            tiles = list(tile_order)
        self.world = World(
            hands=[[deck.pop() for _ in range(HAND_SIZE)] for _ in range(players)],
            draw=deck,
            stacks=[tiles[i * TILES_PER_STACK:(i + 1) * TILES_PER_STACK]
                    for i in range(RING_SIZE)],
            tiles=[[] for _ in range(players)],
            reserved=[[] for _ in range(RING_SIZE)])
        self.events: list[Event] = []
        self._history: list[World] = []

    # -- driving the game ----------------------------------------------------------------------

    def run(self) -> SimulatedGame:
        """Play to the end, then record every player's tiles."""
        rounds_cap = MAX_ROUNDS * len(self.setup.players)
        while not self.game.state.ended:
            if self.game.state.turn >= rounds_cap:
                self._record(End())
                break
            self.step()
        for seat, tiles in zip(self.setup.players, self.world.tiles):
            self._record(Inventory(seat.name, tuple(tiles)))
        return SimulatedGame(self.setup, tuple(self.events), self.game)

    def step(self) -> Event:
        """One random legal action, sometimes followed by an undo of it."""
        if self._history and self.rng.random() < self.undo_rate:
            self.world = self._history.pop()
            return self._record(Undo())
        options = self._options()
        kinds = sorted(options)
        kind = self.rng.choices(kinds, [ACTION_WEIGHTS[k] for k in kinds])[0]
        before = self.world.copy()
        action = self.rng.choice(options[kind])()
        self._history.append(before)
        return action

    def _record(self, event: Event) -> Event:
        self.game.play(event)  # raises if the simulation and the engine disagree
        self.events.append(event)
        return event

    def _hide(self, value: T) -> T | None:
        return None if self.rng.random() < self.hide_rate else value

    # -- the options open to the player to move, as closures that perform them ----------------

    def _options(self) -> dict[str, list[Callable[[], Event]]]:
        state, world = self.game.state, self.world
        me = state.current
        hand = world.hands[me]
        at = state.players[me].at
        chip_free = state.chips_in_play(me) < CHIPS_PER_PLAYER
        options: dict[str, list[Callable[[], Event]]] = {"top_up": [self._top_up]}
        if chip_free:
            options["jump"] = [
                partial(self._jump, card, target)
                for card in hand for target, planet in enumerate(self.setup.planets)
                if target != at and card.fits("B", planet.jump)]
        if at is None:
            return {k: v for k, v in options.items() if v}
        options["fly"] = [partial(self._fly, t) for t in self.setup.neighbours(at)]
        planet, stack = self.setup.planets[at], state.stacks[at]
        if stack.developer is None:
            scan_cards = [c for c in hand if c.fits("G", planet.scan)]
            untouched = stack.left == TILES_PER_STACK and not stack.revealed
            if scan_cards and untouched and all(t == SPACE for t in world.stacks[at]):
                options["scan"] = [lambda: self._scan(scan_cards[0], only_space=True)]
            elif scan_cards and chip_free and stack.left and not stack.revealed:
                options["scan"] = [lambda: self._scan(scan_cards[0])]
            mine = any(r.player == me for r in stack.reservations)
            pairs = [(a, b) for i, a in enumerate(hand) for b in hand[i + 1:]
                     if cards_fit_landing(a, b, planet.landing)]
            if mine and pairs and chip_free:
                options["develop"] = [lambda: self._develop(*pairs[0])]
        elif stack.left and not stack.revealed:
            options["discover"] = [self._discover]
        return {k: v for k, v in options.items() if v}

    def _play_card(self, card: Card) -> None:
        me = self.game.state.current
        self.world.hands[me].remove(card)
        self.world.discard.append(card)
        self._settle_piles()

    def _settle_piles(self) -> None:
        world = self.world
        if not world.draw and world.discard:
            world.draw, world.discard = world.discard, []
            self.rng.shuffle(world.draw)

    def _top_up(self) -> Event:
        me = self.game.state.current
        hand = self.world.hands[me]
        thrown = [c for c in hand if self.rng.random() < 0.3]
        for card in thrown:
            hand.remove(card)
            self.world.discard.append(card)
        while len(hand) < HAND_SIZE:
            if not self.world.draw:
                if not self.world.discard:
                    break
                self._settle_piles()
            hand.append(self.world.draw.pop())
        self._settle_piles()
        codes = self._hide(tuple(thrown))
        return self._record(TopUp(len(thrown), codes))

    def _jump(self, card: Card, target: int) -> Event:
        self._play_card(card)
        return self._record(Jump(self.setup.planets[target].name, self._hide(card)))

    def _fly(self, target: int) -> Event:
        return self._record(Fly(self.setup.planets[target].name))

    def _take(self, at: int) -> tuple[str, bool]:
        """A tile of the player's choice: a point tile, rarely a space tile by mistake."""
        stack = self.world.stacks[at]
        points = [t for t in stack if t != SPACE]
        wants_space = SPACE in stack and self.rng.random() < self.space_mistake_rate
        kind = SPACE if wants_space or not points else self.rng.choice(points)
        stack.remove(kind)
        reveal = bool(stack) and all(t == SPACE for t in stack)
        return kind, reveal

    def _scan(self, card: Card, only_space: bool = False) -> Event:
        state = self.game.state
        me, at = state.current, state.players[state.current].at
        assert at is not None
        self._play_card(card)
        if only_space:
            return self._record(Scan(self._hide(card), only_space=True))
        kind, reveal = self._take(at)
        self.world.reserved[at].append((me, kind))
        return self._record(Scan(self._hide(card), self._hide(kind), reveal))

    def _develop(self, first: Card, second: Card) -> Event:
        state = self.game.state
        me, at = state.current, state.players[state.current].at
        assert at is not None
        revealed = state.stacks[at].revealed or state.stacks[at].left == 0
        self._play_card(first)
        self._play_card(second)
        for player, kind in self.world.reserved[at]:
            self.world.tiles[player].append(kind)
        self.world.reserved[at] = []
        cards = self._hide((first, second))
        if revealed:
            return self._record(Develop(cards))
        kind, reveal = self._take(at)
        self.world.tiles[me].append(kind)
        return self._record(Develop(cards, self._hide(kind), reveal))

    def _discover(self) -> Event:
        state = self.game.state
        me, at = state.current, state.players[state.current].at
        assert at is not None
        kind, reveal = self._take(at)
        self.world.tiles[me].append(kind)
        return self._record(Discover(self._hide(kind), reveal))


def simulate(seed: int, players: int, variant: str = "table", **options: Any) -> SimulatedGame:
    """A complete random legal game for ``players`` players, the same for the same seed."""
    return Simulation(seed, players, variant, **options).run()
