"""Card reader: a card's two coordinates, read as a model taught from the user's photos says.

The printed art of the real deck is not known to us, so nothing here knows what a coordinate
looks like. A ``CardModel`` (taught by ``calibration.teach`` from one photo per card code, or
more) holds where on the face the two coordinates are printed (two regions of the upright card)
and, for each region, what each coordinate (``B3``, ``G?``...) looked like there in the photos.

Reading a card: its outline is warped to an upright face of a fixed size, both ways up (a card
lies either way round); each region is compared with every taught look of it, allowing a small
shift; the nearest look names the coordinate. A card is read only when, one way up, both
regions are near a taught look and clearly nearer to one coordinate than to any other, and the
two name a code the deck was taught. Anything else is "unsure": a wrong read is worse than none.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from companion.rules import Card, Coordinate, MalformedEventError

CANON = (128, 192)
"""Upright face size after warping (px): enough for numbers 16 px tall in the camera image."""
CELLS = 12
"""A region is compared as CELLS x CELLS colour cells."""
SHIFT = 2
"""Cells a region may be off each way (the outline is found to a pixel or two)."""
LIGHT_FLOOR = 6.0
"""Smallest brightness spread a region is normalised by (a blank region stays blank)."""
COLOUR_SCALE = 18.0
"""Lab a/b units per unit of distance: colour weighs about as much as shape."""
BLANK = 0.3
"""Below this root-mean-square, a region's description holds no print (its brightness spread
is under the floor and it has next to no colour detail)."""
MIN_MARGIN = 0.18
"""How much nearer (relatively) a region must be to its coordinate than to any other."""
NEAR_LIMIT = 0.8
"""A region read beyond this fraction of its limit is barely like any taught look (an
outline run off the card, a badge half covered): it must then beat every other coordinate by
``FAR_MARGIN``. On the test decks' tables, right reads come this far in under 1 in 300."""
FAR_MARGIN = 0.3
"""The margin a region read beyond ``NEAR_LIMIT`` needs (on the test decks' tables, all but
one right read in 300 that far beat the next coordinate by more; the one misread seen there,
by 0.18)."""
MIN_TURN_RATIO = 1.25
"""When both ways up read as two different taught codes, how much better one must fit."""
STEADY = (0.985, 1.015)
"""Outline scales a read is checked at (about the outline's centre)."""
LOOK_SIZE = CELLS * CELLS * 3
MODEL_KIND = "regions-v2"


@dataclass(frozen=True)
class Region:
    """A rectangle of the upright face, as fractions of its width and height."""

    x0: float
    y0: float
    x1: float
    y1: float

    def to_json(self) -> list[float]:
        return [self.x0, self.y0, self.x1, self.y1]

    @classmethod
    def from_json(cls, data: Any) -> Region:
        x0, y0, x1, y1 = (float(v) for v in data)
        if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1):
            raise ValueError("a region must lie inside the card")
        return cls(x0, y0, x1, y1)


@dataclass
class Looks:
    """What one region looked like in the teaching photos: one row per look, with the
    coordinate it shows. Rows are kept sorted by coordinate."""

    labels: list[str]
    vectors: np.ndarray
    """n x D normalised cell values (see ``describe``)."""
    limit: float
    """The largest distance at which a region still counts as showing a taught look."""

    def __post_init__(self) -> None:
        order = np.argsort(np.array(self.labels), kind="stable")
        self.labels = [self.labels[k] for k in order]
        self.vectors = np.ascontiguousarray(self.vectors[order], dtype=np.float32)
        self.classes = sorted(set(self.labels))
        self._starts = np.array([self.labels.index(c) for c in self.classes])
        self._norms = (self.vectors ** 2).sum(axis=1)
        self._columns = np.ascontiguousarray(self.vectors.T)  # a faster product, laid so

    def distances(self, windows: np.ndarray) -> dict[str, float]:
        """For each coordinate, the smallest distance of any window to any of its looks."""
        products = windows @ self._columns  # windows x looks
        squared = (windows ** 2).sum(axis=1)[:, None] + self._norms[None, :] - 2 * products
        nearest = np.sqrt(np.maximum(squared.min(axis=0), 0) / windows.shape[1])
        per_class = np.minimum.reduceat(nearest, self._starts)
        return dict(zip(self.classes, per_class.tolist()))

    def to_json(self) -> dict[str, Any]:
        scale = float(np.abs(self.vectors).max()) or 1.0
        packed = np.clip(np.round(self.vectors / scale * 127), -127, 127).astype(np.int8)
        return {"labels": self.labels, "scale": scale, "limit": self.limit,
                "vectors": base64.b64encode(packed.tobytes()).decode("ascii")}

    @classmethod
    def from_json(cls, data: Any) -> Looks:
        labels = [str(label) for label in data["labels"]]
        raw = np.frombuffer(base64.b64decode(data["vectors"]), dtype=np.int8)
        size = LOOK_SIZE
        if raw.size != size * len(labels) or not labels:
            raise ValueError("the taught looks do not match their labels")
        for label in labels:
            Coordinate.parse(label)  # a stored label is a coordinate, or the file is refused
        vectors = raw.reshape(len(labels), size).astype(np.float32) * float(data["scale"]) / 127
        return cls(labels, vectors, float(data["limit"]))


@dataclass
class CardModel:
    """What the reader knows of a deck: where its two coordinates are printed, how each
    coordinate looked there, which codes the deck holds, and its proportions."""

    regions: tuple[Region, Region]
    """The top coordinate's region and the bottom coordinate's, on the upright face."""
    looks: tuple[Looks, Looks]
    codes: frozenset[str]
    """The card codes taught: nothing else is ever read."""
    aspect: float = 1.5
    """Long side over short side of the card."""
    look_alikes: tuple[tuple[str, str], ...] = field(default=())
    """Pairs of taught codes the model tells apart only narrowly (more photos help)."""
    weak: tuple[str, ...] = field(default=())
    """Codes teaching found hard to read (a photo unlike the others, or read narrowly without
    itself): the calibration screen asks for another photo of each."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": MODEL_KIND, "aspect": self.aspect, "codes": sorted(self.codes),
                "regions": [r.to_json() for r in self.regions],
                "looks": [looks.to_json() for looks in self.looks],
                "look_alikes": [list(pair) for pair in self.look_alikes],
                "weak": list(self.weak)}

    @classmethod
    def from_json(cls, data: Any) -> CardModel:
        if not isinstance(data, dict) or data.get("kind") != MODEL_KIND:
            raise ValueError("it was taught by an older version of the companion: teach the "
                             "deck again")
        codes = frozenset(Card.parse(code).code for code in data["codes"])
        regions = tuple(Region.from_json(r) for r in data["regions"])
        looks = tuple(Looks.from_json(item) for item in data["looks"])
        if len(regions) != 2 or len(looks) != 2 or not codes:
            raise ValueError("a card model needs two regions, their looks and its codes")
        aspect = float(data.get("aspect", 1.5))
        if not 1.0 <= aspect <= 3.0:
            raise ValueError("a card's proportions must be between 1 and 3")
        pairs = tuple((str(a), str(b)) for a, b in data.get("look_alikes", []))
        weak = tuple(Card.parse(code).code for code in data.get("weak", []))
        return cls((regions[0], regions[1]), (looks[0], looks[1]), codes, aspect, pairs, weak)


# ---------------------------------------------------------------------------------------------
# Faces and regions
# ---------------------------------------------------------------------------------------------

def upright_face(bgr: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card inside ``quad`` (corners clockwise from the face's top-left) warped to the
    canonical upright face, without aliasing when the card is large in the image."""
    w, h = CANON
    long_side = max(float(np.linalg.norm(quad[1] - quad[2])),
                    float(np.linalg.norm(quad[0] - quad[3])))
    over = int(np.clip(round(long_side / h), 1, 4))  # warp larger, then shrink by area
    target = np.array([[0, 0], [w * over, 0], [w * over, h * over], [0, h * over]],
                      dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    face = cv2.warpPerspective(bgr, matrix, (w * over, h * over), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    if over > 1:
        face = cv2.resize(face, CANON, interpolation=cv2.INTER_AREA)
    return face


def lab_face(face: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(face, cv2.COLOR_BGR2LAB).astype(np.float32)


def region_patch(lab: np.ndarray, region: Region) -> np.ndarray:
    """The region with SHIFT cells around it, as (CELLS + 2 SHIFT)^2 cells of Lab colour."""
    h, w = lab.shape[:2]
    cell_w = (region.x1 - region.x0) * w / CELLS
    cell_h = (region.y1 - region.y0) * h / CELLS
    x0, y0 = region.x0 * w - SHIFT * cell_w, region.y0 * h - SHIFT * cell_h
    size = CELLS + 2 * SHIFT
    # an affine resample keeps sub-pixel placement and fills beyond the face by replication
    left, top = x0 + cell_w / 2 - 0.5, y0 + cell_h / 2 - 0.5  # the first cell's centre
    sigma = max(0.5, 0.42 * min(cell_w, cell_h))
    # only the part of the face the cells take from is blurred: as far beyond them as the
    # blur reaches, or to the face's edge, where the blur reflects as it does on the whole
    reach = int(np.ceil(4 * sigma)) + 2
    x_a, y_a = max(0, int(np.floor(left)) - reach), max(0, int(np.floor(top)) - reach)
    x_b = min(w, int(np.ceil(left + (size - 1) * cell_w)) + reach)
    y_b = min(h, int(np.ceil(top + (size - 1) * cell_h)) + reach)
    if x_a >= x_b or y_a >= y_b:  # the cells lie wholly beyond the face: its edge replicated
        x_a, y_a, x_b, y_b = 0, 0, w, h
    matrix = np.array([[cell_w, 0, left - x_a], [0, cell_h, top - y_a]], np.float32)
    smooth = cv2.GaussianBlur(lab[y_a:y_b, x_a:x_b], (0, 0), sigma)
    return cv2.warpAffine(smooth, matrix, (size, size), flags=cv2.INTER_LINEAR
                          | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=4)
def _plane_basis(size: int) -> np.ndarray:
    """An orthonormal basis of the planes a + b x + c y over a size x size grid (size^2 x 3):
    a region's plane is its projection onto these three."""
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float64)
    basis = np.stack([np.ones(size * size), xs.ravel() / size, ys.ravel() / size], axis=1)
    return np.linalg.qr(basis)[0].astype(np.float32)


def describe_many(cells: np.ndarray) -> np.ndarray:
    """n x size x size x 3 Lab cells (CELLS, or fewer while teaching) as n vectors. In each
    channel the best plane is taken out (what changes slowly across a region: a nebula, a
    painting, a shadow, a colour cast, and the flat colour of a badge); what is left is the
    print's detail, a number's strokes and a rim, with their colour contrast (a white number on
    blue pulls the other way from one on green). Brightness detail is scaled to a unit spread;
    colour detail is kept in Lab units."""
    n, size = len(cells), cells.shape[1]
    flat = cells.reshape(n, size * size, 3)
    basis = _plane_basis(size)
    detail = flat - np.matmul(basis, np.matmul(basis.T, flat))
    light = detail[..., 0]
    spread = np.maximum(light.std(axis=1, keepdims=True), LIGHT_FLOOR)
    described = np.concatenate([(light / spread)[..., None], detail[..., 1:] / COLOUR_SCALE],
                               axis=-1)
    return described.reshape(n, -1).astype(np.float32)


def describe(cells: np.ndarray) -> np.ndarray:
    """One region's CELLS x CELLS x 3 Lab cells as a vector (see ``describe_many``)."""
    return describe_many(cells[None])[0]


def look(lab: np.ndarray, region: Region) -> np.ndarray:
    """A region as taught: its print, unshifted."""
    return centre(region_patch(lab, region))


def shifted_looks(lab: np.ndarray, region: Region) -> np.ndarray:
    """A region as read: its print at every shift (``windows``)."""
    return windows(region_patch(lab, region))


def windows(patch: np.ndarray) -> np.ndarray:
    """Every CELLS x CELLS window of a patch (every shift), described: (2 SHIFT + 1)^2 x D."""
    views = np.lib.stride_tricks.sliding_window_view(patch, (CELLS, CELLS), axis=(0, 1))
    stack = views.reshape(-1, 3, CELLS, CELLS).transpose(0, 2, 3, 1)
    return describe_many(np.ascontiguousarray(stack))


def centre(patch: np.ndarray) -> np.ndarray:
    """The unshifted window of a patch, described (a look as taught)."""
    return describe(patch[SHIFT:SHIFT + CELLS, SHIFT:SHIFT + CELLS])


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardRead:
    card: Card | None
    """None when the reader is unsure."""
    confidence: float
    corners: np.ndarray
    """Image corners clockwise from the top-left of the card's upright face."""
    reason: str = ""
    """Why the reader is unsure."""


@dataclass(frozen=True)
class RegionRead:
    coordinate: str
    distance: float
    margin: float
    """(second - best) / second: how clearly this coordinate beats every other."""
    known: bool
    """Near a taught look at all (within the region's limit)."""
    far: bool = False
    """Beyond ``NEAR_LIMIT`` of the way to the limit."""

    @property
    def clear(self) -> bool:
        return self.known and self.margin >= (FAR_MARGIN if self.far else MIN_MARGIN)


def blank(vector: np.ndarray) -> bool:
    """Nothing printed: a region with no detail to tell one coordinate from another (a bare
    table, a plain card back). Such a look is never taught, and never read as anything."""
    return float(np.sqrt((vector ** 2).mean())) < BLANK


def read_region(lab: np.ndarray, region: Region, looks: Looks) -> RegionRead:
    shifted = shifted_looks(lab, region)
    distances = looks.distances(shifted)
    ranked = sorted(distances.items(), key=lambda item: item[1])
    best, distance = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else distance * 2 + 1.0
    known = distance <= looks.limit and not blank(shifted[len(shifted) // 2])
    return RegionRead(best, distance, (second - distance) / max(second, 1e-9), known,
                      distance > NEAR_LIMIT * looks.limit)


def read_face(face: np.ndarray, model: CardModel) -> tuple[RegionRead, RegionRead]:
    """Both coordinates of an upright face."""
    return read_lab_face(lab_face(face), model)


def read_lab_face(lab: np.ndarray, model: CardModel) -> tuple[RegionRead, RegionRead]:
    """Both coordinates of an upright face in Lab (``lab_face``)."""
    return (read_region(lab, model.regions[0], model.looks[0]),
            read_region(lab, model.regions[1], model.looks[1]))


def read_card(bgr: np.ndarray, quad: np.ndarray, model: CardModel) -> CardRead:
    """Read one card outline, both ways up (a card may lie turned). The read must hold when
    the outline is taken a little smaller or a little larger (``STEADY``), and neither may
    read another code: a number read only from one exact outline (the outline cut into a
    badge, a blurred digit) is unsure. (A blurred card read from an outline a pixel too large
    may be unsure at the larger one: the smaller one confirms it.)"""
    first = _read_once(bgr, quad, model)
    if first.card is None:
        return first
    centre = quad.mean(axis=0)
    confirmed = 0
    for scale in STEADY:
        again = _read_once(bgr, centre + (quad - centre) * scale, model)
        if again.card is not None and again.card.code != first.card.code:
            return CardRead(None, 0.0, quad, "the read changes when the outline moves a little")
        confirmed += again.card is not None
    if not confirmed:
        return CardRead(None, 0.0, quad, "the read holds only for the outline exactly as found")
    return first


def _read_once(bgr: np.ndarray, quad: np.ndarray, model: CardModel) -> CardRead:
    lab = lab_face(upright_face(bgr, quad))
    options = []
    reasons = []
    for turn, upright in ((0, lab), (2, cv2.rotate(lab, cv2.ROTATE_180))):
        top, bottom = read_lab_face(upright, model)
        if not (top.clear and bottom.clear):
            reasons.append("a coordinate is not clear enough to read")
            continue
        code = f"{top.coordinate}/{bottom.coordinate}"
        if code not in model.codes:
            reasons.append(f"it reads as {code}, a code the deck was not taught")
            continue
        options.append((top.distance + bottom.distance, min(top.margin, bottom.margin), code,
                        np.roll(quad, -turn, axis=0)))
    if not options:
        return CardRead(None, 0.0, quad, reasons[0] if reasons else "not readable")
    options.sort(key=lambda option: option[0])
    if len(options) == 2 and options[0][2] != options[1][2] and \
            options[1][0] < options[0][0] * MIN_TURN_RATIO:
        return CardRead(None, 0.0, quad, "which way up it lies is not clear")
    _, margin, code, corners = options[0]
    try:
        card = Card.parse(code)
    except MalformedEventError as error:  # a taught code is canonical: never, but not a guess
        return CardRead(None, 0.0, quad, str(error))
    return CardRead(card, float(margin), corners)
