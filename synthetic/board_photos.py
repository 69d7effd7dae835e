"""Photos of one planet board lying alone in the scan tray, as a table's camera takes them,
with where its four coordinates lie in the photo and what they show."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from companion.rules import Planet
from synthetic.board_faces import BoardStyle
from synthetic.scene import Degradation, Scene, View, render
from synthetic.surfaces import SURFACES
from vision.layout import PLANET_BOARD


@dataclass(frozen=True)
class RenderedBoard:
    image: np.ndarray
    taps: list[tuple[float, float]]
    """Where the board's four coordinates lie in the photo (jump, scan, landing, landing)."""
    numbers: tuple[int, int, int, int]


def board_photo(planet: Planet, style: BoardStyle, seed: int, strength: float = 1.0,
                glyph_px: tuple[float, float] = (12.0, 30.0)) -> RenderedBoard:
    """The board lying alone in the scan tray, at any turn, seen by a camera at ``glyph_px``
    pixels a number (``strength``: how bad the light, blur and JPEG get, 0 for a plain
    photo)."""
    rng = random.Random(seed)
    scene = Scene.table()
    scene.surface = rng.choice(SURFACES)
    centre = (400.0, 300.0)
    thing = scene.add_board(planet, centre, rng.uniform(-180, 180), style, rng)
    size = rng.uniform(*glyph_px)  # the numbers' height in the photo
    width = 1280 / (size / style.glyph_mm)
    view = View(centre[0] - width / 2, centre[1] - width * 9 / 32, width, width * 9 / 16,
                (1280, 720), tilt=rng.uniform(0, 30) * strength, turn=rng.uniform(0, 360))
    frame = render(scene, view, Degradation.photo(rng, strength), seed)
    scale = thing.face.shape[1] / PLANET_BOARD
    places = np.array([[x * scale, y * scale, 1.0] for x, y in style.places_mm]).T
    image_points = frame.table_to_image @ thing.to_table() @ places
    taps = [(float(x / w), float(y / w)) for x, y, w in image_points.T]
    return RenderedBoard(frame.image, taps, (planet.jump, planet.scan, *planet.landing))


def random_planet(rng: random.Random, name: str = "Planet") -> Planet:
    return Planet(name, rng.randint(1, 4), rng.randint(1, 4),
                  (rng.randint(1, 4), rng.randint(1, 4)))
