"""Signs of another game: a teaching card with a coordinate's number replaced by a sign the
deck does not print, for the network to learn as "nothing".

Shown only the deck's own numbers and what lies around them (the card's art, the table, a
coordinate cut askew), a network names any sign in a coordinate's badge as the nearest of the
deck's numbers: another game's 7 in a disc of the deck's ink was read as the deck's "?" at
0.99. Here a coordinate's number is taken out of a teaching photo and a sign of another game
(a 5 to 9, a 0, a letter) drawn in its place: upright as the number stands, as tall, as thick
and in its ink. What the badge is, its rim, the card's art stay as printed, so the views teach
the network the numbers' own shapes.

The number is taken out by the deck's other coordinates of its ink: each coordinate is seen
upright, at one size; where a number's strokes lie, most of the others show the badge's plain
ground (a 2, a 3 and a "?" may share their top arc, hardly four numbers of five one place), so
the ground is the lighter (or darker) of what they show there, as the numbers are darker (or
lighter) than their ground. That ground, in this photo's light, covers the number's strokes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.cards.palette import COLOURS, Palette
from vision.cards.pose import PATCH, Pose, Pyramid, patch_matrix
from vision.cards.views import NOTHING, STROKE, Deck, Layout, Source

SIGNS = "056789CEFHKNPRSUX"
"""Signs drawn: none of 1 to 4 or a question mark, nor one like them (an I or an l is a 1 in
many fonts, a Z a 2, an A a 4)."""
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX)
CANVAS = 96
"""Pixels a side of the upright square a coordinate is edited in."""
MIDDLE = 0.45
"""A coordinate's number lies within this part of the coordinate's size from its middle."""
LEAST_INK = 0.5
"""A number's strokes cover at least this many of its stroke times its coordinate's size
(pixels), or no number was found."""


GROUND = 0.85
"""The ground under a number's strokes: the coordinates of its ink at this share of their
lightness, counted from the numbers' side (a stroke is where fewer show it)."""
FEWEST = 4
"""Coordinates of one ink needed to take a number out (of at least three numbers)."""


@dataclass(frozen=True)
class _Upright:
    """A coordinate of a teaching photo seen upright, at one size (``CANVAS`` pixels)."""

    source: int
    which: int
    canvas: np.ndarray
    to_image: np.ndarray
    """3 x 3: canvas pixels to the photo's."""


def foreign_sources(sources: list[Source], layout: Layout, count: int,
                    rng: np.random.Generator) -> list[Source]:
    """Up to ``count`` copies of teaching sources with one of their coordinates' numbers (or
    both) replaced by a sign of another game, each named ``NOTHING``."""
    size = CANVAS * layout.size / max(layout.sides)
    by_ink: dict[str, list[_Upright]] = {}
    for k, source in enumerate(sources):
        for which in (0, 1):
            by_ink.setdefault(source.colours[which], []).append(_upright(source, k, which,
                                                                          layout))
    grounds = {ink: _ground(coordinates, [sources[c.source].labels[c.which]
                                          for c in coordinates], size)
               for ink, coordinates in by_ink.items()}
    usable = [c for ink, coordinates in by_ink.items() if grounds[ink] is not None
              for c in coordinates]
    out: list[Source] = []
    for k in rng.permutation(len(usable))[:count]:
        chosen = usable[k]
        source = sources[chosen.source]
        image = source.pyramid.level(0).copy()
        ground, darker, shifts = grounds[source.colours[chosen.which]]  # type: ignore[misc]
        # the ground where this coordinate's canvas lies
        back = cv2.invertAffineTransform(shifts[by_ink[source.colours[chosen.which]]
                                                .index(chosen)])
        ground = cv2.warpAffine(ground, back, (CANVAS, CANVAS), borderMode=cv2.BORDER_REPLICATE)
        edited = _signed(chosen.canvas, ground, darker, size, rng)
        if edited is None:
            continue
        _put_back(image, edited, chosen.to_image, MIDDLE * size)
        labels = [source.labels[0], source.labels[1]]
        labels[chosen.which] = NOTHING
        out.append(replace(source, pyramid=Pyramid(image), labels=(labels[0], labels[1])))
    return out


def _upright(source: Source, index: int, which: int, layout: Layout) -> _Upright:
    to_patch = np.array([[PATCH / CANVAS, 0.0, 0.5 * PATCH / CANVAS - 0.5],
                         [0.0, PATCH / CANVAS, 0.5 * PATCH / CANVAS - 0.5], [0.0, 0.0, 1.0]])
    to_image = patch_matrix(source.pose, (0.0, float(which)), layout.sides[which],
                            which == 1 and layout.bottom_turned) @ to_patch
    canvas = cv2.warpPerspective(source.pyramid.level(0), to_image, (CANVAS, CANVAS),
                                 flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_REPLICATE)
    return _Upright(index, which, canvas, to_image)


def _ground(coordinates: list[_Upright], numbers: list[str], size: float
            ) -> tuple[np.ndarray, bool, list[np.ndarray]] | None:
    """The plain ground of an ink's coordinates (a canvas), whether their numbers are darker
    than it, and where each coordinate's canvas lies on it (a shift, 2 x 3: a spot's middle
    moves with its number's shape, a 1's from a 4's); None with too few coordinates, or
    numbers, to tell."""
    if len(coordinates) < FEWEST or len(set(numbers)) < 3:
        return None
    light = [cv2.cvtColor(c.canvas, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
             for c in coordinates]
    middle_look = np.median(np.array(light), axis=0)
    window = cv2.createHanningWindow((CANVAS, CANVAS), cv2.CV_32F)
    shifts = []
    for look in light:
        # a copy each time: OpenCV 5.0's phaseCorrelate lays the window on its inputs in
        # place, so the middle look would be windowed again with every coordinate
        (dx, dy), _ = cv2.phaseCorrelate(middle_look.copy(), look, window)
        shifts.append(np.array([[1.0, 0.0, -dx], [0.0, 1.0, -dy]]))
    stack = np.array([cv2.warpAffine(c.canvas, shift, (CANVAS, CANVAS),
                                     borderMode=cv2.BORDER_REPLICATE)
                      for c, shift in zip(coordinates, shifts)])
    light = np.array([cv2.cvtColor(canvas, cv2.COLOR_BGR2LAB)[..., 0] for canvas in stack],
                     np.float32)
    inside = _disc(MIDDLE * size)
    # a number covers less of its coordinate's middle than the ground does: its strokes are
    # the pixels far from their coordinate's usual lightness, pulling its mean off its
    # median towards their side
    shown = light[:, inside]
    darker = float((shown.mean(axis=1) - np.median(shown, axis=1)).sum()) < 0
    # each pixel from the coordinate whose lightness stands at GROUND from the numbers' side
    rank = int(round((GROUND if darker else 1 - GROUND) * (len(stack) - 1)))
    chosen = np.argsort(light, axis=0, kind="stable")[rank]
    ground = np.take_along_axis(stack, chosen[None, :, :, None], axis=0)[0]
    return ground, darker, shifts


def _disc(radius: float) -> np.ndarray:
    ys, xs = np.mgrid[0:CANVAS, 0:CANVAS]
    middle = (CANVAS - 1) / 2
    return np.hypot(xs - middle, ys - middle) <= radius


def _signed(canvas: np.ndarray, ground: np.ndarray, darker: bool, size: float,
            rng: np.random.Generator) -> np.ndarray | None:
    """The canvas with its number covered by the ground (in the canvas's light) and a sign
    drawn where the number stood: as tall, as thick, in its ink. None where no number
    shows."""
    inside = _disc(MIDDLE * size)
    light = cv2.cvtColor(canvas, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
    plain = cv2.cvtColor(ground, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
    standing = (plain - light) if darker else (light - plain)
    level = max(12.0, 0.4 * float(np.percentile(standing[inside], 99)))
    strokes = (standing > level) & inside
    if strokes.sum() < LEAST_INK * STROKE * size * size:
        return None
    # the ground in this photo's light: each channel's gain where no stroke lies
    stroke = max(2.0, STROKE * size)
    near = cv2.dilate(strokes.astype(np.uint8), cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (int(stroke) | 1, int(stroke) | 1))).astype(bool)
    bare = inside & ~near
    if bare.sum() < 20:
        return None
    gains = (canvas[bare].astype(np.float32).mean(axis=0) + 1) / \
        (ground[bare].astype(np.float32).mean(axis=0) + 1)
    lit = np.clip(ground * gains, 0, 255)
    ink = np.median(canvas[strokes], axis=0)
    rows, cols = np.nonzero(strokes)
    height = float(np.ptp(rows) + 1)
    centre = ((cols.min() + cols.max()) / 2, (rows.min() + rows.max()) / 2)
    thickness = max(1, int(round(2 * cv2.distanceTransform(strokes.astype(np.uint8),
                                                           cv2.DIST_L2, 3).max())))
    sign = SIGNS[int(rng.integers(len(SIGNS)))]
    font = FONTS[int(rng.integers(len(FONTS)))] | \
        (cv2.FONT_ITALIC if rng.random() < 0.2 else 0)
    (_, tall), _ = cv2.getTextSize(sign, font, 1.0, thickness)
    scale = height / max(tall, 1)
    (width, tall), _ = cv2.getTextSize(sign, font, scale, thickness)
    drawn = np.zeros(canvas.shape[:2], np.uint8)
    origin = (int(round(centre[0] - width / 2)), int(round(centre[1] + tall / 2)))
    cv2.putText(drawn, sign, origin, font, scale, 255, thickness, cv2.LINE_AA)
    alpha = drawn.astype(np.float32)[..., None] / 255
    cover = cv2.GaussianBlur(near.astype(np.float32), (0, 0), 1.0)[..., None]
    covered = canvas * (1 - cover) + lit * cover
    return (covered * (1 - alpha) + ink * alpha).astype(np.uint8)


def _put_back(image: np.ndarray, edited: np.ndarray, to_image: np.ndarray,
              radius: float) -> None:
    """The edited canvas laid back into ``image`` (in place), within ``radius`` canvas
    pixels of its middle, its edge blended."""
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0], [CANVAS, 0], [CANVAS, CANVAS], [0, CANVAS]]], np.float64),
        to_image)[0]
    height, width = image.shape[:2]
    left, top = np.floor(corners.min(axis=0)).astype(int) - 1
    right, bottom = np.ceil(corners.max(axis=0)).astype(int) + 2
    left, top = max(left, 0), max(top, 0)
    right, bottom = min(right, width), min(bottom, height)
    if right <= left or bottom <= top:
        return
    shift = np.array([[1.0, 0.0, -left], [0.0, 1.0, -top], [0.0, 0.0, 1.0]]) @ to_image
    size = (int(right - left), int(bottom - top))
    laid = cv2.warpPerspective(edited, shift, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    disc = np.zeros((CANVAS, CANVAS), np.float32)
    middle = (CANVAS - 1) / 2
    cv2.circle(disc, (int(round(middle)), int(round(middle))), int(math.ceil(radius)), 1.0,
               -1, cv2.LINE_AA)
    disc = cv2.GaussianBlur(disc, (0, 0), 1.5)
    weight = cv2.warpPerspective(disc, shift, size, flags=cv2.INTER_LINEAR)[..., None]
    region = image[top:bottom, left:right].astype(np.float32)
    image[top:bottom, left:right] = (region * (1 - weight) + laid * weight).astype(np.uint8)


SHAPES = ("disc", "ring", "hexagon", "square", "bare")
"""Another game's badges: a disc of ink with a pale sign, a ring of ink around a pale middle,
a hexagon, a rounded square, or the sign alone printed in ink."""
OTHER_SPACING = 120.0
"""Pixels between another game's card's two badges, as drawn."""


def other_game_sources(sources: list[Source], deck: Deck, count: int,
                       rng: np.random.Generator) -> list[Source]:
    """``count`` cards of another game drawn in the deck's inks: two badges placed as the
    deck's two coordinates are (so the reader pairs and cuts them as a card's), each with a
    sign no card of the deck shows, on a plain card on a plain table. Their badges are named
    ``NOTHING``."""
    d = OTHER_SPACING
    corners = deck.outline * d
    low = corners.min(axis=0) - 0.3 * d
    high = corners.max(axis=0) + 0.3 * d
    width, height = (high - low).astype(int) + 1
    top = -low
    out = []
    for _ in range(count):
        canvas = _plain(width, height, rng)
        face = corners + top
        mask = np.zeros(canvas.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, face.astype(np.int32), 255, cv2.LINE_AA)
        alpha = mask.astype(np.float32)[..., None] / 255
        canvas = (canvas * (1 - alpha) + _plain(width, height, rng) * alpha).astype(np.uint8)
        colours = sources[int(rng.integers(len(sources)))].colours
        for k, ink in enumerate(colours):
            _badge(canvas, (float(top[0]), float(top[1] + k * d)),
                   0.5 * deck.layout.size * d * rng.uniform(0.85, 1.15),
                   _ink_bgr(deck.palette, ink, rng), rng)
        out.append(Source(Pyramid(canvas), Pose((float(top[0]), float(top[1])), (0.0, d)),
                          (NOTHING, NOTHING), colours))
    return out


def _plain(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A ground with no sign on it (a table, a card's face): a colour, light falling across
    it, and a soft texture. (Never a piece of a teaching photo: its coordinates would be
    taught as nothing.)"""
    colour = rng.uniform(15, 240) * rng.uniform(0.8, 1.2, 3)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    slope = rng.uniform(0, 0.4) * ((xs / width - 0.5) * math.cos(angle)
                                   + (ys / height - 0.5) * math.sin(angle))
    grain = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0),
                             rng.uniform(1, 12))
    grain *= rng.uniform(0, 25) / max(float(grain.std()), 1e-6)
    ground = colour[None, None, :] * (1 + slope[..., None]) + grain[..., None]
    return np.clip(ground, 0, 255).astype(np.uint8)


def _ink_bgr(palette: Palette, ink: str, rng: np.random.Generator) -> np.ndarray:
    """An ink of the palette as a printer of another game has it (BGR)."""
    k = COLOURS.index(ink)
    angle = math.radians(palette.angles[k] + rng.uniform(-10, 10))
    chroma = palette.chroma[k] * rng.uniform(0.75, 1.25)
    lab = np.array([[[rng.uniform(35, 75) * 255 / 100, 128 + chroma * math.cos(angle),
                      128 + chroma * math.sin(angle)]]])
    return cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)[0, 0] \
        .astype(np.float64)


def _badge(canvas: np.ndarray, centre: tuple[float, float], radius: float, ink: np.ndarray,
           rng: np.random.Generator) -> None:
    """A badge of another game, in place: a shape of ``SHAPES`` in ``ink`` with a sign."""
    shape = SHAPES[int(rng.integers(len(SHAPES)))]
    pale = np.array([rng.uniform(200, 255)] * 3) * rng.uniform(0.9, 1.0, 3)
    dark = np.array([rng.uniform(10, 70)] * 3)
    x, y = centre
    shift = 4
    at = (int(round(x * 16)), int(round(y * 16)))
    r = int(round(radius * 16))
    sign_colour = pale
    if shape == "disc":
        cv2.circle(canvas, at, r, ink.tolist(), -1, cv2.LINE_AA, shift)
    elif shape == "ring":
        cv2.circle(canvas, at, r, ink.tolist(), -1, cv2.LINE_AA, shift)
        cv2.circle(canvas, at, int(r * rng.uniform(0.6, 0.75)), pale.tolist(), -1,
                   cv2.LINE_AA, shift)
        sign_colour = dark
    elif shape == "hexagon":
        turn = rng.uniform(0, math.pi / 3)
        points = [(x + radius * math.cos(turn + k * math.pi / 3),
                   y + radius * math.sin(turn + k * math.pi / 3)) for k in range(6)]
        cv2.fillConvexPoly(canvas, (np.array(points) * 16).astype(np.int32), ink.tolist(),
                           cv2.LINE_AA, shift)
    elif shape == "square":
        half = radius * 0.85
        box = np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                        [x - half, y + half]])
        cv2.fillConvexPoly(canvas, (box * 16).astype(np.int32), ink.tolist(), cv2.LINE_AA,
                           shift)
    else:
        sign_colour = ink
    sign = SIGNS[int(rng.integers(len(SIGNS)))]
    font = FONTS[int(rng.integers(len(FONTS)))] | \
        (cv2.FONT_ITALIC if rng.random() < 0.2 else 0)
    tall_px = radius * (rng.uniform(1.4, 1.8) if shape == "bare" else rng.uniform(0.8, 1.2))
    thickness = max(1, int(round(tall_px * rng.uniform(0.1, 0.18))))
    (_, tall), _ = cv2.getTextSize(sign, font, 1.0, thickness)
    scale = tall_px / max(tall, 1)
    (width, tall), _ = cv2.getTextSize(sign, font, scale, thickness)
    cv2.putText(canvas, sign, (int(round(x - width / 2)), int(round(y + tall / 2))), font,
                scale, sign_colour.tolist(), thickness, cv2.LINE_AA)
