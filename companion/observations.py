"""What the camera reports, as plain data: the types vision/ produces and the tracker reads.

They live in the core so that vision depends on the core, never the reverse (DESIGN.md §2).
Also here: the tile sticker payload (DESIGN.md §5.3), which is untrusted input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from companion.rules import TILE_KINDS

#: The table's zones, by the names the calibration and the observations give them.
DISCARD_ZONE = "discard"
TRAY_ZONE = "scan-tray"
JUMP_GATE_ZONE = "jump-gate"
PLANET_ZONE = "planet-"
"""Followed by the place in the ring, from 1: ``planet-1`` is the first planet clockwise."""
PLAYER_ZONE = "player-"
"""Followed by the seat, from 1."""


def planet_zone(index: int) -> str:
    """The zone of the ring's planet at ``index`` (0 is the first clockwise)."""
    return f"{PLANET_ZONE}{index + 1}"


def player_zone(index: int) -> str:
    """The zone in front of the seat at ``index`` (0 is the first seat)."""
    return f"{PLAYER_ZONE}{index + 1}"


Point = tuple[float, float]
Corners = tuple[Point, Point, Point, Point]

STICKER_COUNT = 64
_PAYLOAD = re.compile(r"SM1:T([0-9]{2}):(" + "|".join(re.escape(k) for k in TILE_KINDS) + r")")


@dataclass(frozen=True)
class StickerPayload:
    tile_id: int
    """1-64, as printed under the sticker."""
    kind: str

    @property
    def text(self) -> str:
        return f"SM1:T{self.tile_id:02d}:{self.kind}"


def parse_sticker(text: str) -> StickerPayload | None:
    """The sticker a QR text names, or ``None`` when it is anything but exactly that form.

    No trimming, case folding or searching inside a longer text: a near miss is foreign.
    """
    match = _PAYLOAD.fullmatch(text)
    if match is None:
        return None
    tile_id = int(match.group(1))
    if not 1 <= tile_id <= STICKER_COUNT:
        return None
    return StickerPayload(tile_id, match.group(2))


@dataclass(frozen=True)
class CardSeen:
    code: str
    """Canonical card code, e.g. ``B3/G2``."""
    confidence: float
    """0-1; below the reader's threshold a card is reported as a problem instead."""
    zone: str | None
    corners: Corners
    """Image pixel corners of the card, clockwise from the top-left of its upright face."""

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "confidence": round(self.confidence, 3), "zone": self.zone,
                "corners": _round(self.corners)}


@dataclass(frozen=True)
class TileSeen:
    payload: str
    tile_id: int
    kind: str
    zone: str | None
    corners: Corners

    def to_json(self) -> dict[str, Any]:
        return {"payload": self.payload, "id": self.tile_id, "kind": self.kind,
                "zone": self.zone, "corners": _round(self.corners)}


@dataclass(frozen=True)
class MarkerSeen:
    marker_id: int
    corners: Corners

    def to_json(self) -> dict[str, Any]:
        return {"id": self.marker_id, "corners": _round(self.corners)}


@dataclass(frozen=True)
class CodeSeen:
    """Any QR text the reader decoded, foreign ones included (``scan --raw``)."""

    text: str
    corners: Corners

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "corners": _round(self.corners)}


@dataclass(frozen=True)
class Problem:
    kind: str
    """``foreign_code``, ``unsure_card``, ``no_calibration``, ``bad_frame``, ``camera``…"""
    message: str
    corners: Corners | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "message": self.message}
        if self.corners is not None:
            data["corners"] = _round(self.corners)
        return data


GATE = "gate"
"""The jump gate as a place pieces stand on (``PiecesSeen``)."""


@dataclass(frozen=True)
class PiecesSeen:
    """The pieces on the ring (DESIGN.md §5.5): only what was seen for sure; a colour or a
    place left out is unknown, never empty."""

    ships: dict[str, str]
    """Player colour -> the planet's name or ``gate``."""
    gate: dict[str, int]
    """Player colour -> probes on the jump gate."""
    stations: dict[str, str | None]
    """Planet -> the builder's colour, or None when it has none."""
    reserved: dict[str, dict[str, int]]
    """Planet -> player colour -> probes on tiles reserved beside it."""
    glimpsed: dict[str, str] = field(default_factory=dict)
    """Player colour -> the one place where a part of their ship, not seen whole, shows (a
    black ship half over a board as dark as it): never a ship's place for sure, only what a
    proposal for a tap may go by."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "ships": dict(self.ships), "gate": dict(self.gate), "stations": dict(self.stations),
            "reserved": {name: dict(counts) for name, counts in self.reserved.items()}}
        if self.glimpsed:
            data["glimpsed"] = dict(self.glimpsed)
        return data


@dataclass(frozen=True)
class Observation:
    """What one frame (or a debounced run of frames) shows."""

    cards: tuple[CardSeen, ...] = ()
    tiles: tuple[TileSeen, ...] = ()
    markers: tuple[MarkerSeen, ...] = ()
    problems: tuple[Problem, ...] = ()
    codes: tuple[CodeSeen, ...] = field(default=(), compare=False)
    pieces: PiecesSeen | None = field(default=None, compare=False)
    """None where no ring is calibrated."""
    moving: bool = field(default=False, compare=False)
    """Something moved in view in this frame (a hand over the table): what is seen may be
    proposed, but nothing is committed from it."""

    def to_json(self, raw: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "cards": [c.to_json() for c in self.cards],
            "tiles": [t.to_json() for t in self.tiles],
            "markers": [m.to_json() for m in self.markers],
            "problems": [p.to_json() for p in self.problems]}
        if self.pieces is not None:
            data["pieces"] = self.pieces.to_json()
        if raw:
            data["codes"] = [c.to_json() for c in self.codes]
        return data


def _round(corners: Corners) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in corners]
