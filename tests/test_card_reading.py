"""Card reading on material the reader has never seen: four decks in unlike art styles, each
taught from one rendered photo per card code (other copies than the table's), then read on
tables as players leave them: any surface, camera tilt up to 35 degrees, blur, noise, glare,
shadows, JPEG, cards over cards, chips on cards, and things that are not the deck's cards."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.cards as cards_module
from calibration.teach import (COPIES, Taught, TeachingError, TeachingPhoto, _align, _Card,
                               _discover, _find, _printed_alike, _refine, _teach, find_in_photo,
                               missing_codes, teach)
from companion.rules import Card
from tests.scenes import DECK, card_table, read_card_table, teaching_photo
from vision.card_finder import CardShape, find_cards, refined
from vision.cards import (CardModel, CardRead, lab_face, read_card, read_region,
                          upright_face)
from vision.config import Calibration, CalibrationError, load_calibration
from vision.layout import CARD_SIZE
from vision.synthetic.card_faces import DECKS
from vision.synthetic.teaching import DEMO_DECK, demo_model, teaching_photos

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SCENES = 24
CODES = sorted({card.code for card in DECK})


@cache
def found(deck: str) -> tuple[_Card, ...]:
    """The cards found in the deck's teaching photos (finding them is most of teaching)."""
    return tuple(_find(photo) for photo in teaching_photos(DECKS[deck]))


@cache
def taught(deck: str) -> Taught:
    return _teach([replace(card) for card in found(deck)])


def read_tables(deck: str, model: CardModel, scenes: int = SCENES, first: int = 0):
    """Readable cards, how many were read right, and every wrong read (with its scene)."""
    readable = right = 0
    wrong: list[str] = []
    for seed in range(first, first + scenes):
        count, read, misread = read_card_table(card_table(DECKS[deck], seed), model)
        readable, right = readable + count, right + read
        wrong += [f"scene {seed}: {w}" for w in misread]
    return readable, right, wrong


#: Where each deck stands (read rate of the readable cards over these tables): 94/94, 92/92,
#: 89/89 and 77/77 (on the bench's 40 other tables: 100, 100, 99.3 and 99.3 %; the two
#: cards missed are unsure, one between two look-alike coordinates). These are floors
#: against regressions, not the aim; no deck may ever be misread.
FLOORS = {"reference": 0.99, "starfield": 0.97, "parchment": 0.97, "fullbleed": 0.97}


@pytest.mark.parametrize("deck", list(FLOORS))
def test_a_deck_taught_from_one_photo_per_code_is_read_and_never_wrongly(deck):
    result = taught(deck)
    assert result.photos == len(CODES) and result.cards >= len(CODES) - 3
    # a photo left out (unlike the others where its coordinates are) is reported, never silent
    assert set(CODES) - result.model.codes <= set(result.weak)
    readable, right, wrong = read_tables(deck, result.model)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"card_reading_{deck}.txt").write_text(
        f"{deck}: {right}/{readable} readable cards read, {len(wrong)} wrong\n"
        f"weak: {', '.join(result.weak) or 'none'}\n" + "".join(f"{w}\n" for w in wrong))
    assert wrong == []
    assert readable >= 70 and right / readable >= FLOORS[deck]


def test_a_card_reads_the_same_whichever_way_up_it_lies():
    model = taught("parchment").model
    for turn in (0, 90, 180, 270):
        photo = teaching_photo(DECKS["parchment"], Card.parse("B3/O1"), 77, copy=5)
        turned = np.ascontiguousarray(np.rot90(photo, turn // 90))
        quads = find_cards(turned, CardShape(model.aspect))
        reads = [read_card(turned, q, model) for q in quads]
        assert [r.card.code for r in reads if r.card] == ["B3/O1"], turn


def test_a_code_never_taught_is_left_unsure_not_read_as_another():
    """Taught without ten of its codes (their coordinates known from other cards), the reader
    meets those ten on the table."""
    left_out = set(CODES[::6])
    whole = taught("starfield").model
    model = replace(whole, codes=whole.codes - left_out)
    shown = {t.label for seed in range(100, 112)
             for t in card_table(DECKS["starfield"], seed).readable}
    assert shown & left_out  # the tables do show codes it was never taught
    readable, right, wrong = read_tables("starfield", model, scenes=12, first=100)
    assert wrong == [] and right >= (readable - len(shown & left_out)) * 0.5


def test_teaching_says_which_codes_to_photograph_again():
    """Two photos with their labels swapped: the model learned them wrongly, and says so."""
    codes = CODES[:30]
    cards = [replace(card) for card in found("reference")[:30]]
    assert [card.photo.card.code for card in cards] == codes
    a, b = codes.index("B1/G2"), codes.index("B3/O4")

    def labelled(card: _Card, code: str) -> _Card:
        return replace(card, photo=replace(card.photo, card=Card.parse(code)))

    cards[a], cards[b] = labelled(cards[b], codes[a]), labelled(cards[a], codes[b])
    result = _teach(cards)
    assert {"B1/G2", "B3/O4"} <= set(result.weak)


def test_teaching_names_a_photo_without_a_card():
    empty = np.full((480, 640, 3), (60, 80, 50), np.uint8)
    photos = [TeachingPhoto("B3-G2.png", empty, Card.parse("B3/G2"))]
    with pytest.raises(TeachingError, match="B3-G2.png: no card found in the photo"):
        teach(photos)


def test_missing_codes_are_the_box_deck_less_what_was_taught():
    assert missing_codes(frozenset(CODES[5:])) == CODES[:5]
    assert missing_codes(frozenset(CODES)) == []


def test_a_model_survives_its_json_form_and_an_old_one_is_refused_by_name(tmp_path):
    model = taught("fullbleed").model
    again = CardModel.from_json(json.loads(json.dumps(model.to_json())))
    assert again.codes == model.codes and again.regions == model.regions
    table = card_table(DECKS["fullbleed"], 3)
    assert read_card_table(table, model) == read_card_table(table, again)
    path = tmp_path / "cal.json"
    old = {"hues": {"B": 100, "G": 60, "O": 15}, "templates": {}, "min_saturation": 70}
    path.write_text(json.dumps({"version": 1, "layout": Calibration().layout.to_json(),
                                "cards": old}))
    calibration = load_calibration(path)  # the table part is still good
    assert calibration.cards is None
    assert "older version" in (calibration.cards_problem or "")
    path.write_text(json.dumps({"version": 1, "layout": {"width": 1}}))
    with pytest.raises(CalibrationError, match="layout part"):
        load_calibration(path)


def test_the_demo_deck_shipped_is_the_reference_deck_as_taught_today():
    """``demo_deck.json`` is rebuilt by ``make demo-deck``; it must read the reference deck as
    well as a model taught now does."""
    assert json.loads(DEMO_DECK.read_text())["kind"] == CardModel.from_json(
        demo_model().to_json()).to_json()["kind"]
    readable, right, wrong = read_tables("reference", demo_model(), scenes=8, first=200)
    assert wrong == [] and right / readable >= 0.97


# -- the pieces the read rate rests on ----------------------------------------------------------

def _outline_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance between two outlines, whichever corner each starts at."""
    return min(float(np.abs(np.roll(found, k, axis=0) - truth).max()) for k in range(4))


def test_an_outline_a_few_pixels_off_is_put_onto_the_cards_edge():
    """The finder works on a shrunken image: its corners are a pixel or two off there, more in
    the full image, and a coordinate's place is taken from them. Refined, outlines moved up
    to 3.5 px off come back towards the card's edge, on every deck's art (a full-bleed
    painting's shapes run up to its edge; a printed frame lies just inside it)."""
    for name in ("reference", "fullbleed", "parchment"):
        rng = np.random.default_rng(3)
        before, after = [], []
        for seed in range(4):
            table = card_table(DECKS[name], seed)
            for truth in table.readable:
                off = truth.corners + rng.uniform(-3.5, 3.5, (4, 2))
                before.append(_outline_error(off, truth.corners))
                after.append(_outline_error(refined(table.frame.image, off), truth.corners))
        assert len(after) >= 10, name
        assert np.median(after) <= 0.85 * np.median(before), (name, after)


def test_a_teaching_photo_whose_card_fades_into_the_surface_is_found_whole():
    """A full-bleed card on wood, the lower part of one side much the colour of the wood: the
    finder's outlines run past that side, and the one kept is the card's (its weakest side
    still stands out), not a larger outline nor the white index panel printed on it."""
    card = Card.parse("B3/O4")
    photo = teaching_photo(DECKS["fullbleed"], card, 1000 + CODES.index(card.code),
                           copy=CODES.index(card.code))
    quad = find_in_photo(photo)
    assert quad is not None
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    long_, short = max(sides[0], sides[1]), min(sides[0], sides[1])
    assert abs(long_ / short - 87 / 56) < 0.1  # the card's proportions (the photo is tilted)
    # not the index panel (about 7,000 px), nor the outline past the faded side (154,000 px)
    assert 100_000 < cv2.contourArea(quad.astype(np.float32)) < 135_000


def _outlines_on(table, deck) -> list[np.ndarray]:
    """The finder's outlines on a whole card table, as a calibrated table is searched: the
    deck's true proportions, the table's standard card length."""
    image = table.frame.image
    short, long_ = deck.size_mm
    return find_cards(image, CardShape.on_table(
        long_ / short, CARD_SIZE[1], np.linalg.inv(table.frame.table_to_image),
        at=(image.shape[1] / 2, image.shape[0] / 2)))


def _found_within(outlines: list[np.ndarray], truth, pixels: float) -> bool:
    return any(_outline_error(q, truth.corners) <= pixels for q in outlines)


def test_on_a_whole_table_every_card_is_found_however_many_corners_propose_others():
    """Six full-bleed cards on a patterned mat with circles drawn across it: corners of lines
    and cards propose over 400 outlines, 80 of them lying on edges. Two of the cards are
    proposed only further down that list than a pile's window ever looks."""
    table = card_table(DECKS["fullbleed"], 307)
    outlines = _outlines_on(table, DECKS["fullbleed"])
    assert len(table.readable) == 6
    assert all(_found_within(outlines, truth, 6.0) for truth in table.readable)


def test_a_card_whose_sides_break_into_pieces_on_wood_grain_is_proposed_from_its_corners():
    """Full-bleed cards on wood, the camera tilted: the straight pieces found along two cards'
    sides stop up to 40 px (in the finder's shrunken image) short of their corners, so no
    corner had a piece ending at it on both sides. One of the two may now stop short."""
    table = card_table(DECKS["fullbleed"], 337)
    outlines = _outlines_on(table, DECKS["fullbleed"])
    for label in ("B4/O2", "B3/O3"):
        truth = next(t for t in table.readable if t.label == label)
        assert _found_within(outlines, truth, 6.0), label


def test_an_outline_run_past_a_faded_side_is_put_back_onto_the_card():
    """A full-bleed card on a dark red mat: the top of its art is much the mat's colour, and
    its outline ran 12 px past that side. Its proportions are clearly not the card's, and
    that side stands out a quarter as much as the others: it is moved onto the card's edge."""
    table = card_table(DECKS["fullbleed"], 300)
    truth = next(t for t in table.readable if t.label == "B3/G2")
    assert _found_within(_outlines_on(table, DECKS["fullbleed"]), truth, 3.0)


@pytest.mark.parametrize("deck, turned", [("reference", False), ("fullbleed", True)])
def test_a_deck_printing_both_coordinates_alike_teaches_each_look_at_both_places(deck, turned):
    """The reference deck prints its two coordinates alike; the full-bleed one prints the
    bottom one turned half round in the other corner: either way a coordinate's photos at one
    place teach it at the other too. Only coordinates printed at both places are shared."""
    result = taught(deck)
    top, bottom = result.model.looks
    tops = {code.split("/")[0] for code in result.model.codes}
    bottoms = {code.split("/")[1] for code in result.model.codes}
    shared = set(top.labels) & set(bottom.labels)
    assert shared == tops & bottoms != set()  # green is printed at the top and at the bottom
    assert set(top.labels) == tops and set(bottom.labels) == bottoms  # and nothing else moves
    for label in shared:  # every taught photo showing it, at either place, teaches it
        showing = sum(label in code.split("/") for code in result.model.codes)
        assert top.labels.count(label) == bottom.labels.count(label) == showing * COPIES
    cards = [replace(card) for card in found(deck)]
    _align(cards)
    regions = _discover(cards)
    alike = _printed_alike(cards, (_refine(cards, regions[0], 0), _refine(cards, regions[1], 1)))
    assert alike is not None and alike[1] is turned


def test_a_read_holds_when_one_nudged_outline_is_unsure_but_never_when_one_reads_another():
    model = taught("reference").model
    table = card_table(DECKS["reference"], 11)
    image = table.frame.image
    truth = table.readable[0]
    quad = next(q for q in find_cards(image, CardShape.on_table(
        model.aspect, CARD_SIZE[1], np.linalg.inv(table.frame.table_to_image),
        at=(image.shape[1] / 2, image.shape[0] / 2)))
        if np.linalg.norm(q.mean(axis=0) - truth.corners.mean(axis=0)) < 12)
    assert read_card(image, quad, model).card == Card.parse(truth.label)
    other = next(code for code in sorted(model.codes) if code != truth.label)
    first = cards_module._read_once(image, quad, model)

    def nudged_reads(*answers: str | None):
        """``_read_once`` answering as read for the outline itself, then ``answers`` for the
        outline taken smaller and larger."""
        replies = iter([first] + [CardRead(None, 0.0, quad, "unsure") if a is None
                                  else CardRead(Card.parse(a), 0.5, quad) for a in answers])
        return lambda *_: next(replies)

    for answers, expected in (((None, truth.label), truth.label), ((None, None), None),
                              ((truth.label, other), None)):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(cards_module, "_read_once", nudged_reads(*answers))
            read = read_card(image, quad, model)
        assert (read.card.code if read.card else None) == expected, answers


def test_a_coordinate_barely_like_any_taught_look_must_stand_out_more_to_be_read():
    """Near its region's limit, a look is barely like any taught one (an outline run off the
    card, a badge half covered): it must then beat the next coordinate by ``FAR_MARGIN``, not
    just ``MIN_MARGIN``."""
    model = taught("reference").model
    table = card_table(DECKS["reference"], 11)
    image, truth = table.frame.image, table.readable[0]
    card = read_card(image, truth.corners, model)
    assert card.card == Card.parse(truth.label)
    lab = lab_face(upright_face(image, card.corners))
    region, looks = model.regions[0], model.looks[0]
    read = read_region(lab, region, looks)
    assert read.known and not read.far and read.coordinate == str(card.card.top)
    at_limit = read_region(lab, region, replace(looks, limit=read.distance / 0.9))
    assert at_limit.known and at_limit.far
    between = (cards_module.MIN_MARGIN + cards_module.FAR_MARGIN) / 2
    assert replace(read, margin=between).clear
    assert not replace(at_limit, margin=between).clear
    assert replace(at_limit, margin=cards_module.FAR_MARGIN).clear
