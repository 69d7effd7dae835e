"""Card codes and event parsing: canonical codes, jokers, round trips of every event type."""

from __future__ import annotations

import json

import pytest

from companion.rules import (Card, Coordinate, MalformedEventError, cards_fit_landing,
                             parse_event)


@pytest.mark.parametrize("code", ["B3/G2", "G1/O4", "O1/O2", "O2/O1", "B?/G?", "B1/B2",
                                  "G?/O3", "B4/O?"])
def test_canonical_codes_parse_and_print_back(code):
    assert Card.parse(code).code == code


@pytest.mark.parametrize("code, message", [
    ("G2/B3", "not canonical: blue comes before green"),
    ("O1/G1", "not canonical"),
    ("B5/G2", "'B5' is not a coordinate"),
    ("R1/G2", "'R1' is not a coordinate"),
    ("B1G2", "is not a card code"),
    ("B1/G2/O3", "is not a card code"),
    ("b1/g2", "is not a coordinate"),
    (12, "is not a card code"),
])
def test_malformed_codes_are_refused_with_the_reason(code, message):
    with pytest.raises(MalformedEventError, match=message):
        Card.parse(code)


def test_a_joker_fits_any_number_of_its_colour_only():
    joker = Coordinate.parse("G?")
    assert all(joker.fits("G", n) for n in (1, 2, 3, 4))
    assert not joker.fits("B", 1)
    assert joker.words() == "Green joker" and Coordinate.parse("B3").words() == "Blue 3"


def test_landing_needs_one_card_per_coordinate_in_either_order():
    o13 = Card.parse("O1/O3")
    assert not cards_fit_landing(o13, Card.parse("B1/G1"), (1, 3))  # one card cannot do both
    assert cards_fit_landing(Card.parse("G1/O3"), Card.parse("B2/O1"), (1, 3))
    assert cards_fit_landing(Card.parse("G1/O?"), Card.parse("B2/O?"), (2, 2))
    assert not cards_fit_landing(Card.parse("G1/O2"), Card.parse("B2/O1"), (2, 2))


EVENTS = [
    {"type": "top_up"},
    {"type": "top_up", "discard": 2, "cards": ["B1/G2", "O1/O1"], "player": "Ann"},
    {"type": "jump", "to": "Caldera", "card": "B3/G2"},
    {"type": "fly", "to": "Ruby Red"},
    {"type": "scan", "card": "G2/O1", "tile": "MIN-R", "reveal": True},
    {"type": "scan", "only_space": True},
    {"type": "develop", "cards": ["O1/O2", "G1/O?"], "tile": "WAT"},
    {"type": "discover", "tile": "ALI-N"},
    {"type": "undo"},
    {"type": "end"},
    {"type": "tiles", "player": "Ben", "tiles": ["MED", "SPC"]},
]


@pytest.mark.parametrize("data", EVENTS, ids=[e["type"] for e in EVENTS])
def test_every_event_type_round_trips_through_its_journal_form(data):
    event = parse_event(data)
    assert event.to_json() == data
    assert parse_event(json.loads(json.dumps(event.to_json()))) == event


@pytest.mark.parametrize("data, message", [
    ({"type": "jump"}, "jump needs 'to'"),
    ({"type": "scan", "tile": "GOLD"}, "'GOLD' is not a tile kind"),
    ({"type": "scan", "reveal": "yes"}, "reveal must be true or false"),
    ({"type": "develop", "cards": ["O1/O2"]}, "exactly 2 cards"),
    ({"type": "top_up", "discard": -1}, "discard must be a whole number"),
    ({"type": "tiles", "tiles": []}, "tiles needs 'player'"),
    ({"type": "tiles", "player": "Ann"}, "tiles needs 'tiles'"),
    ({"type": "jump", "to": "Freezer", "player": 3}, "player must be a name"),
    ({"type": "warp"}, "unknown event type 'warp'"),
    ([1, 2], "must be a JSON object"),
])
def test_malformed_events_are_refused_with_the_reason(data, message):
    with pytest.raises(MalformedEventError, match=message):
        parse_event(data)
