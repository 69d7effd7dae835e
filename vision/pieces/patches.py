"""What a picture of the ring shows against the table at the start: patches of each
player's colour where something else lay then, and what is new and no player's colour.

A pixel is new when its colour lies far from the start's, the light and the cast evened out
(a lamp moved, a cloud). A player's colour counts only where it is new and not that colour's
print (a board's badge of the same hue shows much the same as at the start). Patches are
measured as pieces are: their size against a ship's, how long for their width, how solid,
how thick, and how many chip-sized discs they hold.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np

from companion.observations import GATE
from vision.pieces.colours import (FADED_GATE, FADED_READ, GREY, colour_masks, lab_of,
                                   saturation)
from vision.pieces.ring import Ring

CHANGED = 18.0
"""A pixel differs from the start when its Lab colour lies this far from it, the light and
the cast evened out ..."""
LIGHTNESS_SCALE = 60.0
"""... lightness counting by its share of what the light makes of the start: a black chip on
a dark gate changes it by half, as a white one on a light table does (a share of 0.3 counts
as 18)."""
DARKEST_EXPECTED = 20.0
"""Lightness is compared as a share of at least this (noise in the darkest places)."""
LIGHT_ADDED = 0.1
"""Light also changes by what is added to every place alike (a lamp's glare, its haze): a
dark board then brightens by as much as the pale table beside it, not by the same share, and
its whole face read as new (something on it, its station unknown). So the start's lightness
is also fitted to today's over each window as a share and an addition, the addition held
back by this (a ridge: with nothing dark and light in the window to tell the two apart, the
share alone). What either fit explains has not changed. Dev and bench tables (8000-8069,
8140-8279, 7500, 7800, 7900, 8400 blocks; 5024 stations and reservations): stations read
right 4149 -> 4291, reservations 3951 -> 4092, ships 1797 -> 1819 of 2192, none wrong; at
0.05 13 stations more, at 0.01 two black stations on dark boards explained away (read as
none); at 0.5 96 fewer than at 0.1."""
PRINT_CHANGE = 1.5 * CHANGED
"""Where the start showed a colour (``Ring.printed``) and shows much the same now (less
changed than this: a board's badge in other light), that colour is print; a piece laid on
it changes it more ..."""
PRINT_CHROMA_RISE = 1.75
"""... or is this many times as coloured as the print was (a red ship on a planet's
terracotta art, chroma 57 to 74 where the art's is 27, yet less changed than
``PRINT_CHANGE`` at its blurred edges: it showed as slivers, no ship). Dev and bench tables
(as ``LIGHT_ADDED``): ships read right 1834 -> 1849 of 2192, gate counts 1686 -> 1687,
stations 4300 -> 4316, reservations 4109 -> 4129 of 5024; held-out tables (8070-8139,
8500, 8600, 8700): ships 858 -> 864 of 1028, gate 787 -> 788, stations 2053 -> 2061,
reservations 1954 -> 1964 of 2368, and a wrong station fewer (8701: the green ship, cut
short by its own badge, seen whole). None more wrong at 1.6; at 1.5 three more (a red ship
under a hand placed on the gate, two gate counts)."""
GATE_LIT_APART = 0.08
"""The light is measured over windows wider than the gate, where the pale table outweighs
it; a lamp's glare brightens a dark gate by more than the table's share (8822: the table
1.2 times brighter, the gate 1.76), and the gate then read as new all over, as if a hand lay
on it. Where the gate's own ground is lit more than this share brighter than the windows'
light makes it, the gate's light is its own. Not below it: there a few hundredths lost a
black ship shown in part (dev table 8019) and counted a loose stack as one chip (8118); nor
where the gate shows darker than the windows say (8067: black chips on a navy gate, lighter
than it, then showed as something new). Dev, bench and held-out tables (8000-8069,
8070-8139, and 7300, 7500, 7800, 7900, 8400, 8800 from 30 tables each): gate counts read
right 1644 -> 1662 of 2106, ships 1783 -> 1785, none more wrong."""
GATE_GROUND = 0.25
"""The gate's ground is what lay within this share of its usual lightness at the start."""
OPENING = 0.05
"""Patches are opened by a disc of this share of the side of a ship's area, on each side."""
SMALLEST = 0.35
"""A patch of less than this share of a ship is no piece (a speck, a printed badge's rim)."""
RIM = 0.35
"""A piece's rim and the shadow at its foot reach this share of a chip's radius around it."""
CHIP_LONGEST = 3.5
"""Chips side by side are at most this much longer than wide (three in a row) ..."""
CHIP_SIZES = (0.8, 2.5)
"""... and a chip covers this much of the ships' size at the start, at the least and the
most ..."""
HEAP = 0.75
"""... and chips, alone or touching, fill at least this share of their hull."""
CHIP_PERCENTILE = 75
"""A chip's radius is the chip patches' thickness at this percentile (a chip half hidden is
thinner, none is thicker)."""
LEFT_OVER = 0.22
"""A disc is laid where the patch left is still this share of a chip's radius thick ..."""
FILLS_DISC = 0.3
"""... and fills this share of a chip's disc (not an edge of something else beside it)."""
DISC_REACH = 1.15
"""A chip's disc reaches this many radii when what lies beyond the discs is measured (a
chip's rim, blur and its shadow lie within)."""
MOST_CHIPS = 30
"""No heap holds more (every colour has few probes)."""
TOUCH = 3
"""Pixels between two patches that touch (a chip's rim, a seam of blur)."""


@dataclass(frozen=True)
class Patch:
    """A patch of one player's colour, new since the start."""

    player: str
    mask: np.ndarray
    """The patch alone, 0/1, its holes filled, in its bounding ``box``."""
    box: tuple[int, int, int, int]
    area: float
    centre: tuple[float, float]
    length: float
    elongation: float
    solidity: float


@dataclass(frozen=True)
class Look:
    """What a picture shows against the table at the start."""

    patches: list[Patch]
    """Each player colour's new patches on the ring."""
    new: np.ndarray
    """What differs from the table at the start (0/1)."""
    owner: np.ndarray
    """Each pixel's patch: its place in ``patches`` plus one, 0 for none."""
    unexplained: np.ndarray
    """What is new and of no player's colour, a piece's rim away (0/1)."""
    chip: float
    """A chip's radius as a share of a board's side (the same wherever it lies) ..."""
    measured: bool
    """... measured on the chips seen (else a ship's size)."""
    faint_black: float = 0.0
    """The largest patch on the gate dark enough to be black, yet in no patch (pixels): a
    black chip on a grey gate, only a third darker than it, is diluted below ``CHANGED``
    where the start is compared at its smaller size, and found as pieces too small to be
    one."""
    before: np.ndarray | None = None
    """The lightness the table showed at the start, in today's light (at the picture's
    size) ..."""
    light: np.ndarray | None = None
    """... and how much brighter the light is at each pixel than it was."""
    gate_light: float = 1.0
    """How much brighter the gate is than the light around it makes it, where that is more
    than ``GATE_LIT_APART`` (else 1): ``light`` holds it."""

    def radius(self, ring: Ring, point: tuple[float, float]) -> float:
        """A chip's radius at ``point`` (pixels)."""
        return self.chip * ring.side_at(point)


Steps = Generator[None, None, "Look"]
"""A look taken a step at a time: each ``next`` does one part of it (a frame's share of the
work in the live loop); the look is the generator's return value."""


Done = TypeVar("Done")


def at_once(steps: Generator[None, None, Done]) -> Done:
    """What a piece of work taken a step at a time (``looking_at``, the reader's read) comes
    to, all its steps taken at once."""
    while True:
        try:
            next(steps)
        except StopIteration as finished:
            done: Done = finished.value
            return done


def looking_at(bgr: np.ndarray, ring: Ring) -> Steps:
    """What ``bgr`` shows against the table at the start of ``ring``, in steps: how far
    each pixel lies from the start; each player's colour where it changed; who owns what."""
    height, width = bgr.shape[:2]
    lab = lab_of(bgr)
    yield
    black = ring.colours.get("black")
    difference, light, added, gate_light = _difference(
        lab, ring.reference, ring.reference_boards == 1,
        greyed=black is not None and black.hardly_darker)
    yield
    new = cv2.resize(difference, (width, height), interpolation=cv2.INTER_LINEAR) > CHANGED
    patches: list[Patch] = []
    before = cv2.resize(ring.reference[..., 0].astype(np.float32), (width, height),
                        interpolation=cv2.INTER_LINEAR) * light
    where = np.nonzero(new)  # only what changed can be a piece: its colours alone are judged
    small = (np.minimum(where[0] * difference.shape[0] // height, difference.shape[0] - 1),
             np.minimum(where[1] * difference.shape[1] // width, difference.shape[1] - 1))
    changed, at_start = lab[where], ring.reference[small].astype(np.float32)
    coloured_at_start = np.hypot(at_start[:, 1] - 128, at_start[:, 2] - 128)
    more_coloured = np.hypot(changed[:, 1] - 128, changed[:, 2] - 128) >= \
        PRINT_CHROMA_RISE * coloured_at_start
    alike = (difference[small] < PRINT_CHANGE) & ~more_coloured
    # black on the gate is darker than its ground at the start: not where a ship not
    # learned stood and then left (its shape, the gate's own darkness, taken for the black
    # ship)
    plain_before = np.where(ring.reference_boards[small] == 1,
                            np.minimum(before[where], ring.plain_start[small] * light[where]),
                            before[where])
    masks = colour_masks(changed, ring.colours, plain_before,
                         _black_shown(ring, light[where], added, small),
                         ring.reference_boards[small] > 0, ring.unseen, coloured_at_start,
                         saturation(at_start[:, 0], coloured_at_start))
    yield  # the colours judged, then the patches they make: each about a frame's share
    for player, mask_new in masks.items():
        mask = np.zeros((height, width), bool)
        mask[where] = mask_new & ~(ring.printed[player][small] & alike)
        patches += patches_of(player, mask, ring.ship_px, ring.table_shape)
    yield
    # on the ring, or at the gate's rim (a probe half over it: its middle may lie just off),
    # or where a gate whose edge was not seen may reach
    rim = math.sqrt(ring.ship_px) + ring.gate_doubt
    patches = [p for p in patches if ring.place(p.centre, beside=True) is not None
               or ring.inside(GATE, p.centre) >= -rim]
    owner = np.zeros((height, width), np.int32)
    for n, patch in enumerate(patches):
        x, y, w, h = patch.box
        owner[y:y + h, x:x + w][patch.mask.astype(bool)] = n + 1
    chip, measured = chip_radius(ring, patches)
    rim = 2 * max(1, int(RIM * chip * ring.side_at(ring.middle))) + 1  # a piece's edge
    seen = cv2.dilate((owner > 0).astype(np.uint8), np.ones((rim, rim), np.uint8))
    faint_black = _faint_black(lab, owner, before, light, ring)
    return Look(patches, new, owner, new & ~seen.astype(bool), chip, measured, faint_black,
                before, light, gate_light)


def black_hidden(look: Look, ring: Ring, box: tuple[int, int, int, int]) -> np.ndarray:
    """Where in ``box`` (x, y, width, height) black as its ship was at calibration would not
    show as black (0/1): ground as dark as it, where a black piece vanishes (a dark board
    around a planet's art); all of it where black is no player's."""
    black = ring.colours.get("black")
    x, y, w, h = box
    if black is None or look.before is None or look.light is None:
        return np.ones((h, w), np.uint8)
    shown = look.light[y:y + h, x:x + w] * black.lightness
    return (shown > black.darkest * look.before[y:y + h, x:x + w]).astype(np.uint8)


def _faint_black(lab: np.ndarray, owner: np.ndarray, before: np.ndarray, light: np.ndarray,
                 ring: Ring) -> float:
    """The largest patch of black on the gate that is no patch found (pixels; ``Look``)."""
    black = ring.colours.get("black")
    if black is None:
        return 0.0
    height, width = owner.shape
    gate = np.round(np.array(ring.gate)).astype(np.int32)
    x0, y0 = np.clip(gate.min(axis=0), 0, (width, height))
    x1, y1 = np.clip(gate.max(axis=0) + 1, 0, (width, height))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [gate - (x0, y0)], 1)
    faint = inside.astype(bool) & (owner[y0:y1, x0:x1] == 0)
    where = np.nonzero(faint)
    at = (where[0] + y0, where[1] + x0)
    dark = colour_masks(lab[at], {"black": black}, before[at],
                        light[at] * black.lightness)["black"]
    mask = np.zeros(faint.shape, np.uint8)
    mask[where] = dark
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return float(stats[1:, cv2.CC_STAT_AREA].max()) if count > 1 else 0.0


def _difference(lab: np.ndarray, reference: np.ndarray, gate: np.ndarray,
                greyed: bool = False
                ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray], float]:
    """How far ``lab`` lies from the table at the start (Lab, at the reference's size), the
    light and the cast evened out; how much brighter the light is at each pixel than it was
    (at ``lab``'s size); the light taken as a share and an addition (``_light_added``, at
    the reference's size); and ``Look.gate_light``. ``gate``: where the gate lies, at the
    reference's size. ``greyed``: what turned grey on the gate is new too
    (``_turned_grey``), where black's ship was hardly darker than the gate."""
    height, width = lab.shape[:2]
    small = cv2.resize(lab, reference.shape[1::-1], interpolation=cv2.INTER_AREA)
    before = reference.astype(np.float32)
    window = max(3, (max(small.shape[:2]) // 8) | 1)
    light = cv2.blur(small[..., 0], (window, window)) / np.maximum(
        cv2.blur(before[..., 0], (window, window)), 4.0)
    cast = np.median(small[..., 1:] - before[..., 1:], axis=(0, 1))
    gate_light = _gate_light(small[..., 0], before[..., 0], light, gate)
    light = np.where(gate, light * gate_light, light)
    as_share = before[..., 0] * light
    # on the gate the light stays a share alone: there chips are counted exactly, and the
    # fit with an addition there read 28 more gate counts of 2192 right but one wrong: a
    # black chip lighter than its ship was, which neither fit shows as new, counted as none
    # where the gate's rim band, new in the share's fit, had left the gate unknown (8171)
    share, addition = _light_added(before[..., 0], small[..., 0], window)
    with_addition = np.where(gate, as_share, share * before[..., 0] + addition)
    darker = np.stack([(small[..., 0] - expected) / np.maximum(expected, DARKEST_EXPECTED)
                       for expected in (as_share, with_addition)])
    darker = np.where(np.abs(darker[0]) <= np.abs(darker[1]), darker[0], darker[1])  # the nearer
    difference = np.sqrt((darker * LIGHTNESS_SCALE) ** 2
                         + ((small[..., 1:] - before[..., 1:] - cast) ** 2).sum(axis=2))
    if greyed:  # as changed as a piece laid on print, so that the gate's print keeps none of it
        difference = np.where(_turned_grey(small, before, cast, gate),
                              np.maximum(difference, PRINT_CHANGE), difference)
    return (difference, cv2.resize(light, (width, height), interpolation=cv2.INTER_LINEAR),
            (share, addition), gate_light)


GREY_OPENED = 3
"""What turned grey on the gate is opened by a square this wide (at the reference's size, a
quarter of a 1280x720 frame's)."""


def _turned_grey(now: np.ndarray, before: np.ndarray, cast: np.ndarray, gate: np.ndarray
                 ) -> np.ndarray:
    """Where a gate at least ``FADED_GATE`` coloured at the start (its median) turned grey
    (Lab ``now`` and ``before``, at the reference's size; ``cast``: today's, in a and b):
    each place at least that coloured then, now at most ``GREY`` coloured and at most
    ``FADED_READ`` as saturated as then. A black chip on a navy gate may be no darker than the
    gate, nor far enough from its colour to be new; it is grey where the gate was blue, while
    a shadow keeps the gate's saturation. See ``reader._plain_black_chip`` for what is
    counted of it."""
    was = np.hypot(before[..., 1] - 128, before[..., 2] - 128)
    if not gate.any() or np.median(was[gate]) < FADED_GATE:
        return np.zeros(gate.shape, bool)
    chroma = np.hypot(now[..., 1] - 128 - cast[0], now[..., 2] - 128 - cast[1])
    grey = gate & (was >= FADED_GATE) & (chroma <= GREY) & (
        saturation(now[..., 0], chroma) <= FADED_READ * saturation(before[..., 0], was))
    # a chip's grey is a disc; a ship's blurred fringe, greyed by the gate, is thin and would
    # widen its hull out of the ships' silhouette (dev table 8019: black's ship 0.85 -> 0.77
    # alike, no longer placed)
    return cv2.morphologyEx(grey.astype(np.uint8), cv2.MORPH_OPEN,
                            np.ones((GREY_OPENED, GREY_OPENED), np.uint8)).astype(bool)


def _gate_light(now: np.ndarray, before: np.ndarray, light: np.ndarray, gate: np.ndarray
                ) -> float:
    """``Look.gate_light``, from the lightness ``now`` and ``before`` and the windows'
    ``light`` (at the reference's size; ``gate``: where the gate lies there)."""
    # its ground: well inside the outline found (which may take in a rim of table) and of
    # the ground's lightness at the start (not the ships on it then, nor its print)
    inner = cv2.erode(gate.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=2) > 0
    if not inner.any():
        return 1.0
    usual = float(np.median(before[inner]))
    ground = inner & (np.abs(before - usual) <= GATE_GROUND * max(usual, DARKEST_EXPECTED))
    own = float(np.median(now[ground] / np.maximum(before[ground] * light[ground],
                                                   DARKEST_EXPECTED)))
    return own if own > 1 + GATE_LIT_APART else 1.0


def _light_added(before: np.ndarray, now: np.ndarray, window: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Today's light at each place, taken as a share of the lightness ``before`` and an
    addition, fitted over each ``window``: the least squares of ``now - (share * before +
    addition)``, with ``LIGHT_ADDED`` times the addition squared added."""
    def mean(values: np.ndarray) -> np.ndarray:
        return cv2.blur(values, (window, window))
    now = now.astype(np.float32)
    b, n, bb, bn = mean(before), mean(now), mean(before * before), mean(before * now)
    ridge = 1 + LIGHT_ADDED
    determinant = np.maximum(bb * ridge - b * b, 1e-3)
    share = (bn * ridge - b * n) / determinant
    addition = (bb * n - b * bn) / determinant
    return share, addition


def _black_shown(ring: Ring, light: np.ndarray, added: tuple[np.ndarray, np.ndarray],
                 at: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    """How light black's ship would show at some pixels in today's light: its lightness at
    calibration as a share of the light there (``light``), or as a share and an addition
    (``added``, at the reference's size, where the pixels lie at ``at``: a lamp's glare or
    haze lightens a dark piece by as much as it does the pale table, not by a share),
    whichever is lighter. None where black is no player's. Dev table 8157, photo 1: in light
    1.4 times brighter, black's ship, 28 at calibration, shows 75, not 39, and was sought at
    most 59. Dev and bench tables (as ``LIGHT_ADDED``): ships read right 1826 -> 1834 of
    2192, gate counts 1688 -> 1686, stations 4299 -> 4300, reservations 4106 -> 4109 of 5024;
    held-out tables 8070-8139, 8500, 8600, 8700: ships 852 -> 858 of 1028, gate 788 -> 787,
    stations 2045 -> 2053, reservations 1943 -> 1954 of 2368; none more wrong."""
    black = ring.colours.get("black")
    if black is None:
        return None
    share, addition = added
    return np.maximum(light * black.lightness, share[at] * black.lightness + addition[at])


def patches_of(player: str, mask: np.ndarray, ship_px: float,
               table_shape: Callable[[tuple[float, float]], np.ndarray | None] = lambda _: None
               ) -> list[Patch]:
    """The patches of ``mask``: mended where print crosses a piece, and opened by a tenth
    of a ship's length (specks and thin seams of a board's like-coloured art go). Each
    patch's length and elongation are its shape's on the table (``table_shape``, as
    ``Ring.table_shape``): a camera at a slant shortens a ship lying along the slant, and
    lengthens a chip into an oval. Seventeen blocks of bench tables (seven at 15-30
    degrees): ships placed right 2066 -> 2074 of 2405, stations 4827 -> 4845 of 5512,
    wrong reads 23 -> 19; held-out tables 11210-11389: ships 706 -> 713 of 822, none more
    wrong. (Straight down, nothing changes: no slant is told.)"""
    side = 2 * max(1, int(round(OPENING * math.sqrt(ship_px)))) + 1
    mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for outline in outlines:
        x, y, w, h = cv2.boundingRect(outline)
        alone = np.zeros((h, w), np.uint8)  # a piece is solid: its print is no hole in it
        cv2.drawContours(alone, [outline - (x, y)], -1, 1, -1)
        area = float(alone.sum())
        if area < SMALLEST * ship_px:
            continue
        moments = cv2.moments(alone, binaryImage=True)
        centre = (float(x + moments["m10"] / moments["m00"]),
                  float(y + moments["m01"] / moments["m00"]))
        shape = table_shape(centre)
        on_table = outline if shape is None else \
            ((outline.reshape(-1, 2) - centre) @ shape.T).astype(np.float32)
        (_, _), (side_a, side_b), _ = cv2.minAreaRect(on_table)
        elongation = max(side_a, side_b) / max(1.0, min(side_a, side_b))
        hull = max(1.0, cv2.contourArea(cv2.convexHull(outline)))
        found.append(Patch(player, alone, (x, y, w, h), area, centre, max(side_a, side_b),
                            elongation, min(1.0, area / hull)))
    return found


FIT_PX = 6.0
"""``discs_cover`` works on the patch shrunk until a chip's radius is this many pixels (a
finer fit tells no more, and costs the square)."""
FIT_RADII = (0.85, 1.25)
"""The discs' radius may be fitted from this share of a chip's radius to this (a chip's rim
and shadow make it look larger; a slant, a little smaller)."""


def discs_cover(patch: Patch, radius: float, count: int) -> float:
    """How well ``count`` discs of one radius can cover the patch: their union's overlap
    with it over the two together, at its most (1 where they are the patch). The discs start
    where ``laid_discs`` lays them, each more at the patch's pixel farthest from those, and
    are moved, and their radius grown or shrunk (``FIT_RADII``), a half, a quarter, an eighth
    and a sixteenth of a radius at a time while that covers better."""
    scale = min(1.0, FIT_PX / radius)
    pad = int(math.ceil(FIT_RADII[1] * radius)) + 1  # room for a disc reaching out of it
    mask = cv2.copyMakeBorder(patch.mask, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    if scale < 1:
        mask = cv2.resize(mask, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    rows, cols = np.indices(mask.shape)
    xs, ys = cols.ravel().astype(np.float32), rows.ravel().astype(np.float32)
    inside = mask.ravel() > 0
    middles = [((x + pad) * scale, (y + pad) * scale)
               for x, y in laid_discs(patch, radius)[0]][:count]
    while len(middles) < count:
        far = np.full(xs.shape, np.inf, np.float32)
        for x, y in middles:
            far = np.minimum(far, (xs - x) ** 2 + (ys - y) ** 2)
        far[~inside] = -1
        at = int(np.argmax(far))
        middles.append((float(xs[at]), float(ys[at])))

    def disc(x: float, y: float, size: float) -> np.ndarray:
        return (xs - x) ** 2 + (ys - y) ** 2 <= size * size

    def cover(near: np.ndarray) -> float:
        return float((near & inside).sum()) / max(1.0, float((near | inside).sum()))

    start = size = radius * scale
    drawn = [disc(x, y, size) for x, y in middles]
    best = cover(np.logical_or.reduce(drawn))
    for step in (start / 2, start / 4, start / 8, start / 16):
        moved = True
        while moved:
            moved = False
            for grown in (size + step / 2, size - step / 2):
                if not FIT_RADII[0] <= grown / start <= FIT_RADII[1]:
                    continue
                redrawn = [disc(x, y, grown) for x, y in middles]
                score = cover(np.logical_or.reduce(redrawn))
                if score > best:
                    best, size, drawn, moved = score, grown, redrawn, True
            for n in range(len(middles)):
                others = np.logical_or.reduce(drawn[:n] + drawn[n + 1:] + [np.zeros_like(inside)])
                for dx, dy in ((step, 0), (-step, 0), (0, step), (0, -step)):
                    x, y = middles[n][0] + dx, middles[n][1] + dy
                    one = disc(x, y, size)
                    score = cover(others | one)
                    if score > best:
                        best, moved = score, True
                        middles[n], drawn[n] = (x, y), one
    return best


def thickness(patch: Patch) -> float:
    """The radius of the largest disc inside the patch."""
    mask = cv2.copyMakeBorder(patch.mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    return float(cv2.distanceTransform(mask, cv2.DIST_L2, 3).max())


def touches(patch: Patch, patches: list[Patch]) -> bool:
    """Whether another patch lies within a few pixels of ``patch``."""
    x, y, w, h = patch.box
    near = cv2.dilate(patch.mask, np.ones((2 * TOUCH + 1, 2 * TOUCH + 1), np.uint8))
    for other in patches:
        ox, oy, ow, oh = other.box
        if other is patch or ox > x + w + TOUCH or oy > y + h + TOUCH \
                or ox + ow < x - TOUCH or oy + oh < y - TOUCH:
            continue
        # the other's pixels in ``patch``'s box, its ``TOUCH`` margin included
        grown = cv2.copyMakeBorder(near, TOUCH, TOUCH, TOUCH, TOUCH, cv2.BORDER_CONSTANT, 0)
        grown = cv2.dilate(grown, np.ones((2 * TOUCH + 1, 2 * TOUCH + 1), np.uint8))
        left, top = x - TOUCH, y - TOUCH
        x0, y0 = max(ox, left), max(oy, top)
        x1, y1 = min(ox + ow, left + grown.shape[1]), min(oy + oh, top + grown.shape[0])
        if x1 > x0 and y1 > y0 and (grown[y0 - top:y1 - top, x0 - left:x1 - left]
                                    & other.mask[y0 - oy:y1 - oy, x0 - ox:x1 - ox]).any():
            return True
    return False


def chip_radius(ring: Ring, patches: list[Patch]) -> tuple[float, bool]:
    """A chip's radius as a share of a board's side, and whether it was measured: the chip
    patches' thickness (the deepest point of chips alone, side by side or stacked is a
    chip's middle) near their largest, as a chip half hidden is thinner and none is
    thicker; a ship's size and False when no patch is a chip's."""
    chips = [thickness(p) / ring.side_at(p.centre) for p in patches
             if p.elongation <= CHIP_LONGEST and p.solidity >= HEAP
             and CHIP_SIZES[0] <= p.area / ship_px_at(ring, p.centre)]
    if not chips:
        return math.sqrt(ring.ship_px / math.pi) / ring.side_at(ring.middle), False
    return float(np.percentile(chips, CHIP_PERCENTILE)), True


def ship_px_at(ring: Ring, point: tuple[float, float]) -> float:
    """A ship's area at ``point`` (it was measured on the gate)."""
    return ring.ship_px * (ring.side_at(point) / ring.side_at(ring.middle)) ** 2


def discs(patch: Patch, radius: float) -> tuple[int, float]:
    """How many chips of ``radius`` the patch holds: a disc laid at its thickest point and
    taken away, again and again, while what is left there is a chip's worth (thick enough,
    and filling enough of the disc: what a chip lying loosely on another shows of it). And
    what share of the patch lies beyond every disc laid (``DISC_REACH``): chips leave little;
    a chip on a dark tile, run into the tile, leaves its corners."""
    middles, beyond = laid_discs(patch, radius)
    return len(middles), beyond


def laid_discs(patch: Patch, radius: float, deepest_left: float = LEFT_OVER
               ) -> tuple[list[tuple[int, int]], float]:
    """``discs``, with each disc's middle (pixels of the patch's ``box``); discs laid while
    what is left is ``deepest_left`` of a chip's radius thick."""
    mask = cv2.copyMakeBorder(patch.mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    whole = mask.copy()
    reached = np.zeros_like(mask)
    disc_area = math.pi * radius ** 2
    middles: list[tuple[int, int]] = []
    count = 0
    while count < MOST_CHIPS:
        depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        _, deepest, _, (x, y) = cv2.minMaxLoc(depth)
        if deepest < deepest_left * radius:
            break
        disc = np.zeros_like(mask)
        cv2.circle(disc, (x, y), int(round(radius)), 1, -1)
        if count and float((mask & disc).sum()) < FILLS_DISC * disc_area:
            break
        mask &= 1 - disc
        cv2.circle(reached, (x, y), int(round(DISC_REACH * radius)), 1, -1)
        middles.append((x - 1, y - 1))
        count += 1
    beyond = float((whole & (1 - reached)).sum()) / max(1.0, float(whole.sum()))
    return middles, beyond
