"""The tracker fed with observation sequences, right, wrong and noisy."""

from __future__ import annotations

from companion.observations import GATE, CardSeen, Observation, PiecesSeen, TileSeen
from companion.rules import (Card, Develop, Discover, Fly, Inventory, Jump, Redo, Scan, TopUp,
                             Undo)
from companion.tracker import Tracker
from tests.conftest import new_game, play
from ui import i18n
from ui.words import notice_text

SQUARE = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def card(code: str, zone: str = "discard", confidence: float = 0.9) -> CardSeen:
    return CardSeen(code, confidence, zone, SQUARE)


def tile(tile_id: int, kind: str, zone: str = "scan-tray") -> TileSeen:
    return TileSeen(f"SM1:T{tile_id:02d}:{kind}", tile_id, kind, zone, SQUARE)


def words(flags) -> list[str]:
    return [str(f) for f in flags]


def seen(*things: CardSeen | TileSeen) -> Observation:
    return Observation(cards=tuple(t for t in things if isinstance(t, CardSeen)),
                       tiles=tuple(t for t in things if isinstance(t, TileSeen)))


def test_a_jump_card_proposes_every_planet_it_reaches():
    view = Tracker().update(new_game(2).state, seen(card("B3/G2")))
    assert [p.event for p in view.proposals] == [Jump("Ruby Red", Card.parse("B3/G2")),
                                                 Jump("Caldera", Card.parse("B3/G2"))]
    assert view.unambiguous is None and view.proposals[0].cards == (Card.parse("B3/G2"),)
    assert view.proposals[0].text == "jump to Ruby Red (Blue 3 / Green 2)"


def test_a_card_once_played_is_not_proposed_again():
    tracker, game = Tracker(), new_game(2)
    assert tracker.update(game.state, seen(card("B1/G4"))).proposals
    play(game, {"type": "jump", "to": "Freezer"})  # entered by touch: the card is played
    assert tracker.update(game.state, seen(card("B1/G4"))).proposals == ()


def test_a_card_played_before_the_camera_saw_it_settle_is_still_accounted_for():
    tracker, game = Tracker(), new_game(2)
    tracker.update(game.state, seen())
    play(game, {"type": "jump", "to": "Freezer"})
    tracker.update(game.state, seen())  # the record moved on; the pile looked empty
    assert tracker.update(game.state, seen(card("B1/G4"))).proposals != ()  # a new card


def test_an_undo_does_not_bring_back_a_played_card():
    tracker, game = Tracker(), new_game(2)
    tracker.update(game.state, seen(card("B1/G4")))
    play(game, {"type": "jump", "to": "Freezer"})
    tracker.update(game.state, seen(card("B1/G4")))
    play(game, {"type": "undo"})
    assert tracker.update(game.state, seen(card("B1/G4"))).proposals == ()


def test_after_an_undo_the_card_before_on_the_pile_again_is_no_news():
    """The players pick up the card of the action undone: the card under it, played by the
    action before, shows again, and is not a card laid."""
    tracker, game = Tracker(), new_game(2)
    tracker.update(game.state, seen(card("B1/G4")))
    play(game, {"type": "jump", "to": "Freezer", "card": "B1/G4"})
    tracker.update(game.state, seen(card("B1/G4")))
    assert tracker.update(game.state, seen(card("B1/O1"))).proposals  # a jump to Hazard
    play(game, {"type": "jump", "to": "Hazard", "card": "B1/O1"})
    tracker.update(game.state, seen(card("B1/O1")))
    play(game, {"type": "undo"})
    assert tracker.update(game.state, seen(card("B1/O1"))).proposals == ()  # left lying
    assert tracker.update(game.state, seen(card("B1/G4"))).proposals == ()  # picked up
    assert tracker.update(game.state, seen(card("G2/O2"))).proposals  # and a new card is news
    play(game, {"type": "redo"})
    tracker.update(game.state, seen(card("B1/G4")))  # the table not laid again yet
    view = tracker.update(game.state, seen(card("B1/O1")))  # the redone jump's card laid again
    assert view.proposals == ()


def test_a_discard_is_proposed_only_while_a_top_up_is_entered():
    tracker, game = Tracker(), new_game(2)
    view = tracker.update(game.state, seen(card("G1/O2")))
    assert view.proposals == ()
    view = tracker.update(game.state, seen(card("G1/O2")), entering="top_up")
    assert [p.event for p in view.proposals] == [TopUp(1, (Card.parse("G1/O2"),))]


def test_a_scan_card_with_a_tile_in_the_tray_proposes_the_scan_with_its_kind():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Caldera"})
    view = Tracker().update(game.state, seen(card("G2/O1"), tile(7, "MIN-P")))
    assert view.unambiguous is not None
    assert view.unambiguous.event == Scan(Card.parse("G2/O1"), "MIN-P")


def test_a_card_that_does_not_fit_the_entered_action_is_flagged():
    game = new_game(2)
    view = Tracker().update(game.state, seen(card("G1/O2")), entering="jump")
    assert view.proposals == ()
    assert words(view.flags) == ["G1/O2 does not fit jump now"]


def test_two_landing_cards_one_after_the_other_propose_the_develop():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"}, {"type": "scan"}, {"type": "top_up"},
         {"type": "top_up"})
    tracker = Tracker()
    first = tracker.update(game.state, seen(card("G1/O1")))
    assert not any(isinstance(p.event, Develop) for p in first.proposals)
    second = tracker.update(game.state, seen(card("B2/O3"), tile(40, "WAT")))
    develops = [p.event for p in second.proposals if isinstance(p.event, Develop)]
    assert develops == [Develop((Card.parse("G1/O1"), Card.parse("B2/O3")), "WAT")]


def test_a_tile_alone_on_a_developed_planet_proposes_the_discover():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"}, {"type": "scan"}, {"type": "top_up"},
         {"type": "top_up"}, {"type": "develop"})
    view = Tracker().update(game.state, seen(tile(3, "MED")))
    assert view.unambiguous is not None and view.unambiguous.event == Discover("MED")


def test_face_up_space_tiles_at_the_planet_mark_the_reveal():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"})
    view = Tracker().update(game.state, seen(card("G2/O1"), tile(5, "MED"),
                                             tile(60, "SPC", zone="planet-1")))
    assert view.unambiguous is not None and view.unambiguous.event.reveal is True


def test_two_tiles_in_the_tray_are_flagged_not_guessed():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"})
    view = Tracker().update(game.state, seen(card("G2/O1"), tile(5, "MED"), tile(9, "WAT")))
    assert any("2 tiles in the scan tray" in f for f in words(view.flags))
    assert all(p.event.tile is None for p in view.proposals if isinstance(p.event, Scan))


def test_a_sticker_seen_with_two_kinds_or_in_two_places_is_flagged():
    tracker, state = Tracker(), new_game(2).state
    tracker.update(state, seen(tile(12, "MIN-R")))
    view = tracker.update(state, seen(tile(12, "WAT")))
    flags = words(view.flags)
    assert any("sticker 12 was read as another kind" in f for f in flags)
    assert not any("MIN-R" in f or "WAT" in f for f in flags)  # a hidden tile's kind unsaid
    view = Tracker().update(state, seen(tile(13, "MED"), tile(13, "MED", zone="player-1")))
    assert any("sticker 13 is seen in two places" in f for f in words(view.flags))


def test_the_end_inventory_is_proposed_when_the_count_matches_and_flagged_when_not():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"}, {"type": "scan", "tile": "WAT"},
         {"type": "top_up"}, {"type": "top_up"}, {"type": "develop"}, {"type": "end"})
    tracker = Tracker()
    view = tracker.update(game.state, seen(tile(40, "WAT"), tile(50, "MED")),
                          inventory_for="Ann")
    assert view.unambiguous.event == Inventory("Ann", ("MED", "WAT"))
    short = tracker.update(game.state, seen(tile(40, "WAT")), inventory_for="Ann")
    assert short.proposals == () and "Ann holds 2 tiles; the scan tray shows 1" in words(
        short.flags)
    wrong = tracker.update(game.state, seen(tile(50, "MED"), tile(51, "MED")),
                           inventory_for="Ann")
    assert wrong.proposals == () and any("do not match" in f for f in words(wrong.flags))


def test_noisy_observations_change_nothing_without_a_new_card():
    tracker, game = Tracker(), new_game(3)
    play(game, {"type": "jump", "to": "Freezer"})
    for noise in (seen(), seen(card("B1/G2", zone=None)), seen(tile(3, "MED", zone=None))):
        assert tracker.update(game.state, noise).proposals == ()


def test_a_tile_shown_when_no_action_can_take_one_is_flagged():
    view = Tracker().update(new_game(2).state, seen(tile(8, "WAT")))
    assert view.proposals == ()
    assert words(view.flags) == ["tile 08 is in the scan tray, but no action of Ann's can "
                                 "take a tile now"]


def pieces(ships=None, gate=None, stations=None, reserved=None, glimpsed=None) -> PiecesSeen:
    return PiecesSeen(ships or {}, gate or {}, stations or {}, reserved or {}, glimpsed or {})


def test_the_ships_place_on_the_table_picks_the_jump_it_shows():
    jump_card = card("B3/G2")  # reaches Ruby Red and Caldera
    shown = Observation(cards=(jump_card,),
                        pieces=pieces({"red": "Caldera", "blue": GATE}, {"red": 1, "blue": 0}))
    view = Tracker().update(new_game(2).state, shown)
    assert [p.event for p in view.proposals] == [Jump("Caldera", Card.parse("B3/G2"))]
    assert view.flags == ()  # the probe the jump lays is not a disagreement


def test_a_ship_moved_to_a_neighbour_with_no_card_proposes_the_flight():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"})  # Ann, red, by touch
    shown = Observation(pieces=pieces({"red": "Green Heggar"}, {"red": 1}))
    view = Tracker().update(game.state, shown)
    assert [p.event for p in view.proposals] == [Fly("Green Heggar")]
    far = Observation(pieces=pieces({"red": "Caldera"}))  # no neighbour: no flight, a flag
    view = Tracker().update(game.state, far)
    assert view.proposals == ()
    assert words(view.flags) == ["the table shows the red ship on Caldera; the record says "
                                 "Freezer"]


def test_a_ship_only_glimpsed_leads_to_the_flight_or_jump_there_for_a_tap():
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Freezer"})  # Ann, red, by touch
    glimpsed = Observation(pieces=pieces(glimpsed={"red": "Green Heggar"}))
    view = Tracker().update(state, glimpsed)
    assert [(p.event, p.tap_only) for p in view.proposals] == [(Fly("Green Heggar"), True)]
    assert view.unambiguous is None or view.unambiguous.tap_only  # never confirmed unasked
    for nowhere in ("Caldera", "Freezer"):  # no neighbour, or where the record has it
        view = Tracker().update(state, Observation(pieces=pieces(glimpsed={"red": nowhere})))
        assert view.proposals == () and view.flags == ()
    seen_whole = Observation(pieces=pieces({"red": "Freezer"}, glimpsed={"red": "Green Heggar"}))
    assert Tracker().update(state, seen_whole).proposals == ()
    built = play(new_game(2), {"type": "jump", "to": "Freezer"}, {"type": "scan", "tile": "WAT"},
                 {"type": "top_up"}, {"type": "top_up"},
                 {"type": "develop"}, {"type": "fly", "to": "Green Heggar"},
                 {"type": "top_up"}, {"type": "top_up"})
    assert built.current == 0 and built.stacks[built.setup.planet_index("Freezer")].developer == 0
    back = Observation(pieces=pieces(glimpsed={"red": "Freezer"}))  # red's station may show
    assert Tracker().update(built, back).proposals == ()
    jump_card = card("B3/G2")  # reaches Ruby Red and Caldera
    view = Tracker().update(new_game(2).state, Observation(
        cards=(jump_card,), pieces=pieces(glimpsed={"red": "Caldera"})))
    assert [(p.event, p.tap_only) for p in view.proposals] == [
        (Jump("Caldera", Card.parse("B3/G2")), True)]


def test_the_table_and_the_record_disagreeing_is_said_and_changes_nothing():
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Freezer"})
    shown = Observation(pieces=pieces({"red": "Freezer", "blue": "Hazard"},
                                      {"red": 1, "blue": 2}, {"Freezer": "red", "Vega": None}))
    view = Tracker().update(state, shown)
    assert view.proposals == ()
    assert words(view.flags) == [
        "the table shows the blue ship on Hazard; the record says gate",
        "the table shows 2 blue probes on the jump gate; the record says 0",
        "the table shows a red station on Freezer; the record says none"]
    assert game.state.players[1].at is None  # the record is as it was


def test_a_probe_laid_beside_the_ships_planet_picks_the_scan_and_a_station_the_develop():
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Caldera"})  # Ann, red
    both = Observation(cards=(card("B3/G2"),))  # a jump to Ruby Red, or a scan of Caldera
    assert {p.event.type for p in Tracker().update(state, both).proposals} == {"jump", "scan"}
    probe = Observation(cards=both.cards, pieces=pieces(
        {"red": "Caldera"}, {"red": 1}, {}, {"Caldera": {"red": 1}}))
    view = Tracker().update(state, probe)
    assert [p.event for p in view.proposals] == [Scan(Card.parse("B3/G2"))]
    assert view.flags == ()  # the probe being laid is no disagreement
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Freezer"}, {"type": "scan"}, {"type": "top_up"},
                 {"type": "top_up"})
    tracker = Tracker()
    tracker.update(state, seen(card("G1/O1")))
    station = Observation(cards=(card("B2/O3"),), tiles=(tile(40, "WAT"),),
                          pieces=pieces({"red": "Freezer"}, stations={"Freezer": "red"}))
    view = tracker.update(state, station)
    assert [p.event for p in view.proposals] == [
        Develop((Card.parse("G1/O1"), Card.parse("B2/O3")), "WAT")]


def test_a_card_laid_with_every_piece_as_recorded_is_a_discard_proposed_for_a_tap():
    """Nothing of the player's moved for the card: no jump, scan or develop played it, so it
    is a top up's discard; proposed, but never auto-confirmed (the ship may move next)."""
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Caldera"})  # Ann, red, one probe on the gate
    laid = (card("B3/G2"),)
    as_recorded = pieces({"red": "Caldera"}, {"red": 1}, {"Caldera": None}, {"Caldera": {}})
    view = Tracker().update(state, Observation(cards=laid, pieces=as_recorded))
    assert [p.event for p in view.proposals] == [TopUp(1, (Card.parse("B3/G2"),))]
    assert view.proposals[0].tap_only and view.unambiguous is None
    moved = pieces({"red": "Ruby Red"}, {"red": 2}, {"Caldera": None}, {"Caldera": {}})
    view = Tracker().update(state, Observation(cards=laid, pieces=moved))
    assert [p.event.type for p in view.proposals] == ["jump"]
    unsure = pieces({"red": "Caldera"}, {"red": 1}, {}, {})  # Caldera not seen for sure
    view = Tracker().update(state, Observation(cards=laid, pieces=unsure))
    assert {p.event.type for p in view.proposals} == {"jump", "scan"}
    # the gate not counted: the ship in its place says no jump was made all the same
    uncounted = pieces({"red": "Caldera"}, {}, {"Caldera": None}, {"Caldera": {}})
    view = Tracker().update(state, Observation(cards=laid, pieces=uncounted))
    assert [p.event for p in view.proposals] == [TopUp(1, (Card.parse("B3/G2"),))]
    not_seen = pieces({}, {"red": 1}, {"Caldera": None}, {"Caldera": {}})  # the ship unsure
    view = Tracker().update(state, Observation(cards=laid, pieces=not_seen))
    assert {p.event.type for p in view.proposals} == {"jump", "scan"}


def test_a_card_is_a_discard_once_the_pieces_rule_out_every_action_it_allows():
    """Only the uses a card has need ruling out: a card that allows a jump alone is a
    discard while the ship stands still, whatever is unsure at its planet; three cards laid
    one after the other are three discards."""
    game, tracker = new_game(2), Tracker()
    tracker.update(game.state, seen(card("B1/G4")))
    state = play(game, {"type": "jump", "to": "Freezer", "card": "B1/G4"})
    tracker.update(state, seen(card("B1/G4")))
    ship_still = pieces({"red": "Freezer"})  # nothing seen for sure at Freezer
    view = tracker.update(state, Observation(cards=(card("B1/O1"),), pieces=ship_still))
    assert [p.event for p in view.proposals] == [TopUp(1, (Card.parse("B1/O1"),))]
    assert view.proposals[0].tap_only
    for code in ("G1/O1", "B2/O3"):
        view = tracker.update(state, Observation(cards=(card(code),), pieces=ship_still))
    assert [p.event for p in view.proposals] == [
        TopUp(3, tuple(Card.parse(c) for c in ("B1/O1", "G1/O1", "B2/O3")))]
    # a card that may be a scan of Freezer is no discard while its tiles are not seen
    scan_card = Observation(cards=(card("G2/O2"),), pieces=ship_still)
    assert {p.event.type for p in Tracker().update(state, scan_card).proposals} == {"scan"}


def test_probes_beside_a_planet_the_record_does_not_have_are_said():
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Freezer"}, {"type": "scan"})  # red reserves
    shown = Observation(pieces=pieces(reserved={"Freezer": {"blue": 1}, "Hazard": {}}))
    assert words(Tracker().update(state, shown).flags) == [
        "the table shows 0 red probes on tiles beside Freezer; the record says 1",
        "the table shows 1 blue probes on tiles beside Freezer; the record says 0"]
    agreeing = Observation(pieces=pieces(reserved={"Freezer": {"red": 1}, "Hazard": {}}))
    assert Tracker().update(state, agreeing).flags == ()


def test_the_gate_as_the_camera_last_counted_it_stays_while_hands_move():
    """The view carries the camera's count of the jump gate, in seating order, for the colours
    it was sure of; a frame with no settled read (a hand passing) keeps the last count; a
    tracker that never saw the pieces has none."""
    state = new_game(3).state
    tracker = Tracker()
    assert tracker.update(state, Observation()).gate == ()
    counted = Observation(pieces=pieces(gate={"green": 2, "red": 0}))
    assert tracker.update(state, counted).gate == (("red", 0), ("green", 2))
    assert tracker.update(state, Observation()).gate == (("red", 0), ("green", 2))
    later = Observation(pieces=pieces(gate={"blue": 1}))
    assert tracker.update(state, later).gate == (("blue", 1),)


def test_what_the_camera_is_not_sure_of_says_nothing():
    state = new_game(3).state
    for unsure in (pieces(), pieces({"red": GATE}, {"blue": 0}, {"Freezer": None})):
        view = Tracker().update(state, Observation(pieces=unsure))
        assert view.proposals == () and view.flags == ()


def test_a_disagreement_is_said_in_the_players_language():
    state = new_game(2).state
    view = Tracker().update(state, Observation(pieces=pieces({"blue": "Hazard"})))
    try:
        i18n.set_language("de")
        assert notice_text(view.flags[0]) == ("auf dem Tisch steht das Raumschiff (blau) auf "
                                              "Hazard; laut Aufzeichnung: Jump Gate")
        i18n.set_language("it")
        assert "astronave (blu)" in notice_text(view.flags[0])
    finally:
        i18n.set_language("en")


def test_the_next_player_beginning_their_turn_proposes_the_top_up_no_camera_sees():
    """Ann tops up without discarding as her second action: nothing changes on the table, but
    Bob's jump does, and it is allowed only once her turn is over."""
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Freezer"})  # Ann, red: her first action
    bob = state.setup.players[1].name
    jumped = Observation(cards=(card("B3/G2"),), pieces=pieces(
        {"red": "Freezer", "blue": "Caldera"}, {"red": 1, "blue": 1}))
    tracker = Tracker()
    view = tracker.update(state, jumped)
    assert [p.event for p in view.proposals] == [TopUp(0)]
    assert view.proposals[0].begun_by == bob and view.unambiguous is not None
    assert view.flags == ()  # Bob's ship and probe are his turn's, no disagreement
    state = play(game, {"type": "top_up"})
    view = tracker.update(state, jumped)
    assert [p.event for p in view.proposals] == [Jump("Caldera", Card.parse("B3/G2"))]


def test_no_top_up_is_proposed_while_the_players_own_pieces_show_an_action_not_entered():
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Freezer"})
    both_moved = Observation(pieces=pieces({"red": "Green Heggar", "blue": "Caldera"},
                                           {"red": 1, "blue": 1}))
    assert [p.event for p in Tracker().update(state, both_moved).proposals] == [
        Fly("Green Heggar")]
    # her first action: a top up leaves the turn hers, so Bob's ship says nothing of one
    first = new_game(2)
    flown = Observation(cards=(card("B3/G2"),), pieces=pieces({"red": GATE, "blue": "Caldera"}))
    view = Tracker().update(first.state, flown)
    assert TopUp(0) not in [p.event for p in view.proposals]
    assert "the table shows the blue ship on Caldera; the record says gate" in words(view.flags)


def test_a_move_taken_back_on_the_table_proposes_the_undo_for_a_tap():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"}, {"type": "fly", "to": "Green Heggar"})
    state = game.state  # Ann's turn is over: Bob's
    back = Observation(pieces=pieces({"red": "Freezer", "blue": GATE}, {"red": 1}))
    view = Tracker().update(state, back, game=game)
    assert [(p.event, p.tap_only) for p in view.proposals] == [(Undo(), True)]
    assert view.unambiguous is None  # never taken back unasked
    before, flight = view.proposals[0].undone_or_redone
    assert flight == Fly("Green Heggar") and before.players[0].at == before.setup.planet_index(
        "Freezer")
    assert view.proposals[0].text == "undo fly to Green Heggar (the table shows it taken back)"
    assert "the table shows the red ship on Freezer; the record says Green Heggar" in words(
        view.flags)  # the disagreement is still said
    assert Tracker().update(state, back).proposals == ()  # no record given: no undo
    elsewhere = Observation(pieces=pieces({"red": "Caldera"}))
    assert Tracker().update(state, elsewhere, game=game).proposals == ()
    as_recorded = Observation(pieces=pieces({"red": "Green Heggar"}, {"red": 1}))
    assert Tracker().update(state, as_recorded, game=game).proposals == ()


def test_a_jump_is_taken_back_only_with_its_probe_and_a_ship_flown_back_may_be_either():
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Freezer"})  # Ann's first action: hers still
    probe_kept = Observation(pieces=pieces({"red": GATE}, {"red": 1}))
    assert Tracker().update(state, probe_kept, game=game).proposals == ()
    probe_gone = Observation(pieces=pieces({"red": GATE}, {"red": 0}))
    assert [p.event for p in Tracker().update(state, probe_gone, game=game).proposals] == [
        Undo()]
    state = play(game, {"type": "top_up"}, {"type": "top_up"}, {"type": "top_up"},
                 {"type": "fly", "to": "Green Heggar"})  # Ann's first action of her next turn
    flown_back = Observation(pieces=pieces({"red": "Freezer"}))
    view = Tracker().update(state, flown_back, game=game)
    assert [p.event for p in view.proposals] == [Undo(), Fly("Freezer")]
    assert view.unambiguous is None  # two readings of one table: the players say which


def test_a_station_or_a_probe_taken_back_proposes_the_undo():
    game = new_game(2)
    state = play(game, {"type": "jump", "to": "Freezer"}, {"type": "scan", "tile": "WAT"})
    view = Tracker().update(state, Observation(pieces=pieces(reserved={"Freezer": {"red": 0}})),
                            game=game)
    assert [p.event for p in view.proposals] == [Undo()]
    kept = Observation(pieces=pieces(reserved={"Freezer": {"red": 1}}))
    assert Tracker().update(state, kept, game=game).proposals == ()
    state = play(game, {"type": "top_up"}, {"type": "top_up"}, {"type": "develop"})
    gone = Observation(pieces=pieces(stations={"Freezer": None}))
    assert [p.event for p in Tracker().update(state, gone, game=game).proposals] == [Undo()]
    unseen = Observation(pieces=pieces(stations={}))  # not seen is not gone
    assert Tracker().update(state, unseen, game=game).proposals == ()


def test_a_move_undone_and_seen_made_again_proposes_the_redo_in_place_of_the_move():
    game = new_game(2)
    play(game, {"type": "jump", "to": "Freezer"}, {"type": "fly", "to": "Green Heggar"},
         {"type": "undo"})
    state = game.state
    again = Observation(pieces=pieces({"red": "Green Heggar"}, {"red": 1}))
    view = Tracker().update(state, again, game=game)
    assert [(p.event, p.tap_only) for p in view.proposals] == [(Redo(), True)]
    assert view.proposals[0].undone_or_redone == (state, Fly("Green Heggar"))
    assert [p.event for p in Tracker().update(state, again).proposals] == [Fly("Green Heggar")]
    still_back = Observation(pieces=pieces({"red": "Freezer"}, {"red": 1}))
    assert Tracker().update(state, still_back, game=game).proposals == ()
    tracker = Tracker()
    tracker.update(state, Observation(pieces=still_back.pieces), game=game)
    laid = Observation(cards=(card("B3/G2"),), pieces=again.pieces)  # a new card: no redo
    assert Redo() not in [p.event for p in tracker.update(state, laid, game=game).proposals]


def test_a_proposal_seen_while_a_hand_moves_over_the_table_waits_for_a_tap_or_stillness():
    state = play(new_game(2), {"type": "jump", "to": "Freezer"})
    ships = pieces({"red": "Freezer", "blue": "Caldera"}, {"red": 1, "blue": 1})
    still = Tracker().update(state, Observation(cards=(card("B3/G2"),), pieces=ships))
    assert still.unambiguous is not None and not still.moving
    moving = Observation(cards=(card("B3/G2"),), pieces=ships, moving=True)
    view = Tracker().update(state, moving)
    assert view.proposals == still.proposals and view.moving
    assert view.unambiguous is None
