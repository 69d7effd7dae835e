"""Finding cards in an image by their outline, whatever their face and the table under them.

A card is a rectangle of known proportions (and, on a calibrated table, of known size): its
outline is where the image changes, in brightness or in colour, all around it. Edges are found in
each channel of the Lab image, closed into contours, and every contour is fitted with a
quadrilateral: directly when it has four sides, or from its four longest sides when something
(a chip, another card) covers a corner. A quadrilateral stays a candidate when its proportions
and size fit a card and its sides lie on edges along most of their length. Last, each side is
put onto the straight change of colour it lies on in the full image (the shrunken image
places it only to a pixel or two there); on a calibrated table, an outline whose proportions
are clearly not the card's and one of whose sides barely stands out has that side moved onto
the edge near it (it ran past the card where the card fades into the table). The reader
decides what a candidate is: anything it cannot read for sure is not a card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

WORK_LONG_SIDE = 150.0
"""The card's long side in the working image (px): larger images are shrunk to this first, so
the edges of a close-up card cost no more than those of a distant one."""
ASPECT_TOLERANCE = 0.25
"""How far a seen outline's long/short ratio may stray from the card's: a camera tilted by
35 degrees shortens one direction by a fifth (on a calibrated table, outlines are checked in
table millimetres, to a quarter of this)."""
SIZE_TOLERANCE = (0.7, 1.35)
"""Seen long side over the expected one, when the size is known."""
SIZE_STEPS = (0.93, 1.0, 1.07)
"""Card sizes tried from a corner, as fractions of the size expected: a deck need not be
printed at the table's standard size."""
MIN_SUPPORT = 0.62
"""Fraction of an outline's length that must lie on an edge."""
SHORT_OF_CORNER = 0.6
"""How far short of a corner (a fraction of the card's short side) one of the two straight
pieces proposing it may stop, on a calibrated table: on a busy surface, a side's edge breaks
into pieces."""
MAX_HYPOTHESES = 20
"""Outlines proposed from corners that are looked at closely, best supported first; in an
image larger than ten cards, two per card's area (a whole table: every card's corners
propose it several times over, and a card whose outline is best supported by only one corner
must still get its turn)."""
BETTER_SUPPORT = 0.07
"""Of two outlines on one card, an inner one lying on edges along this much more of its
length is the card: on a pile, an outer outline joins sides of cards beneath."""
CLEARLY_OFF = 0.05
"""An outline whose proportions are off the card's by more than this fraction is clearly not
the card's, when another outline on it has them."""
WEAK_SIDE = 0.5
"""A side of an outline standing out less than this part of its strongest side is looked for
again nearby (on a table, only on an outline whose proportions are clearly off the card's;
in a teaching photo, always)."""
MIN_LONG_SIDE = 36.0
"""The smallest card outline looked for when its size is not known (px)."""


@dataclass(frozen=True)
class CardShape:
    """What is known of the cards' size before looking."""

    aspect: float = 1.5
    """Long side over short side."""
    long_px: float | None = None
    """The long side in image pixels where the cards lie (None: not known)."""
    to_table: np.ndarray | None = None
    """Image pixels to table millimetres (a calibrated table): a seen outline is then checked
    for the card's true size and proportions, whatever the camera's tilt."""
    size_mm: tuple[float, float] = (60.0, 90.0)
    """The card's short and long side, when ``to_table`` is known."""

    @classmethod
    def on_table(cls, aspect: float, long_mm: float, to_table: np.ndarray,
                 origin: tuple[float, float] = (0.0, 0.0),
                 at: tuple[float, float] = (0.0, 0.0)) -> CardShape:
        """Cards of these proportions, ``long_mm`` long, on a table whose image maps to table
        millimetres through ``to_table``, looked for in a crop whose first pixel is ``origin``.
        Their size in pixels is taken at ``at`` (crop pixels); where the camera's tilt makes it
        change across the crop, corner hypotheses try sizes around it (``SIZE_STEPS``)."""
        shift = np.array([[1, 0, origin[0]], [0, 1, origin[1]], [0, 0, 1]], np.float64)
        to_crop_table = to_table @ shift
        x, y = at
        square = np.array([[[x, y], [x + 1.0, y], [x, y + 1.0]]])
        a, b, c = cv2.perspectiveTransform(square, to_crop_table)[0]
        (ux, uy), (vx, vy) = b - a, c - a
        mm_per_px = float(np.sqrt(abs(ux * vy - uy * vx)))  # area of a mapped pixel
        return cls(aspect, long_mm / max(mm_per_px, 1e-9), to_crop_table,
                   (long_mm / aspect, long_mm))


def find_cards(bgr: np.ndarray, shape: CardShape = CardShape()) -> list[np.ndarray]:
    """Card outlines in ``bgr``: 4x2 corner arrays (image pixels), clockwise, the first side a
    short one; best supported first. Outlines cut by the image's edge are left out."""
    if bgr.size == 0 or min(bgr.shape[:2]) < 16:
        return []
    factor = 1.0
    if shape.long_px is not None and shape.long_px > WORK_LONG_SIDE:
        factor = WORK_LONG_SIDE / shape.long_px
    small = bgr if factor == 1.0 else shrunk(bgr, factor)
    edges = edge_map(small)
    expected = None if shape.long_px is None else shape.long_px * factor
    search = _Search(edges, shape, factor, expected)
    segments = search.straight_segments()
    search.consider([_quadrilateral(contour) for contour in search.contours(edges, (3, 5))])
    straight = np.zeros_like(edges)
    for x0, y0, x1, y1 in segments.astype(int):
        cv2.line(straight, (x0, y0), (x1, y1), 255, 1)
    search.consider([_quadrilateral(contour) for contour in search.contours(straight, (3,))])
    hypotheses = _corner_hypotheses(segments, shape.aspect, expected,
                                    search.table_corner if shape.to_table is not None else None)
    if hypotheses:
        # most are wrong (two edges of different things): the whole outline is checked for
        # all of them at once, and only the ones lying on edges are looked at closely
        quads = np.array(hypotheses)
        rough = _supports(search.roughly, quads)
        budget = MAX_HYPOTHESES if expected is None else \
            max(MAX_HYPOTHESES, int(2 * edges.size * shape.aspect / expected ** 2))
        looked = np.empty((budget, 4, 2))
        count = 0
        for k in np.argsort(-rough):
            if rough[k] < MIN_SUPPORT or count == budget:
                break
            if count and np.abs(quads[k] - looked[:count]).max(axis=(1, 2)).min() < 4.0:
                continue  # one card's corners propose it many times over
            looked[count] = quads[k]
            count += 1
        search.consider(list(looked[:count]))
    kept = _distinct(search.look_closely(), search.aspect_errors)
    outlines = [refined(bgr, quad / factor) for _, quad in kept]
    if shape.to_table is not None:
        outlines = [_trimmed(bgr, outline, lambda quad: search.aspect_error(quad * factor))
                    for outline in outlines]
    return [upright_order(outline) for outline in outlines]


ENLARGED_AT_MOST = 1.2
"""How much an image averaged down by a whole number of pixels may be enlarged again to reach
the working size: more, and it would be blurred."""


def shrunk(bgr: np.ndarray, factor: float) -> np.ndarray:
    """``bgr`` scaled by ``factor`` (< 1), each pixel the mean of those it covers. Where the
    factor is a little over the inverse of a whole number, averaged down by that number
    (OpenCV's fast path, five times quicker than averaging by a fraction) and enlarged the
    little rest of the way: a pixel maps to the same place either way."""
    whole = int(np.ceil(1.0 / factor - 1e-9))
    if whole == 1 or factor * whole > ENLARGED_AT_MOST:
        return cv2.resize(bgr, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    averaged = cv2.resize(bgr, None, fx=1.0 / whole, fy=1.0 / whole,
                          interpolation=cv2.INTER_AREA)
    return cv2.resize(averaged, None, fx=factor * whole, fy=factor * whole,
                      interpolation=cv2.INTER_LINEAR)


class _Search:
    """The candidates found so far, and the tests a candidate must pass."""

    def __init__(self, edges: np.ndarray, shape: CardShape, factor: float,
                 expected: float | None) -> None:
        self.edges, self.shape, self.factor = edges, shape, factor
        self.near = cv2.dilate(edges, np.ones((3, 3), np.uint8)) > 0
        self.roughly = cv2.dilate(edges, np.ones((7, 7), np.uint8)) > 0
        height, width = edges.shape
        self.size = (width, height)
        self.low, self.high = _length_range(expected, width, height)
        self.tried: list[np.ndarray] = []

    def contours(self, mask: np.ndarray, brushes: tuple[int, ...]) -> list[np.ndarray]:
        """Contours of ``mask`` closed with each brush, of about a card's extent, whole."""
        width, height = self.size
        kept = []
        for brush in brushes:
            closed = cv2.dilate(mask, np.ones((brush, brush), np.uint8))
            contours, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
            for contour in contours:
                x, y, w, h = cv2.boundingRect(contour)
                if max(w, h) < self.low * 0.55 or max(w, h) > self.high * 1.1:
                    continue
                if x <= 1 or y <= 1 or x + w >= width - 1 or y + h >= height - 1:
                    continue  # cut by the image's edge: a partial card is never read
                kept.append(contour)
        return kept

    def straight_segments(self) -> np.ndarray:
        """Straight pieces of edge (N x 4: x0, y0, x1, y1): a card's sides are straight, wood
        grain, a painting or a cloth's pattern mostly not."""
        shortest = max(12.0, self.low / self.shape.aspect * 0.3)
        lines = cv2.HoughLinesP(self.edges, 1, np.pi / 180, int(shortest * 0.6),
                                minLineLength=shortest, maxLineGap=5)
        return np.zeros((0, 4)) if lines is None else lines.reshape(-1, 4).astype(np.float64)

    def consider(self, quads: list[np.ndarray | None]) -> None:
        """Keep each of ``quads`` to be looked at closely if it roughly fits a card and is
        new, in order."""
        given = [quad for quad in quads if quad is not None]
        if not given:
            return
        for quad, fits in zip(given, self._fits(np.array(given), slack=1.6)):
            if not fits:
                continue
            if self.tried and \
                    np.abs(np.array(self.tried) - quad).max(axis=(1, 2)).min() < 3.0:
                continue  # the same outline found another way
            self.tried.append(quad)

    def look_closely(self) -> list[tuple[float, np.ndarray]]:
        """The outlines considered that lie on edges, each snapped onto them, with the
        fraction of its length that does. All of them at once: one look at the edge map
        for them all costs a fraction of one look each."""
        width, height = self.size
        inside = [quad for quad in self.tried if quad.min() >= 1 and
                  quad[:, 0].max() <= width - 2 and quad[:, 1].max() <= height - 2]
        if not inside:
            return []
        quads = np.array(inside)
        # a contour's polygon lies a pixel or two off the edge: roughly
        quads = quads[_supports_along(self.roughly, quads) >= MIN_SUPPORT]
        if len(quads) == 0:
            return []
        quads = snapped_many(self.near, quads)
        quads = quads[self._fits(quads)]
        if len(quads) == 0:
            return []
        supports = _supports_along(self.near, quads)
        return [(float(support), quad) for support, quad in zip(supports, quads)
                if support >= MIN_SUPPORT]

    def table_corner(self, corners: np.ndarray, along_u: np.ndarray,
                     along_v: np.ndarray) -> list[np.ndarray]:
        """Cards of the true size in millimetres at each corner (working-image points and the
        two edges' directions), both ways round, back in working-image pixels: on a tilted
        view a card's size in pixels changes across the frame."""
        to_table = self.shape.to_table
        assert to_table is not None
        if len(corners) == 0:
            return []
        scale = 1.0 / self.factor
        points = np.concatenate([corners, corners + along_u * 0.25, corners + along_v * 0.25])
        table = cv2.perspectiveTransform((points * scale)[None], to_table)[0]
        n = len(corners)
        origin, u, v = table[:n], table[n:2 * n] - table[:n], table[2 * n:] - table[:n]
        u /= np.maximum(np.linalg.norm(u, axis=1), 1e-9)[:, None]
        v -= (v * u).sum(axis=1)[:, None] * u  # square the corner
        v /= np.maximum(np.linalg.norm(v, axis=1), 1e-9)[:, None]
        quads = []
        to_image = np.linalg.inv(to_table)
        sizes = [(long_ * k, short * k) for k in SIZE_STEPS
                 for short, long_ in [self.shape.size_mm]]
        for side_u, side_v in sizes + [(b, a) for a, b in sizes]:
            rectangle = np.stack([origin, origin + side_u * u, origin + side_u * u + side_v * v,
                                  origin + side_v * v], axis=1)  # n x 4 x 2
            back = cv2.perspectiveTransform(rectangle.reshape(1, -1, 2), to_image)[0]
            quads.extend(back.reshape(n, 4, 2) / scale)
        return quads

    def aspect_error(self, quad: np.ndarray) -> float:
        """How far an outline's proportions on the table are from the card's (0 when the
        table is not known: a photo's card may have any proportions)."""
        return float(self.aspect_errors(quad[None])[0])

    def aspect_errors(self, quads: np.ndarray) -> np.ndarray:
        """``aspect_error`` of many outlines (N x 4 x 2) at once."""
        if self.shape.to_table is None:
            return np.zeros(len(quads))
        short_mm, long_mm = self.shape.size_mm
        first, second = _mean_sides(_sides(self._on_table(quads)))
        seen = np.maximum(first, second) / np.maximum(np.minimum(first, second), 1e-9)
        return np.abs(seen / (long_mm / short_mm) - 1)

    def _on_table(self, quads: np.ndarray) -> np.ndarray:
        """Outlines (N x 4 x 2, working-image pixels) in table millimetres."""
        assert self.shape.to_table is not None
        points = (quads / self.factor).reshape(1, -1, 2)
        return cv2.perspectiveTransform(points, self.shape.to_table).reshape(quads.shape)

    def _fits(self, quads: np.ndarray, slack: float = 1.0) -> np.ndarray:
        """Which of the outlines (N x 4 x 2) fit a card: in table millimetres on a calibrated
        table, else in pixels."""
        if self.shape.to_table is None:
            return _fits(quads, self.shape.aspect, self.low, self.high, slack)
        short_mm, long_mm = self.shape.size_mm
        return _convex(quads) & _fits(self._on_table(quads), long_mm / short_mm,
                                      long_mm * SIZE_TOLERANCE[0], long_mm * SIZE_TOLERANCE[1],
                                      slack * 0.6, skew=1.25)


def _corner_hypotheses(segments: np.ndarray, aspect: float, expected: float | None,
                       on_table: Callable[[np.ndarray, np.ndarray, np.ndarray],
                                          list[np.ndarray]] | None = None) -> list[np.ndarray]:
    """Cards proposed from two straight edges meeting at a corner (a card whose other sides are
    lost in a busy background, or covered): the corner, the two sides' directions, and the
    card's proportions give the rest."""
    if len(segments) < 2:
        return []
    starts, ends = segments[:, :2], segments[:, 2:]
    directions = ends - starts
    lengths = np.linalg.norm(directions, axis=1)
    units = directions / np.maximum(lengths, 1e-9)[:, None]
    first, second = np.nonzero(np.triu(np.abs(units @ units.T) < 0.5, 1))  # near right angles
    if len(first) == 0:
        return []
    # where each pair's lines cross, all pairs at once
    r, q = directions[first], directions[second]
    denominator = r[:, 0] * q[:, 1] - r[:, 1] * q[:, 0]
    gap = starts[second] - starts[first]
    t = (gap[:, 0] * q[:, 1] - gap[:, 1] * q[:, 0]) / np.where(denominator == 0, 1e-9,
                                                                  denominator)
    corners = starts[first] + t[:, None] * r
    # the corner must lie at one end of each piece, not in its middle; on a busy table a
    # side's edge breaks into pieces, so one of the two may stop short of the corner (in a
    # teaching photo, the card fills much of it and its sides are whole)
    short_of = 0.0 if on_table is None or expected is None else \
        SHORT_OF_CORNER * expected / aspect
    at_end, stops_short, away, reach = [], [], [], []  # for each piece of a pair
    for index in (first, second):
        to_start = np.linalg.norm(starts[index] - corners, axis=1)
        to_end = np.linalg.norm(ends[index] - corners, axis=1)
        nearer = np.minimum(to_start, to_end)
        at_end.append(nearer <= np.maximum(6.0, 0.15 * lengths[index]))
        beyond = np.maximum(to_start, to_end) > lengths[index] + 1e-6  # the corner past an end
        stops_short.append(beyond & (nearer <= short_of))
        far = np.where((to_end > to_start)[:, None], ends[index], starts[index])
        away.append(far - corners)  # along the piece, away from the corner
        reach.append(np.maximum(to_start, to_end))
    keep = np.nonzero((at_end[0] | stops_short[0]) & (at_end[1] | stops_short[1])
                      & (at_end[0] | at_end[1]))[0]
    if on_table is not None:
        return on_table(corners[keep], away[0][keep], away[1][keep])
    middles = (starts + ends) / 2
    quads: list[np.ndarray] = []
    for k in keep.tolist():
        corner = corners[k]
        u, v, a, b = away[0][k], away[1][k], reach[0][k], reach[1][k]
        u, v = u / max(a, 1e-9), v / max(b, 1e-9)
        if expected is not None:
            sides = [(expected, expected / aspect), (expected / aspect, expected)]
        else:  # how far the opposite sides are: straight pieces across each direction
            sides = _opposites(corner, u, v, a, b, middles, units, lengths, aspect)
        for side_u, side_v in sides:
            quads.append(np.array([corner, corner + side_u * u, corner + side_u * u + side_v * v,
                                   corner + side_v * v]))
    return quads


def _opposites(corner: np.ndarray, u: np.ndarray, v: np.ndarray, a: float, b: float,
               middles: np.ndarray, units: np.ndarray, lengths: np.ndarray,
               aspect: float) -> list[tuple[float, float]]:
    """Side lengths for a corner of unknown size: the distances to straight pieces parallel to
    each side and facing it (the opposite sides, if seen), paired when they have the card's
    proportions; or the longer seen side and the proportions."""
    offset = middles - corner
    along_u, along_v = offset @ u, offset @ v
    across_u = np.abs(units @ v) > 0.95  # parallel to v: a side opposite the one along v
    across_v = np.abs(units @ u) > 0.95
    far_u = along_u[across_u & (along_u > 0.3 * b) & (along_v > 0) & (along_v < 1.2 * b + 8)
                    & (lengths > 0.25 * b)]
    far_v = along_v[across_v & (along_v > 0.3 * a) & (along_u > 0) & (along_u < 1.2 * a + 8)
                    & (lengths > 0.25 * a)]
    lengths_u = sorted(set(np.round(far_u).tolist()) | {round(a)})[:6]
    lengths_v = sorted(set(np.round(far_v).tolist()) | {round(b)})[:6]
    sides = [(su, sv) for su in lengths_u for sv in lengths_v
             if abs(max(su, sv) / max(min(su, sv), 1e-9) / aspect - 1) <= ASPECT_TOLERANCE]
    if a >= b:
        sides += [(a, a / aspect), (a, a * aspect)]
    else:
        sides += [(b / aspect, b), (b * aspect, b)]
    return sides


def edge_map(bgr: np.ndarray) -> np.ndarray:
    """Edges in brightness and in colour (a dark card on a dark cloth still differs in hue)."""
    lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (3, 3), 0), cv2.COLOR_BGR2LAB)
    light, a, b = cv2.split(lab)
    edges = cv2.Canny(light, 40, 110, L2gradient=True)
    for channel in (a, b):
        edges |= cv2.Canny(channel, 18, 45, L2gradient=True)
    return edges


def _length_range(expected: float | None, width: int, height: int) -> tuple[float, float]:
    if expected is None:
        return MIN_LONG_SIDE, float(max(width, height))
    return expected * SIZE_TOLERANCE[0], expected * SIZE_TOLERANCE[1]


def _quadrilateral(contour: np.ndarray) -> np.ndarray | None:
    """Four corners fitted to a contour: its hull's polygon when that has four sides; else the
    lines through its four longest sides, when they close into a quadrilateral (a corner is
    covered)."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    if perimeter < 40:
        return None
    polygon = cv2.approxPolyDP(hull, 0.025 * perimeter, True).reshape(-1, 2).astype(np.float64)
    if len(polygon) == 4:
        return polygon
    if not 5 <= len(polygon) <= 8:
        return None
    sides = [(polygon[k], polygon[(k + 1) % len(polygon)]) for k in range(len(polygon))]
    lengths = [float(np.linalg.norm(b - a)) for a, b in sides]
    longest = sorted(sorted(range(len(sides)), key=lambda k: -lengths[k])[:4])
    if sum(lengths[k] for k in longest) < 0.75 * perimeter:
        return None
    corners = []
    for i, k in enumerate(longest):
        crossing = _intersection(sides[k], sides[longest[(i + 1) % 4]])
        if crossing is None:
            return None
        corners.append(crossing)
    quad = np.array(corners)
    if cv2.contourArea(quad.astype(np.float32)) < cv2.contourArea(hull) * 0.98:
        return None  # the four sides do not enclose the whole outline
    return quad


def _intersection(first: tuple[np.ndarray, np.ndarray],
                  second: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    (a, b), (c, d) = first, second
    r, s = b - a, d - c
    denominator = r[0] * s[1] - r[1] * s[0]
    if abs(denominator) < 1e-6 * np.linalg.norm(r) * np.linalg.norm(s):
        return None  # parallel
    t = ((c[0] - a[0]) * s[1] - (c[1] - a[1]) * s[0]) / denominator
    return a + t * r


def _fits(quads: np.ndarray, aspect: float, low: float, high: float, slack: float = 1.0,
          skew: float = 1.6) -> np.ndarray:
    """Which quadrilaterals (N x 4 x 2) have a card's proportions and size (``slack`` widens
    the aspect tolerance, for a first rough look; ``skew`` bounds how much longer one side may
    be than the side opposite, which perspective allows)."""
    sides = _sides(quads)
    first, second = _mean_sides(sides)
    long_, short = np.maximum(first, second), np.minimum(first, second)
    opposite = np.maximum(sides[:, :2], sides[:, 2:]) <= skew * np.minimum(sides[:, :2],
                                                                           sides[:, 2:])
    with np.errstate(divide="ignore", invalid="ignore"):  # a side under 8 px fails anyway
        proportions = np.abs(long_ / short / aspect - 1) <= ASPECT_TOLERANCE * slack
    return (_convex(quads) & (sides.min(axis=1) >= 8) & (low <= long_) & (long_ <= high)
            & opposite.all(axis=1) & proportions)


def _sides(quads: np.ndarray) -> np.ndarray:
    """The lengths of each quadrilateral's four sides (N x 4 x 2 -> N x 4)."""
    return np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)


def _mean_sides(sides: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each quadrilateral's side lengths (N x 4), the mean of its first and third sides
    and that of its second and fourth."""
    return (sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2


def _convex(quads: np.ndarray) -> np.ndarray:
    return np.array([cv2.isContourConvex(quad.astype(np.float32)) for quad in quads], bool)


def _hits(near: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Whether each point (..., 2) falls on the mask (points outside it do not)."""
    return _hits_at(near, points[..., 0], points[..., 1])


def _hits_at(near: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``_hits`` of the points (``xs``, ``ys``)."""
    height, width = near.shape
    padded = np.pad(near, 1)  # unset all round: a point outside lands there
    columns = np.clip(np.rint(xs), -1, width).astype(np.intp) + 1
    rows = np.clip(np.rint(ys), -1, height).astype(np.intp) + 1
    return np.take(padded.ravel(), rows * (width + 2) + columns)


def _supports(near: np.ndarray, quads: np.ndarray, samples: int = 24) -> np.ndarray:
    """``_supports_along`` roughly, for many quadrilaterals at once: ``samples`` points a
    side, however long it is."""
    t = (np.arange(samples) + 0.5) / samples
    steps = np.roll(quads, -1, axis=1) - quads
    # x and y apart: an array of pairs is slow to broadcast over
    xs = quads[..., 0, None] + t * steps[..., 0, None]  # quad x side x sample
    ys = quads[..., 1, None] + t * steps[..., 1, None]
    return _hits_at(near, xs, ys).reshape(len(quads), -1).mean(axis=1)


def _supports_along(near: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """For each quadrilateral (N x 4 x 2), the fraction of its outline's length that lies on
    an edge (within a pixel): a point every pixel along each side, at least four a side."""
    starts = quads.reshape(-1, 2)
    steps_along = np.roll(quads, -1, axis=1).reshape(-1, 2) - starts
    steps = np.maximum(4, np.linalg.norm(steps_along, axis=1).astype(np.intp))
    side = np.repeat(np.arange(len(steps)), steps)
    first = np.cumsum(steps) - steps
    t = (np.arange(int(steps.sum())) - first[side] + 0.5) / steps[side]
    hits = _hits(near, starts[side] + t[:, None] * steps_along[side])
    per_quad = steps.reshape(-1, 4).sum(axis=1)
    return np.add.reduceat(hits.astype(np.intp), first[::4]) / per_quad


SNAP_SHIFTS = np.arange(-3.0, 3.5, 1.0)
SNAP_TURNS = np.radians(np.arange(-3.0, 3.5, 1.5))
SNAP_SAMPLES = 32


def snapped(near: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Each side moved (a few pixels, a few degrees) onto the edge that supports it best, and
    the corners found again where the sides meet: a contour's polygon is only roughly on the
    outline, and the reader needs the corners to the pixel."""
    return snapped_many(near, quad[None])[0]


def snapped_many(near: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """``snapped`` for many quadrilaterals (N x 4 x 2) at once."""
    a, b = quads, np.roll(quads, -1, axis=1)
    middles, halves = (a + b) / 2, np.linalg.norm(b - a, axis=2) / 2  # N x 4 (x 2)
    units = (b - a) / np.maximum(2 * halves, 1e-9)[..., None]
    cos, sin = np.cos(SNAP_TURNS), np.sin(SNAP_TURNS)
    # along[quad, side, turn] and normal[quad, side, turn]: each side turned a little
    along = np.stack([units[..., None, 0] * cos - units[..., None, 1] * sin,
                      units[..., None, 0] * sin + units[..., None, 1] * cos], axis=-1)
    normal = np.stack([-along[..., 1], along[..., 0]], axis=-1)
    t = np.linspace(-0.85, 0.85, SNAP_SAMPLES) * halves[..., None]  # quad x side x sample
    points = (middles[:, :, None, None, None, :]
              + SNAP_SHIFTS[None, None, None, :, None, None] * normal[:, :, :, None, None, :]
              + t[:, :, None, None, :, None] * along[:, :, :, None, None, :])
    scores = _hits(near, points).mean(axis=-1)  # quad x side x turn x shift
    best = scores.reshape(*scores.shape[:2], -1).argmax(axis=-1)  # the first best, as argmax
    turn, shift = np.unravel_index(best, scores.shape[2:])
    quad_index, side_index = np.indices(best.shape)
    centres = middles + SNAP_SHIFTS[shift][..., None] * normal[quad_index, side_index, turn]
    directions = along[quad_index, side_index, turn] * halves[..., None]
    return _crossings(centres - directions, centres + directions, quads)


def _crossings(starts: np.ndarray, ends: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """``_corners_of`` for many outlines at once: each side k of an outline runs from
    ``starts[:, k]`` to ``ends[:, k]`` (N x 4 x 2), and corner k is where side k - 1 meets
    side k (``fallback``'s corner where they are parallel)."""
    a, b = np.roll(starts, 1, axis=1), np.roll(ends, 1, axis=1)  # side k - 1
    r, q = b - a, ends - starts
    denominator = r[..., 0] * q[..., 1] - r[..., 1] * q[..., 0]
    parallel = np.abs(denominator) < 1e-6 * np.linalg.norm(r, axis=-1) * \
        np.linalg.norm(q, axis=-1)
    t = ((starts[..., 0] - a[..., 0]) * q[..., 1] - (starts[..., 1] - a[..., 1]) * q[..., 0]) \
        / np.where(parallel, 1.0, denominator)
    return np.where(parallel[..., None], fallback, a + t[..., None] * r)


REFINE_SAMPLES = 24
"""Points per side where the outline's edge is looked for in the full image."""
REFINE_REACH = 0.045
"""How far across a side (a fraction of its length, at least ``MIN_REACH`` px) its edge is
looked for: a working-image corner is off by a few pixels, a side turned by a degree or two."""
MIN_REACH = 3.0
_REFINE_T = (np.arange(REFINE_SAMPLES) + 0.5) / REFINE_SAMPLES * 0.9 + 0.05
"""Where along a side (fractions of its length) its edge is sampled."""


def refined(bgr: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The outline's corners to a fraction of a pixel: each side moved onto the straight
    change of colour that runs along it in the full image. The outline is found in a shrunken
    image, a pixel or two off there, and a coordinate's place on the face is taken from the
    corners: a few pixels off, it reads another place."""
    corners = np.asarray(quad, np.float64)
    centre = corners.mean(axis=0)
    lines = [_edge_line(bgr, corners[k], corners[(k + 1) % 4], centre)[0] for k in range(4)]
    result = _corners_of(lines, corners)
    side = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1).min()
    if np.abs(result - corners).max() > max(2 * MIN_REACH, REFINE_REACH * 2 * side) or \
            not cv2.isContourConvex(result.astype(np.float32)):
        return corners  # the sides met somewhere else: keep the outline as found
    return result


def side_contrasts(bgr: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """For each side of an outline, how strongly the colour changes across it, all along it
    (Lab units): a card's four sides all stand out; an outline that strays onto the table or
    the art shows it in one side that does not."""
    corners = np.asarray(quad, np.float64)
    centre = corners.mean(axis=0)
    return np.array([_edge_line(bgr, corners[k], corners[(k + 1) % 4], centre, reach=1.0)[1]
                     for k in range(4)])


def moved_side(bgr: np.ndarray, quad: np.ndarray, side: int, reach: float) -> np.ndarray:
    """The outline with one side moved, kept parallel, to the strongest straight change of
    colour within ``reach`` pixels of it (an outline that found three sides of a card and ran
    past the fourth where the card's edge fades into the table)."""
    corners = np.asarray(quad, np.float64)
    a, b = corners[side], corners[(side + 1) % 4]
    line, _ = _edge_line(bgr, a, b, corners.mean(axis=0), reach=reach, parallel=True)
    if line is None:
        return corners
    lines = [(corners[k], corners[(k + 1) % 4]) for k in range(4)]
    lines[side] = line
    return _corners_of(lines, corners)


def _trimmed(bgr: np.ndarray, quad: np.ndarray,
             aspect_error: Callable[[np.ndarray], float]) -> np.ndarray:
    """An outline whose proportions are clearly off the card's (``CLEARLY_OFF``) and whose
    weakest side stands out far less than the others (``WEAK_SIDE``) ran past the card's edge
    there, where it fades into the table: that side moved to the strongest straight edge
    near it, if the card's proportions come of it."""
    error = aspect_error(quad)
    if error <= CLEARLY_OFF:
        return quad
    contrasts = side_contrasts(bgr, quad)
    side = int(np.argmin(contrasts))
    if contrasts[side] >= WEAK_SIDE * contrasts.max():
        return quad
    across = float(np.linalg.norm(quad[(side + 2) % 4] - quad[(side + 1) % 4]))
    moved = refined(bgr, moved_side(bgr, quad, side, 2 * error * across))
    if not cv2.isContourConvex(moved.astype(np.float32)) or \
            aspect_error(moved) > CLEARLY_OFF / 2 or \
            side_contrasts(bgr, moved)[side] <= contrasts[side]:
        return quad
    return moved


def _corners_of(lines: list, fallback: np.ndarray) -> np.ndarray:
    """Where each side's line meets the next (a corner stays where it was when its two
    lines are unknown or parallel)."""
    out = []
    for k in range(4):
        crossing = None
        if lines[k - 1] is not None and lines[k] is not None:
            crossing = _intersection(lines[k - 1], lines[k])
        out.append(fallback[k] if crossing is None else crossing)
    return np.array(out)


def _edge_line(bgr: np.ndarray, a: np.ndarray, b: np.ndarray, inside: np.ndarray,
               reach: float | None = None, parallel: bool = False
               ) -> tuple[tuple[np.ndarray, np.ndarray] | None, float]:
    """The side from ``a`` to ``b`` as it lies on the image's edge, and how strongly the colour
    changes across it (None when nothing changes). Every line near the side is scored by the
    change of colour across it, all along it: a card's edge is straight and runs the whole
    side, a painting's shapes near it do not. Of lines scoring nearly as well as the best, the
    outermost is the card's edge (a frame printed just inside it is straight too)."""
    length = float(np.linalg.norm(b - a))
    if length < 8:
        return None, 0.0
    along = (b - a) / length
    normal = np.array([-along[1], along[0]])
    if np.dot(inside - a, normal) > 0:
        normal = -normal  # outwards
    if reach is None:
        reach = max(MIN_REACH, REFINE_REACH * length)
    span = int(np.ceil(reach))
    offsets = np.arange(-span - 1, span + 2, dtype=np.float64)
    t = _REFINE_T
    points = (a[None, None] + (t * length)[:, None, None] * along[None, None]
              + offsets[None, :, None] * normal[None, None])  # sample x offset x 2
    maps = points.astype(np.float32)
    profile = cv2.remap(bgr, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(profile, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 1:] *= 2.0  # colour counts as much as brightness (a dark card on dark cloth)
    step = np.linalg.norm(lab[:, 2:] - lab[:, :-2], axis=-1)  # at offsets[1:-1]
    across, low, weight = _lines_across(span, parallel)
    rows = np.arange(len(t))[None, :]
    scores = (step[rows, low] * (1 - weight) + step[rows, low + 1] * weight).mean(axis=1)
    best = float(scores.max())
    if best < 6.0:
        return None, best  # nothing there that changes: keep the side as found
    good = np.nonzero(scores >= 0.8 * best)[0]
    chosen = good[np.argmax(across[good].mean(axis=1))]
    first, last = across[chosen, 0], across[chosen, -1]
    p0 = a + t[0] * length * along + first * normal
    p1 = a + t[-1] * length * along + last * normal
    return (p0, p1), best


@lru_cache(maxsize=8)
def _lines_across(span: int, parallel: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The lines ``_edge_line`` scores, the same for every side of a span: each line's offset
    across the side at each sample (line x sample, pixels), and where that falls between
    the profile's steps (the lower step's index and the weight of the next). A few spans are
    kept (cards on one table come in a few sizes; a span of 20 px holds about 4 MB)."""
    t = _REFINE_T
    ends = np.arange(-span, span + 0.25, 0.5)
    if parallel:
        across = np.repeat(ends[:, None], len(t), axis=1)
    else:  # lines from (start offset, end offset), half a pixel apart
        start, finish = np.meshgrid(ends, ends, indexing="ij")
        across = start.ravel()[:, None] + (finish - start).ravel()[:, None] * \
            ((t - t[0]) / (t[-1] - t[0]))[None, :]
    position = across + span
    low = np.clip(np.floor(position).astype(np.intp), 0, 2 * span - 1)  # 2 span + 1 steps
    weight = position - low
    for array in (across, low, weight):
        array.flags.writeable = False
    return across, low, weight


def _distinct(found: list[tuple[float, np.ndarray]],
              aspect_errors: Callable[[np.ndarray], np.ndarray]
              ) -> list[tuple[float, np.ndarray]]:
    """One outline per card: of outlines lying on one another with about the same size (a
    contour's inner and outer side, a frame printed just inside the card's edge), the
    outermost one is the card, unless an inner one lies on edges along ``BETTER_SUPPORT``
    more of its length (an outer outline joining sides of cards beneath, on a pile) or the
    outer one's proportions are clearly not the card's and an inner one's are (an outline
    that ran on along a line on the table). A
    smaller one inside stays a candidate of its own (a printed panel of card proportions):
    the reader tells it is no card."""
    if not found:
        return []
    errors = aspect_errors(np.array([quad for _, quad in found]))
    areas = [cv2.contourArea(quad.astype(np.float32)) for _, quad in found]
    order = sorted(range(len(found)), key=lambda k: -areas[k])
    kept: list[int] = []  # indices into found
    for k in order:
        support, quad = found[k]
        center = quad.mean(axis=0)
        clash = next((i for i, j in enumerate(kept)
                      if cv2.pointPolygonTest(found[j][1].astype(np.float32),
                                              (float(center[0]), float(center[1])), False) >= 0
                      and areas[k] > 0.6 * areas[j]
                      and _overlap(quad, found[j][1], areas[k], areas[j]) > 0.5), None)
        if clash is None:
            kept.append(k)
        elif support > found[kept[clash]][0] + BETTER_SUPPORT:
            kept[clash] = k  # the outer one was a poor fit: the inner is the card
        else:
            outer, inner = errors[kept[clash]], errors[k]
            if outer > CLEARLY_OFF and inner < outer / 2:
                kept[clash] = k
    return sorted((found[k] for k in kept), key=lambda item: -item[0])


def _overlap(a: np.ndarray, b: np.ndarray, area_a: float, area_b: float) -> float:
    """Intersection over the smaller area (the two outlines' areas given)."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area) / max(min(area_a, area_b), 1e-6)


def upright_order(quad: np.ndarray) -> np.ndarray:
    """Corners clockwise (in image coordinates) with the first side a short one."""
    center = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - center[1], quad[:, 0] - center[0])
    quad = quad[np.argsort(angles)]
    if np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[2] - quad[1]):
        quad = np.roll(quad, -1, axis=0)
    start = int(np.argmin(quad[[0, 2], 1])) * 2  # of the two short sides, the upper one first
    return np.roll(quad, -start, axis=0)

