"""Card reading on material the reader has never seen: four decks in unlike art styles, each
taught from one rendered photo per card code (other copies than the table's), then read on
tables as players leave them: any surface, camera tilt up to 35 degrees, blur, noise, glare,
shadows, JPEG, cards over cards, chips on cards, and things that are not the deck's cards."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from calibration.teach import Taught, TeachingError, TeachingPhoto, missing_codes, teach
from companion.rules import Card
from tests.scenes import DECK, card_table, read_card_table, teaching_photo
from vision.card_finder import CardShape, find_cards
from vision.cards import CardModel, read_card
from vision.config import Calibration, CalibrationError, load_calibration
from vision.synthetic.card_faces import DECKS
from vision.synthetic.teaching import DEMO_DECK, demo_model, teach_deck

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SCENES = 24
CODES = sorted({card.code for card in DECK})


@cache
def taught(deck: str) -> Taught:
    return teach_deck(DECKS[deck])


def read_tables(deck: str, model: CardModel, scenes: int = SCENES, first: int = 0):
    """Readable cards, how many were read right, and every wrong read (with its scene)."""
    readable = right = 0
    wrong: list[str] = []
    for seed in range(first, first + scenes):
        count, read, misread = read_card_table(card_table(DECKS[deck], seed), model)
        readable, right = readable + count, right + read
        wrong += [f"scene {seed}: {w}" for w in misread]
    return readable, right, wrong


#: Where each deck stands (read rate of the readable cards over these tables): the reference
#: deck meets the 99 % aimed at; the three unlike styles do not yet (a number inside a ring on a
#: dark face is told from another of the same shape by its ring's colour, which the taught
#: place leaves out; full-bleed art hides a card's edge). These are floors against regressions,
#: not the aim; no deck may ever be misread.
FLOORS = {"reference": 0.99, "starfield": 0.88, "parchment": 0.88, "fullbleed": 0.78}


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
    deck, codes = DECKS["reference"], CODES[:30]
    photos = [TeachingPhoto(f"{c}.png", teaching_photo(deck, Card.parse(c), 1000 + k, copy=k),
                            Card.parse(c)) for k, c in enumerate(codes)]
    a, b = codes.index("B1/G2"), codes.index("B3/O4")
    photos[a], photos[b] = (TeachingPhoto(photos[a].name, photos[b].image, photos[a].card),
                            TeachingPhoto(photos[b].name, photos[a].image, photos[b].card))
    result = teach(photos)
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
