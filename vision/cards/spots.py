"""Coloured spots: where a coordinate may be printed.

Whatever a deck's art, a coordinate is printed in one of its three inks and stands out from
what is right around it (a badge on a card, a number on a pale panel). A spot is a patch of one
ink, clearly more of that ink than its surroundings on average, of a coordinate's size: the
table's own colour, a card's painted sky and a wide wash of light are as much of the ink as
what is around them, and so are no spots. Most spots are not coordinates (a chip, a tile's
border, a painted moon): the reader decides, from pairs of spots placed as a card's two
coordinates are.

The image is looked at shrunk, at a scale where a coordinate is a few pixels to a few dozen
across; a photo taken close up is looked at more shrunk again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.cards.palette import COLOURS, Palette

WORK_SCALE = 0.5
"""The first working scale of an image whose coordinates' size is not known: a coordinate
12 px tall in the camera image is 6 px there, still a spot."""
WORK_PIXELS = 4e6
"""The finest working image holds this many pixels at the most: a 60-megapixel photo is
looked at as 4 (its coordinates, a card's share of it, are large), not as 15, which costs
a gigabyte."""
COARSEST_SIDE = 48
"""Smaller working images are not made (a teaching photo's coordinate is found at 1/8)."""
SPOT_PX = (3.5, 36.0)
"""A spot's size in the working image (px): smaller is noise, larger is found one scale
coarser (or is a wash of colour, not a print)."""
TARGET_PX = 24.0
"""The working size of a coordinate whose size is known (a calibrated table). Shrunk further,
a number on a narrow pale panel runs into art of its own ink beside the panel and is found as
no spot of its own (at 14 px, 8 of 137 cards on the full-bleed deck's tables)."""
SURROUNDS = (31, 11)
"""Sides of the squares around each pixel whose mean ink it must exceed (working px), each
looked at apart: about twice the largest spot, so a badge's own ink does not hide it; and
about a small number's size, so a patch of the same ink beside it does not. A third look
compares each pixel with the ink that a square of the first side, lying over it, shows
everywhere (an opening): a thin number on a pale badge in a card's corner, with a table of its
ink right beside it, stands out of the table's ink only in that look."""
LEVEL = 0.3
"""How much more of its ink than its surroundings a pixel must show, and how much of the
ink itself (a fraction of the deck's typical chroma): faint enough for coordinates in dim
light."""
DARKER = 25
FAINT_LEVEL = 0.15
"""A pixel this much darker (Lab lightness, 8-bit) than the mean of the smaller surround, and
of an ink at least this much (half ``LEVEL``), is marked too: a thin number on a pale panel,
blurred, is faint in its ink and stands out of art of that ink beside the panel only by its
darkness (another generator's corner-index decks: 94.5 -> 96.7 % of cards found and read on
one, 97.9 -> 98.7 % on another)."""
PIXEL_ANGLE = 35.0
"""A pixel is of an ink only when its colour's direction is within this many degrees of the
ink's (a purple nebula beside a blue badge is not blue)."""
FINE_PX = 24.0
"""The largest spot looked for at the finer scale of an image whose coordinates' size is not
known: a coordinate 12-24 px tall in the camera image, printed thin (a corner index, a ``?``
in two pieces), is pieces too small to be spots at the first scale; larger ones are found
whole there (looked for finer, a large one's number is found without its bar, off its
middle). (Another generator's decks, four sets of 30 photos: 5 cards at 17-19 px read that
were not, none lost, none read wrongly.)"""
FINE_PIXELS = 1.5e6
"""The finer look's image holds this many pixels at the most: a table camera's frame
(1280x720) is looked at whole, a 1080p one at 0.85; a larger photo, whose coordinates are
larger, is not looked at finer (a 4-megapixel look costs about a quarter of a gigabyte)."""
PIECE = 0.5
"""Pieces joined are each at most this part of the largest spot."""
MOST_JOINED = 60
"""Joined spots made from one image's patches of one ink at the most."""
MOST_PIECES = 1000
"""Patches of one ink looked at for pieces to join, at the most: a table's photos have a few
hundred, noise tens of thousands (each pair is compared: 1000 make 8 MB a measure)."""
MOST_SPOTS = 600
"""Spots kept in one image at the most (a busy painting or cloth makes hundreds)."""
CANDIDATES = 4000
"""Spots found at all scales that are sorted into distinct ones, at the most: a table's
photos give up to about 400, a photo of noise tens of thousands."""
TWIN_BLOCK = 256
"""Spots compared with all the others at once, when finding twins (256 x 4000 pairs take
8 MB)."""
SAME_SPOT = 0.25
"""Spots of one ink whose centres are closer than this part of their size, and of about one
size, are one spot found twice."""


@dataclass(frozen=True)
class Spot:
    x: float
    y: float
    """The centre (image pixels): the mean of the spot's pixels."""
    size: float
    """Its extent along its longest axis (image pixels)."""
    colour: str
    """``B``, ``G`` or ``O``."""
    area: float = 0.0
    spread: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Its pixels' count and second moments (xx, yy, xy), in image pixels: what two pieces
    of one coordinate make together."""

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    def extent_along(self, towards: tuple[float, float]) -> float:
        """Its extent along the direction to the point ``towards`` (image pixels): a camera's
        slant shortens a card's two coordinates' distance apart along the card, and each
        coordinate's extent along it alike, not its longest axis. ``size`` where the spot
        has no spread, or the point is its centre. (``extents_along`` for one spot, in plain
        numbers: teaching's views ask it tens of thousands of times.)"""
        dx, dy = towards[0] - self.x, towards[1] - self.y
        length = math.hypot(dx, dy)
        if not any(self.spread) or length <= 0:
            return self.size
        ux, uy = dx / length, dy / length
        xx, yy, xy = self.spread
        return 4.0 * math.sqrt(max(xx * ux ** 2 + yy * uy ** 2 + 2 * xy * ux * uy, 0.0))


def extents_along(spreads: np.ndarray, sizes: np.ndarray, dx: np.ndarray, dy: np.ndarray
                  ) -> np.ndarray:
    """``Spot.extent_along`` at once, for spots' spreads (N x 3, broadcast against the
    directions ``dx``, ``dy``) and sizes."""
    length = np.hypot(dx, dy)
    with np.errstate(invalid="ignore", divide="ignore"):
        ux, uy = dx / length, dy / length
    variance = spreads[..., 0] * ux ** 2 + spreads[..., 1] * uy ** 2 \
        + 2 * spreads[..., 2] * ux * uy
    spread = spreads.any(axis=-1) & (length > 0)
    return np.where(spread, 4.0 * np.sqrt(np.maximum(np.nan_to_num(variance), 0.0)), sizes)


def find_spots(bgr: np.ndarray, palette: Palette, symbol_px: float | None = None,
               first_scale: float = WORK_SCALE, hue: float = PIXEL_ANGLE,
               coarser: int = 7, fine: bool = False) -> list[Spot]:
    """Spots of the palette's inks in ``bgr``, larger ones first. ``symbol_px``: a coordinate's
    size where the cards lie, when known (one working scale then suffices). ``first_scale``:
    the finest working scale (an image already shrunk is looked at less shrunk). ``hue``: how
    near its ink's hue a pixel must be (degrees: nearer than the table's camera needs, in a
    photo taken to teach). ``coarser``: how many working scales at the most after the first
    (each half the one before). ``fine``: where ``symbol_px`` is not known, small spots are
    looked for at twice the first scale too (``FINE_PX``), as far as ``FINE_PIXELS``
    allows."""
    height, width = bgr.shape[:2]
    if min(height, width) < 8:
        return []
    largest: dict[float, float] = {}
    if symbol_px is not None:
        scales = [min(1.0, TARGET_PX / max(symbol_px, 1.0))]
    else:
        scales = [min(first_scale, math.sqrt(WORK_PIXELS / (height * width)))]
        while min(height, width) * scales[-1] / 2 >= COARSEST_SIDE and \
                len(scales) <= coarser:
            scales.append(scales[-1] / 2)
        finer = min(1.0, 2 * scales[0], math.sqrt(FINE_PIXELS / (height * width)))
        if fine and finer > scales[0]:
            scales.insert(0, finer)
            largest[finer] = FINE_PX
    found: list[Spot] = []
    image, done = bgr, 1.0
    for scale in scales:
        # each working image from the one before (shrinking the camera image once)
        image = cv2.resize(image, None, fx=scale / done, fy=scale / done,
                           interpolation=cv2.INTER_AREA) if scale < done else image
        done = min(done, scale)
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
        found += _spots_at(lab, _ink_table(palette, hue), scale, last=scale == scales[-1],
                           largest=largest.get(scale))
    return _distinct(found)


INK_UNIT = 64
"""Inks are kept as bytes: 64 is a deck's typical chroma (inks up to four times it fit)."""


def _spots_at(lab: np.ndarray, table: np.ndarray, scale: float, last: bool,
              largest: float | None = None) -> list[Spot]:
    """The spots of an image shrunk by ``scale`` (in Lab), in the full image's pixels
    (``table``: each a/b's ink, see ``_ink_table``), up to ``largest`` working pixels when
    given."""
    # each pixel's ink, in the channel of the one ink its colour is (looked up by its a/b,
    # to two units)
    index = (lab[..., 1] >> 1).astype(np.uint16) << 7 | (lab[..., 2] >> 1)
    own = np.take(table, index, axis=0)
    level = int(round(LEVEL * INK_UNIT))
    inked = own > level
    sizes = (SPOT_PX[0], largest if largest is not None
             else SPOT_PX[1] if not last else max(lab.shape[:2]) / 3)
    closing = np.ones((3, 3), np.uint8)
    surrounds = [cv2.boxFilter(own, -1, (side, side), borderType=cv2.BORDER_REFLECT)
                 for side in SURROUNDS]
    wide = cv2.getStructuringElement(cv2.MORPH_RECT, (SURROUNDS[0], SURROUNDS[0]))
    surrounds.append(cv2.morphologyEx(own, cv2.MORPH_OPEN, wide, borderType=cv2.BORDER_REFLECT))
    marks = [(inked & (cv2.subtract(own, surround) > level)).view(np.uint8)
             for surround in surrounds]
    # a number's strokes that are faintly of an ink but plainly darker than what is right
    # around them: a thin, blurred number on a pale panel, beside art of its own ink
    light = lab[..., 0]
    darker = cv2.subtract(cv2.boxFilter(light, -1, (SURROUNDS[1], SURROUNDS[1]),
                                        borderType=cv2.BORDER_REFLECT), light) > DARKER
    faint = own > int(round(FAINT_LEVEL * INK_UNIT))
    marks.append((faint & darker[..., None]).view(np.uint8))
    groups: list[tuple[list[np.ndarray], str]] = []
    for marked in marks:
        # each ink's channel closed apart, in one call rather than three
        closed = cv2.split(cv2.morphologyEx(marked, cv2.MORPH_CLOSE, closing))
        for k, mask in enumerate(closed):
            if not cv2.countNonZero(mask):  # no ink of this colour marked: nothing to outline
                continue
            # every patch's outer boundary, those inside another's hole too (a badge on a
            # card lying on a table of its ink)
            outlines, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP,
                                                   cv2.CHAIN_APPROX_SIMPLE)
            if hierarchy is not None:
                groups.append(([c for c, h in zip(outlines, hierarchy[0]) if h[3] < 0],
                               COLOURS[k]))
    return _described(groups, scale, sizes)


@lru_cache(maxsize=8)
def _ink_table(palette: Palette, hue: float) -> np.ndarray:
    """For every a/b pair (OpenCV's 8-bit Lab halved: index a // 2 * 128 + b // 2), its ink
    along each colour in ``INK_UNIT`` (16384 x 3 bytes): a pixel's ink counts only in the
    channel of the ink nearest its colour, and only when its colour is within
    ``hue`` degrees of that ink's."""
    a, b = np.meshgrid(np.arange(1.0, 256, 2) - 128, np.arange(1.0, 256, 2) - 128,
                       indexing="ij")
    along = a[..., None] * palette.units[:, 0] + b[..., None] * palette.units[:, 1]
    nearest = np.argmax(along, axis=2)
    best = np.take_along_axis(along, nearest[..., None], axis=2)[..., 0]
    on_hue = (best > 0) & (best >= math.cos(math.radians(hue)) * np.hypot(a, b))
    table = np.zeros((128, 128, 3), np.uint8)
    chroma = np.array(palette.chroma)
    rows, cols = np.nonzero(on_hue)
    # a pixel's ink is its colour's reach along the ink's hue, over the ink's own chroma
    ink = best[rows, cols] / chroma[nearest[rows, cols]] * INK_UNIT
    table[rows, cols, nearest[rows, cols]] = np.clip(np.round(ink), 0, 255)
    return table.reshape(-1, 3)


def _described(groups: list[tuple[list[np.ndarray], str]], scale: float,
               sizes: tuple[float, float]) -> list[Spot]:
    """Each outlined patch of ink of a spot's size as a spot, group by group (``groups``:
    the outlines of one ink's mask each, with that ink), and each group's pieces joined
    (``_joined``). All groups' boxes and moments are worked out at once, not a group or an
    outline at a time in Python: a read's image has a dozen groups, teaching's views of one
    deck over a hundred thousand outlines."""
    kept = [[outline for outline in outlines if len(outline) >= 3] for outlines, _ in groups]
    every = [outline for outlines in kept for outline in outlines]
    if not every:
        return []
    x0, y0, x1, y1, moments = _outline_moments(every)
    longest = np.maximum(x1 - x0, y1 - y0) + 1
    m00, m10, m01, m20, m11, m02 = moments
    sized = (longest >= sizes[0] * 0.6) & (longest <= sizes[1] * 1.2) & (m00 >= 2)
    found: list[Spot] = []
    start = 0
    for outlines, (_, colour) in zip(kept, groups):
        out = []
        for k in start + np.nonzero(sized[start:start + len(outlines)])[0]:
            area = float(m00[k])
            # the central moments as ``cv2.moments`` works them out, to the last bit
            inverse = 1.0 / area
            mu20 = float(m20[k] - m10[k] * (m10[k] * inverse))
            mu11 = float(m11[k] - m10[k] * (m01[k] * inverse))
            mu02 = float(m02[k] - m01[k] * (m01[k] * inverse))
            sxx, syy = mu20 / area + 1 / 12, mu02 / area + 1 / 12
            sxy = mu11 / area
            extent = 4.0 * math.sqrt((sxx + syy) / 2 + math.hypot((sxx - syy) / 2, sxy))
            if not sizes[0] <= extent <= sizes[1]:
                continue
            cx, cy = float(m10[k]) / area, float(m01[k]) / area
            out.append(Spot((cx + 0.5) / scale - 0.5, (cy + 0.5) / scale - 0.5, extent / scale,
                            colour, area / scale ** 2,
                            (sxx / scale ** 2, syy / scale ** 2, sxy / scale ** 2)))
        start += len(outlines)
        found += out + _joined(out, sizes[1] / scale)
    return found


_SIXTH, _TWELFTH, _TWENTY_FOURTH = (0.16666666666666666666666666666667,
                                    0.083333333333333333333333333333333,
                                    0.041666666666666666666666666666667)
"""The factors ``cv2.moments`` scales a polygon's sums by (its own rounding of them)."""


def _outline_moments(outlines: list[np.ndarray]
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    """For outlines of three points or more (``findContours``' integer points): each one's
    least and greatest x and y, and its moments m00, m10, m01, m20, m11 and m02 as
    ``cv2.moments`` gives them (the same sums over its edges, in whole numbers, so the same
    to the last bit), none where its area is none."""
    lengths = np.array([len(outline) for outline in outlines])
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    points = np.concatenate(outlines).reshape(-1, 2).astype(np.int64)
    x, y = points[:, 0], points[:, 1]
    before = np.arange(len(x)) - 1  # each point's predecessor round its own outline
    before[starts] = starts + lengths - 1
    xb, yb = x[before], y[before]
    cross = xb * y - x * yb
    xs, ys = xb + x, yb + y
    sums = [np.add.reduceat(term, starts).astype(np.float64)
            for term in (cross, cross * xs, cross * ys, cross * (xb * xs + x * x),
                         cross * (xb * (ys + yb) + x * (ys + y)), cross * (yb * ys + y * y))]
    sign = np.where(sums[0] > 0, 1.0, -1.0)
    moments = [total * (factor * sign) for total, factor in
               zip(sums, (0.5, _SIXTH, _SIXTH, _TWELFTH, _TWENTY_FOURTH, _TWELFTH))]
    return (np.minimum.reduceat(x, starts), np.minimum.reduceat(y, starts),
            np.maximum.reduceat(x, starts), np.maximum.reduceat(y, starts), moments)


def _joined(spots: list[Spot], largest: float) -> list[Spot]:
    """Two pieces of one ink close together, as one spot too: a ring broken where it is
    thinnest, a number and the bar under it."""
    if len(spots) < 2:
        return []
    if len(spots) > MOST_PIECES:  # noise, not print: the largest pieces only
        spots = sorted(spots, key=lambda s: -s.size)[:MOST_PIECES]
    x, y, size, area = (np.array([getattr(s, name) for s in spots])
                        for name in ("x", "y", "size", "area"))
    spread = np.array([s.spread for s in spots])
    gap = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    larger = np.maximum(size[:, None], size[None, :])
    near = np.triu((gap <= 0.8 * larger) & (gap >= 0.2 * larger)
                   & (larger <= PIECE * largest), 1)
    first, second = np.nonzero(near)
    if len(first) == 0:
        return []
    if len(first) > MOST_JOINED:  # a painting's speckles: the closest pieces only
        closest = np.argsort(gap[first, second] / larger[first, second])[:MOST_JOINED]
        first, second = first[closest], second[closest]
    a, b = area[first], area[second]
    total = a + b
    mx = (x[first] * a + x[second] * b) / total
    my = (y[first] * a + y[second] * b) / total
    # second moments of the two together, about their common centre
    sxx = (a * (spread[first, 0] + (x[first] - mx) ** 2)
           + b * (spread[second, 0] + (x[second] - mx) ** 2)) / total
    syy = (a * (spread[first, 1] + (y[first] - my) ** 2)
           + b * (spread[second, 1] + (y[second] - my) ** 2)) / total
    sxy = (a * (spread[first, 2] + (x[first] - mx) * (y[first] - my))
           + b * (spread[second, 2] + (x[second] - mx) * (y[second] - my))) / total
    extent = 4.0 * np.sqrt((sxx + syy) / 2 + np.hypot((sxx - syy) / 2, sxy))
    colour = spots[0].colour
    return [Spot(float(mx[k]), float(my[k]), float(extent[k]), colour, float(total[k]),
                 (float(sxx[k]), float(syy[k]), float(sxy[k])))
            for k in np.nonzero(extent <= largest)[0]]


def ink_colour(bgr: np.ndarray, spot: Spot) -> tuple[float, float, float] | None:
    """A spot's colour (Lab a, b and lightness, 8-bit): the mean of its most coloured pixels
    (its rim is blurred into what surrounds it), where teaching learns a deck's inks from. None
    when the spot lies off the image."""
    half = max(1, int(round(spot.size / 2)))
    x, y = int(round(spot.x)), int(round(spot.y))
    patch = bgr[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1]
    if patch.size == 0:
        return None
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float64)
    a, b = lab[:, 1] - 128, lab[:, 2] - 128
    chroma = np.hypot(a, b)
    core = chroma >= np.percentile(chroma, 75)
    return (float(a[core].mean()), float(b[core].mean()), float(lab[core, 0].mean()))


def _distinct(spots: list[Spot]) -> list[Spot]:
    """One spot where several levels and scales found the same one (the first found kept:
    the finer scale, the fainter level); at most ``MOST_SPOTS``, larger ones first. Of more
    than ``CANDIDATES`` (noise, not a table), the larger ones only are looked at, and the
    spots are compared a block at a time: the work and the memory grow with the spots, not
    with their square."""
    if not spots:
        return []
    if len(spots) > CANDIDATES:
        spots = [spots[k] for k in sorted(np.argsort([-s.size for s in spots],
                                                      kind="stable")[:CANDIDATES])]
    xs = np.array([s.x for s in spots])
    ys = np.array([s.y for s in spots])
    sizes = np.array([s.size for s in spots])
    colours = np.array([COLOURS.index(s.colour) for s in spots])
    # a spot is kept where no spot found before it and kept is its twin: each block of
    # spots is compared with those before its end only
    kept = np.zeros(len(spots), bool)
    for start in range(0, len(spots), TWIN_BLOCK):
        stop = min(start + TWIN_BLOCK, len(spots))
        rows, before = slice(start, stop), slice(0, stop)
        larger = np.maximum(sizes[rows, None], sizes[None, before])
        twins = ((colours[rows, None] == colours[None, before])
                 & (np.hypot(xs[rows, None] - xs[None, before],
                             ys[rows, None] - ys[None, before]) < SAME_SPOT * larger)
                 & (larger < 1.5 * np.minimum(sizes[rows, None], sizes[None, before])))
        twins[:, start:] &= np.tri(stop - start, k=-1, dtype=bool)  # earlier ones only
        kept[rows] = True
        for k in np.nonzero(twins.any(axis=1))[0]:  # in order: its twins are settled
            kept[start + k] = not (twins[k] & kept[before]).any()
    return sorted((s for s, keep in zip(spots, kept) if keep), key=lambda s: -s.size
                  )[:MOST_SPOTS]
