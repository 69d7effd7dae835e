"""Planet boards: a print taught from one photo of each of a box's boards, then boards read in
photos a table's camera takes. Three prints unlike each other (``synthetic.board_faces``; the
``corners`` print was never tuned on); the boards' numbers are drawn from ``BOARD_SEED``."""

from __future__ import annotations

import os
import random
import statistics
import time

from companion.rules import Planet
from synthetic.board_faces import BOARD_STYLES
from synthetic.board_photos import board_photo, random_planet
from vision.boards import BoardPhoto, read_board, teach_boards

BOARDS = 8
"""A box's planet boards."""
PHOTOS_EACH = 6
"""Photos read of each board: half of them in a plain light, half as bad as a table gets."""


def box_planets(rng: random.Random) -> list[Planet]:
    """A box's boards: every number 1-4 printed on some board, as on a real box."""
    while True:
        planets = [random_planet(rng, f"Planet {k + 1}") for k in range(BOARDS)]
        if {n for p in planets for n in (p.jump, p.scan, *p.landing)} == {1, 2, 3, 4}:
            return planets


def bench_boards(report) -> None:
    seed = int(os.environ.get("BOARD_SEED", "4409"))
    for name, style in BOARD_STYLES.items():
        planets = box_planets(random.Random(seed))
        photos = []
        for k, planet in enumerate(planets):
            photo = board_photo(planet, style, seed + k, strength=0.3, glyph_px=(30.0, 40.0))
            photos.append(BoardPhoto(planet.name, photo.image, tuple(photo.taps),
                                     photo.numbers))
        start = time.perf_counter()
        taught = teach_boards(photos)
        seconds = time.perf_counter() - start
        right, wrong, times = 0, 0, []
        for k, planet in enumerate(planets):
            for j in range(PHOTOS_EACH):
                photo = board_photo(planet, style, seed + 1000 + PHOTOS_EACH * k + j,
                                    strength=0.5 if j % 2 else 1.0)
                start = time.perf_counter()
                read = read_board(photo.image, taught.board)
                times.append(1000 * (time.perf_counter() - start))
                if read.complete:
                    got = (read.jump, read.scan, *read.landing)  # type: ignore[misc]
                    right += got == photo.numbers
                    wrong += got != photo.numbers
        total = BOARDS * PHOTOS_EACH
        report(f"boards '{name}', taught from {taught.photos} photos: read at the table",
               100 * right / total, "%", "-", True)
        report("  wrong reads", wrong, "reads", "0", wrong == 0)
        report("  teaching photos not read back", len(taught.unread), "photos", "-", True)
        report("  teaching time", seconds, "s", "-", True)
        report("  one board read, 1280x720 (median)", statistics.median(times), "ms", "-", True)
