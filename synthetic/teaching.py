"""Teaching photos of a synthetic deck, as a user takes them, and the demo table's taught deck.

The demo's camera is the synthetic table, so its deck must be taught like any other: from one
rendered photo per card code. Teaching takes about half a minute here (minutes on a Pi), so the
demo's model is taught once, stored beside this module (``demo_deck.json``, rebuilt by
``make demo-deck``), and checked against fresh teaching by the tests.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

import numpy as np

from companion.box import load_box
from companion.rules import Card
from synthetic.card_faces import DECKS, Deck
from synthetic.scene import Degradation, Scene, View, render
from synthetic.surfaces import SURFACES
from vision.cards import CardModel, Taught, TeachingPhoto, teach
from vision.config import Calibration
from vision.layout import default_layout

DEMO_DECK = Path(__file__).with_name("demo_deck.json")


def teaching_photo(deck: Deck, card: Card, seed: int, copy: int = 0) -> np.ndarray:
    """A photo of one card alone, as a user takes it with a phone: close, at any angle, on any
    surface, a little tilted, in their own light."""
    rng = random.Random(seed)
    scene = Scene(default_layout())
    scene.surface = rng.choice(SURFACES)
    scene.add_card(card, (600.0, 330.0), rng.uniform(-180, 180), deck, copy=copy)
    width = rng.uniform(150, 220)
    view = View(600 - width / 2, 330 - width * 3 / 8, width, width * 3 / 4, frame=(960, 720),
                tilt=rng.uniform(0, 15), turn=rng.uniform(0, 360))
    light = Degradation(noise=rng.uniform(1, 4), light=rng.uniform(0, 0.25),
                        cast=rng.uniform(-0.08, 0.08), defocus=rng.uniform(0, 0.8),
                        jpeg=rng.choice([None, 90]))
    return render(scene, view, light, seed).image


def teaching_photos(deck: Deck) -> list[TeachingPhoto]:
    """One photo per card code of the box, each of another copy."""
    codes = sorted({card.code for card in load_box().deck})
    return [TeachingPhoto(f"{code.replace('/', '-')}.png",
                          teaching_photo(deck, Card.parse(code), 1000 + k, copy=k),
                          Card.parse(code)) for k, code in enumerate(codes)]


def teach_deck(deck: Deck) -> Taught:
    """``deck`` taught from one photo per card code of the box."""
    return teach(teaching_photos(deck))


@lru_cache(maxsize=1)
def demo_model() -> CardModel:
    return CardModel.from_json(json.loads(DEMO_DECK.read_text(encoding="utf-8")))


def demo_calibration() -> Calibration:
    """The demo table's calibration: the default layout and its deck taught."""
    return Calibration(cards=demo_model())


if __name__ == "__main__":
    DEMO_DECK.write_text(json.dumps(teach_deck(DECKS["reference"]).model.to_json()) + "\n",
                         encoding="utf-8")
    print(f"wrote {DEMO_DECK}")
