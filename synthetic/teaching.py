"""Teaching photos of a synthetic deck, as a user takes them, and the demo table's taught deck.

The demo's camera is the synthetic table, so its deck must be taught like any other: from one
rendered photo per card code. Teaching takes over a minute here (minutes on a Pi), so the
demo's model is taught once and stored beside this module (``demo_deck.json``, rebuilt by
``make demo-deck``), with the code that taught it (``demo_deck.code.json``): the tests read the
reference deck with it, and check that this code is the code here. The full-bleed deck the
tests teach hardest is taught and stored beside it the same way (``fullbleed_deck.json``).
"""

from __future__ import annotations

import ast
import hashlib
import json
import random
import sys
from collections.abc import Callable
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
DEMO_DECK_CODE = Path(__file__).with_name("demo_deck.code.json")
"""The code that taught ``DEMO_DECK``: each module of ``TAUGHT_BY`` that teaching ran, by its
path in the project, with its code's digest (``code_digest``)."""
TAUGHT_BY = ("vision/cards/", "vision/layout.py", "synthetic/")
"""Where the code that makes a taught deck what it is lies (paths in the project, or their
beginnings): the reader and its learning, and the photos drawn to teach from. Not the rest
of ``vision`` that a calibration loads (the pieces, the boards), which teaches no card."""
PROJECT = Path(__file__).resolve().parent.parent
FULLBLEED_DECK = Path(__file__).with_name("fullbleed_deck.json")
"""The own full-bleed deck taught from one photo per code, with what teaching said of it, by
``make demo-deck`` and the code that taught the demo's deck, for the tests alone: its
paintings hide the cards' outlines in some photos, so it tests teaching hardest, and teaching
it in each test run took about 80 of the run's 800 seconds here."""


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


def teaching_photos(deck: Deck, keep: Callable[[int, str], bool] | None = None
                    ) -> list[TeachingPhoto]:
    """One photo per card code of the box, each of another copy; or of those codes ``keep``
    takes (by their place among the box's codes, sorted, and the code), each photo as in
    the whole set (a photo costs a quarter of a second to draw)."""
    codes = sorted({card.code for card in load_box().deck})
    return [TeachingPhoto(f"{code.replace('/', '-')}.png",
                          teaching_photo(deck, Card.parse(code), 1000 + k, copy=k),
                          Card.parse(code)) for k, code in enumerate(codes)
            if keep is None or keep(k, code)]


def teach_deck(deck: Deck) -> Taught:
    """``deck`` taught from one photo per card code of the box."""
    return teach(teaching_photos(deck))


def taught_to_json(taught: Taught) -> dict[str, object]:
    return {"photos": taught.photos, "cards": taught.cards, "skipped": list(taught.skipped),
            "weak": list(taught.weak), "model": taught.model.to_json()}


@lru_cache(maxsize=1)
def fullbleed_taught() -> Taught:
    """The full-bleed deck as ``make demo-deck`` taught it (``FULLBLEED_DECK``)."""
    data = json.loads(FULLBLEED_DECK.read_text(encoding="utf-8"))
    return Taught(CardModel.from_json(data["model"]), int(data["photos"]), int(data["cards"]),
                  tuple(data["skipped"]), tuple(data["weak"]))


@lru_cache(maxsize=1)
def demo_model() -> CardModel:
    return CardModel.from_json(json.loads(DEMO_DECK.read_text(encoding="utf-8")))


def demo_calibration() -> Calibration:
    """The demo table's calibration: the default layout and its deck taught."""
    return Calibration(cards=demo_model())


def code_digest(path: Path) -> str:
    """A digest of a module's code: its syntax tree less its strings standing alone (the
    docstrings), which holds no comments either. A comment or a docstring changed is the
    same code. The tree is written out by ``_written``, not ``ast.dump``, whose text differs
    between Pythons (3.11, 3.12 and 3.13 gave three digests of one file; these give one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            body = getattr(node, name, None)
            if isinstance(body, list):
                body[:] = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(
                    s.value, ast.Constant) and isinstance(s.value.value, str))]
    return hashlib.sha256(_written(tree).encode()).hexdigest()


def _written(node: object) -> str:
    """A syntax tree as text: each node's kind and the fields it has, those left empty
    left out (a newer Python adds empty fields, such as a function's ``type_params``)."""
    if isinstance(node, ast.AST):
        fields = [f"{name}={_written(value)}" for name, value in ast.iter_fields(node)
                  if value is not None and value != []]
        return f"{type(node).__name__}({', '.join(fields)})"
    if isinstance(node, list):
        return f"[{', '.join(_written(item) for item in node)}]"
    return repr(node)


def teaching_code() -> dict[str, str]:
    """The modules in ``TAUGHT_BY`` loaded now, by their paths in the project, each with its
    code's digest."""
    code = {}
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        path = Path(file).resolve() if file else None
        name = path.relative_to(PROJECT).as_posix() \
            if path is not None and path.is_relative_to(PROJECT) else ""
        if name.endswith(".py") and name.startswith(TAUGHT_BY):
            code[name] = code_digest(PROJECT / name)
    return dict(sorted(code.items()))


def demo_deck_changes() -> list[str]:
    """The modules whose code is not the code that taught the shipped demo deck (or that are
    gone): none, or the deck must be taught again (``make demo-deck``)."""
    taught_by = json.loads(DEMO_DECK_CODE.read_text(encoding="utf-8"))
    return [name for name, digest in taught_by.items()
            if not (PROJECT / name).is_file() or code_digest(PROJECT / name) != digest]


if __name__ == "__main__":
    model = teach_deck(DECKS["reference"]).model
    DEMO_DECK.write_text(json.dumps(model.to_json()) + "\n", encoding="utf-8")
    FULLBLEED_DECK.write_text(json.dumps(taught_to_json(teach_deck(DECKS["fullbleed"])))
                              + "\n", encoding="utf-8")
    DEMO_DECK_CODE.write_text(json.dumps(teaching_code(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DEMO_DECK}, {FULLBLEED_DECK.name} and {DEMO_DECK_CODE.name}")
