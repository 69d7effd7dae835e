"""Random legal games: the fixture factory for tests, benchmarks and the demo table.

A ``Simulation`` holds the hidden world the companion never sees (the shuffled deck, the hands,
the face-down stacks) and lets seeded random players act in it. What a player may do comes from
the engine's move generator, filtered by what only the simulation knows (the cards in the hand,
the tiles in a stack); every action is played through the engine, so a simulated record is
legal by construction and checked.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, TypeVar
from collections.abc import Callable, Sequence

from companion.box import BoxProfile, load_box
from companion.rules import (DEVELOP, DISCOVER, FLY, HAND_SIZE, JUMP, PLAYER_COLORS, RING_SIZE,
                             SCAN, SPACE, TILES_PER_STACK, TOP_UP, Card, Develop, Discover, End,
                             Event, Game, Inventory, Jump, PlayerSeat, Redo, Scan, Setup, TopUp,
                             Undo, legal_events)

T = TypeVar("T")
PLAYER_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eve")
#: How strongly the random players prefer each kind of action when several are open.
ACTION_WEIGHTS = {DEVELOP: 8, DISCOVER: 6, SCAN: 4, JUMP: 2, FLY: 2, TOP_UP: 1}
#: Rounds after which the simulated players agree to end (the threshold can become unreachable).
MAX_ROUNDS = 80
#: Chance that players who just undid an action take it back again (a redo).
REDO_RATE = 0.3


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
                 tile_order: Sequence[str] | None = None,
                 names: Sequence[str] = PLAYER_NAMES) -> None:
        """``hide_rate``: chance an optional field (card code, tile kind) is left out, as in
        touch-only play. ``space_mistake_rate``: chance a player takes a space tile on
        purpose (variant ``table`` only). ``tile_order``: the 64 tiles in dealing order
        (8 per planet around the ring) instead of a shuffle, to stage rare cases. ``names``:
        the players' names, in seat order."""
        self.rng = random.Random(seed)
        self.box = box or load_box()
        self.undo_rate, self.hide_rate = undo_rate, hide_rate
        self.space_mistake_rate = space_mistake_rate if variant == "table" else 0.0
        rng = self.rng
        colors = list(PLAYER_COLORS)
        rng.shuffle(colors)
        seats = tuple(PlayerSeat(names[i], colors[i]) for i in range(players))
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
        """The world before each action still in effect."""
        self._undone: list[World] = []
        """The world after each action an undo cancelled, for a redo."""

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
        """One random legal action; sometimes an undo of the last one, or a redo of an undo."""
        if self._undone and self.rng.random() < REDO_RATE:
            self._history.append(self.world)
            self.world = self._undone.pop()
            return self._record(Redo())
        if self._history and self.rng.random() < self.undo_rate:
            self._undone.append(self.world)
            self.world = self._history.pop()
            return self._record(Undo())
        options = self._options()
        kinds = sorted(options)
        kind = self.rng.choices(kinds, [ACTION_WEIGHTS[k] for k in kinds])[0]
        before = self.world.copy()
        action = self.rng.choice(options[kind])()
        self._history.append(before)
        self._undone.clear()
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
        options: dict[str, list[Callable[[], Event]]] = {}
        if any(legal_events(state, TOP_UP)):
            options[TOP_UP] = [self._top_up]
        if any(legal_events(state, JUMP)):  # the cards decide where to: only then ask by card
            options[JUMP] = [partial(self._jump, event) for card in hand
                               for event in legal_events(state, JUMP, cards=(card,))
                               if isinstance(event, Jump)]
        options[FLY] = [partial(self._record, event) for event in legal_events(state, FLY)]
        if at is not None and any(legal_events(state, SCAN)):
            stack = world.stacks[at]
            only_space = (len(stack) == TILES_PER_STACK and all(t == SPACE for t in stack))
            scans = [event for card in hand for event in legal_events(state, SCAN, cards=(card,))
                     if isinstance(event, Scan) and event.only_space == only_space]
            # (the hidden stack decides which scan it is)
            options[SCAN] = [partial(self._scan, scans[0])] if scans else []
        if at is not None and any(legal_events(state, DEVELOP)):
            develops = [event for i, first in enumerate(hand) for second in hand[i + 1:]
                        for event in legal_events(state, DEVELOP, cards=(first, second))
                        if isinstance(event, Develop)]
            options[DEVELOP] = [partial(self._develop, develops[0])] if develops else []
        if any(legal_events(state, DISCOVER)):
            options[DISCOVER] = [self._discover]
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
        codes = self._hide(tuple(thrown)) if thrown else None
        return self._record(TopUp(len(thrown), codes))

    def _jump(self, event: Jump) -> Event:
        assert event.card is not None
        self._play_card(event.card)
        return self._record(replace(event, card=self._hide(event.card)))

    def _take(self, at: int) -> tuple[str, bool]:
        """A tile of the player's choice: a point tile, rarely a space tile by mistake."""
        stack = self.world.stacks[at]
        points = [t for t in stack if t != SPACE]
        wants_space = SPACE in stack and self.rng.random() < self.space_mistake_rate
        kind = SPACE if wants_space or not points else self.rng.choice(points)
        stack.remove(kind)
        reveal = bool(stack) and all(t == SPACE for t in stack)
        return kind, reveal

    def _scan(self, event: Scan) -> Event:
        state = self.game.state
        me, at = state.current, state.players[state.current].at
        assert at is not None and event.card is not None
        self._play_card(event.card)
        card = self._hide(event.card)
        if event.only_space:
            return self._record(replace(event, card=card))
        kind, reveal = self._take(at)
        self.world.reserved[at].append((me, kind))
        return self._record(Scan(card, self._hide(kind), reveal))

    def _develop(self, event: Develop) -> Event:
        state = self.game.state
        me, at = state.current, state.players[state.current].at
        assert at is not None and event.cards is not None
        taking = state.stacks[at].open
        for card in event.cards:
            self._play_card(card)
        for player, kind in self.world.reserved[at]:
            self.world.tiles[player].append(kind)
        self.world.reserved[at] = []
        cards = self._hide(event.cards)
        if not taking:
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
