"""The vision pipeline: frames in, observations out.

``read_still`` reads one image completely (``companion scan``). ``process`` is the live loop:
markers are found now and then (the camera does not move), only regions that changed and have
settled are read, what was read stays until its region changes again, and the debounced view
is what the tracker sees. A frame reads at most ``READS_PER_FRAME`` windows of what changed
for codes, and one card area (the pile or the scan tray) for cards or, in a frame that reads
no card area, a step of the pieces' read; the rest waits for the next frames, so a hand
passing over the whole table never stalls a frame. Where two views share a frame's time (the
table's and the tray's), only one of them does such heavy work in a frame (``heavy``). Neither
ever raises on a bad frame: problems are reported instead.

Cards are read only with a deck taught from the user's photos (``calibration.cards``); until
then they are left alone and ``read_still`` says so. The pieces are read only on a ring found
as a game started (``calibration.ring``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.observations import DISCARD_ZONE, TRAY_ZONE
from companion.observations import (CardSeen, CodeSeen, Corners, MarkerSeen, Observation,
                                    PiecesSeen, Problem, TileSeen)
from vision.cards import CardModel, read_cards
from vision.changes import ChangeTracker
from vision.config import Calibration
from vision.debounce import Debouncer
from vision.layout import CARD_SIZE, TILE_SIZE, TableLayout
from vision.pieces import Read, Reading, read_pieces, reading_pieces
from vision.rectify import MarkerDetector, Rectification, rectify, to_corners
from vision.stickers import ATTEMPTS, STILL_ATTEMPTS, Box, read_stickers

log = logging.getLogger(__name__)

WINDOW = 512
"""Largest region read at once: the decoders read a code more reliably in a crop around it than
in a whole frame, and one window's reading is a frame's share of work; bigger regions are read
as overlapping windows."""
WINDOW_OVERLAP = 224
"""More than a tile's diagonal at the sizes we read, so every tile is whole in some window."""
CARD_ZONES = (DISCARD_ZONE, TRAY_ZONE)
"""Where cards are read on a rectified table: the pile (what was played) and the scan tray
(teaching, and a card shown to the camera); where both wait to be read, in this order."""
READS_PER_FRAME = 1
"""Windows read for codes per live frame: the others wait for the frames after it."""
PIECES_SETTLE = 3
"""Frames the table must stay still after a change before the pieces are read again."""
NOT_TAUGHT = Problem("cards_not_taught", "the deck has not been taught, so cards are not read: "
                     "teach it on the calibration screen or with 'companion calibrate cards'")


@dataclass
class _Found:
    """Something read, kept until the region it lies in changes again."""

    corners: Corners
    tile: TileSeen | None = None
    card: CardSeen | None = None
    problem: Problem | None = None
    code: CodeSeen | None = None

    @property
    def center(self) -> tuple[float, float]:
        return _center(self.corners)


@dataclass(frozen=True)
class PipelineResult:
    raw: Observation
    """Everything currently read, frame by frame."""
    stable: Observation
    """What has been steady for a few frames: what the tracker should use."""
    regions_read: int
    """Windows and card areas read in this frame (the others wait: see ``waiting``)."""
    waiting: int = 0
    pieces_step: bool = False
    """A step of the pieces' read was done in this frame."""
    card_area_read: bool = False
    """A card area was read in this frame (the slowest read of all)."""


@dataclass
class Pipeline:
    calibration: Calibration = field(default_factory=Calibration)
    marker_every: int = 90
    """Frames between marker searches once the table is rectified. A search due waits for a
    frame that reads no window (a search and a window's read in one frame would be the
    slowest frames of all), but never more than as long again."""

    def __post_init__(self) -> None:
        self.layout = self.calibration.layout
        self._markers = MarkerDetector()
        self._changes = ChangeTracker()
        self._found: list[_Found] = []
        self._waiting: list[Box] = []
        self._cards_due: dict[str | None, Box] = {}
        """For each card area (by zone; None: the whole frame, on a table not rectified),
        all that changed in it since its cards were last read: an area is read once for all
        the windows a hand's passing over it queues."""
        self._marker_list: list[MarkerSeen] = []
        self._rectification: Rectification | None = None
        self._since_markers = 0
        self._pieces: PiecesSeen | None = None
        """The pieces as last read on a settled table; None while something moves (a hand
        over the table commits nothing) and until the table settles again."""
        self._ring_lost: str | None = None
        """Why the ring no longer fits the view, as last logged (None: it fits)."""
        self._quiet = 0
        """Frames since the table last changed (or since the first)."""
        self._reading: Reading | None = None
        """The pieces' read under way, a step per frame (a whole read in one frame would be
        the slowest frame of all); dropped when the table changes."""
        self._read: Read | None = None
        """A read done, kept until the table has been still long enough to commit it."""
        self._tiles: Debouncer[str, TileSeen] = Debouncer()
        self._cards: Debouncer[tuple[str, str | None], CardSeen] = Debouncer()

    @property
    def model(self) -> CardModel | None:
        """The deck as taught now: teaching on the touchscreen replaces it while the camera
        runs, and the next frame reads with it."""
        return self.calibration.cards

    # -- one image -----------------------------------------------------------------------------

    def read_still(self, bgr: np.ndarray) -> Observation:
        """Everything in one image, read from scratch."""
        problem = _bad_frame(bgr)
        if problem is not None:
            return Observation(problems=(problem,))
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        markers = self._markers.detect(gray, quick=True)
        rectification = rectify(markers, self.layout) or self._calibrated(gray.shape)
        h, w = gray.shape
        whole = Box(0, 0, w, h)
        found = self._read_stickers(gray, whole, rectification, markers, STILL_ATTEMPTS)
        if self.model is not None:
            areas = _card_areas(self.layout, rectification, w, h).values()
            found += self._read_cards(bgr, whole, rectification, list(areas), still=True)
        observation = _observation(found, markers)
        notes: tuple[Problem, ...] = ()
        if rectification is None:
            notes += (Problem("no_table", "fewer than two table markers in view and no "
                              "calibration for this image size: zones are unknown"),)
        if self.model is None:
            notes += (NOT_TAUGHT,)
        pieces = None
        if self.calibration.ring is not None:
            pieces, seen = read_pieces(bgr, self.calibration.ring)
            notes += seen
        return Observation(observation.cards, observation.tiles, observation.markers,
                           observation.problems + notes, observation.codes, pieces)

    # -- the live loop -------------------------------------------------------------------------

    def process(self, bgr: np.ndarray, heavy: bool = True) -> PipelineResult:
        """One live frame. ``heavy`` False: another view read a card area or stepped the
        pieces' read in this frame's time (two views share one frame), so this one leaves
        its own such work for the next frame and reads only a window for codes."""
        problem = _bad_frame(bgr)
        if problem is not None:
            raw = Observation(problems=(problem,))
            return PipelineResult(raw, self._debounced([]), 0)
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        self._since_markers += 1
        if self._rectification is None:
            self._update_markers(gray)  # nothing can be placed on the table without them
        h, w = gray.shape
        boxes = self._changes.update(gray)
        reach = self._thing_px() if boxes else 0  # only a changed frame needs it
        areas = _card_areas(self.layout, self._rectification, w, h) \
            if boxes or self._cards_due else {}
        for changed in boxes:
            stale = [f for f in self._found if changed.contains(*f.center)]
            box = _union([Box(changed.x - reach, changed.y - reach, changed.w + 2 * reach,
                              changed.h + 2 * reach)] + [_extent(f.corners) for f in stale])
            box = box.clip(w, h)  # whole tiles at the region's edge, and all of what was there
            self._found = [f for f in self._found if f not in stale]
            # windows over a card area first (a tile shown in the tray), whichever change
            # they came with; within each, the newest change first (what a player just did).
            # Windows still waiting inside this box are read again with it: dropped.
            queue = _windows(box) + [b for b in self._waiting if not _inside(b, box)]
            self._waiting = sorted(queue, key=lambda b: not _over_any(b, areas.values()))
            for zone, area in areas.items():
                if area.overlaps(box) and self.model is not None:
                    due = self._cards_due.get(zone)
                    self._cards_due[zone] = box if due is None else _union([due, box])
        reads = 0
        card_area = False
        if heavy and self._cards_due and self.model is not None:
            # the pile first, whichever area changed last: every action lays a card there, and
            # a hand that laid one and moved on over the tray left the pile waiting (the demo's
            # slowest card, 5 frames)
            zone = min(self._cards_due, key=_read_order)
            box = self._cards_due.pop(zone)
            if zone in areas:
                self._take(box, self._read_cards(bgr, box, self._rectification, [areas[zone]]))
                reads, card_area = reads + 1, True
        # a window for codes is a few milliseconds: it shares a frame with a step of the
        # pieces' read (taking turns, a read of a settled table waited twice as long)
        for _ in range(min(READS_PER_FRAME, len(self._waiting))):
            window = self._waiting.pop(0)
            self._take(window, self._read_stickers(gray, window, self._rectification,
                                                   self._marker_list))
            reads += 1
        if self._since_markers >= self.marker_every * (1 if reads == 0 and heavy else 2):
            self._update_markers(gray)
        stepped = self._follow_pieces(bgr, moving=bool(boxes), busy=card_area or not heavy)
        raw = _observation(self._found, self._marker_list)
        return PipelineResult(raw, self._debounced(self._found, moving=bool(boxes)), reads,
                              len(self._waiting), stepped, card_area)

    @property
    def heavy_waiting(self) -> bool:
        """Whether a card area or a step of the pieces' read waits for a frame's share."""
        return self._reading is not None or (bool(self._cards_due) and self.model is not None)

    def _follow_pieces(self, bgr: np.ndarray, moving: bool, busy: bool) -> bool:
        """The pieces read once the table has been still for ``PIECES_SETTLE`` frames after
        a change, as a chess camera waits for the hand to leave; unknown meanwhile. The first
        still frame is read, a step in each frame after it that read no card area (``busy``:
        a frame's share of heavy work is done). Whether a step was done in this frame."""
        ring = self.calibration.ring
        if ring is None:
            return False
        if moving:
            self._pieces, self._quiet, self._reading, self._read = None, 0, None, None
            return False
        self._quiet += 1
        if self._pieces is None and self._reading is None and self._read is None:
            # the first still frame, read step by step in the frames after it: what they
            # show is the same, or the table changed and the read is dropped
            self._reading = reading_pieces(bgr, ring)
        reading = None if busy else self._reading
        if reading is not None:
            try:
                next(reading)
            except StopIteration as done:
                self._reading, self._read = None, done.value
        if self._read is not None and self._quiet >= PIECES_SETTLE:
            (self._pieces, problems), self._read = self._read, None
            for problem in problems:
                log.debug("pieces: %s", problem.message)
            # the ring no longer fits the view (a camera knocked aside): said once, not
            # each settled read, for whoever keeps the kiosk to calibrate the ring again
            lost = next((p.message for p in problems if p.kind == "no_ring"), None)
            if lost is not None and lost != self._ring_lost:
                log.warning("pieces are not read: %s", lost)
            self._ring_lost = lost
        return reading is not None

    @property
    def ring_lost(self) -> str | None:
        """Why the pieces are not read at all, where the ring no longer fits the view (a
        camera knocked aside since it was found); None where it fits."""
        return self._ring_lost

    def _take(self, box: Box, read: list[_Found]) -> None:
        """What was just read in ``box`` in place of what was there before it."""
        fresh = [f for f in read if box.contains(*f.center) and not self._worse_view(f)]
        self._found = [f for f in self._found
                       if not any(_near(f.center, n.center) for n in fresh)] + fresh

    def _worse_view(self, found: _Found) -> bool:
        """An unsure card where a card was read and nothing has changed since (a change
        there would have dropped the read): the same card seen worse, from a window that cuts
        it, not a reason to forget what was read."""
        return (found.problem is not None and found.problem.kind == "unsure_card"
                and any(kept.card is not None and _near(kept.center, found.center)
                        for kept in self._found))

    def _thing_px(self) -> int:
        """About one tile's size in pixels: how far a read reaches beyond a changed region."""
        if self._rectification is None:
            return 96
        x, y = self.layout.width / 2, self.layout.height / 2
        return int(TILE_SIZE * 1.2 * self._rectification.px_per_mm(x, y))

    def _update_markers(self, gray: np.ndarray) -> None:
        self._since_markers = 0
        markers = self._markers.detect(gray, quick=True)
        rectification = rectify(markers, self.layout)
        if rectification is not None:
            self._rectification = rectification
            self._marker_list = markers
        elif self._rectification is None:
            self._rectification = self._calibrated(gray.shape)

    def _debounced(self, found: list[_Found], moving: bool = False) -> Observation:
        tiles = self._tiles.update({f.tile.payload: f.tile for f in found if f.tile})
        cards = self._cards.update({(f.card.code, f.card.zone): f.card for f in found if f.card})
        return Observation(tuple(cards.values()), tuple(tiles.values()),
                           tuple(self._marker_list), pieces=self._pieces, moving=moving)

    def _calibrated(self, shape: tuple[int, ...]) -> Rectification | None:
        """The homography saved at calibration, when the frame has the calibrated size."""
        cal = self.calibration
        if cal.image_to_table is None or cal.image_size != (shape[1], shape[0]):
            return None
        return Rectification(cal.image_to_table, (), 0.0)

    # -- reading a region ----------------------------------------------------------------------

    def _read_stickers(self, gray: np.ndarray, box: Box, rectification: Rectification | None,
                       markers: list[MarkerSeen],
                       attempts: tuple[str, ...] = ATTEMPTS) -> list[_Found]:
        found: list[_Found] = []
        results = read_stickers(gray, [box], attempts,
                                [np.array(marker.corners) for marker in markers])
        for sticker in results.stickers:
            found.append(_Found(sticker.corners, tile=TileSeen(
                sticker.sticker.text, sticker.sticker.tile_id, sticker.sticker.kind,
                self._zone(sticker.corners, rectification), sticker.corners)))
        for code in results.codes:
            found.append(_Found(code.corners, code=code))
        for problem in results.problems:
            assert problem.corners is not None
            found.append(_Found(problem.corners, problem=problem))
        return found

    def _read_cards(self, bgr: np.ndarray, box: Box, rectification: Rectification | None,
                    areas: list[Box], still: bool = False) -> list[_Found]:
        """Cards whose centre lies in ``box``, looked for in ``areas`` (on a rectified table,
        where cards are played: ``CARD_ZONES``, and outlines are checked in table
        millimetres). The search reaches beyond ``box`` by most of a card, so a card across
        its edge is seen whole. ``still``: a photo read once, whose cards found partly
        covered are looked at again as if seen from straight above (``read_cards``); not
        the live loop's, which reads a pile in a frame's time, where the cards under the top
        one are partly covered and the camera looks down on the table."""
        assert self.model is not None
        h, w = bgr.shape[:2]
        reach = 200
        if rectification is not None:
            x, y = rectification.to_table(np.array([[box.x + box.w / 2, box.y + box.h / 2]]))[0]
            reach = int(CARD_SIZE[1] * 0.6 * rectification.px_per_mm(float(x), float(y)))
        near = Box(box.x - reach, box.y - reach, box.w + 2 * reach, box.h + 2 * reach)
        return [found for area in areas if area.overlaps(box)
                for found in self._cards_in(bgr, box, _intersection(area, near.clip(w, h)),
                                            rectification, still)]

    def _cards_in(self, bgr: np.ndarray, box: Box, region: Box,
                  rectification: Rectification | None, still: bool) -> list[_Found]:
        assert self.model is not None
        if region.w == 0 or region.h == 0:
            return []
        card_px = None
        if rectification is not None:
            # a card's length in the image where the region lies, as the table's card size
            # says
            x, y = rectification.to_table(np.array([[region.x + region.w / 2,
                                                     region.y + region.h / 2]]))[0]
            card_px = CARD_SIZE[1] * rectification.px_per_mm(float(x), float(y))
        crop = bgr[region.y:region.y + region.h, region.x:region.x + region.w]
        found = []
        for read in read_cards(crop, self.model, card_px, second_look=still):
            corners = to_corners(read.corners + (region.x, region.y))
            if not box.contains(*_center(corners)):
                continue  # a card outside the box is read when its own region is
            if read.card is None:
                found.append(_Found(corners, problem=Problem(
                    "unsure_card", f"a card that cannot be read for sure: {read.reason}",
                    corners)))
            else:
                found.append(_Found(corners, card=CardSeen(
                    read.card.code, read.confidence, self._zone(corners, rectification),
                    corners)))
        return found

    def _zone(self, corners: Corners, rectification: Rectification | None) -> str | None:
        if rectification is None:
            return None
        x, y = rectification.to_table(np.array([_center(corners)]))[0]
        return self.layout.zone_at(float(x), float(y))


def _card_areas(layout: TableLayout, rectification: Rectification | None, width: int,
                height: int) -> dict[str | None, Box]:
    """Where cards are read, in image pixels, by zone: each of ``CARD_ZONES`` in view with
    most of a card's length around it (a card half off the pile is still read whole). On a
    table not rectified, where the zones are not known: the whole frame (None)."""
    if rectification is None:
        return {None: Box(0, 0, width, height)}
    areas: dict[str | None, Box] = {}
    for zone in CARD_ZONES:
        if zone not in layout.zones:
            continue
        polygon = np.array(layout.zones[zone], np.float64)
        corners = rectification.to_image(polygon)
        x0, y0 = corners.min(axis=0)
        x1, y1 = corners.max(axis=0)
        reach = CARD_SIZE[1] * rectification.px_per_mm(*polygon.mean(axis=0)) * 0.6
        area = Box(int(x0 - reach), int(y0 - reach), int(x1 - x0 + 2 * reach),
                   int(y1 - y0 + 2 * reach)).clip(width, height)
        if area.w and area.h:
            areas[zone] = area
    return areas


def _read_order(zone: str | None) -> int:
    """Where a card area waits its turn: in ``CARD_ZONES`` order (the whole frame, on a table
    not rectified, is the one area)."""
    return CARD_ZONES.index(zone) if zone in CARD_ZONES else 0


def _over_any(window: Box, areas: Iterable[Box]) -> bool:
    return any(window.overlaps(area) for area in areas)


def _windows(box: Box) -> list[Box]:
    if box.w <= WINDOW and box.h <= WINDOW:
        return [box]
    step = WINDOW - WINDOW_OVERLAP
    xs = list(range(box.x, max(box.x + box.w - WINDOW, box.x) + 1, step))
    ys = list(range(box.y, max(box.y + box.h - WINDOW, box.y) + 1, step))
    if xs[-1] + WINDOW < box.x + box.w:
        xs.append(box.x + box.w - WINDOW)
    if ys[-1] + WINDOW < box.y + box.h:
        ys.append(box.y + box.h - WINDOW)
    return [Box(x, y, min(WINDOW, box.w), min(WINDOW, box.h)) for y in ys for x in xs]


def _inside(inner: Box, outer: Box) -> bool:
    return (outer.x <= inner.x and outer.y <= inner.y and inner.x + inner.w <= outer.x + outer.w
            and inner.y + inner.h <= outer.y + outer.h)


def _extent(corners: Corners, margin: int = 16) -> Box:
    points = np.array(corners, dtype=np.float64)
    x0, y0 = points.min(axis=0) - margin
    x1, y1 = points.max(axis=0) + margin
    return Box(int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def _intersection(a: Box, b: Box) -> Box:
    x0, y0 = max(a.x, b.x), max(a.y, b.y)
    x1, y1 = min(a.x + a.w, b.x + b.w), min(a.y + a.h, b.y + b.h)
    return Box(x0, y0, max(0, x1 - x0), max(0, y1 - y0))


def _union(boxes: list[Box]) -> Box:
    x0, y0 = min(b.x for b in boxes), min(b.y for b in boxes)
    x1, y1 = max(b.x + b.w for b in boxes), max(b.y + b.h for b in boxes)
    return Box(x0, y0, x1 - x0, y1 - y0)


def _center(corners: Corners) -> tuple[float, float]:
    points = np.array(corners, dtype=np.float64)
    return (float(points[:, 0].mean()), float(points[:, 1].mean()))


def _near(a: tuple[float, float], b: tuple[float, float], distance: float = 12.0) -> bool:
    return abs(a[0] - b[0]) < distance and abs(a[1] - b[1]) < distance


def _observation(found: list[_Found], markers: list[MarkerSeen]) -> Observation:
    return Observation(
        cards=tuple(f.card for f in found if f.card),
        tiles=tuple(f.tile for f in found if f.tile),
        markers=tuple(markers),
        problems=tuple(f.problem for f in found if f.problem),
        codes=tuple(f.code for f in found if f.code))


def _bad_frame(bgr: object) -> Problem | None:
    if not isinstance(bgr, np.ndarray) or bgr.ndim != 3 or bgr.shape[2] != 3 or bgr.size == 0:
        return Problem("bad_frame", "the camera gave a frame that is not a colour image")
    if bgr.dtype != np.uint8:
        return Problem("bad_frame", f"the camera gave {bgr.dtype} pixels, not 8-bit")
    if min(bgr.shape[:2]) < 32:
        return Problem("bad_frame", "the camera gave a frame too small to read")
    return None
