"""Synthetic scenes with known ground truth, shared by the vision tests and the benchmark."""

from __future__ import annotations

import math
import random

from companion.box import load_box
from companion.observations import StickerPayload
from companion.rules import Card
from vision.card_art import REFERENCE_STYLE, CardStyle
from vision.layout import TableLayout, default_layout
from vision.synthetic import Scene, View, sticker_mm_for

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


def tiles_scene(px_per_module: float, count: int, seed: int,
                view: View | None = None) -> tuple[Scene, View]:
    """Stickered tiles scattered in a tray view, sized for ``px_per_module``, none touching."""
    rng = random.Random(seed)
    scene = Scene.table()
    view = view or tray_view(scene.layout)
    sticker_mm = sticker_mm_for(px_per_module, view)
    tile_mm = sticker_mm * 1.35
    for sticker in rng.sample(STICKERS, count):
        spot = free_spot(scene, view, tile_mm * 0.75, rng)
        if spot is None:
            break
        scene.add_tile(sticker, spot, rng.uniform(-180, 180), sticker_mm=sticker_mm,
                       tile_mm=tile_mm)
    return scene, view


def cards_scene(count: int, seed: int, view: View | None = None,
                style: CardStyle = REFERENCE_STYLE, cards: list[Card] | None = None,
                ) -> tuple[Scene, View]:
    """Cards scattered in a view (the tray view by default), none touching anything."""
    rng = random.Random(seed)
    scene = Scene.table()
    view = view or tray_view(scene.layout, margin=60.0)
    chosen = cards or rng.sample(DECK, count)
    radius = math.hypot(*style.size_mm) / 2
    for card in chosen:
        spot = free_spot(scene, view, radius, rng)
        if spot is None:
            break
        scene.add_card(card, spot, rng.uniform(-180, 180), style)
    return scene, view
