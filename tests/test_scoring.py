"""Scoring: every worked example of the rules text, jump-gate ties, winners and tie-break."""

from __future__ import annotations

import pytest

from companion.scoring import (gate_places, gate_points, matter_points, score, standings,
                               tile_points, water_points)
from tests.conftest import new_game, play

SKIP = {"type": "top_up"}


def test_rules_example_minerals_three_red_two_blue_two_green_score_21():
    kinds = ["MIN-R"] * 3 + ["MIN-B"] * 2 + ["MIN-G"] * 2
    assert tile_points(kinds)["minerals"] == 7 * 3 == 21


def test_rules_example_aliens_four_brown_two_blue_score_24():
    assert tile_points(["ALI-N"] * 4 + ["ALI-B"] * 2)["aliens"] == 6 * 4 == 24


@pytest.mark.parametrize("green, blue, points", [
    (1, 1, 7), (1, 0, 2), (0, 1, 2), (2, 1, 9), (3, 3, 21), (4, 0, 8), (0, 0, 0)])
def test_rules_example_matter_pairs_seven_singles_two(green, blue, points):
    assert matter_points(green, blue) == points
    assert tile_points(["MAT-G"] * green + ["MAT-B"] * blue)["matter"] == points


@pytest.mark.parametrize("count, points", [
    (0, 0), (1, 2), (2, 5), (3, 9), (4, 14), (5, 16), (6, 19), (8, 28)])
def test_rules_example_water_table_and_more_than_four(count, points):
    assert water_points(count) == points  # the rules' own example: 6 tiles = 14 + 5 = 19


def test_rules_example_medals_three_each_and_space_minus_ten():
    points = tile_points(["MED"] * 2 + ["SPC"])
    assert points["medals"] == 6 and points["space"] == -10


def test_rules_example_jump_gate_green_first_three_tied_second_black_nothing():
    # green, red, blue, yellow, black: green most, three share second, black fewest
    assert gate_points([5, 3, 3, 3, 1]) == [9, 6, 6, 6, 0]
    assert gate_places([5, 3, 3, 3, 1]) == [1, 2, 2, 2, 5]


@pytest.mark.parametrize("probes, points", [
    ([4, 4], [9, 9]), ([4, 2], [9, 6]), ([3, 2, 1, 0], [9, 6, 3, 0]),
    ([4, 3, 2, 1, 1], [9, 6, 3, 1, 1]), ([2, 2, 1], [9, 9, 3]), ([0, 0], [0, 0]),
    ([1, 1, 1, 1, 1], [9, 9, 9, 9, 9]), ([5, 4, 3, 2, 1], [9, 6, 3, 1, 0])])
def test_jump_gate_competition_ranking_and_no_probe_no_points(probes, points):
    assert gate_points(probes) == points


def game_with_tiles(ann_tiles, ben_tiles, end=True):
    """Ann develops Freezer (scan + develop), Ben develops Caldera; inventories say the rest."""
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"}, {"type": "scan"},
         {"type": "jump", "to": "Caldera"}, {"type": "scan"},
         {"type": "develop"}, SKIP, {"type": "develop"}, SKIP)
    if ann_tiles is not None:
        play(game, {"type": "tiles", "player": "Ann", "tiles": ann_tiles})
    if ben_tiles is not None:
        play(game, {"type": "tiles", "player": "Ben", "tiles": ben_tiles})
    if end:
        play(game, {"type": "end"})
    return game


def test_score_sheet_adds_gate_stations_and_tiles():
    sheet = score(game_with_tiles(["WAT", "WAT"], ["MED", "MIN-R"]).state)
    ann, ben = sheet.players
    assert (ann.jump_gate, ann.station_points, ann.water, ann.total) == (9, 3, 5, 17)
    assert (ben.jump_gate, ben.medals, ben.minerals, ben.total) == (9, 3, 1, 16)
    assert sheet.winners == ("Ann",) and sheet.ended


def test_categories_and_total_are_null_while_a_player_tiles_are_unknown():
    sheet = score(game_with_tiles(["WAT", "WAT"], None).state)
    ben = sheet.players[1]
    assert ben.total is None and ben.minerals is None and ben.space is None
    assert not ben.tiles_known and sheet.winners == ()
    assert sheet.to_json()["players"][1]["total"] is None


def test_winners_are_empty_until_the_game_has_ended():
    sheet = score(game_with_tiles(["WAT", "WAT"], ["MED", "MIN-R"], end=False).state)
    assert sheet.players[0].total == 17 and sheet.winners == ()


def test_a_tie_on_points_and_stations_is_a_shared_win():
    sheet = score(game_with_tiles(["MED", "WAT"], ["WAT", "MED"]).state)
    assert sheet.players[0].total == sheet.players[1].total == 9 + 3 + 3 + 2
    assert sheet.winners == ("Ann", "Ben")


def test_a_tie_on_points_goes_to_the_player_with_more_stations():
    state = game_with_tiles(["WAT", "WAT"], ["WAT", "WAT"]).state.copy()
    # Ben without his station but with a medal: 9 + 5 + 3 = 17, as Ann's 9 + 3 + 5
    state.players[1].stations = 0
    state.players[1].tiles = ["WAT", "WAT", "MED"]
    sheet = score(state)
    ann, ben = sheet.players
    assert ann.total == ben.total == 17
    assert sheet.winners == ("Ann",)


def test_reserved_tiles_on_undeveloped_planets_are_not_scored():
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Freezer"}, {"type": "scan", "tile": "MED"},
                 {"type": "end"})
    ann = score(state).players[0]
    assert ann.tiles_known and ann.medals == 0 and ann.total == 9


def test_standings_show_public_information_only():
    game = new_game(3)
    play(game, {"type": "jump", "to": "Freezer"}, {"type": "scan", "tile": "MED"},
         {"type": "jump", "to": "Freezer"})
    board = standings(game.state)
    ann, ben, cleo = board.players
    assert (ann.at, ann.probes, ann.gate_place, ann.gate_tied) == ("Freezer", 1, 1, True)
    assert (cleo.probes, cleo.gate_place, cleo.hand, cleo.chips_left) == (0, None, 5, 20)
    assert ann.reserved == 1 and ann.chips_left == 18 and ann.hand == 3
    freezer = board.planets[0]
    assert freezer.tiles_left == 7 and freezer.reserved_by == ("Ann",)
    assert freezer.ships == ("Ann", "Ben") and freezer.developer is None
    assert (board.current, board.action, board.round) == ("Ben", 2, 1)
    assert (board.revealed_space, board.threshold) == (0, 8)
    assert not hasattr(freezer, "tiles") and "MED" not in repr(board)
