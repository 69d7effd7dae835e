"""Each rule of the rules text and DESIGN.md §4, and each refusal, one behaviour per test."""

from __future__ import annotations

import pytest

from companion.rules import (END_THRESHOLD, Card, Develop, Discover, Fly, GameOverError,
                             GameState, IllegalActionError, InventoryError, Jump,
                             MalformedEventError, NothingToRedoError, NothingToUndoError,
                             NotYourTurnError, Reservation, Scan, Setup, TopUp, apply,
                             legal_events, parse_event, takes_tile, why_not)
from tests.conftest import RING, new_game, play, setup_json

SKIP = {"type": "top_up"}  # discard nothing, draw nothing: a legal do-nothing action


def at(game, planet: str, *, card: str | None = None):
    """The player to move jumps to ``planet`` (using one action)."""
    event = {"type": "jump", "to": planet}
    if card:
        event["card"] = card
    return play(game, event)


# -- set-up ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_deals_five_cards_each_and_puts_ships_on_the_gate(players):
    state = new_game(players).state
    assert [p.hand for p in state.players] == [5] * players
    assert state.draw == 60 - 5 * players and state.discard == 0
    assert all(p.at is None for p in state.players)
    assert state.setup.threshold == {2: 6, 3: 8, 4: 10, 5: 12}[players]
    assert all(s.left == 8 for s in state.stacks)


@pytest.mark.parametrize("players", [1, 6])
def test_setup_refuses_player_counts_outside_two_to_five(players):
    data = setup_json(2)
    data["players"] = [{"name": f"P{i}", "color": "red"} for i in range(players)]
    with pytest.raises(MalformedEventError, match="2-5 players"):
        parse_event(data)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["players"][1].update(name="Ann"), "player name 'Ann' appears twice"),
    (lambda d: d["players"][1].update(color="red"), "player colour 'red' appears twice"),
    (lambda d: d["players"][1].update(color="pink"), "not one of red, blue"),
    (lambda d: d["planets"].pop(), "8 planets, this set-up lists 7"),
    (lambda d: d["planets"][1].update(name="Freezer"), "planet name 'Freezer' appears twice"),
    (lambda d: d["planets"][0].update(jump=5), "Freezer's jump coordinate must be a number 1-4"),
    (lambda d: d["planets"][0].update(landing=[1]), "landing must be a list of two"),
    (lambda d: d.update(first="Zed"), "start player 'Zed' is not one of the players"),
    (lambda d: d.update(variant="house"), "variant 'house'"),
    (lambda d: d.update(v=2), "version 2 is not supported"),
])
def test_setup_refusals_name_the_problem(change, message):
    data = setup_json(2)
    change(data)
    with pytest.raises(MalformedEventError, match=message):
        parse_event(data)


def test_setup_defaults_first_player_and_table_variant_and_treats_null_as_absent():
    setup = parse_event(setup_json(3, variant=None, first=None, colour_notes="ignored"))
    assert isinstance(setup, Setup)
    assert setup.first == "Ann" and setup.variant == "table"


# -- turns -------------------------------------------------------------------------------------

def test_each_turn_is_two_actions_then_the_next_player_clockwise_from_the_start_player():
    game = new_game(3, first="Ben")
    seen = []
    for _ in range(6):
        seen.append((game.state.current_name, game.state.action))
        play(game, SKIP)
    assert seen == [("Ben", 1), ("Ben", 2), ("Cleo", 1), ("Cleo", 2), ("Ann", 1), ("Ann", 2)]


def test_an_event_naming_the_wrong_player_is_refused():
    game = new_game(2)
    with pytest.raises(NotYourTurnError, match="it is Ann's turn \\(action 1\\), not Ben's"):
        play(game, {"type": "top_up", "player": "Ben"})
    play(game, {"type": "top_up", "player": "Ann"})
    assert game.state.action == 2


def test_the_same_action_may_be_taken_twice_in_a_turn():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"}, {"type": "jump", "to": "Caldera"})
    assert game.state.players[0].probes == 2 and game.state.current_name == "Ben"


# -- top up ------------------------------------------------------------------------------------

def test_top_up_discards_then_draws_back_to_five():
    game = new_game(2)
    play(game, {"type": "top_up", "discard": 2, "cards": ["B1/G2", "G3/O?"]})
    state = game.state
    assert state.players[0].hand == 5 and state.discard == 2 and state.draw == 48


def test_top_up_cannot_discard_more_cards_than_held():
    with pytest.raises(IllegalActionError, match="holds 5 cards and cannot discard 6"):
        play(new_game(2), {"type": "top_up", "discard": 6})


def test_top_up_count_and_card_list_must_agree():
    with pytest.raises(MalformedEventError, match="discard says 1 but 2 card codes"):
        play(new_game(2), {"type": "top_up", "discard": 1, "cards": ["B1/G2", "B2/G2"]})


def test_top_up_card_list_alone_gives_the_discard_count():
    event = parse_event({"type": "top_up", "cards": ["B1/G2", "B2/G2"]})
    assert isinstance(event, TopUp) and event.discard == 2


def crafted(players: int = 2, **changes) -> GameState:
    state = new_game(players).state.copy()
    for key, value in changes.items():
        setattr(state, key, value)
    return state


def test_an_empty_draw_pile_is_replaced_by_the_shuffled_discard_pile_while_drawing():
    state = crafted(draw=1, discard=10)
    state.players[0].hand = 2
    state.players[1].hand = 5 + (60 - 5 - 2 - 1 - 10 - 5)  # keep 60 cards in play for realism
    after = apply(state, TopUp())
    assert after.players[0].hand == 5 and after.draw == 8 and after.discard == 0


def test_a_draw_that_empties_the_pile_reshuffles_the_discards_at_once():
    state = crafted(draw=3, discard=4)
    state.players[0].hand = 2
    after = apply(state, TopUp())
    assert after.players[0].hand == 5 and (after.draw, after.discard) == (4, 0)


def test_with_both_piles_empty_fewer_cards_are_drawn():
    state = crafted(draw=0, discard=0)
    state.players[0].hand = 2
    after = apply(state, TopUp(discard=1))
    # the discarded card is reshuffled into the draw pile and drawn again
    assert after.players[0].hand == 2 and (after.draw, after.discard) == (0, 0)


def test_a_card_played_on_an_empty_draw_pile_becomes_the_new_draw_pile():
    state = crafted(draw=0, discard=0)
    after = apply(state, Jump("Freezer"))
    assert (after.draw, after.discard) == (1, 0)


# -- jump --------------------------------------------------------------------------------------

def test_jump_plays_a_card_and_puts_a_probe_on_the_gate():
    game = new_game(2)
    state = at(game, "Freezer", card="B1/G3")
    ann = state.players[0]
    assert ann.at == 0 and ann.probes == 1 and ann.hand == 4 and state.discard == 1


@pytest.mark.parametrize("card", ["B1/G3", "B?/O2", "B4/B1"])
def test_jump_card_must_show_the_target_jump_coordinate(card):
    assert at(new_game(2), "Hazard", card=card).players[0].at == 2


def test_a_jump_card_without_the_coordinate_is_refused_with_what_it_offers():
    with pytest.raises(IllegalActionError,
                       match="Caldera's jump coordinate is 3; this card offers B1 or G2"):
        at(new_game(2), "Caldera", card="B1/G2")


def test_a_green_or_orange_joker_does_not_jump():
    with pytest.raises(IllegalActionError, match="offers G\\? or O\\?"):
        at(new_game(2), "Caldera", card="G?/O?")


def test_jump_goes_to_another_planet():
    game = new_game(2)
    at(game, "Freezer")
    with pytest.raises(IllegalActionError, match="already on Freezer"):
        at(game, "Freezer")


def test_jump_to_a_planet_not_in_the_ring_is_refused():
    with pytest.raises(IllegalActionError, match="no planet 'Pluto' in this game"):
        at(new_game(2), "Pluto")


def test_jump_needs_a_card():
    state = crafted()
    state.players[0].hand = 0
    with pytest.raises(IllegalActionError, match="a jump needs 1 card; Ann holds 0"):
        apply(state, Jump("Freezer"))


def test_jump_needs_a_free_chip():
    state = crafted()
    state.players[0].probes = 20
    with pytest.raises(IllegalActionError, match="all 20 chips in play; a jump puts a probe"):
        apply(state, Jump("Freezer"))


# -- fly ---------------------------------------------------------------------------------------

def test_the_first_move_from_the_gate_cannot_be_a_flight():
    with pytest.raises(IllegalActionError, match="first move must be a jump"):
        play(new_game(2), {"type": "fly", "to": "Freezer"})


def test_fly_goes_to_a_ring_neighbour_without_a_card_or_probe():
    game = new_game(2)
    at(game, "Hazard")
    state = play(game, {"type": "fly", "to": "Ruby Red"})
    ann = state.players[0]
    assert ann.at == 3 and ann.probes == 1 and ann.hand == 4


def test_fly_to_a_planet_that_is_not_a_neighbour_is_refused_naming_the_neighbours():
    game = new_game(2)
    at(game, "Hazard")
    with pytest.raises(IllegalActionError,
                       match="Caldera is not next to Hazard; a flight goes to Green Heggar or "
                             "Ruby Red"):
        play(game, {"type": "fly", "to": "Caldera"})


def test_the_ring_closes_the_last_planet_neighbours_the_first():
    game = new_game(2)
    at(game, "Vega")
    assert play(game, {"type": "fly", "to": "Freezer"}).players[0].at == 0


# -- scan --------------------------------------------------------------------------------------

def test_scan_reserves_a_tile_with_a_probe():
    game = new_game(2)
    at(game, "Freezer")
    state = play(game, {"type": "scan", "card": "G2/O1", "tile": "MED"})
    stack = state.stacks[0]
    assert stack.left == 7 and [(r.player, r.tile) for r in stack.reservations] == [(0, "MED")]
    assert state.players[0].hand == 3 and state.chips_in_play(0) == 2


def test_scan_happens_where_the_ship_is():
    with pytest.raises(IllegalActionError, match="ship is on the jump gate; scanning happens"):
        play(new_game(2), {"type": "scan"})


def test_scan_card_must_show_the_planet_scan_coordinate():
    game = new_game(2)
    at(game, "Freezer")
    with pytest.raises(IllegalActionError,
                       match="Freezer's scan coordinate is 2; this card offers B2 or O2"):
        play(game, {"type": "scan", "card": "B2/O2"})


def test_a_green_joker_scans_anywhere():
    game = new_game(2)
    at(game, "Vega")
    assert play(game, {"type": "scan", "card": "G?/O1"}).stacks[7].left == 7


def test_a_player_may_reserve_several_tiles_on_one_planet():
    game = new_game(2)
    at(game, "Freezer")
    play(game, {"type": "scan"}, SKIP, SKIP, {"type": "scan"})
    assert len(game.state.stacks[0].reservations) == 2


def test_scan_needs_a_free_chip():
    state = crafted()
    state.players[0].at, state.players[0].probes = 0, 20
    with pytest.raises(IllegalActionError, match="all 20 chips in play; a scan marks"):
        apply(state, Scan())


def developed_freezer(players: int = 2):
    """Ann scans Freezer (reserving a water), Ben passes, Ann develops it taking a medal."""
    game = new_game(players)
    at(game, "Freezer")
    play(game, {"type": "scan", "tile": "WAT"})
    for _ in range(players - 1):
        play(game, SKIP, SKIP)
    play(game, {"type": "develop", "cards": ["O1/O3", "G2/O3"], "tile": "MED"})
    return game


def test_a_developed_planet_cannot_be_scanned():
    game = developed_freezer()  # Ann's second action is next
    with pytest.raises(IllegalActionError, match="Freezer has Ann's station; only undeveloped"):
        play(game, {"type": "scan"})


def test_variant_table_lets_a_space_tile_be_reserved_by_mistake():
    game = new_game(2)
    at(game, "Freezer")
    assert play(game, {"type": "scan", "tile": "SPC"}).stacks[0].reservations[0].tile == "SPC"


def test_variant_yucata_refuses_reserving_a_space_tile():
    game = new_game(2, variant="yucata")
    at(game, "Freezer")
    with pytest.raises(IllegalActionError, match="variant yucata: a space tile cannot be"):
        play(game, {"type": "scan", "tile": "SPC"})


def test_scan_with_reveal_turns_the_remaining_space_tiles_face_up():
    game = new_game(2)
    at(game, "Freezer")
    state = play(game, {"type": "scan", "reveal": True})
    assert state.stacks[0].revealed and state.revealed_space == 7


def revealed_freezer():
    """5 players (threshold 12): Ann scans Freezer and reveals its 7 space tiles; the others
    pass, so Ann moves again on Freezer."""
    game = new_game(5)
    at(game, "Freezer")
    play(game, {"type": "scan", "reveal": True}, *[SKIP] * 8)
    return game


def test_a_revealed_stack_cannot_be_scanned():
    with pytest.raises(IllegalActionError, match="stack is revealed .* must take a point tile"):
        play(revealed_freezer(), {"type": "scan"})


def test_an_empty_stack_cannot_be_scanned():
    state = crafted()
    state.players[0].at, state.stacks[0].left = 0, 0
    with pytest.raises(IllegalActionError, match="Freezer's stack is empty"):
        apply(state, Scan())


def test_only_space_first_scan_plays_the_card_reserves_nothing_and_reveals_eight():
    game = new_game(2)
    at(game, "Freezer")
    state = play(game, {"type": "scan", "card": "G2/O4", "only_space": True})
    assert state.stacks[0].revealed and state.stacks[0].left == 8
    assert state.stacks[0].reservations == [] and state.players[0].hand == 3
    assert state.chips_in_play(0) == 1 and state.revealed_space == 8


def test_only_space_is_refused_once_the_stack_was_touched():
    game = new_game(2)
    at(game, "Freezer")
    play(game, {"type": "scan"}, SKIP, SKIP)
    with pytest.raises(IllegalActionError, match="first scan of an untouched stack; .* 7 tiles"):
        play(game, {"type": "scan", "only_space": True})


def test_only_space_reserves_no_tile_kind():
    game = new_game(2)
    at(game, "Freezer")
    with pytest.raises(IllegalActionError, match="reserves nothing"):
        play(game, {"type": "scan", "only_space": True, "tile": "MED"})


def test_the_only_space_scanner_may_develop_the_planet_later_taking_no_tile():
    game = new_game(5)  # eight space tiles revealed do not end a five-player game
    at(game, "Freezer")
    play(game, {"type": "scan", "only_space": True}, *[SKIP] * 8)
    state = play(game, {"type": "develop", "cards": ["O1/O3", "G1/O3"]})
    assert state.stacks[0].developer == 0 and state.players[0].stations == 1
    assert state.players[0].tiles == [] and state.stacks[0].left == 8


def test_after_an_only_space_scan_only_that_player_may_develop_there():
    game = new_game(5)
    at(game, "Freezer")
    play(game, {"type": "scan", "only_space": True})
    at(game, "Freezer")
    with pytest.raises(IllegalActionError, match="Ben has not scanned Freezer"):
        play(game, {"type": "develop"})


def test_a_develop_after_an_only_space_scan_refuses_a_tile():
    game = new_game(5)
    at(game, "Freezer")
    play(game, {"type": "scan", "only_space": True}, *[SKIP] * 8)
    with pytest.raises(IllegalActionError, match="stack is revealed; developing it takes no"):
        play(game, {"type": "develop", "tile": "MED"})


# -- develop -----------------------------------------------------------------------------------

def test_develop_needs_a_reservation_on_the_planet():
    game = new_game(2)
    at(game, "Freezer")
    with pytest.raises(IllegalActionError, match="Ann has not scanned Freezer"):
        play(game, {"type": "develop"})


def test_develop_builds_a_station_hands_out_every_reservation_and_returns_the_probes():
    game = new_game(2)
    at(game, "Freezer")
    play(game, {"type": "scan", "tile": "WAT"})
    at(game, "Freezer")
    play(game, {"type": "scan", "tile": "MIN-R"})  # Ben reserves there too
    play(game, {"type": "develop", "cards": ["O1/O3", "G2/O3"], "tile": "MED"})
    state = game.state
    ann, ben = state.players
    assert state.stacks[0].developer == 0 and ann.stations == 1
    assert ann.tiles == ["WAT", "MED"] and ben.tiles == ["MIN-R"]
    assert state.stacks[0].reservations == [] and state.stacks[0].left == 5
    assert state.chips_in_play(0) == 2 and state.chips_in_play(1) == 1  # probes + station
    assert ann.hand == 1


@pytest.mark.parametrize("cards", [["B1/O1", "G2/O3"], ["G2/O3", "B1/O1"],
                                   ["G1/O?", "B3/O?"], ["G1/O?", "O1/O4"], ["O3/O4", "O2/O1"]])
def test_develop_cards_show_both_landing_coordinates_jokers_allowed(cards):
    game = new_game(2)
    at(game, "Freezer")  # landing O1 and O3
    play(game, {"type": "scan"}, SKIP, SKIP)
    state = play(game, {"type": "develop", "cards": cards})
    assert state.stacks[0].developer == 0 and state.players[0].hand == 1


def test_develop_cards_that_miss_a_landing_coordinate_are_refused():
    game = new_game(2)
    at(game, "Freezer")
    play(game, {"type": "scan"}, SKIP, SKIP)
    with pytest.raises(IllegalActionError,
                       match="landing coordinates are O1 and O3; these cards offer B1 or O1, "
                             "and G1 or O1"):
        play(game, {"type": "develop", "cards": ["B1/O1", "G1/O1"]})


def test_develop_needs_two_cards():
    state = crafted()
    state.players[0].at, state.players[0].hand = 0, 1
    state.stacks[0].reservations.append(Reservation(0, None))
    with pytest.raises(IllegalActionError, match="developing needs 2 cards; Ann holds 1"):
        apply(state, Develop())


def test_develop_needs_a_free_chip_for_the_station_before_probes_come_back():
    state = crafted()
    state.players[0].at, state.players[0].probes = 0, 19
    state.stacks[0].reservations.append(Reservation(0, None))
    state.stacks[0].left = 7
    with pytest.raises(IllegalActionError, match="the station needs one"):
        apply(state, Develop())


def test_a_planet_is_developed_only_once():
    game = developed_freezer()
    with pytest.raises(IllegalActionError, match="already has Ann's station"):
        play(game, {"type": "develop"})


def test_developing_a_revealed_stack_takes_no_tile():
    game = revealed_freezer()
    with pytest.raises(IllegalActionError, match="stack is revealed; developing it takes no"):
        play(game, {"type": "develop", "tile": "MED"})
    state = play(game, {"type": "develop"})
    assert state.players[0].tiles == [None] and state.stacks[0].left == 7


# -- discover ----------------------------------------------------------------------------------

def test_discover_needs_a_developed_planet():
    game = new_game(2)
    at(game, "Freezer")
    with pytest.raises(IllegalActionError, match="Freezer has no station yet"):
        play(game, {"type": "discover"})


def test_discover_takes_a_tile_without_a_card_whoever_built_the_station():
    game = developed_freezer()
    play(game, SKIP)  # Ann's second action
    at(game, "Freezer")  # Ben arrives
    state = play(game, {"type": "discover", "tile": "MAT-G"})
    assert state.players[1].tiles == ["MAT-G"] and state.players[1].hand == 4
    assert state.stacks[0].left == 5


def test_discover_must_take_a_tile_so_a_revealed_stack_refuses_it():
    game = developed_freezer()
    play(game, {"type": "discover", "reveal": True})
    at(game, "Freezer")
    with pytest.raises(IllegalActionError, match="revealed .* discover must take"):
        play(game, {"type": "discover"})


# -- end of the game ---------------------------------------------------------------------------

def reach_threshold_with(game, planet: str) -> None:
    """The player to move jumps to ``planet`` and scans it, revealing the other 7 tiles."""
    at(game, planet)
    play(game, {"type": "scan", "reveal": True})


def test_the_round_is_completed_after_the_threshold_then_the_game_ends():
    game = new_game(3, first="Ben")  # 3 players: threshold 8
    at(game, "Freezer")
    play(game, {"type": "scan", "reveal": True})  # Ben: 7 revealed
    at(game, "Vega")
    play(game, {"type": "scan", "only_space": False, "tile": "MED"})  # Cleo
    at(game, "Vega")
    play(game, {"type": "scan", "tile": "MED", "reveal": True})  # Ann (before Ben): 13
    assert game.state.ended and game.state.final_round


def test_threshold_reached_by_the_start_player_lets_the_others_finish_the_round():
    game = new_game(2)  # threshold 6
    reach_threshold_with(game, "Freezer")
    state = game.state
    assert state.final_round and not state.ended and state.current_name == "Ben"
    play(game, SKIP)
    assert not game.state.ended
    play(game, SKIP)
    assert game.state.ended and game.state.revealed_space == 7


def test_after_the_end_actions_are_refused_but_inventories_accepted():
    game = new_game(2)
    reach_threshold_with(game, "Freezer")
    play(game, SKIP, SKIP)
    with pytest.raises(GameOverError, match="the game has ended"):
        play(game, SKIP)
    play(game, {"type": "tiles", "player": "Ben", "tiles": []})


def test_end_by_agreement_ends_at_once_and_undo_reopens():
    game = new_game(2)
    play(game, SKIP, {"type": "end"})
    assert game.state.ended
    with pytest.raises(GameOverError, match="already ended"):
        play(game, {"type": "end"})
    play(game, {"type": "undo"})
    assert not game.state.ended and game.state.current_name == "Ann"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_thresholds_by_player_count(players):
    assert new_game(players).state.setup.threshold == END_THRESHOLD[players]


def test_no_more_than_sixteen_space_tiles_are_revealed_taken_and_reserved():
    game = new_game(5)
    at(game, "Freezer")
    play(game, {"type": "scan", "only_space": True})  # 8 revealed
    at(game, "Vega")
    play(game, {"type": "scan", "only_space": True})  # 16 revealed
    at(game, "Caldera")
    with pytest.raises(IllegalActionError, match="box has 16 space tiles"):
        play(game, {"type": "scan", "tile": "SPC"})


def test_no_more_tiles_of_a_category_than_the_box_holds():
    state = crafted()
    state.players[1].tiles = ["MED"] * 6
    state.players[0].at = 0
    with pytest.raises(IllegalActionError, match="box has 6 medals tiles; this record would "
                                                 "name 7"):
        apply(state, Scan(tile="MED"))


# -- inventory ---------------------------------------------------------------------------------

def test_an_inventory_must_list_as_many_tiles_as_the_player_holds():
    game = developed_freezer()
    with pytest.raises(InventoryError, match="Ann holds 2 tiles; this inventory lists 1"):
        play(game, {"type": "tiles", "player": "Ann", "tiles": ["MED"]})


def test_an_inventory_must_include_every_kind_the_record_names():
    game = developed_freezer()
    with pytest.raises(InventoryError, match="record says Ann has 1 × WAT"):
        play(game, {"type": "tiles", "player": "Ann", "tiles": ["MED", "MED"]})


def test_an_inventory_fills_in_unknown_kinds_and_does_not_use_an_action():
    game = new_game(2)
    at(game, "Freezer")
    play(game, {"type": "scan"}, SKIP, SKIP, {"type": "develop"})
    before = (game.state.current_name, game.state.action)
    state = play(game, {"type": "tiles", "player": "Ann", "tiles": ["WAT", "MIN-B"]})
    assert state.players[0].tiles == ["WAT", "MIN-B"]
    assert (state.current_name, state.action) == before


def test_a_later_inventory_corrects_an_earlier_one_within_what_play_recorded():
    game = new_game(2)
    at(game, "Freezer")
    play(game, {"type": "scan"}, SKIP, SKIP, {"type": "develop"})
    play(game, {"type": "tiles", "player": "Ann", "tiles": ["WAT", "MIN-B"]})
    state = play(game, {"type": "tiles", "player": "Ann", "tiles": ["MED", "MIN-R"]})
    assert state.players[0].tiles == ["MED", "MIN-R"]  # a count entered wrong, corrected
    assert GameState.from_json(state.to_json()).players[0] == state.players[0]
    game = developed_freezer()  # play recorded a water: every inventory must list it
    play(game, {"type": "tiles", "player": "Ann", "tiles": ["WAT", "MED"]})
    with pytest.raises(InventoryError, match="record says Ann has 1 × WAT"):
        play(game, {"type": "tiles", "player": "Ann", "tiles": ["MED", "MED"]})


def test_variant_yucata_refuses_an_inventory_with_a_space_tile():
    game = new_game(2, variant="yucata")
    at(game, "Freezer")
    play(game, {"type": "scan"}, SKIP, SKIP, {"type": "develop"})
    with pytest.raises(InventoryError, match="yucata"):
        play(game, {"type": "tiles", "player": "Ann", "tiles": ["SPC", "MED"]})


def test_an_inventory_for_someone_not_playing_is_refused():
    with pytest.raises(IllegalActionError, match="'Zed' is not playing"):
        play(new_game(2), {"type": "tiles", "player": "Zed", "tiles": []})


# -- undo --------------------------------------------------------------------------------------

def test_undo_restores_the_state_before_the_latest_event_and_several_go_further_back():
    game = new_game(2)
    states = [game.state]
    for event in ({"type": "jump", "to": "Freezer"}, {"type": "scan", "tile": "MED"},
                  {"type": "jump", "to": "Caldera"}):
        states.append(play(game, event))
    for expected in reversed(states[:-1]):
        assert play(game, {"type": "undo"}) == expected


def test_undo_cancels_an_inventory_too():
    game = developed_freezer()
    before = game.state
    play(game, {"type": "tiles", "player": "Ann", "tiles": ["WAT", "MED"]})
    assert play(game, {"type": "undo"}) == before


def test_undo_with_nothing_in_effect_is_refused():
    game = new_game(2)
    play(game, SKIP, {"type": "undo"})
    with pytest.raises(NothingToUndoError):
        play(game, {"type": "undo"})


def test_a_refused_event_leaves_the_game_unchanged():
    game = new_game(2)
    before = game.state
    with pytest.raises(IllegalActionError):
        play(game, {"type": "fly", "to": "Freezer"})
    assert game.state is before and game.events_in_effect == ()


# -- redo --------------------------------------------------------------------------------------

def test_redo_plays_the_undone_event_again_and_several_go_forward_again():
    game = new_game(2)
    states = [game.state]
    for event in ({"type": "jump", "to": "Freezer"}, {"type": "scan", "tile": "MED"}):
        states.append(play(game, event))
    play(game, {"type": "undo"}, {"type": "undo"})
    assert play(game, {"type": "redo"}) == states[1]
    assert play(game, {"type": "redo"}) == states[2]
    assert game.events_in_effect == (Jump("Freezer"), Scan(tile="MED"))


def test_a_new_event_after_an_undo_clears_what_could_be_redone():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"}, {"type": "undo"}, {"type": "jump",
                                                                    "to": "Hazard"})
    with pytest.raises(NothingToRedoError, match="nothing to redo"):
        play(game, {"type": "redo"})


def test_redo_with_nothing_undone_is_refused():
    with pytest.raises(NothingToRedoError):
        play(new_game(2), {"type": "redo"})


def test_redo_brings_back_an_undone_end_and_inventory():
    game = developed_freezer()
    play(game, {"type": "end"}, {"type": "undo"})
    assert not game.state.ended
    assert play(game, {"type": "redo"}).ended


def test_the_log_says_what_each_undo_and_redo_changed():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"}, {"type": "undo"}, {"type": "redo"})
    assert [(e.event.type, e.affected) for e in game.log] == [
        ("jump", Jump("Freezer")), ("undo", Jump("Freezer")), ("redo", Jump("Freezer"))]


# -- the move generator ------------------------------------------------------------------------

def test_on_the_gate_the_generator_offers_top_ups_and_jumps_anywhere():
    events = list(legal_events(new_game(2).state))
    assert [e for e in events if isinstance(e, TopUp)] == [TopUp(n) for n in range(6)]
    assert [e.to for e in events if isinstance(e, Jump)] == [p["name"] for p in RING]
    assert {e.type for e in events} == {"top_up", "jump"}


def test_on_a_planet_the_generator_offers_the_neighbours_and_a_scan():
    game = new_game(2)
    at(game, "Hazard")
    events = list(legal_events(game.state))
    assert [e.to for e in events if isinstance(e, Fly)] == ["Green Heggar", "Ruby Red"]
    assert Scan() in events and Scan(only_space=True) in events
    assert not any(isinstance(e, Develop | Discover) for e in events)
    assert Jump("Hazard") not in events
    play(game, {"type": "scan"}, SKIP, SKIP)
    assert Develop() in legal_events(game.state)


def test_every_event_the_generator_yields_is_accepted_by_apply():
    game = new_game(3)
    at(game, "Freezer")
    for event in legal_events(game.state):
        apply(game.state, event)


def test_narrowing_by_kind_is_the_same_as_filtering():
    game = new_game(2)
    at(game, "Caldera")
    everything = list(legal_events(game.state))
    for kind in ("top_up", "jump", "fly", "scan", "develop", "discover"):
        assert list(legal_events(game.state, kind)) == [e for e in everything
                                                        if e.type == kind]


def test_a_seen_card_gives_the_events_that_play_it():
    game = new_game(2)
    card = Card.parse("B3/G2")
    assert [e for e in legal_events(game.state, cards=[card]) if not isinstance(e, TopUp)] == [
        Jump("Ruby Red", card), Jump("Caldera", card)]
    at(game, "Caldera")
    events = list(legal_events(game.state, cards=[card]))
    assert Jump("Ruby Red", card) in events and Scan(card) in events
    assert TopUp(1, (card,)) in events  # a discard, for a top up being entered


def test_two_seen_landing_cards_give_the_develop_that_plays_both():
    game = new_game(2)
    at(game, "Caldera")
    play(game, {"type": "scan"}, SKIP, SKIP)
    pair = (Card.parse("G1/O4"), Card.parse("B2/O1"))
    assert Develop(pair) in legal_events(game.state, cards=pair)
    assert not any(isinstance(e, Develop) for e in legal_events(game.state, cards=pair[:1]))


def test_a_seen_tile_and_reveal_go_into_the_events_that_take_a_tile():
    game = new_game(2)
    at(game, "Freezer")
    events = list(legal_events(game.state, tile="MED", reveal=True))
    assert Scan(None, "MED", True) in events
    assert Scan(only_space=True) not in events  # it takes no tile
    assert Fly("Green Heggar") in events  # actions that take no tile come as they are


def test_seeing_no_reveal_leaves_out_the_only_space_scan():
    game = new_game(2)
    at(game, "Freezer")
    card = Card.parse("G2/O1")
    assert Scan(card, only_space=True) in legal_events(game.state, cards=[card])
    assert Scan(card, only_space=True) not in legal_events(game.state, cards=[card],
                                                           reveal=False)


def test_a_reveal_seen_on_a_stack_revealed_before_is_not_news():
    game = new_game(5)
    at(game, "Freezer")
    play(game, {"type": "scan", "only_space": True}, *[SKIP] * 8)
    assert Develop() in legal_events(game.state, reveal=True)


def test_a_tile_kind_the_variant_forbids_gives_no_event():
    game = new_game(2, variant="yucata")
    at(game, "Freezer")
    assert not any(isinstance(e, Scan) for e in legal_events(game.state, tile="SPC"))


def test_once_the_game_has_ended_nothing_is_offered():
    game = new_game(2)
    play(game, {"type": "end"})
    assert list(legal_events(game.state)) == []


def test_discover_is_offered_on_a_developed_planet():
    game = developed_freezer()
    assert Discover() in legal_events(game.state)
    assert isinstance(parse_event({"type": "discover"}), Discover)


def test_whether_an_action_takes_a_tile():
    game = developed_freezer()
    assert takes_tile(game.state, Discover()) and not takes_tile(game.state, Fly("Vega"))
    assert not takes_tile(game.state, Scan(only_space=True))


# -- why not -----------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, message", [
    ("fly", "the first move must be a jump"),
    ("scan", "scanning happens on the planet where the ship is"),
    ("develop", "developing happens on the planet where the ship is"),
    ("discover", "discovering happens on the planet where the ship is"),
])
def test_why_not_on_the_gate_names_the_rule(kind, message):
    assert message in str(why_not(new_game(2).state, kind))


def test_why_not_develop_without_a_scan_names_the_player_and_planet():
    game = new_game(2)
    at(game, "Caldera")
    reason = why_not(game.state, "develop")
    assert str(reason) == ("Ann has not scanned Caldera; only a player who scanned it may "
                           "develop it")
    assert reason.template.startswith("{player} has not scanned {planet}")


def test_why_not_jump_tells_the_missing_card_not_the_ships_own_planet():
    game = new_game(2)
    at(game, "Freezer")
    game.state.players[0].hand = 0  # as after playing every card
    assert "a jump needs 1 card; Ann holds 0" == str(why_not(game.state, "jump"))


def test_why_not_is_none_when_the_action_is_open_and_says_so_after_the_end():
    game = new_game(2)
    assert why_not(game.state, "jump") is None and why_not(game.state, "top_up") is None
    play(game, {"type": "end"})
    assert "the game has ended" in str(why_not(game.state, "top_up"))


# -- strict types ------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(v=True), "version True is not supported"),
    (lambda d: d.update(v=1.0), "version 1.0 is not supported"),
    (lambda d: d["planets"][0].update(jump=1.0), "jump coordinate must be a number 1-4"),
    (lambda d: d["planets"][0].update(landing=[1, True]), "landing coordinate must be"),
    (lambda d: d.update(variant=False), "the variant must be text"),
    (lambda d: d.update(variant=""), "variant '' is not one of"),
    (lambda d: d.update(variant=0), "the variant must be text"),
    (lambda d: d.update(variant=[]), "the variant must be text"),
    (lambda d: d.update(first=1), "the start player must be text"),
    (lambda d: d["players"][0].update(name="\ud800x"), "unpaired surrogate"),
    (lambda d: d["players"][0].update(name=" "), "cannot be blank"),
    (lambda d: d["players"][0].update(color=["red"]), "colour must be text"),
])
def test_wrong_types_are_malformed_and_never_a_default(change, message):
    data = setup_json(2)
    change(data)
    with pytest.raises(MalformedEventError, match=message):
        parse_event(data)


def test_only_null_stands_for_an_absent_field():
    setup = parse_event(setup_json(2, variant=None, first=None))
    assert setup.variant == "table" and setup.first == "Ann"
    with pytest.raises(MalformedEventError, match="discard must be a whole number"):
        parse_event({"type": "top_up", "discard": 1.0})
    with pytest.raises(MalformedEventError, match="'to' must be text"):
        parse_event({"type": "jump", "to": 3})


def test_a_surrogate_in_any_name_field_is_refused():
    with pytest.raises(MalformedEventError, match="unpaired surrogate"):
        parse_event({"type": "jump", "to": "Freezer", "player": "\udc80"})
    with pytest.raises(MalformedEventError, match="unpaired surrogate"):
        parse_event({"type": "tiles", "player": "\ud800", "tiles": []})


def test_a_refusal_quotes_a_long_or_deep_value_briefly():
    deep: list = []
    for _ in range(2000):
        deep = [deep]
    with pytest.raises(MalformedEventError) as refused:
        parse_event({"type": "jump", "to": deep})
    assert len(str(refused.value)) < 120
