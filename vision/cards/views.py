"""Teaching photos seen as a table's camera sees cards: the views a deck is learned from.

A teaching photo is sharp, close and upright; at the table the same card is 12 to 60 pixels a
coordinate, turned any way, seen at a slant, out of focus, noisy, compressed, in another light.
Each view re-photographs a teaching card that way: the photo is warped to the view's size,
turn and slant, then the camera's faults are added. Then the reader's own spot finder looks at
the view, and the patches are cut from the spots it finds, as it cuts them at the table (a
coordinate's spot a little off its centre, broken or joined to a label beside it), so the
reader learns from exactly what it will be shown:

- each coordinate's patch, named by its number;
- patches that show no coordinate: two spots of the view that are not the card's two
  coordinates, a coordinate cut off-centre or at the wrong size, or turned, the card's art or
  the table, named "nothing".

Views of one size share their camera's faults in one image (a mosaic of views), to keep
teaching within seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from vision.cards.cores import in_processes, side_by_side
from vision.cards.palette import Palette
from vision.cards.pose import (HALVINGS, PATCH, Pose, Pyramid, level_of, on_card_only,
                               patch_matrix, sample, turned)
from vision.cards.spot_looks import describe_spots
from vision.cards.spots import WORK_SCALE, Spot, find_spots

SMALLEST_PX = 11.0
LARGEST_PX = 66.0
"""Coordinate sizes the views are made at (camera pixels): from a whole table seen at 1280 x
720 to a card held close."""
MAX_SLANT = 40.0
"""How far from straight above a view may look (degrees)."""
STROKE = 0.085
"""A number's stroke as a part of its coordinate's size, about (for how far blur may go)."""
MAX_BLUR = 0.5
"""Blur up to this part of a stroke: the number is still there to read."""
JITTER = 0.07
"""How far off (a part of the coordinate's size) the reader finds a coordinate's centre."""
GROUP = 16
"""Views made at one size share their camera's faults, in one image."""
FOUND = 0.5
"""A spot this near a coordinate's centre (a part of its size) is the finder's find of it."""
SHOWS = (0.5, 20.0, 0.7, 1.45)
"""A patch shows a coordinate when its centre is at most this far off the coordinate's (a
part of its size), it is turned at most this much (degrees) and its scale is within these."""
NOT_SHOWN = (0.75, 32.0, 0.55, 1.85)
"""It shows nothing when it is at least this far off, turned, or scaled."""
MARGIN = 0.08
"""The table shown around a card in its view (a part of the card's size)."""
GAP = 8
"""Pixels between views in a mosaic."""
TRIES = 20
"""Pairs of a view's spots tried for one that is not its coordinates but spaced as they are."""
OTHERS = 4
"""Spots not on a coordinate described in each view, to learn what a coordinate's is not."""
NOTHING = "nothing"
COVERED = 0.4
"""The share of views in which something covers part of a coordinate: another card (a pile)
or a chip left on the card. A number with a sliver of its badge cut off, or half of it, was
read as another where too few views showed one: the own decks' teaching photos with another
card's edge across a coordinate (``make bench``'s 720 views a deck), each deck taught from
three seeds, were read wrongly 3, 7 and 11 times in the four decks' 2880 views at 0.25, and
0, 3 and 5 times at this share; another generator's fifteen decks read as many cards (1251
of 1259 of 16 px or more, not 1252; 356 of 361 at 16-24 px, not 354), and teaching took
as long."""
CHIPS = 0.4
"""Of those, the share covered by a round piece rather than another card."""
ART_LINES = 0.3
"""The share of the other views in which a line of the card's art (a planet's ring, a
horizon, a frame) passes beside a coordinate, the line's middle between ``ART_LINE_REACH``
of its radii from the coordinate's (its edge at most an eighth of a radius nearer): taught
as no cover. In cardgen's corner style, seed 4848, a ring arc passing a badge was judged a
card's edge over it and three clear G3/O3 cards of 35 to 58 px were left unsure; so
taught, the style read 95.9 % of its cards of 16 px or more, not 91.8 %."""
ART_LINE_REACH = (1.05, 2.2)
COVER_SEEN = 0.05
"""A coordinate covered this much of its disc or more is taught to the cover judge as
covered."""
HIDDEN_CUTS = 2
HIDDEN_REACH = 0.4
"""A coordinate mostly covered (``COVER_NOTHING``) is also cut this many times, up to this
far off its spot (a part of its size) and a little larger or smaller, each named nothing:
the reader, looking for a number around what is left of one, framed the last stroke of a
half-hidden 3 as a plain 1."""
GROUND_FACES = 0.3
"""The share of covering cards of the coordinate's ground colour."""
COVER_CONTEXT = 2.0
"""The cover judge sees each coordinate's patch and one this many times as wide, on the card
only (``on_card_only``: what lies past the card's edge made plain; seeing the teaching photos'
table past it, the judge found clear cards of another generator's corner style, their numbers
by the card's corners, partly covered on wooden and dark tables): a card of
the badge's own colour over half a number shows no edge in the patch (the fullbleed deck's
3 under a white card's edge is a plain 1 there), only in the badge's outline cut off
beside it. With these covers taught, ``HIDDEN_CUTS`` and this, the bench's teaching photos
with another card's edge across a coordinate were read wrongly 4 times in 2856 views, not
22 in 2880, and the own decks' tables read 587 of 601 cards, not 588."""
COVER_READ = 0.2
COVER_NOTHING = 0.45
"""A coordinate covered less than ``COVER_READ`` of its disc is still its number; more than
``COVER_NOTHING``, nothing (a badge half under another card is not read); in between, its
patches teach neither."""


@dataclass(frozen=True)
class Source:
    """A teaching card as views are made of it."""

    pyramid: Pyramid
    pose: Pose
    """Its two coordinates in the photo."""
    labels: tuple[str, str]
    """What its top and bottom coordinates' patches are named."""
    colours: tuple[str, str]
    """Its top and bottom coordinates' colours."""
    beside: tuple[tuple[np.ndarray, tuple[float, float], tuple[str, str]], ...] = ()
    """Other pairs of coordinates printed beside these (a planet board prints two pairs):
    each pair's two centres in this pair's frame (2 x 2), its patch sides in its own frame and
    its names. A patch cut on one of them is named by what it shows there, not nothing."""


@dataclass(frozen=True)
class Layout:
    """What views need of a deck's print, in the card's frame (see ``pose``)."""

    sides: tuple[float, float]
    """Each coordinate's patch side."""
    size: float
    """A coordinate's size (the larger of the two)."""
    bottom_turned: bool
    """The bottom coordinate is printed half round (read turned back)."""


@dataclass
class Views:
    patches: np.ndarray
    """N x PATCH x PATCH x 3."""
    labels: list[str]
    """What each patch shows: a coordinate's number, or ``NOTHING``."""
    ratios: list[tuple[float, float]]
    """For each view whose two coordinates the spot finder found: each spot's extent along
    the line between the two, over their distance apart (what the reader must expect of a
    card's spots)."""
    missed: list[int]
    """Sources of the views in which the spot finder did not find both coordinates."""
    pairs: list[tuple[int, int, int]]
    """For each view whose coordinates were found: its two patches and its source."""
    spots: list[np.ndarray]
    """Descriptions (``spot_looks``) of spots the finder found in the views, a block of rows
    for each group of views ..."""
    spots_coordinate: list[bool]
    """... and whether each is a coordinate's."""
    cover_patches: list[np.ndarray] = field(default_factory=list)
    """Coordinates' patches cut as the reader cuts them, whole or partly covered, each with
    its wider patch (``COVER_CONTEXT``) ..."""
    cover_contexts: list[np.ndarray] = field(default_factory=list)
    covered: list[bool] = field(default_factory=list)
    """... and whether something covers part of each (``COVER_SEEN``)."""


@dataclass(frozen=True)
class Deck:
    """What views need of a deck's print, as taught so far."""

    layout: Layout
    palette: Palette
    outline: np.ndarray
    """The card's corners in its frame (4 x 2)."""


def make_views(sources: list[Source], deck: Deck, per_source: int, seed: int,
               smallest: float = SMALLEST_PX, covered: float = COVERED,
               banded: float = 0.0) -> Views:
    """``per_source`` views of each source, cut into patches as the reader cuts them, with
    coordinates from ``smallest`` to ``LARGEST_PX`` pixels, a share ``covered`` of them
    with a coordinate partly under another card, a share ``banded`` in a flickering lamp's
    bands. Groups of views are made side by side, one a core, each from its own random
    numbers (the views are the same on any machine, in worker processes or in threads):
    in worker processes where the machine gives them, as a third of the work holds the
    interpreter."""
    rng = np.random.default_rng(seed)
    order = [k for k in range(len(sources)) for _ in range(per_source)]
    rng.shuffle(order)
    groups = [order[start:start + GROUP] for start in range(0, len(order), GROUP)]
    seeds = rng.integers(0, 2 ** 63, size=(len(groups), 2))
    tasks = list(zip(groups, seeds))
    images, parts = _shareable(sources)
    made = in_processes(_rebuilt, images, (parts, deck, (smallest, covered, banded)),
                        _group_of, tasks)
    if made is None:
        made = side_by_side(lambda task: _group(sources, deck, *task, smallest, covered,
                                                banded), tasks)
    views = Views(np.zeros((0, PATCH, PATCH, 3), np.uint8), [], [], [], [], [], [])
    patches: list[np.ndarray] = []
    for part in made:
        views.pairs += [(top + len(patches), bottom + len(patches), index)
                        for top, bottom, index in part.pairs]
        patches += list(part.patches)
        for name in ("labels", "ratios", "missed", "spots", "spots_coordinate",
                     "cover_patches", "cover_contexts", "covered"):
            getattr(views, name).extend(getattr(part, name))
    views.patches = np.array(patches, np.uint8).reshape(-1, PATCH, PATCH, 3)
    return views


def _shareable(sources: list[Source]) -> tuple[list[np.ndarray], list[tuple[Any, ...]]]:
    """The sources as worker processes are given them (``in_processes``): every level of
    each one's pyramid (made now, all: a view may draw a card from any), and for each source
    where its levels start and the rest of it."""
    images: list[np.ndarray] = []
    parts: list[tuple[Any, ...]] = []
    for source in sources:
        parts.append((len(images), source.pose, source.labels, source.colours, source.beside))
        images += [source.pyramid.level(k) for k in range(HALVINGS + 1)]
    return images, parts


def _rebuilt(images: list[np.ndarray], given: tuple[Any, ...]
             ) -> tuple[list[Source], Deck, tuple[float, float, float]]:
    """In a worker: the sources, the deck and the views' settings, from ``_shareable``."""
    parts, deck, settings = given
    sources = [Source(Pyramid.of_levels(images[first:first + HALVINGS + 1]), *rest)
               for first, *rest in parts]
    return sources, deck, settings


def _group_of(prepared: tuple[list[Source], Deck, tuple[float, float, float]],
              task: tuple[list[int], np.ndarray]) -> Views:
    """In a worker: one group's views (``_group``)."""
    sources, deck, (smallest, covered, banded) = prepared
    return _group(sources, deck, *task, smallest, covered, banded)


def _group(sources: list[Source], deck: Deck, group: list[int], seeds: np.ndarray,
           smallest: float, covered: float, banded: float) -> Views:
    """One group's views (``GROUP`` of them, sharing their camera's faults in one image),
    ``make_views``' way."""
    rng = np.random.default_rng(int(seeds[0]))
    aside = np.random.default_rng(int(seeds[1]))
    views = Views(np.zeros((0, PATCH, PATCH, 3), np.uint8), [], [], [], [], [], [])
    patches: list[np.ndarray] = []
    size = math.exp(rng.uniform(math.log(smallest), math.log(LARGEST_PX)))
    # a large coordinate is read from a halved image (``pose.sample``): the view is made
    # at that level, with the camera's faults as halving leaves them
    level = level_of(size * max(deck.layout.sides) / deck.layout.size / PATCH)
    shown = size / 2 ** level
    faults = _Faults.draw(rng, size, banded).halved(level)
    drawn = [_whole_card(sources[k], deck, _view(rng, shown / deck.layout.size),
                         faults.reach) for k in group]
    # the covers' and hidden numbers' own choices, apart from the views' stream
    own = np.random.default_rng([int(seeds[0]), 1])
    looks = [_covered(rng, own, drawn, k, sources[index].labels, shown)
             if rng.random() < covered else (sources[index].labels, (0.0, 0.0))
             for k, index in enumerate(group)]
    for (tile, to_tile), (_, shares) in zip(drawn, looks):  # (their own random numbers)
        if not any(shares) and aside.random() < ART_LINES:
            _art_line(aside, tile, to_tile, shown / 2)
    mosaic, origins = _mosaic([tile for tile, _ in drawn])
    seen = faults.apply(rng, mosaic, origins, [tile.shape for tile, _ in drawn])
    # the spots as the reader finds them in the camera's whole image (the view is made
    # ``level`` times halved)
    spots = find_spots(seen, deck.palette, first_scale=min(1.0, WORK_SCALE * 2 ** level),
                       coarser=0)
    pyramid = Pyramid(seen)
    # the spots the spot judge learns from, described at once after the loop: a view's
    # handful at a time, the description's fixed cost was most of its work
    described: list[Spot] = []
    for index, (tile, to_tile), origin, (named, shares) in zip(group, drawn, origins, looks):
        to_mosaic = np.array([[1, 0, origin[0]], [0, 1, origin[1]], [0, 0, 1]]) @ to_tile
        mine = [s for s in spots if origin[0] <= s.x < origin[0] + tile.shape[1]
                and origin[1] <= s.y < origin[1] + tile.shape[0]]
        cuts, coordinates, paired = _cuts(rng, own, deck, sources[index], named, to_mosaic,
                                          mine, shown, views)
        others = [s for s in mine if s not in coordinates]
        chosen = coordinates + [others[k] for k in rng.permutation(len(others))[:OTHERS]]
        described += chosen
        views.spots_coordinate += [s in coordinates for s in chosen]
        if paired:
            views.pairs.append((len(patches), len(patches) + 1, index))
        else:
            views.missed.append(index)
        for matrix, label in cuts:
            patches.append(sample(pyramid, matrix))
            views.labels.append(label)
        # each coordinate as the reader cuts it, a little off, half covered included (its
        # own generator: the numbers' lessons stay as they were)
        ends = _through(to_mosaic, np.array([[0.0, 0.0], [0.0, 1.0]]))
        ends = ends + aside.normal(0, JITTER * shown, ends.shape)
        cut = Pose.between(tuple(ends[0]), tuple(ends[1]))
        for matrix, wide, share in zip(coordinate_matrices(cut, deck.layout),
                                       coordinate_matrices(cut, deck.layout, COVER_CONTEXT),
                                       shares):
            views.cover_patches.append(sample(pyramid, matrix))
            views.cover_contexts.append(on_card_only(sample(pyramid, wide), wide, cut,
                                                     deck.outline))
            views.covered.append(share >= COVER_SEEN)
    if described:
        views.spots.append(describe_spots(pyramid, described))
    views.patches = np.array(patches, np.uint8).reshape(-1, PATCH, PATCH, 3)
    return views


def _cuts(rng: np.random.Generator, own: np.random.Generator, deck: Deck, source: Source,
          labels: tuple[str | None, str | None], to_mosaic: np.ndarray, spots: list[Spot],
          size: float, views: Views) -> tuple[list[tuple[np.ndarray, str]], list[Spot], bool]:
    """The patches one view gives (patch-to-mosaic matrices, with their names): its two
    coordinates cut from the spots the finder found on them (none when it missed one), and
    patches cut elsewhere. Each patch is named by what it shows: a coordinate, when it is cut
    nearly as that coordinate's own patch is (near its centre, its way up, its size); nothing,
    when it is clearly not; a patch in between is left out (no lesson either way). Also the
    spots found on the coordinates, and whether the first two patches are the coordinates as
    the reader cuts them from those spots. ``own``: the random numbers of the cuts of a
    number mostly hidden, apart from the others'."""
    layout = deck.layout
    centres = _through(to_mosaic, np.array([[0.0, 0.0], [0.0, 1.0]]))
    true_pose = Pose.between(tuple(centres[0]), tuple(centres[1]))
    ideals = [(patch_matrix(true_pose, (0.0, 0.0), layout.sides[0]), labels[0]),
              (patch_matrix(true_pose, (0.0, 1.0), layout.sides[1], layout.bottom_turned),
               labels[1])]
    for ends, sides, names in source.beside:
        other = _through(to_mosaic, ends)
        other_pose = Pose.between(tuple(other[0]), tuple(other[1]))
        ideals += [(patch_matrix(other_pose, (0.0, 0.0), sides[0]), names[0]),
                   (patch_matrix(other_pose, (0.0, 1.0), sides[1]), names[1])]
    found = []
    for (x, y), colour in zip(centres, source.colours):
        near = [(math.hypot(s.x - x, s.y - y), s) for s in spots if s.colour == colour]
        near = [item for item in near if item[0] <= FOUND * size]
        found.append(min(near, key=lambda item: item[0])[1] if near else None)
    cuts: list[np.ndarray] = []
    pose = true_pose
    if found[0] is not None and found[1] is not None and found[0] is not found[1]:
        pose = Pose.between(found[0].centre, found[1].centre)
        views.ratios.append((found[0].extent_along(found[1].centre) / pose.length,
                             found[1].extent_along(found[0].centre) / pose.length))
        # as found, and found a little further off (another camera, another light)
        ends = np.array([found[0].centre, found[1].centre])
        ends += rng.normal(0, JITTER * size, ends.shape)
        cuts += coordinate_matrices(pose, layout) + coordinate_matrices(
            Pose.between(tuple(ends[0]), tuple(ends[1])), layout)
    # two spots that are not the card's two coordinates, cut as a card's (a label under a
    # badge, a painted moon, a coordinate and a bit of art)
    for _ in range(TRIES):
        if len(spots) < 2:
            break
        first, second = rng.choice(len(spots), 2, replace=False)
        a, b = spots[first], spots[second]
        if not (a is found[0] and b is found[1]) and \
                0.5 < math.hypot(b.x - a.x, b.y - a.y) / pose.length < 2.0:
            cuts += coordinate_matrices(Pose.between(a.centre, b.centre), layout)
            break
    # a coordinate cut off-centre, or at the wrong size
    which = int(rng.integers(2))
    centre = np.array([0.0, float(which)])
    side = layout.sides[which]
    if rng.random() < 0.6:
        angle = rng.uniform(0, 2 * math.pi)
        centre = centre + rng.uniform(0.6, 1.0) * layout.size * \
            np.array([math.cos(angle), math.sin(angle)])
    else:
        side *= rng.uniform(0.4, 0.55) if rng.random() < 0.5 else rng.uniform(1.8, 2.2)
    cuts.append(patch_matrix(pose, tuple(centre), side, which == 1 and layout.bottom_turned))
    # what is left of a coordinate mostly hidden, cut as the reader may frame it when it
    # looks for a number there (``reader._centred``): a stroke left may look like a 1
    for which in (0, 1):
        if labels[which] == NOTHING:
            for _ in range(HIDDEN_CUTS):
                angle = own.uniform(0, 2 * math.pi)
                centre = np.array([0.0, float(which)]) + own.uniform(0, HIDDEN_REACH) * \
                    layout.size * np.array([math.cos(angle), math.sin(angle)])
                cuts.append(patch_matrix(pose, tuple(centre),
                                         layout.sides[which] * own.uniform(0.75, 1.3),
                                         which == 1 and layout.bottom_turned))
    # a coordinate turned (two spots across two cards may frame one so)
    which = int(rng.integers(2))
    turn = rng.choice([-1.0, 1.0]) * rng.uniform(math.radians(NOT_SHOWN[1]), math.pi)
    cuts.append(turned(patch_matrix(pose, (0.0, float(which)), layout.sides[which],
                                     which == 1 and layout.bottom_turned), turn))
    # the card's art or the table, anywhere, at any turn
    point = np.array([rng.uniform(-1.0, 1.0), rng.uniform(-0.7, 1.7)])
    cuts.append(turned(patch_matrix(pose, tuple(point), layout.sides[int(rng.integers(2))]),
                        rng.uniform(0, 2 * math.pi)))
    named = []
    placed = [(_placing(ideal), label) for ideal, label in ideals]
    for matrix in cuts:
        label = _shown(matrix, placed, size)
        if label is not None:
            named.append((matrix, label))
    paired = len(named) >= 2 and len(cuts) >= 2 and named[0][0] is cuts[0] and \
        named[1][0] is cuts[1] and named[0][1] == labels[0] and \
        named[1][1] == labels[1] and pose is not true_pose
    return named, [s for s in found if s is not None], paired


def coordinate_matrices(pose: Pose, layout: Layout, zoom: float = 1.0) -> list[np.ndarray]:
    """A frame's two patches' matrices (3 x 3, patch pixels to the image's), as the reader
    cuts them (``zoom`` times as wide)."""
    return [patch_matrix(pose, (0.0, 0.0), layout.sides[0] * zoom),
            patch_matrix(pose, (0.0, 1.0), layout.sides[1] * zoom, layout.bottom_turned)]


Placing = tuple[float, float, float, float]
"""Where a patch's middle lies (x, y), how it is turned (radians) and scaled."""


def _shown(matrix: np.ndarray, ideals: list[tuple[Placing, str | None]], size: float
           ) -> str | None:
    """What a patch shows, against the coordinates' own patches (``ideals``, where each
    lies, named None when half covered): a coordinate's number, ``NOTHING``, or None when it
    is neither clearly."""
    x, y, angle, scale = _placing(matrix)
    unclear = False
    for (ix, iy, ideal_angle, ideal_scale), label in ideals:
        off = math.hypot(x - ix, y - iy) / size
        turn = abs((angle - ideal_angle + math.pi) % (2 * math.pi) - math.pi)
        ratio = scale / ideal_scale
        if off <= SHOWS[0] and turn <= math.radians(SHOWS[1]) and \
                SHOWS[2] <= ratio <= SHOWS[3]:
            return label
        if off < NOT_SHOWN[0] and turn < math.radians(NOT_SHOWN[1]) and \
                NOT_SHOWN[2] < ratio < NOT_SHOWN[3]:
            unclear = True
    return None if unclear else NOTHING


def _placing(matrix: np.ndarray) -> Placing:
    """A patch's ``Placing``, from its matrix's affine part (as plain numbers: a deck's
    views weigh a quarter of a million cuts so)."""
    (a, b, c), (d, e, f) = matrix[:2].tolist()
    middle = (PATCH - 1) / 2
    return (a * middle + b * middle + c, d * middle + e * middle + f, math.atan2(d, a),
            math.sqrt(abs(a * e - b * d)))


def view_area(deck: Deck) -> float:
    """A view's pixels on average, about (the card's outline at a coordinate's middling size
    and the table around it): what making views of a deck costs."""
    middle = math.sqrt(SMALLEST_PX * LARGEST_PX)
    shown = middle / 2 ** level_of(middle * max(deck.layout.sides) / deck.layout.size / PATCH)
    corners = deck.outline * (shown / deck.layout.size)
    extent = (corners.max(axis=0) - corners.min(axis=0)) * (1 + 2 * MARGIN)
    return float(extent[0] * extent[1])


def _view(rng: np.random.Generator, scale: float) -> np.ndarray:
    """3 x 3: the card's frame to a view's pixels: ``scale`` pixels a frame unit, turned any
    way, seen at a slant (one direction shortened) with a little perspective."""
    turn = rng.uniform(0, 2 * math.pi)
    slant = math.radians(min(MAX_SLANT, abs(rng.normal(0, 20))))
    towards = rng.uniform(0, math.pi)
    short = math.cos(slant)
    squeeze = _rotation(towards) @ np.diag([math.sqrt(short), 1 / math.sqrt(short)]) \
        @ _rotation(-towards)
    view = np.eye(3)
    view[:2, :2] = scale * _rotation(turn) @ squeeze
    view[2, :2] = rng.normal(0, 0.03, 2) * math.sin(slant) / scale
    return view


def _whole_card(source: Source, deck: Deck, view: np.ndarray, reach: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """The view of the whole card and some of the table around it, drawn from the teaching
    photo: the tile, and the matrix from the card's frame to the tile's pixels."""
    corners = _through(view, deck.outline)
    extent = float((corners.max(axis=0) - corners.min(axis=0)).max())
    low = np.floor(corners.min(axis=0) - MARGIN * extent - reach)
    high = np.ceil(corners.max(axis=0) + MARGIN * extent + reach)
    width, height = (high - low).astype(int) + 1
    shift = np.array([[1, 0, -low[0]], [0, 1, -low[1]], [0, 0, 1]])
    to_tile = shift @ view
    photo_to_frame = np.linalg.inv(np.vstack([source.pose.matrix, [0, 0, 1]]))
    photo_to_tile = to_tile @ photo_to_frame
    # a level of the photo where the view shrinks it at most twofold (no aliasing)
    scale = math.sqrt(abs(np.linalg.det(photo_to_tile[:2, :2])))
    level = 0
    while scale * 2 ** level < 0.5 and level < HALVINGS:
        level += 1
    from_level = np.diag([2.0 ** level, 2.0 ** level, 1.0])
    from_level[:2, 2] = (2 ** level - 1) / 2
    tile = cv2.warpPerspective(source.pyramid.level(level), photo_to_tile @ from_level,
                               (int(width), int(height)), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
    return tile, to_tile


def _covered(rng: np.random.Generator, own: np.random.Generator,
             drawn: list[tuple[np.ndarray, np.ndarray]], k: int, labels: tuple[str, str],
             size: float
             ) -> tuple[tuple[str | None, str | None], tuple[float, float]]:
    """Something laid over one of view ``k``'s coordinates (drawn into its tile), across
    its disc or just beside it: another card's edge or corner, or a round piece (a chip, a
    probe) of any colour. The coordinates' names as they are then shown: a number partly
    hidden may look like another (a 3 under a chip's corner, like a 4), so it is taught as
    its own only while little of it is hidden, as nothing when much is. Also how much of each
    coordinate's disc is covered."""
    tile, to_tile = drawn[k]
    which = int(rng.integers(2))
    centre = _through(to_tile, np.array([[0.0, float(which)]]))[0]
    radius = size / 2
    height, width = tile.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    disc = np.hypot(xs - centre[0], ys - centre[1]) <= radius
    unseen = False
    if rng.random() < CHIPS:
        over = _chip(rng, tile, centre, radius, xs, ys)
    else:
        over, unseen = _card_edge(rng, own, drawn, tile, centre, radius, disc, xs, ys)
    share = float((over & disc).sum()) / max(1, int(disc.sum()))
    # a cover the patch cannot tell from the ground does not teach the number: what is left
    # of it is another number's shape with nothing to show it is cut
    name: str | None = labels[which] if share < (COVER_SEEN if unseen else COVER_READ) \
        else NOTHING if share > COVER_NOTHING else None
    names = (name, labels[1]) if which == 0 else (labels[0], name)
    return names, ((share, 0.0) if which == 0 else (0.0, share))


def _art_line(rng: np.random.Generator, tile: np.ndarray, to_tile: np.ndarray,
              radius: float) -> None:
    """A line of the card's own art drawn beside one of the coordinates in ``tile``: straight
    or an arc, thin, light or of any colour, its nearest point ``ART_LINE_REACH`` radii from
    the coordinate's middle."""
    which = float(rng.integers(2))
    centre = _through(to_tile, np.array([[0.0, which]]))[0]
    nearest = radius * rng.uniform(*ART_LINE_REACH)
    angle = rng.uniform(0, 2 * math.pi)
    towards = np.array([math.cos(angle), math.sin(angle)])
    colour = (tuple(float(c) for c in rng.uniform(170, 255, 3)) if rng.random() < 0.6
              else tuple(float(c) for c in rng.uniform(0, 255, 3)))
    width = max(1, int(round(radius * rng.uniform(0.08, 0.25))))
    shift = 4  # subpixel bits
    if rng.random() < 0.5:  # an arc: a large circle whose rim passes ``nearest`` away
        bend = radius * rng.uniform(3, 12)
        middle = centre + towards * (nearest + bend)
        cv2.circle(tile, tuple(int(v * 2 ** shift) for v in middle), int(bend * 2 ** shift),
                   colour, width, cv2.LINE_AA, shift)
    else:
        foot = centre + towards * nearest
        along = np.array([-towards[1], towards[0]]) * 4 * radius
        ends = [tuple(int(v * 2 ** shift) for v in foot + sign * along) for sign in (-1, 1)]
        cv2.line(tile, ends[0], ends[1], colour, width, cv2.LINE_AA, shift)


def _card_edge(rng: np.random.Generator, own: np.random.Generator,
               drawn: list[tuple[np.ndarray, np.ndarray]], tile: np.ndarray,
               centre: np.ndarray, radius: float, disc: np.ndarray, xs: np.ndarray,
               ys: np.ndarray) -> tuple[np.ndarray, bool]:
    """Another card (or a tile, a chip's box) over the tile near ``centre``: its straight
    edge, or one of its corners (two edges at a right angle); its face another view's
    picture, one flat colour, or (``GROUND_FACES`` of them, drawn from ``own``, so that the
    other views stay as they were) the coordinate's own ground with no edge to see: a white
    card over a white badge. What it covers, and whether it is of the ground's colour
    (``disc``: the coordinate's)."""
    angle = rng.uniform(0, 2 * math.pi)
    edges = 1 if rng.random() < 0.5 else 2
    beyond = np.ones(tile.shape[:2], bool)
    rim = np.zeros(tile.shape[:2], bool)
    width = rng.uniform(0.5, 1.5)
    for k in range(edges):
        normal = np.array([math.cos(angle + k * math.pi / 2),
                           math.sin(angle + k * math.pi / 2)])
        away = rng.uniform(-0.3, 1.1)  # the edge's distance from the centre, in radii
        along = (xs - centre[0]) * normal[0] + (ys - centre[1]) * normal[1] - away * radius
        beyond &= along > 0
        rim |= np.abs(along) < width
    ground = np.median(tile[disc], axis=0) if disc.any() else None
    if rng.random() < 0.5:
        other = drawn[int(rng.integers(len(drawn)))][0]
        face = cv2.resize(other, (tile.shape[1], tile.shape[0]), interpolation=cv2.INTER_AREA)
        tile[beyond] = face[beyond]
    else:
        tile[beyond] = rng.uniform(0, 255, 3).astype(np.uint8)
    shade = rng.uniform(0.3, 0.8)
    if ground is not None and own.random() < GROUND_FACES:
        tile[beyond] = np.clip(ground + own.normal(0, 8, 3), 0, 255).astype(np.uint8)
        return beyond, True
    edge = rim & cv2.dilate(beyond.view(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    tile[edge] = (tile[edge] * shade).astype(np.uint8)
    return beyond, False


def _chip(rng: np.random.Generator, tile: np.ndarray, centre: np.ndarray, radius: float,
          xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """A round piece over the tile near ``centre`` (a coordinate's middle, of ``radius``):
    any colour, a rim a little lighter or darker, a shadow on one side. What it covers."""
    chip_radius = radius * rng.uniform(0.8, 2.2)  # the chip's own radius
    angle = rng.uniform(0, 2 * math.pi)
    # from the coordinate's middle to the chip's: from a little over it to just beside it
    away = (radius + chip_radius) * rng.uniform(0.35, 1.05)
    middle = centre + away * np.array([math.cos(angle), math.sin(angle)])
    fall = rng.uniform(0, 2 * math.pi)
    shift = 0.12 * chip_radius * np.array([math.cos(fall), math.sin(fall)])
    shadow = np.hypot(xs - middle[0] - shift[0], ys - middle[1] - shift[1]) <= chip_radius
    tile[shadow] = (tile[shadow] * rng.uniform(0.35, 0.7)).astype(np.uint8)
    reach = np.hypot(xs - middle[0], ys - middle[1])
    over = reach <= chip_radius
    colour = rng.uniform(15, 235, 3)
    tile[over] = colour.astype(np.uint8)
    rim = over & (reach >= chip_radius * rng.uniform(0.7, 0.85))
    tile[rim] = np.clip(colour * rng.uniform(0.6, 1.4), 0, 255).astype(np.uint8)
    return over


def _mosaic(tiles: list[np.ndarray]) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Tiles laid in rows on one image (``GAP`` pixels apart), and where each one's first
    pixel lies."""
    width = max(512, max(t.shape[1] for t in tiles))
    origins, x, y, row = [], 0, 0, 0
    for tile in tiles:
        h, w = tile.shape[:2]
        if x + w > width:
            x, y, row = 0, y + row + GAP, 0
        origins.append((x, y))
        x, row = x + w + GAP, max(row, h)
    mosaic = np.zeros((y + row, width, 3), np.uint8)
    for tile, (x, y) in zip(tiles, origins):
        mosaic[y:y + tile.shape[0], x:x + tile.shape[1]] = tile
    return mosaic, origins


@dataclass(frozen=True)
class _Faults:
    """A camera's faults, drawn once for a group of views."""

    gain: float
    cast: np.ndarray
    slope: float
    gamma: float
    blur: float
    motion: np.ndarray | None
    noise: float
    quality: int
    glare: bool
    sleeve: bool
    bands: tuple[float, float, float] | None = None
    """A lamp's flicker caught by a rolling shutter: light banded along the camera's rows
    (amplitude, period in pixels, phase)."""

    @property
    def reach(self) -> float:
        """How far around a patch its pixels affect it (blur)."""
        return 4.0 + 3.0 * self.blur

    @classmethod
    def draw(cls, rng: np.random.Generator, size: float, banded: float = 0.0) -> _Faults:
        motion = None
        if rng.random() < 0.35:
            length, angle = rng.uniform(1.0, 2.5), rng.uniform(0, math.pi)
            kernel = np.zeros((9, 9), np.float32)
            dx, dy = length / 2 * math.cos(angle), length / 2 * math.sin(angle)
            cv2.line(kernel, (int(round((4 - dx) * 8)), int(round((4 - dy) * 8))),
                     (int(round((4 + dx) * 8)), int(round((4 + dy) * 8))), 1.0, 1,
                     cv2.LINE_AA, shift=3)
            motion = kernel / kernel.sum()
        stroke = STROKE * size
        return cls(gain=rng.uniform(0.75, 1.1),
                   cast=_light(rng),
                   slope=rng.uniform(0, 0.5), gamma=rng.uniform(0.85, 1.2),
                   blur=rng.uniform(0.3, max(0.35, MAX_BLUR * stroke)), motion=motion,
                   noise=rng.uniform(1.0, 6.0), quality=int(rng.integers(50, 96)),
                   glare=rng.random() < 0.1, sleeve=rng.random() < 0.15,
                   bands=(rng.uniform(0.05, 0.3), rng.uniform(6.0, 80.0),
                          rng.uniform(0, 2 * math.pi))
                   if banded > 0 and rng.random() < banded else None)

    def halved(self, levels: int) -> _Faults:
        """The faults as an image halved ``levels`` times shows them: blur shrunk with the
        image (and the halving's own smoothing added), noise mostly averaged away, JPEG's
        blocks a little smoothed (a better quality stands for that)."""
        if levels == 0:
            return self
        bands = None if self.bands is None else \
            (self.bands[0], self.bands[1] / 2 ** levels, self.bands[2])
        return replace(self, blur=math.hypot(self.blur / 2 ** levels, 0.4), bands=bands,
                       motion=None if self.motion is None or levels > 1 else self.motion,
                       noise=self.noise * 0.3 ** levels,
                       quality=min(95, self.quality + 15 * levels))

    def apply(self, rng: np.random.Generator, image: np.ndarray,
              origins: list[tuple[int, int]], shapes: list[tuple[int, ...]]) -> np.ndarray:
        """The faults on a mosaic of tiles: light (a level, a cast, a slope across each tile,
        sometimes a lamp's glare or a sleeve's sheen), blur (focus, a shake), sensor noise and
        JPEG."""
        curve = (255.0 * (np.arange(256) / 255.0) ** self.gamma).astype(np.uint8)
        light = np.full(image.shape[:2], self.gain, np.float32)
        glare = np.zeros(image.shape[:2], np.uint8) if self.glare else None
        for (x, y), shape in zip(origins, shapes):
            h, w = shape[:2]
            angle = rng.uniform(0, 2 * math.pi)
            across = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :]
            down = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None]
            light[y:y + h, x:x + w] *= 1 + self.slope * (across * math.cos(angle)
                                                         + down * math.sin(angle))
            if glare is not None and rng.random() < 0.5:
                cx, cy, r = rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(0.3, 1)
                glare[y:y + h, x:x + w] = rng.uniform(40, 110) * np.exp(
                    -((across - cx) ** 2 + (down - cy) ** 2) / (2 * r * r))
        if self.bands is not None:
            amplitude, period, phase = self.bands
            rows = np.arange(image.shape[0], dtype=np.float32)
            light *= (1 + amplitude * np.sin(2 * math.pi * rows / period + phase))[:, None]
        # the light's level, slope and colour as gains (1.0 = 128), applied to bytes
        gains = cv2.merge([cv2.convertScaleAbs(light, alpha=128.0 * c) for c in self.cast])
        seen = cv2.multiply(cv2.LUT(image, curve), gains, scale=1 / 128.0)
        if glare is not None:
            seen = cv2.add(seen, cv2.merge([glare] * 3))
        if self.sleeve:  # a plastic sleeve: a little of the room's light over everything
            seen = cv2.addWeighted(seen, 0.88, seen, 0.0, 30.0)
        seen = cv2.GaussianBlur(seen, (0, 0), self.blur)
        if self.motion is not None:
            seen = cv2.filter2D(seen, -1, self.motion)
        # sensor noise, stronger where more light fell (shot noise)
        noise = _noise(rng, seen.shape)
        spread = np.sqrt(np.maximum(seen, 1).astype(np.float32)) * \
            np.float32(self.noise / math.sqrt(128.0) / NOISE_UNIT)
        seen = cv2.add(seen, cv2.multiply(noise, spread, dtype=cv2.CV_16S), dtype=cv2.CV_8U)
        ok, encoded = cv2.imencode(".jpg", seen, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        return cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else seen


NOISE_UNIT = 32
"""The noise texture's standard deviation (bytes)."""


@lru_cache(maxsize=1)
def _noise_texture() -> np.ndarray:
    """Gaussian noise, once: each mosaic takes its noise from a random place in it (drawing
    fresh noise for every mosaic costs more than all the rest of its faults)."""
    draws = np.random.default_rng(20261123).standard_normal((1024, 1024, 3)) * NOISE_UNIT
    return np.clip(np.round(draws), -127, 127).astype(np.int16)


def _noise(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    texture = _noise_texture()
    h, w = shape[:2]
    reps = (-(-h // texture.shape[0]), -(-w // texture.shape[1]), 1)
    if reps[:2] != (1, 1):
        texture = np.tile(texture, reps)
    y = int(rng.integers(0, texture.shape[0] - h + 1))
    x = int(rng.integers(0, texture.shape[1] - w + 1))
    return texture[y:y + h, x:x + w]


def _light(rng: np.random.Generator) -> np.ndarray:
    """A light's colour left after a camera's white balance, as gains on blue, green, red: a
    little warmer or cooler (red against blue) and a slight tint (green)."""
    warmth, tint = rng.uniform(-0.08, 0.08), rng.normal(0, 0.02)
    return np.exp(np.array([-warmth, tint, warmth])).astype(np.float32)


def _rotation(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


def _through(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (N x 2) through a 3 x 3 projective matrix."""
    mapped = np.hstack([points, np.ones((len(points), 1))]) @ matrix.T
    return mapped[:, :2] / mapped[:, 2:3]
