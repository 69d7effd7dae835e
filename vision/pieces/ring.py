"""The ring as a game starts: the jump gate, the eight planet boards around it in clockwise
order, and each player's colour as the table's light shows it on their ship (DESIGN.md §5.5).

Nothing here knows the boards' art or size. Several ways of seeing the boards are tried
(``boards``); a way shows the ring when the tapped planet is a board, some board has eight of
like size around it, the tapped one among them, on every side, and at like distances. The way
that shows it most plainly wins; the gate is the board in the middle (or, where no way shows
one, the middle of the eight planets, up to near them; either way its rim is found again where
the way showed it in part or not at all, ``gate_rim``), and the planets are named clockwise
from the tapped one. What the players' colours already mark at the start (a
board's printed badges, the gate's art, the table's grain) is kept in a small picture of the
table at the start, so that it is never taken for a piece.
"""

from __future__ import annotations

import base64
import functools
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.observations import GATE
from vision.pieces.boards import board_masks, ground_mask, working_scale
from vision.pieces.colours import (PLAYER_COLOURS, PieceColour, colour_masks, lab_of,
                                   learn_colours)
from vision.pieces.gate_rim import refit_rim
from vision.pieces.shapes import GRID, silhouette, typical

Polygon = tuple[tuple[float, float], ...]

PLANETS = 8
SMALLEST_PICTURE = 64
"""A picture narrower than this many pixels shows no ring to find (a 1 x 1 picture left the
table's shades to be sorted from fewer pixels than there are shades)."""
LEAST_PLACE = 1.0
"""A planet board or the gate in a kept ring covers at least this many pixels: a place of no
area has no side to measure pieces by."""
BESIDE = 0.9
"""A reserved tile's probe lies within this many board sides of its planet's board ..."""
BESIDE_DOUBT = 0.2
"""... and is another planet's as well when that one's board lies at most this many board
sides further from it (a tile laid between two boards). The bench's tables with tiles laid
up to 96 degrees sideways of the way out: 17 reservations read wrong, counted for the
nearer board, and none with this; the bench's own tables and dev tables 8140-8199: 0 and 2
of 640 fewer read."""
BOARD_AREAS = (0.3, 6.0)
"""A board's area against the tapped planet's, at the least and the most (the gate may be
larger than a planet; a card is smaller)."""
SOLID = 0.75
"""A board fills at least this share of its outline's hull (a thin arc of a play mat does
not)."""
WIDEST_GAP = 0.6 * math.pi
"""Seen from the gate, no two neighbouring planets lie farther apart than this."""
PLAINEST = 2.5
"""A ring whose planets' sizes, distances and gaps vary more than this (the sum of the widest
gap in radians and the logarithms of the largest to smallest area and distance) is no ring:
the boards were not seen whole."""
OFF_MIDDLE = 0.25
"""The gate lies in the middle of its planets: at most this share of their mean distance from
it away from their own middle (the gates found on the bench's and dev tables: at most 0.17;
a patch of dark table beside the gate, taken for it on bench table 7803: 0.43)."""
SHIPS_A_BOARD = 12.0
"""Around a gate not seen, the planets found are boards only if each is at least this many
ships large (the boards found on dev tables: 19 to 89 ships; the round art of the boards on
dev table 8000, a colourful mat, 3). And on any gate, a ship found is one only if a board is
at least this many times as large: bench table 9132, lit dimly as the game started, showed
the gate's dark print as a red and a black "ship" of a third of a board each, and every
piece later, measured against them, was too small to count (its stations and reservations
read as empty where pieces lay). Bench tables 7300-7329, 9130-9159, 9230-9259 and
9330-9359: every other ship found (403) was 18 to 163 times smaller than a board."""
UNSEEN_GATE_REACH = 0.8
"""A gate not seen reaches this share of the way from the planets' middle to the nearest."""
SLANT_SHOWN = 1.15
"""The boards' sizes tell a camera at a slant (``_flattening``) where the cube roots of their
areas grow across the ring by more than this (a camera straight above: the eight boards
around a gate, 1.00 to 1.02; tables 7340-7356 at 30 degrees off straight down, the planets'
boards 1.33 to 1.45) ..."""
STEEPEST = 2.5
"""... by at most this much (a camera far steeper than one that sees the table whole) ..."""
SLANT_FITS = 0.75
"""... and where the plane of a slant fits them: what it leaves is less than this share of
their spread (boards of other sizes, not a slant; a board's area as found is a few per cent
off, a piece beside it taken in: tables 7348 and 7371 at 30 degrees, 0.63-0.70 left of the
planets' boards). The bench's tables 7300-7329 at 15-30 degrees: 19 rings found of 30 as
seen, 29 with the slant undone; tables 7340-7379 at 30 degrees: 12 of 40, 38. Straight
down, tables 7300-7339, 8000-8039, 8140-8199 and 9600-9659: the same rings found, and one
more (8174, named right); none named wrong more."""
MIDDLE_STEPS = 6
"""Steps at most in finding the planets' middle (it stays after two or three)."""
TRIM = 0.2
"""What sticks out of a board by less than this share of its side is trimmed off it."""
SHIP_LENGTHS = 2.5
"""A ship's length over the root of its area, about."""
START_SCALE = 4
"""The table at the start is kept at a quarter of the frame's size."""


NO_BOARDS = ("the eight planets and the jump gate were not found around the tapped planet: "
             "lay the boards apart, none touching another, all in view, and tap the first "
             "planet's middle")


class RingNotFound(ValueError):
    """The ring cannot be found in the image; the message says what to change, and ``kind``
    which of the causes it is (for a screen that words it in the players' language): ``names``,
    ``colours``, ``off`` (the tap is off the picture), ``boards`` or ``ships``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Ring:
    image_size: tuple[int, int]
    gate: Polygon
    planets: tuple[tuple[str, Polygon], ...]
    """Clockwise from the first, each board's corners (image pixels)."""
    colours: dict[str, PieceColour]
    ship_px: float
    """A ship's area (image pixels) at calibration: the scale pieces are judged at."""
    reference: np.ndarray
    """The table at the start (8-bit Lab) at 1/``START_SCALE`` of the frame: what is there
    then (a board's print, the table's grain) is no piece."""
    unseen: tuple[str, ...] = ()
    """Players whose ship was not found on the gate: their colour is not known, so their
    pieces are not read (a black ship on a gate as dark as it)."""
    ship_shape: np.ndarray | None = None
    """The ships' silhouette (``shapes.silhouette``) as they stood on the gate; None in a
    ring calibrated before silhouettes were kept (a ship is then told by its measures
    alone)."""
    gate_doubt: float = 0.0
    """Pixels beyond ``gate`` that may still be the gate: where its edge was not seen
    (``_unseen_gate``), ``gate`` is only as far as the ships stood at the start, and a piece
    up to this much beyond it leaves its colour's count on the gate unsure."""

    def side_at(self, point: tuple[float, float]) -> float:
        """A planet board's side (pixels) were one lying at ``point``: the boards' sides
        near it weighed by nearness, as the camera's perspective shrinks the far side."""
        middles, sides = self._boards
        distance = np.hypot(middles[:, 0] - point[0], middles[:, 1] - point[1])
        weights = 1.0 / np.maximum(distance, 1.0) ** 2
        return float((sides * weights).sum() / weights.sum())

    def place(self, point: tuple[float, float], beside: bool = False, reach: float = 0.0
              ) -> str | None:
        """The gate or the planet ``point`` lies on (or off its edge by ``reach`` of a
        board's side); with ``beside``, also the planet whose board it lies beside (a
        reserved tile), if nearer it than the gate; None when off the ring."""
        gate_off = -cv2.pointPolygonTest(np.array(self.gate, np.float32), point, True)
        if gate_off <= 0:
            return GATE
        nearest: tuple[float, str] | None = None
        for (name, corners), side in zip(self.planets, self._boards[1]):
            off = -cv2.pointPolygonTest(np.array(corners, np.float32), point, True)
            if off <= reach * side:
                return name
            if beside and off <= BESIDE * side and (nearest is None or off < nearest[0]):
                nearest = (off, name)
        return nearest[1] if nearest is not None and nearest[0] < gate_off else None

    def rival(self, point: tuple[float, float], place: str) -> str | None:
        """Another planet whose board lies about as near ``point`` as ``place``'s does
        (``BESIDE_DOUBT``), the nearest such; None where there is none."""
        own = -self.inside(place, point)
        reach = own + BESIDE_DOUBT * self.side_at(point)
        rivals = [(off, name) for name, _ in self.planets if name != place
                  for off in [-self.inside(name, point)] if off <= reach]
        return min(rivals)[1] if rivals else None

    def inside(self, place: str, point: tuple[float, float]) -> float:
        """How far ``point`` lies within ``place``'s board (pixels; below 0 outside it)."""
        outline = self.gate if place == GATE else dict(self.planets)[place]
        return float(cv2.pointPolygonTest(np.array(outline, np.float32), point, True))

    def moved(self, bgr: np.ndarray) -> float:
        """How far the view in ``bgr`` has moved since the start (frame pixels): the second
        largest shift of the four quarters of the table's lightness against the start's (a
        hand over one quarter throws its own off; a turned camera moves each its own way)."""
        start = self.reference[..., 0].astype(np.float32)
        height, width = start.shape
        now = lab_of(cv2.resize(bgr, (width, height), interpolation=cv2.INTER_AREA))[..., 0]
        window = cv2.createHanningWindow((width // 2, height // 2), cv2.CV_32F)
        shifts = []
        for y in (0, height // 2):
            for x in (0, width // 2):
                quarter = (slice(y, y + height // 2), slice(x, x + width // 2))
                (dx, dy), _ = cv2.phaseCorrelate(start[quarter], now[quarter], window)
                shifts.append(math.hypot(dx, dy))
        return sorted(shifts)[-2] * self.image_size[0] / width

    def board_map(self, shape: tuple[int, ...]) -> np.ndarray:
        """Each pixel's board in a picture of ``shape`` (the frames', or the reference's):
        1 the gate, 2 to 9 the planets in ring order, 0 none."""
        boards = np.zeros(shape[:2], np.uint8)
        scale = shape[1] / self.image_size[0]
        for n, polygon in enumerate([self.gate] + [corners for _, corners in self.planets]):
            cv2.fillPoly(boards, [np.round(np.array(polygon) * scale).astype(np.int32)], n + 1)
        return boards

    @functools.cached_property
    def reference_boards(self) -> np.ndarray:
        """``board_map`` at the reference's size."""
        return self.board_map(self.reference.shape)

    @functools.cached_property
    def beside_map(self) -> np.ndarray:
        """At the reference's size, each pixel off the boards that lies beside a planet's
        board, where its reserved tiles lie: 2 to 9 as in ``board_map``, 0 none."""
        height, width = self.reference.shape[:2]
        scale = width / self.image_size[0]
        beside = np.zeros((height, width), np.uint8)
        nearest = np.full((height, width), np.inf, np.float32)
        boards = np.zeros((height, width), np.uint8)
        for n, ((_, corners), side) in enumerate(zip(self.planets, self._boards[1])):
            board = np.zeros((height, width), np.uint8)
            cv2.fillPoly(board, [np.round(np.array(corners) * scale).astype(np.int32)], 1)
            boards |= board
            distance = cv2.distanceTransform(1 - board, cv2.DIST_L2, 3)
            closer = (distance <= BESIDE * side * scale) & (distance < nearest)
            beside[closer], nearest[closer] = n + 2, distance[closer]
        beside[boards > 0] = 0
        return beside

    @functools.cached_property
    def ground_shares(self) -> dict[str, dict[str, float]]:
        """For each planet, the share of the ground beside its board that showed each
        player's colour at the start (a blue table: 1.0 for blue)."""
        shares: dict[str, dict[str, float]] = {}
        for n, (name, _) in enumerate(self.planets):
            beside = self.beside_map == n + 2
            if beside.any():
                shares[name] = {player: float(printed[beside].mean())
                                for player, printed in self.printed.items()}
        return shares

    @functools.cached_property
    def plain_start(self) -> np.ndarray:
        """The lightness at the start (as ``reference``), no lighter than the table around
        each place over a ship's length: where a ship whose colour was not learned stood,
        the ground it hid rather than the ship, which was not taken out of the reference.
        Used on the gate alone (table 9755 at 30 degrees: blue not learned, its ship's
        place read as the black ship once it left); on the boards too, tables 8000-8069
        read 4 ships, 8 stations and 8 reservations fewer right."""
        lightness = self.reference[..., 0]
        length = SHIP_LENGTHS * math.sqrt(self.ship_px) * self.reference.shape[1] \
            / self.image_size[0]
        # OpenCV's 8-bit median fails an assertion at a side of about 980 (on the 320 x 180
        # reference); a few ships' lengths are far fewer than 255 pixels there
        around = cv2.medianBlur(lightness, min(max(3, int(length) | 1), 255))
        return np.minimum(lightness, around)

    @functools.cached_property
    def printed(self) -> dict[str, np.ndarray]:
        """Where the start showed each player's colour (a board's badge, the gate's art), at
        the reference's size; the ships then on the gate were taken out of the reference."""
        return colour_masks(self.reference.astype(np.float32), self.colours,
                            unlearned=self.unseen)

    @functools.cached_property
    def _boards(self) -> tuple[np.ndarray, np.ndarray]:
        """The planet boards' middles and sides (pixels)."""
        outlines = [np.array(corners, np.float32) for _, corners in self.planets]
        return (np.array([outline.mean(axis=0) for outline in outlines]),
                np.array([math.sqrt(abs(cv2.contourArea(o))) for o in outlines]))

    @functools.cached_property
    def _slant(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The slant the planets' boards tell (``_flattening``) and the stretch it leaves
        (``_squaring``); None for a camera straight above."""
        outlines = [np.array(corners, np.float64) for _, corners in self.planets]
        flat = _flattening(list(self._boards[0]), [side ** 2 for side in self._boards[1]])
        if flat is None:
            return None
        return flat, _squaring([_flat(flat, outline) for outline in outlines])

    def table_shape(self, point: tuple[float, float]) -> np.ndarray | None:
        """2 x 2: what lies at ``point`` in the picture as its shape on the table (as a
        camera straight above would see it), its area kept; None for a camera straight above
        (or one whose slant the boards do not tell)."""
        if self._slant is None:
            return None
        flat, square = self._slant
        at = np.asarray(point, np.float64)
        depth = float(_depth(flat, at))
        if depth <= 0:
            return None
        # the slant undone, p / depth(p), differentiated at the point
        local = square @ ((np.eye(2) * depth - np.outer(at, flat[:2])) / depth ** 2)
        determinant = abs(float(np.linalg.det(local)))
        return local / math.sqrt(determinant) if determinant > 0 else None

    @property
    def middle(self) -> tuple[float, float]:
        x, y = np.array(self.gate).mean(axis=0)
        return float(x), float(y)

    @property
    def middles(self) -> list[tuple[str, tuple[float, float]]]:
        """The gate's middle, then each planet board's, with their places' names."""
        return [(GATE, self.middle)] + [(name, (float(x), float(y))) for (name, _), (x, y)
                                        in zip(self.planets, self._boards[0])]

    def to_json(self) -> dict[str, Any]:
        ok, png = cv2.imencode(".png", self.reference)
        return {"image_size": list(self.image_size), "ship_px": round(self.ship_px, 1),
                "gate": [[round(x, 1), round(y, 1)] for x, y in self.gate],
                "planets": [{"name": name, "corners": [[round(x, 1), round(y, 1)]
                                                        for x, y in corners]}
                            for name, corners in self.planets],
                "colours": {name: colour.to_json() for name, colour in self.colours.items()},
                "unseen": list(self.unseen),
                "start": base64.b64encode(png.tobytes()).decode("ascii"),
                **({"gate_doubt": round(self.gate_doubt, 1)} if self.gate_doubt else {}),
                **({} if self.ship_shape is None else
                   {"ship_shape": ["".join("1" if v else "0" for v in row)
                                   for row in self.ship_shape]})}

    @classmethod
    def from_json(cls, data: Any) -> Ring:
        """The ring in ``data``, checked whole (``ValueError`` names what is wrong)."""
        width, height = (int(v) for v in data["image_size"])
        if not (0 < width <= 20_000 and 0 < height <= 20_000):
            raise ValueError("image_size is no camera frame's")

        def polygon(raw: Any, what: str) -> Polygon:
            points = tuple((float(x), float(y)) for x, y in raw)
            if len(points) < 3 or not all(-width <= x <= 2 * width and -height <= y <= 2 * height
                                          for x, y in points) \
                    or cv2.contourArea(np.float32(points)) < LEAST_PLACE:
                raise ValueError(f"{what} is not a place in the frame")
            return points
        planets = tuple((str(p["name"]), polygon(p["corners"], f"planet {p['name']!s:.30}"))
                        for p in data["planets"])
        if len(planets) != PLANETS or len({name for name, _ in planets}) != PLANETS:
            raise ValueError(f"the ring needs {PLANETS} planets, each once")
        colours = {str(name): PieceColour.from_json(value)
                   for name, value in data["colours"].items()}
        unseen = tuple(str(name) for name in data.get("unseen", []))
        if not colours or not set(colours) | set(unseen) <= set(PLAYER_COLOURS) \
                or set(colours) & set(unseen):
            raise ValueError(f"the players' colours are some of {', '.join(PLAYER_COLOURS)}, "
                             "each once")
        ship = float(data["ship_px"])
        if not 0 < ship < max(cv2.contourArea(np.float32(corners)) for _, corners in planets):
            raise ValueError("ship_px is no ship's area (a ship is smaller than a board)")
        raw = np.frombuffer(base64.b64decode(str(data["start"]), validate=True), np.uint8)
        reference = cv2.imdecode(raw, cv2.IMREAD_UNCHANGED) if raw.size else None
        expected = (_start_side(height), _start_side(width), 3)
        if reference is None or reference.shape != expected or reference.dtype != np.uint8:
            raise ValueError("the ring's picture at the start is not one of the frame")
        doubt = data.get("gate_doubt")  # null, as absent: a gate seen, no doubt
        doubt = 0.0 if doubt is None else doubt
        if isinstance(doubt, bool) or not isinstance(doubt, int | float) \
                or not 0 <= doubt <= max(width, height):
            raise ValueError("gate_doubt is no distance in the frame")
        return cls((width, height), polygon(data["gate"], "the gate"), planets, colours, ship,
                   reference, unseen, _shape(data.get("ship_shape")), doubt)


def _shape(raw: Any) -> np.ndarray | None:
    """A ship's silhouette as kept (rows of 0 and 1), checked whole; None when none is kept."""
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != GRID or \
            not all(isinstance(row, str) and len(row) == GRID and set(row) <= {"0", "1"}
                    for row in raw):
        raise ValueError(f"ship_shape is no silhouette ({GRID} rows of {GRID} 0s and 1s)")
    return np.array([[c == "1" for c in row] for row in raw])


def _start_side(pixels: int) -> int:
    return max(1, pixels // START_SCALE)


def find_ring(bgr: np.ndarray, planets: list[str], first: tuple[float, float],
              players: list[str]) -> Ring:
    """The ring in ``bgr`` (the table as a game starts), its planets named ``planets``
    clockwise from the one at ``first`` (a pixel on it), and the colours of ``players``
    learned from their ships on the gate. Raises ``RingNotFound`` saying what to change."""
    if len(planets) != PLANETS or len(set(planets)) != PLANETS:
        raise RingNotFound("names", f"name the {PLANETS} planets, each once, clockwise")
    unknown = [p for p in players if p not in PLAYER_COLOURS]
    if unknown or len(set(players)) != len(players) or not players:
        raise RingNotFound("colours", f"players' colours are {', '.join(PLAYER_COLOURS)}, "
                           f"each once; not {', '.join(unknown or players)}")
    height, width = bgr.shape[:2]
    if not (0 <= first[0] < width and 0 <= first[1] < height):
        raise RingNotFound("off", "the first planet's point is off the image")
    if min(height, width) < SMALLEST_PICTURE:
        raise RingNotFound("boards", NO_BOARDS)
    scale = working_scale(bgr.shape)
    tap = (first[0] * scale, first[1] * scale)
    masks = [mask for _, mask in board_masks(bgr)]
    seen = [found for found in (_ring_in(mask, tap) for mask in masks)
            if found is not None and found[0] <= PLAINEST]
    if seen:
        _, gate, ring = min(seen, key=lambda found: found[0])
        made = _made(bgr, scale, gate, ring, planets, players)
        if made is None:
            raise RingNotFound("ships", "no player's ship was found on the jump gate: stand "
                               "every player's ship on it, in the camera's view")
        return made
    # no way of seeing shows a board in the middle: the plainest ring around a middle whose
    # boards are boards, not their art (``_made``)
    unseen = [found for found in (_ring_in(mask, tap, gate_seen=False) for mask in masks)
              if found is not None and found[0] <= PLAINEST]
    for _, gate, ring in sorted(unseen, key=lambda found: found[0]):
        made = _made(bgr, scale, gate, ring, planets, players)
        if made is not None:
            return made
    # last, the boards of the tapped board's own ground, around a gate not seen (a busy mat)
    ground = ground_mask(bgr, first)
    found = None if ground is None else _ring_in(ground, tap, gate_seen=False)
    if found is not None and found[0] <= PLAINEST:
        made = _made(bgr, scale, found[1], found[2], planets, players)
        if made is not None:
            return made
    raise RingNotFound("boards", NO_BOARDS)


def _made(bgr: np.ndarray, scale: float, gate: _Board, ring: list[_Board], planets: list[str],
          players: list[str]) -> Ring | None:
    """The ring of ``gate`` and the boards ``ring`` (at ``scale``), the players' colours
    learned from their ships on the gate; None when no ship is found there, or, on a gate
    not seen, when the planets are less than ``SHIPS_A_BOARD`` ships large."""
    height, width = bgr.shape[:2]
    slanted = _flattening([board.centre for board in ring], [board.area for board in ring])
    smooth = lab_of(cv2.GaussianBlur(bgr, (3, 3), 0))
    named = tuple((name, _edge_fitted(smooth, _box(board.outline / scale, slanted is not None)))
                  for name, board in zip(planets, ring))
    outlines = [np.array(corners) for _, corners in named]
    # a gate seen in part, or with table taken in, is its rim found again (``gate_rim``)
    rim = refit_rim(smooth, np.array(_hull(gate.outline / scale)), outlines) \
        if gate.seen else None
    gate_mask = np.zeros((height, width), np.uint8)
    cv2.drawContours(gate_mask, [np.round(gate.outline / scale if rim is None else rim
                                          ).astype(np.int32)], -1, 1, -1)
    colours, ships = learn_colours(lab_of(bgr), gate_mask, players)
    if not colours:
        return None
    areas = {player: float(mask.sum()) for player, mask in ships.items()}
    boards = float(np.median([abs(cv2.contourArea(np.float32(c))) for _, c in named]))
    if not gate.seen and boards < SHIPS_A_BOARD * np.median(list(areas.values())):
        return None  # around a gate not seen, "boards" this small are a mat's round art
    # a "ship" of a good part of a board's size is the gate's own print taken for one (in a
    # dim light): that colour is not learned from it, and its pieces are not read
    ships = {player: mask for player, mask in ships.items()
             if SHIPS_A_BOARD * areas[player] <= boards}
    colours = {player: colour for player, colour in colours.items() if player in ships}
    if not colours:
        return None
    outline, doubt = _hull(gate.outline / scale if rim is None else rim), 0.0
    if not gate.seen:
        outline, doubt = _as_far_as_the_ships(gate, scale, ships)
        # a gate no way of seeing showed may still show a plain rim around its ships
        rim = refit_rim(smooth, np.array(outline), outlines)
        if rim is not None:
            outline, doubt = _hull(rim), 0.0
    return Ring((width, height), outline, named, colours,
                float(np.median([areas[player] for player in ships])),
                _without(bgr, ships), tuple(p for p in players if p not in colours),
                _ship_shape(ships), doubt)


def _as_far_as_the_ships(gate: _Board, scale: float, ships: dict[str, np.ndarray]
                         ) -> tuple[Polygon, float]:
    """A gate not seen: as far from the middle as the ships stood on it at the start (it
    is at least that large), and the doubt beyond it, out to where it may reach."""
    middle = gate.centre / scale
    reach = float(np.hypot(*(gate.outline[0] / scale - middle)))
    ys, xs = np.nonzero(np.any(list(ships.values()), axis=0))
    stood = float(np.hypot(xs - middle[0], ys - middle[1]).max())
    turns = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    outline = middle + stood * np.stack([np.cos(turns), np.sin(turns)], axis=1)
    return (tuple((float(x), float(y)) for x, y in outline), max(0.0, reach - stood))


def _ship_shape(ships: dict[str, np.ndarray]) -> np.ndarray | None:
    """The ships' silhouette: of the coloured ships' where there are any (a black ship on a
    dark gate shows only in part), the most typical."""
    chosen = [mask for player, mask in ships.items() if player != "black"] or \
        list(ships.values())
    return typical([shape for shape in map(silhouette, chosen) if shape is not None])


def _without(bgr: np.ndarray, ships: dict[str, np.ndarray]) -> np.ndarray:
    """The table at the start as if no ship stood on the gate (8-bit Lab, small): a ship that
    leaves uncovers what was under it, which is no piece; one that stays is one."""
    height, width = bgr.shape[:2]
    small = cv2.resize(bgr, (_start_side(width), _start_side(height)),
                       interpolation=cv2.INTER_AREA)
    covered = np.zeros(small.shape[:2], np.uint8)
    for mask in ships.values():
        covered |= cv2.resize(mask.astype(np.uint8), covered.shape[::-1],
                              interpolation=cv2.INTER_AREA) > 0
    covered = cv2.dilate(covered, np.ones((5, 5), np.uint8))
    return cv2.cvtColor(cv2.inpaint(small, covered, 3, cv2.INPAINT_TELEA), cv2.COLOR_BGR2LAB)


@dataclass(frozen=True)
class _Board:
    label: int
    area: float
    centre: np.ndarray
    outline: np.ndarray
    seen: bool = True
    """False: a gate no way of seeing showed (``_unseen_gate``)."""


def _boards(mask: np.ndarray) -> tuple[list[_Board], np.ndarray]:
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    boards = []
    for k in range(1, count):
        outlines, _ = cv2.findContours((labels == k).astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        outline = max(outlines, key=cv2.contourArea)
        hull = cv2.contourArea(cv2.convexHull(outline))
        area = float(stats[k, cv2.CC_STAT_AREA])
        if area >= SOLID * hull:
            boards.append(_Board(k, area, centres[k], outline[:, 0].astype(np.float64)))
    return boards, labels


def _ring_in(mask: np.ndarray, tap: tuple[float, float], gate_seen: bool = True
             ) -> tuple[float, _Board, list[_Board]] | None:
    """The plainest ring ``mask`` shows around the tapped board: how plain, the gate, and
    the planets clockwise from the tapped one; None when it shows none. ``gate_seen``
    False: the gate is no board of the mask, but the middle of eight planets
    (``_unseen_gate``)."""
    boards, labels = _boards(mask)
    height, width = labels.shape
    at = int(labels[min(int(tap[1]), height - 1), min(int(tap[0]), width - 1)])
    tapped = next((b for b in boards if b.label == at), None)
    if tapped is None:
        return None
    like = [b for b in boards
            if BOARD_AREAS[0] * tapped.area <= b.area <= BOARD_AREAS[1] * tapped.area]
    best = None
    gates = [b for b in like if b is not tapped] if gate_seen else \
        [_unseen_gate(like, b.centre) for b in like]
    for gate in gates:
        found = _around(gate.centre, [b for b in like if b is not gate], tapped)
        if found is not None and (best is None or found[0] < best[0]):
            best = (found[0], gate, found[1])
    return best


def _around(middle: np.ndarray, boards: list[_Board], tapped: _Board
            ) -> tuple[float, list[_Board]] | None:
    """The eight boards nearest ``middle``, when they lie around it (``OFF_MIDDLE``) with the
    tapped one among them: how plainly they make a ring (``PLAINEST``), and they clockwise from the
    tapped one. Where their sizes tell a camera at a slant, all of it is judged with the slant
    undone (``_flattening``, ``_squaring``): as a camera straight above would see the table."""
    centres = {b.label: b.centre for b in boards}
    areas = {b.label: b.area for b in boards}
    around = _nearest(middle, boards, centres)
    if len(around) < PLANETS or tapped not in around:
        return None
    flat = _flattening([centres[b.label] for b in around], [b.area for b in around])
    if flat is not None and _depth(flat, middle) <= 0:
        return None  # beyond the table's horizon, as the boards' sizes tell it
    if flat is not None:  # the eight nearest again, on the table as if seen from above
        flat_boards = [b for b in boards if _depth(flat, b.centre) > 0]
        square = _squaring([_flat(flat, b.outline) for b in around])
        centres = {b.label: square @ _flat(flat, b.centre) for b in flat_boards}
        areas = {b.label: b.area / _depth(flat, b.centre) ** 3 for b in flat_boards}
        middle = square @ _flat(flat, middle)
        around = _nearest(middle, flat_boards, centres)
        if len(around) < PLANETS or tapped not in around:
            return None
    distance = {b.label: float(np.hypot(*(centres[b.label] - middle))) for b in around}
    turns = {b.label: math.atan2(centres[b.label][1] - middle[1],
                                 centres[b.label][0] - middle[0]) for b in around}
    ordered = sorted(turns.values())
    gap = float(np.diff(ordered + [ordered[0] + 2 * math.pi]).max())
    if gap > WIDEST_GAP:
        return None
    reach = [distance[b.label] for b in around]
    centre = np.mean([centres[b.label] for b in around], axis=0)
    if float(np.hypot(*(centre - middle))) > OFF_MIDDLE * float(np.mean(reach)):
        return None
    sizes = [areas[b.label] for b in around]
    plain = gap + math.log(max(sizes) / min(sizes)) + math.log(max(reach) / min(reach))
    start = turns[tapped.label]
    # image y runs down: a growing angle turns clockwise as the camera sees the table
    return plain, sorted(around, key=lambda b: (turns[b.label] - start) % (2 * math.pi))


def _nearest(middle: np.ndarray, boards: list[_Board], centres: dict[int, np.ndarray]
             ) -> list[_Board]:
    """The ``PLANETS`` boards whose centres (``centres``, by label) lie nearest ``middle``."""
    return sorted(boards, key=lambda b: float(np.hypot(*(centres[b.label] - middle))))[:PLANETS]


def _flattening(centres: list[np.ndarray], areas: list[float]) -> np.ndarray | None:
    """How a camera looking at the table at a slant makes the planets' boards, all of one
    size, show larger nearer it: a plane seen so shows each of its pieces at an area that
    grows with the cube of the homography's last row (``_depth``, a plane over the
    picture), so the cube roots of the boards' areas are such a plane. That row, fitted to
    them (None where the boards tell no slant: a camera straight above, or sizes no plane
    fits); dividing by it undoes the slant but for a stretch in one direction, which leaves
    the boards' middle the gate's, and their areas alike."""
    points = np.array(centres, np.float64)
    sides = np.cbrt(np.array(areas, np.float64))
    design = np.column_stack([points, np.ones(len(points))])
    row, *_ = np.linalg.lstsq(design, sides, rcond=None)
    depths = design @ row
    if depths.min() <= 0 or depths.max() / depths.min() < SLANT_SHOWN \
            or depths.max() / depths.min() > STEEPEST:
        return None
    left = sides - depths
    if float(np.sqrt(np.mean(left ** 2))) > SLANT_FITS * float(np.sqrt(np.var(sides))):
        return None
    return row / float(np.mean(depths))


def _depth(flat: np.ndarray, point: np.ndarray) -> np.ndarray:
    """The homography's last row at ``point`` (or at each of N x 2 points)."""
    point = np.asarray(point, np.float64)
    return point @ flat[:2] + flat[2]


def _flat(flat: np.ndarray, point: np.ndarray) -> np.ndarray:
    """``point`` (or N x 2 points) with the slant ``flat`` undone."""
    point = np.asarray(point, np.float64)
    depth = _depth(flat, point)
    return point / (depth[..., None] if np.ndim(depth) else depth)


def _squaring(outlines: list[np.ndarray]) -> np.ndarray:
    """The stretch in one direction that a slant undone leaves, undone too (2 x 2): the
    boards' outlines (``outlines``, each a square on the table) made as wide every way, taken
    together; the areas kept."""
    shapes = [np.cov(outline.T) for outline in outlines if len(outline) >= 3]
    shapes = [shape / np.sqrt(det) for shape in shapes if (det := np.linalg.det(shape)) > 0]
    if not shapes:
        return np.eye(2)
    values, vectors = np.linalg.eigh(np.mean(shapes, axis=0))
    return (vectors / np.sqrt(values)) @ vectors.T * float(np.prod(values)) ** 0.25


def _unseen_gate(boards: list[_Board], start: np.ndarray) -> _Board:
    """A gate no way of seeing shows as a board (its art as dark and plain as the table),
    taken as the middle of the eight boards around it: from ``start``, the middle of the
    eight nearest, until it stays; the gate reaches ``UNSEEN_GATE_REACH`` of the way from
    there to the nearest of them. On the gate stand the ships at the start, and the jump
    gate's probes; nothing else lies between the planets."""
    middle = start
    for _ in range(MIDDLE_STEPS):
        nearest = sorted(boards, key=lambda b: float(np.hypot(*(b.centre - middle))))
        moved = np.mean([b.centre for b in nearest[:PLANETS]], axis=0)
        if float(np.hypot(*(moved - middle))) < 0.5:
            break
        middle = moved
    point = (float(middle[0]), float(middle[1]))
    reach = UNSEEN_GATE_REACH * min(
        -cv2.pointPolygonTest(b.outline.astype(np.float32), point, True) for b in boards)
    turns = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    outline = middle + max(reach, 1.0) * np.stack([np.cos(turns), np.sin(turns)], axis=1)
    return _Board(0, math.pi * reach ** 2, middle, outline, seen=False)


def _box(outline: np.ndarray, slanted: bool) -> Polygon:
    """The board's four corners: its outline opened by a fifth of its side first, so that a
    small thing touching it (a marker, a card's corner) is no part of it; then the rectangle
    round what is left. Seen by a camera at a slant (``slanted``), a board is no rectangle:
    each side is a line fitted along the middle of that side of what is left, and the
    corners are where they meet (``_sides_met``; the opening cuts the corners off). Tables
    9700-9809 at 15-30 degrees: stations read right 980 -> 983 of 1176, reservations
    935 -> 939, gate counts 317 -> 321, ships 413 -> 412 of 516 (9901 at 20 degrees: a probe
    on a tile by a board's corner, inside the rectangle round the board, read as a
    station). Straight down, the sides' lines, fitted to outlines a piece or the board's art
    bends, are no truer than the rectangle: taken there too, ten of the tests' tables read
    otherwise, a station wrong among them."""
    x, y, w, h = cv2.boundingRect(outline.astype(np.float32))
    mask = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(mask, [np.round(outline - (x - 1, y - 1)).astype(np.int32)], -1, 1, -1)
    side = max(3, int(TRIM * math.sqrt(mask.sum())) | 1)
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
    found, _ = cv2.findContours(opened if opened.any() else mask, cv2.RETR_EXTERNAL,
                                cv2.CHAIN_APPROX_NONE)
    core = (max(found, key=cv2.contourArea)[:, 0] + (x - 1, y - 1)).astype(np.float32)
    corners = _sides_met(core, cv2.boxPoints(cv2.minAreaRect(outline.astype(np.float32)))) \
        if slanted else None
    if corners is None:
        corners = cv2.boxPoints(cv2.minAreaRect(core))
    return tuple((float(px), float(py)) for px, py in corners)


EDGE_REACH = 0.2
"""A board's side, as found at the working size, lies within this share of its length of the
board's edge in the full picture ..."""
EDGE_OFFSETS = 25
"""... where lines through this many places across that reach at either end are tried ..."""
EDGE_ALONG = (0.15, 0.85, 32)
"""... each compared at this many points along that part of the side (its corners are
rounded off, or under a piece) ..."""
EDGE_GAP = 0.02
"""... between the picture this share of the side (two pixels at the least) inside the line
and as far outside it."""
EDGE_LEAST = 6.0
EDGE_SHOWN = 15
"""A line is a board's edge where the colour steps across it by at least this much (Lab)
at all but ``EDGE_SHOWN`` per cent of its points (that percentile): a board's edge runs
from corner to corner, while a row of badges along a side, a planet's disc or a line of
the table's art step along a part of a line ..."""
EDGE_OUTERMOST = 0.55
"""... and of the lines stepping at least this share of the most, the outermost is: a frame
printed inside a board, or badges along its side, step more than a dark board on a dark
table does. Found at the working size, the boards were a few per cent too large, some far
more (a marker beside one taken in), some too small (their middle alone). Their overlap
with the boards as drawn, tables 9700-9729 and 9800-9829 at 15-30 degrees and 11030-11059
straight down (696 boards): under 0.9 for 431 -> 56 boards, under 0.8 for 215 -> 26, the
median 0.868 -> 0.976; then tables 11060-11089 at a slant, 11120-11149, 7300-7329 and
8400-8429 straight down (928 boards): 444 -> 76, 166 -> 15, 0.914 -> 0.978. (With the
median step along a line, rather than the 15th percentile: 152 and 23; with the strongest
line: a row of badges.) Read on seventeen blocks of bench tables: stations 4845 -> 4911 of
5512, reservations 4632 -> 4667, ships 2074 -> 2083 of 2405, gate counts 1886 -> 1880;
held-out tables 11210-11389: stations 1687 -> 1703 of 1880, reservations 1608 -> 1622,
none more wrong; dev tables 8060-8269: stations 2015 -> 2044 of 2232, reservations 1954 ->
1981. Wrong reads 19 -> 20 on the seventeen blocks: a black probe on a dark tile beside a
board, seen neither as black nor as new, had left its planet out only while the board
reached over its tile."""
EDGE_KEPT = (0.4, 1.6)
"""The edges found are the board's only where they make a convex board of this share of its
area as found at the working size."""


def _edge_fitted(lab: np.ndarray, corners: Polygon) -> Polygon:
    """A board's corners (``corners``: as found at the working size, at the picture's scale)
    moved to where each side's line best fits the board's edge in the full picture ``lab``
    (``EDGE_OUTERMOST``); a side whose edge does not show stays as it was."""
    quad = np.array(corners, np.float64)
    middle = quad.mean(axis=0)
    lines = []
    for k in range(4):
        start, end = quad[k], quad[(k + 1) % 4]
        length = float(np.linalg.norm(end - start))
        if length < 4:
            return corners
        outward = np.array([end[1] - start[1], start[0] - end[0]]) / length
        if np.dot(outward, middle - (start + end) / 2) > 0:
            outward = -outward
        offsets = np.linspace(-EDGE_REACH * length, EDGE_REACH * length, EDGE_OFFSETS)
        at_start, at_end = np.meshgrid(offsets, offsets, indexing="ij")
        along = np.linspace(*EDGE_ALONG)
        shifts = at_start[..., None] * (1 - along) + at_end[..., None] * along
        points = (start + np.outer(along, end - start))[None, None] + \
            shifts[..., None] * outward
        apart = max(2.0, EDGE_GAP * length)
        gap = apart * outward
        steps = np.linalg.norm(_sampled(lab, points - gap) - _sampled(lab, points + gap),
                               axis=-1)
        scores = np.percentile(steps, EDGE_SHOWN, axis=-1)
        strong = scores >= max(EDGE_LEAST, EDGE_OUTERMOST * float(scores.max()))
        if not strong.any():
            lines.append((start, end))
            continue
        out = np.where(strong, (at_start + at_end) / 2, -np.inf)
        outermost = out.max()
        # a line steps as much anywhere within ``apart`` of an edge: of the strong lines
        # about that far out, the strongest, on it
        chosen = np.where(strong & (out >= outermost - 2 * apart), scores, -1.0)
        i, j = np.unravel_index(int(np.argmax(chosen)), chosen.shape)
        lines.append((start + at_start[i, j] * outward, end + at_end[i, j] * outward))
    fitted = []
    for k in range(4):
        (a, b), (c, d) = lines[k - 1], lines[k]
        system = np.array([b - a, c - d]).T
        if abs(np.linalg.det(system)) < 1e-6:
            return corners
        share = np.linalg.solve(system, c - a)[0]
        fitted.append(a + share * (b - a))
    found = np.array(fitted, np.float32)
    ratio = abs(cv2.contourArea(found)) / max(1.0, abs(cv2.contourArea(quad.astype(np.float32))))
    if not cv2.isContourConvex(found) or not EDGE_KEPT[0] <= ratio <= EDGE_KEPT[1]:
        return corners
    return tuple((float(x), float(y)) for x, y in found)


def _sampled(lab: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``lab`` at ``points`` (... x 2, pixels), bilinearly."""
    flat = points.reshape(-1, 1, 2).astype(np.float32)
    values = cv2.remap(lab, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    return values.reshape(points.shape[:-1] + (lab.shape[2],))


SIDE_MIDDLE = (0.25, 0.75)
"""The part of a side, from one corner to the next, a side's line is fitted to (the
corners are rounded off by the opening)."""
SIDE_NEAR = 0.08
"""Outline points this share of a side's length off it are on it."""
QUAD_BEYOND = 0.04
"""Corners more than this share of a side beyond the rectangle round the whole outline are
no board's: the rectangle round what is left is kept."""


def _sides_met(core: np.ndarray, bound: np.ndarray) -> np.ndarray | None:
    """The four corners where lines fitted to the middles of ``core``'s four sides meet;
    None where it does not show four sides, or they meet beyond ``bound``."""
    hull = cv2.convexHull(core)
    perimeter = cv2.arcLength(hull, True)
    quad = next((found[:, 0] for share in (0.03, 0.05, 0.08, 0.12)
                 for found in [cv2.approxPolyDP(hull, share * perimeter, True)]
                 if len(found) == 4), None)
    if quad is None:
        return None
    lines = []
    for k in range(4):
        start, along = quad[k], quad[(k + 1) % 4] - quad[k]
        length = float(np.hypot(*along))
        if length < 1.0:
            return None
        unit = along / length
        rel = core - start
        t, off = rel @ unit / length, np.abs(rel @ np.array([-unit[1], unit[0]]))
        near = (t >= SIDE_MIDDLE[0]) & (t <= SIDE_MIDDLE[1]) & (off <= SIDE_NEAR * length)
        if near.sum() < 3:
            return None
        vx, vy, x0, y0 = cv2.fitLine(core[near], cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for (p1, d1), (p2, d2) in zip(lines[-1:] + lines[:-1], lines):
        across = np.array([d1, -d2]).T
        if abs(np.linalg.det(across)) < 1e-3:
            return None
        s, _ = np.linalg.solve(across, p2 - p1)
        corners.append(p1 + s * d1)
    quad_found = np.array(corners, np.float32)
    reach = QUAD_BEYOND * math.sqrt(abs(cv2.contourArea(bound)))
    if not cv2.isContourConvex(quad_found) or any(
            cv2.pointPolygonTest(bound, (float(px), float(py)), True) < -reach
            for px, py in quad_found):
        return None
    return quad_found


def _hull(outline: np.ndarray) -> Polygon:
    hull = cv2.approxPolyDP(cv2.convexHull(outline.astype(np.float32)), 2.0, True)[:, 0]
    return tuple((float(x), float(y)) for x, y in hull)
