"""Random legal play over many seeds, with invariants checked after every event.

The simulation keeps the hidden world (deck, hands, face-down stacks); the engine only counts.
After every event the two must agree, and the engine's own invariants must hold. Before every
event, the move generator is held to the engine: every event it offers is accepted by ``apply``,
and the action the simulated player takes is among those it offers.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.journal import encode
from companion.rules import (ACTION_TYPES, CHIPS_PER_PLAYER, DECK_SIZE, HAND_SIZE, SPACE,
                             TOTAL_TILES, Develop, Event, Game, GameState, Redo, Scan, TopUp, Undo,
                             apply, legal_events, parse_event)
from companion.simulate import Simulation
from tests.staging import only_space_at

SEEDS = 120
BLOCKS = 2


def check_invariants(state: GameState) -> None:
    tiles = (sum(s.left for s in state.stacks)
             + sum(len(s.reservations) for s in state.stacks)
             + sum(len(p.tiles) for p in state.players))
    assert tiles == TOTAL_TILES
    assert sum(p.hand for p in state.players) + state.draw + state.discard == DECK_SIZE
    assert state.draw >= 0 and state.discard >= 0
    assert not (state.draw == 0 and state.discard > 0)
    for index, player in enumerate(state.players):
        assert 0 <= player.hand <= HAND_SIZE
        assert 0 <= state.chips_in_play(index) <= CHIPS_PER_PLAYER
        assert player.probes >= 0 and player.stations >= 0
    for stack in state.stacks:
        assert 0 <= stack.left <= 8
        assert not (stack.developer is not None and stack.reservations)
    assert state.revealed_space + state.known_tiles()[SPACE] <= 16
    assert state.action in (1, 2)
    assert GameState.from_json(json.loads(json.dumps(state.to_json()))) == state


def check_hidden_world_agrees(sim: Simulation) -> None:
    state, world = sim.game.state, sim.world
    assert [p.hand for p in state.players] == [len(h) for h in world.hands]
    assert (state.draw, state.discard) == (len(world.draw), len(world.discard))
    for stack, tiles, reserved in zip(state.stacks, world.stacks, world.reserved):
        assert stack.left == len(tiles)
        assert len(stack.reservations) == len(reserved)
        if stack.revealed:
            assert all(t == SPACE for t in tiles)
    for player, tiles in zip(state.players, world.tiles):
        assert len(player.tiles) == len(tiles)
        assert all(k is None or k == t for k, t in zip(player.tiles, tiles))


def staged_tiles(rng: random.Random) -> list[str] | None:
    """Every tenth game starts with a stack of only space tiles, for the special case."""
    if rng.random() >= 0.1:
        return None
    return only_space_at([rng.randrange(8)], rng)


def cards_of(event: Event) -> tuple | None:
    """The cards an action names, as the camera would have seen them laid."""
    if isinstance(event, Develop | TopUp):
        return event.cards
    card = getattr(event, "card", None)
    return None if card is None else (card,)


def check_generator(state: GameState, event: Event) -> int:
    """Every offered event is accepted; the action taken was offered. Returns how many were
    offered."""
    offered = list(legal_events(state))
    if event.type in ACTION_TYPES:
        face_up = getattr(event, "reveal", False) or getattr(event, "only_space", False)
        seen = list(legal_events(state, cards=cards_of(event), tile=getattr(event, "tile", None),
                                 reveal=face_up))
        assert event in seen, f"{event} was played but not offered"
        offered += seen
    for candidate in offered:
        apply(state, candidate)  # raises if the generator offered something illegal
    return len(offered)


@pytest.mark.parametrize("block", range(BLOCKS))
def test_random_legal_games_keep_every_invariant(block):
    totals = {"events": 0, "undos": 0, "redos": 0, "only_space": 0, "offered": 0}
    for seed in range(block * SEEDS // BLOCKS, (block + 1) * SEEDS // BLOCKS):
        rng = random.Random(seed)
        sim = Simulation(seed, players=2 + seed % 4, variant=rng.choice(["table", "yucata"]),
                         hide_rate=rng.choice([0.0, 0.3]), undo_rate=0.05,
                         tile_order=staged_tiles(rng))
        history, undone = [sim.game.state], []
        while not sim.game.state.ended and sim.game.state.turn < 400:
            before = sim.game.state
            event = sim.step()
            state = sim.game.state
            totals["offered"] += check_generator(before, event)
            if isinstance(event, Undo):
                undone.append(history.pop())
                assert state == history[-1]  # undo restores the previous state
            elif isinstance(event, Redo):
                history.append(undone.pop())
                assert state == history[-1]  # redo restores the state the undo left
            else:
                history.append(state)
                undone.clear()
            check_invariants(state)
            check_hidden_world_agrees(sim)
            assert parse_event(json.loads(encode(event))) == event  # JSON round trip
            totals["undos"] += isinstance(event, Undo)
            totals["redos"] += isinstance(event, Redo)
            totals["only_space"] += isinstance(event, Scan) and event.only_space
        replayed = Game.replay(sim.setup, [parse_event(json.loads(encode(e)))
                                           for e in sim.events])
        assert replayed.state == sim.game.state  # replaying the journal equals the live state
        totals["events"] += len(sim.events)
    games = SEEDS // BLOCKS
    assert totals["events"] > 50 * games and totals["undos"] > games // 2
    assert totals["redos"] > games // 10 and totals["only_space"] > 0
    assert totals["offered"] > 10 * totals["events"]
