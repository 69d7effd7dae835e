"""Synthetic scenes with known ground truth, shared by the vision tests and the benchmark."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from calibration.sticker_art import STICKER_MODULES
from companion.box import load_box
from companion.observations import StickerPayload
from companion.rules import Card
from vision.cards import CardModel, read_cards
from vision.layout import CARD_SIZE, TableLayout, default_layout
from synthetic.card_faces import (DECKS, Deck, card_back, chip, note,
                                         other_game_card)
from synthetic.scene import (Degradation, Frame, Scene, Truth, View, render,
                                    sticker_mm_for)
from synthetic.surfaces import SURFACES
from synthetic.teaching import teaching_photo  # noqa: F401  (the tests' photos)

BOX = load_box()
DECK = list(BOX.deck)
STICKERS = [StickerPayload(i + 1, kind) for i, kind in
            enumerate(k for k, n in BOX.tiles.items() for _ in range(n))]


def tray_view(layout: TableLayout | None = None, margin: float = 10.0) -> View:
    layout = layout or default_layout()
    return View.around(layout.zones["scan-tray"], margin)


def free_spot(scene: Scene, view: View, radius: float, rng: random.Random,
              tries: int = 400) -> tuple[float, float] | None:
    """A point in the view where a thing of bounding ``radius`` touches nothing else."""
    for _ in range(tries):
        x = rng.uniform(view.x + radius + 4, view.x + view.width - radius - 4)
        y = rng.uniform(view.y + radius + 4, view.y + view.height - radius - 4)
        if all(math.dist((x, y), t.center) > radius + math.hypot(*t.size) / 2 + 3
               for t in scene.things):
            return (x, y)
    return None


TILE_PER_STICKER = 1.35
"""A tile's side over its sticker's (quiet zone included)."""


def tiles_scene(px_per_module: float, count: int, seed: int,
                view: View | None = None, curl: float = 0.0) -> tuple[Scene, View]:
    """Stickered tiles scattered in a tray view, sized for ``px_per_module``, none touching;
    with ``curl``, each sticker's paper bent by up to that much (radians)."""
    rng = random.Random(seed)
    scene = Scene.table()
    view = view or tray_view(scene.layout)
    sticker_mm = sticker_mm_for(px_per_module, view)
    tile_mm = sticker_mm * TILE_PER_STICKER
    for sticker in rng.sample(STICKERS, count):
        spot = free_spot(scene, view, tile_mm * 0.75, rng)
        if spot is None:
            break
        scene.add_tile(sticker, spot, rng.uniform(-180, 180), sticker_mm=sticker_mm,
                       tile_mm=tile_mm, curl=rng.uniform(0, curl))
    return scene, view


def module_px(tile: Truth) -> float:
    """A sticker's pixels per module as the image shows it: the root of its tile's area in the
    image, over the tile's width in modules."""
    area = abs(cv2.contourArea(tile.corners.astype(np.float32)))
    return math.sqrt(area) / TILE_PER_STICKER / STICKER_MODULES


def tilted_tiles_frame(seed: int) -> Frame:
    """A still of stickered tiles under a camera tilted 23-45 degrees, each code 3-4 px per
    module in the image, blurred about 1.1 px, noisy, JPEG: where an independent set of table
    photos left codes unread."""
    rng = random.Random(900 + seed)
    wanted, tilt = rng.uniform(3.0, 4.0), rng.uniform(23, 45)
    view = replace(tray_view(margin=120.0), tilt=tilt, turn=rng.uniform(0, 360))
    scene, view = tiles_scene(wanted, 6, 500 + seed, view=view, curl=0.3)
    # a tilted view is zoomed out to keep its rectangle whole: size the stickers again by
    # what the image shows of them
    seen = [module_px(t) for t in render(scene, view, Degradation(), seed).truth
            if t.kind == "tile"]
    scene, view = tiles_scene(wanted * wanted / float(np.mean(seen)), 6, 500 + seed,
                              view=view, curl=0.3)
    degradation = Degradation(defocus=rng.uniform(0.9, 1.3), noise=rng.uniform(1, 3),
                              jpeg=rng.randint(70, 92), light=rng.uniform(0, 0.3))
    return render(scene, view, degradation, seed)


def cards_scene(count: int, seed: int, view: View | None = None,
                deck: Deck = DECKS["reference"], cards: list[Card] | None = None,
                ) -> tuple[Scene, View]:
    """Cards scattered in a view (the tray view by default), none touching anything."""
    rng = random.Random(seed)
    scene = Scene.table()
    view = view or tray_view(scene.layout, margin=60.0)
    chosen = cards or rng.sample(DECK, count)
    radius = math.hypot(*deck.size_mm) / 2
    for card in chosen:
        spot = free_spot(scene, view, radius, rng)
        if spot is None:
            break
        scene.add_card(card, spot, rng.uniform(-180, 180), deck, copy=rng.randrange(1000))
    return scene, view


# -- tables as players leave them --------------------------------------------------------------

@dataclass(frozen=True)
class CardTable:
    """A rendered table with cards of one deck among other things, and what is true of it."""

    frame: Frame
    cards: list[Truth]
    """Every card of the deck in view (a covered one too)."""
    readable: list[Truth]
    """Cards fully in view, covered by nothing, whose numbers are at least ``MIN_SYMBOL_PX``
    tall: the ones a reader must read."""
    cut: list[tuple[str, np.ndarray]] = field(default_factory=list)
    """Cards partly out of view (their codes and image corners): one may be read, rightly."""


MIN_SYMBOL_PX = 16.0


def card_table(deck: Deck, seed: int, strength: float = 0.7, max_tilt: float = 35.0,
               others: bool = True, chipped: float = 0.3) -> CardTable:
    """A table top (any surface) seen by a camera tilted up to ``max_tilt`` degrees: 3-6 cards
    of ``deck`` at any angle, sometimes one over another's corner or a chip on a card; and,
    with ``others``, things that are not the deck's cards (card backs, another game's cards
    with numbers in coloured circles, chips, notes, stickered tiles). A chip lies on a card's
    corner in a share ``chipped`` of the tables."""
    rng = random.Random(seed)
    scene = Scene.table()
    scene.surface = rng.choice(SURFACES)
    width = rng.uniform(420, 800)
    height = width * 9 / 16
    x = rng.uniform(60, scene.layout.width - width - 60)
    y = rng.uniform(60, scene.layout.height - height - 60)
    view = View(x, y, width, height, tilt=rng.uniform(0, max_tilt), turn=rng.uniform(0, 360))
    area = View(x + 40, y + 30, width - 80, height - 60)
    radius = math.hypot(*deck.size_mm) / 2
    for card in rng.sample(DECK, rng.randint(3, 6)):
        spot = free_spot(scene, area, radius * 0.8, rng)
        if spot is not None:
            scene.add_card(card, spot, rng.uniform(-180, 180), deck, copy=rng.randrange(1000))
    laid = [t for t in scene.things if t.kind == "card"]
    if laid and rng.random() < 0.4:  # a card laid over another's corner (a pile)
        under = rng.choice(laid)
        angle = under.angle + rng.uniform(-40, 40)
        offset = rng.uniform(0.5, 0.75) * deck.size_mm[1]
        direction = math.radians(rng.uniform(0, 360))
        spot = (under.center[0] + offset * math.cos(direction),
                under.center[1] + offset * math.sin(direction))
        scene.add_card(rng.choice(DECK), spot, angle, deck, copy=rng.randrange(1000))
    if laid and rng.random() < chipped:  # a chip left on a card's corner
        target = rng.choice(laid)
        corner = target.to_table() @ np.array([target.face.shape[1] * 0.05,
                                               target.face.shape[0] * 0.04, 1.0])
        scene.add_other("chip", chip(rng.choice(CHIPS)), (corner[0], corner[1]), (16, 16))
    if others:
        for _ in range(rng.randint(1, 4)):
            kind = rng.choice(["back", "other-game", "chip", "note", "tile"])
            spot = free_spot(scene, area, 55.0, rng)
            if spot is None:
                break
            angle = rng.uniform(-180, 180)
            if kind == "back":
                scene.add_other(kind, card_back(deck.size_mm, rng), spot, deck.size_mm, angle)
            elif kind == "other-game":
                scene.add_other(kind, other_game_card(rng), spot, (62, 92), angle)
            elif kind == "chip":
                scene.add_other(kind, chip(rng.choice(CHIPS)), spot, (16, 16), angle)
            elif kind == "note":
                scene.add_other(kind, note(rng), spot, (70, 70), angle)
            else:
                scene.add_tile(rng.choice(STICKERS), spot, angle, sticker_mm=25.0)
    frame = render(scene, view, Degradation.random(rng, strength), seed)
    covered = _covered(scene)
    cards = [t for t in frame.truth if t.kind == "card"]
    readable = [t for t in cards if not covered[t.index] and (t.symbol_px or 0) >= MIN_SYMBOL_PX]
    seen = {t.index for t in cards}
    cut = [(thing.label, cv2.perspectiveTransform(thing.truth_corners()[None],
                                                   frame.table_to_image @ thing.to_table())[0])
           for k, thing in enumerate(scene.things) if thing.kind == "card" and k not in seen]
    return CardTable(frame, cards, readable, cut)


CHIPS = [(40, 40, 200), (200, 90, 30), (40, 150, 40), (40, 200, 230), (30, 30, 30)]


def _covered(scene: Scene) -> list[bool]:
    """For each thing, whether something laid after it overlaps it."""
    outlines = [cv2.transform(np.array([[[0, 0], [t.face.shape[1], 0],
                                         [t.face.shape[1], t.face.shape[0]],
                                         [0, t.face.shape[0]]]], np.float64),
                              t.to_table()[:2])[0].astype(np.float32) for t in scene.things]
    return [any(cv2.intersectConvexConvex(outline, later)[0] > 1.0
                for later in outlines[k + 1:]) for k, outline in enumerate(outlines)]


def read_card_table(table: CardTable, model: CardModel) -> tuple[int, int, list[str]]:
    """A card table read as the pipeline reads a calibrated table (the table's standard card
    length): readable cards, how many were read right, and every wrong read (a read counts
    where its middle lies, on a card or not)."""
    image = table.frame.image
    h, w = image.shape[:2]
    to_table = np.linalg.inv(table.frame.table_to_image)
    middle = cv2.perspectiveTransform(np.array([[[w / 2, h / 2], [w / 2 + 1, h / 2],
                                                 [w / 2, h / 2 + 1]]]), to_table)[0]
    (ax, ay), (bx, by) = middle[1] - middle[0], middle[2] - middle[0]
    mm_per_px = math.sqrt(abs(ax * by - ay * bx))
    reads = [r for r in read_cards(image, model, CARD_SIZE[1] / mm_per_px) if r.card]
    wrong, right = [], 0
    for read in reads:
        under = [(t.label, t.corners) for t in table.cards if _inside(read.centre, t.corners)] \
            + [(label, corners) for label, corners in table.cut if _inside(read.centre, corners)]
        # a card lying on another's corner has both under its middle: the read is right when
        # one of them is of its code and lies where it does
        if not any(label == read.card.code and _same_place(read.centre, corners)
                   for label, corners in under):
            wrong.append(f"{read.card.code} read where {under[-1][0] if under else 'no card'}"
                         " lies")
    for truth in table.readable:
        right += any(r.card.code == truth.label and _inside(r.centre, truth.corners)
                     for r in reads)
    return len(table.readable), right, wrong


def _same_place(point: tuple[float, float], corners: np.ndarray) -> bool:
    """Whether ``point`` lies near the middle of the card of image ``corners``: within a
    quarter of its long side."""
    corners = np.asarray(corners, np.float64)
    long_side = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).max()
    return bool(np.linalg.norm(corners.mean(axis=0) - np.array(point)) <= long_side / 4)


def _inside(point: tuple[float, float], corners: np.ndarray) -> bool:
    return cv2.pointPolygonTest(np.asarray(corners, np.float32), point, False) >= 0


def coordinate_middles(model: CardModel, corners: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray, float]:
    """Where a card read at ``corners`` has its top and bottom coordinates' middles, and a
    coordinate's radius there (pixels)."""
    frame, _ = cv2.estimateAffinePartial2D(model.outline.astype(np.float32),
                                           np.asarray(corners, np.float32))
    top, bottom = (frame @ np.array([0.0, v, 1.0]) for v in (0.0, 1.0))
    return top, bottom, model.layout.size / 2 * float(np.linalg.norm(bottom - top))


def card_edge_over(image: np.ndarray, middle: np.ndarray, radius: float, angle: float,
                   past: float, face: tuple[int, int, int]) -> np.ndarray:
    """``image`` with another card's plain ``face`` laid over a coordinate (its ``middle``
    and ``radius``): the card's straight edge ``past`` radii from the middle towards
    ``angle`` (radians), across the number, anti-aliased as a camera sees it."""
    towards = np.array([math.cos(angle), math.sin(angle)])
    across = np.array([-towards[1], towards[0]])
    edge = middle + past * radius * towards
    quad = [edge - 4 * radius * across, edge + 4 * radius * across]
    quad += [quad[1] + 4 * radius * towards, quad[0] + 4 * radius * towards]
    covered = image.copy()
    cv2.fillConvexPoly(covered, np.array(quad, np.int32), face, cv2.LINE_AA)
    return covered
