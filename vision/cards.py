"""Card reader: find cards in a region, read both coordinates, or say it is unsure.

A card is found as a light quadrilateral of card proportions, warped upright to a canonical
size and split into halves. In each half the coordinate badge is the largest saturated blob:
its hue names the colour, the glyph inside it (the holes in the blob) is compared with the
model's templates of ``1``-``4`` and ``?``. The model is learned from labelled examples, so a
deck printed in another style is taught, not coded (``teach``).

A wrong read is worse than none: a card is returned only when colour, glyph and orientation
are each clear by a margin; otherwise the reader reports it as unsure.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from companion.rules import Card, Coordinate, MalformedEventError
from vision.card_art import REFERENCE_STYLE, draw_card

CANON = (120, 180)
"""Upright card size after warping (px): 2 px per mm of the reference card."""
CARD_ASPECT = (1.25, 1.85)
"""Accepted long/short side ratios of a card outline in the image (1.5 with perspective)."""
MIN_CARD_AREA = 1500.0
GLYPH = (32, 32)
SHIFT = 2
SYMBOLS = ("1", "2", "3", "4", "?")
COLORS = ("B", "G", "O")
#: Thresholds for a read to count (measured on the synthetic table: no misreads below them).
MIN_GLYPH_SCORE = 0.75
MIN_GLYPH_MARGIN = 0.06
MAX_HUE_RATIO = 0.5
MIN_ORIENTATION_MARGIN = 0.08


@dataclass
class CardModel:
    """What the reader knows of a deck's printing: badge hues and glyph templates."""

    hues: dict[str, float]
    """OpenCV hue (0-180) of each coordinate colour under the table's light."""
    templates: dict[str, list[np.ndarray]] = field(default_factory=dict)
    """Symbol -> normalised glyph images (zero mean, unit norm)."""
    min_saturation: int = 70

    def to_json(self) -> dict[str, Any]:
        return {"hues": self.hues, "min_saturation": self.min_saturation,
                "templates": {s: [_pack(t) for t in ts] for s, ts in self.templates.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardModel:
        hues = {str(k): float(v) for k, v in data["hues"].items()}
        if set(hues) != set(COLORS):
            raise ValueError(f"a card model needs hues for {', '.join(COLORS)}")
        templates = {str(s): [_unpack(t) for t in ts] for s, ts in data["templates"].items()}
        if not set(templates) <= set(SYMBOLS):
            raise ValueError(f"card model symbols must be among {', '.join(SYMBOLS)}")
        return cls(hues, templates, int(data.get("min_saturation", 70)))


def _pack(template: np.ndarray) -> str:
    levels = np.clip((template * 127 / max(float(np.abs(template).max()), 1e-6)) + 128, 0, 255)
    return base64.b64encode(levels.astype(np.uint8).tobytes()).decode("ascii")


def _unpack(text: str) -> np.ndarray:
    raw = np.frombuffer(base64.b64decode(text), dtype=np.uint8)
    if raw.size != GLYPH[0] * GLYPH[1]:
        raise ValueError("a glyph template has the wrong size")
    return _normalise(raw.reshape(GLYPH[1], GLYPH[0]).astype(np.float32) - 128)


def _normalise(glyph: np.ndarray) -> np.ndarray:
    centred = glyph.astype(np.float32) - float(glyph.mean())
    norm = float(np.linalg.norm(centred))
    return centred / norm if norm > 1e-6 else centred


# ---------------------------------------------------------------------------------------------
# Finding cards
# ---------------------------------------------------------------------------------------------

def find_card_outlines(bgr: np.ndarray, min_area: float = MIN_CARD_AREA,
                       max_area: float | None = None) -> list[np.ndarray]:
    """Quadrilaterals of card proportions among the light blobs of an image (4x2, float)."""
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    _, binary = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    binary = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    height, width = gray.shape
    quads = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area or (max_area is not None and area > max_area):
            continue
        hull = cv2.convexHull(contour)
        approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
        if len(approx) != 4:
            continue
        quad = approx.reshape(4, 2).astype(np.float64)
        x, y, w, h = cv2.boundingRect(contour)
        if x <= 2 or y <= 2 or x + w >= width - 2 or y + h >= height - 2:
            continue  # cut off by the image's edge: a partial card is never read
        if cv2.contourArea(quad.astype(np.float32)) < 0.85 * cv2.contourArea(hull):
            continue
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        long_, short = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
        ratio = max(long_, short) / max(min(long_, short), 1e-6)
        if CARD_ASPECT[0] <= ratio <= CARD_ASPECT[1]:
            quads.append(_upright_order(quad))
    return quads


def _upright_order(quad: np.ndarray) -> np.ndarray:
    """Corners clockwise with the first side a short one (the card's top edge, up to 180°)."""
    center = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - center[1], quad[:, 0] - center[0])
    quad = quad[np.argsort(angles)]  # clockwise in image coordinates (y down)
    if np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[2] - quad[1]):
        quad = np.roll(quad, -1, axis=0)
    start = int(np.argmin(quad[[0, 2], 1])) * 2  # of the two short sides, the upper one on top
    return np.roll(quad, -start, axis=0)


def warp_upright(bgr: np.ndarray, quad: np.ndarray) -> np.ndarray:
    w, h = CANON
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    return cv2.warpPerspective(bgr, matrix, (w, h), flags=cv2.INTER_LINEAR)


# ---------------------------------------------------------------------------------------------
# Reading a badge
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Badge:
    hue: float
    glyph: np.ndarray


def badge_in(half: np.ndarray, min_saturation: int) -> Badge | None:
    """The coordinate badge of one card half: its hue and its glyph.

    The glyph is sampled in the badge's own bounding box, so its framing does not depend on the
    glyph's shape; it is a continuous map of how far each pixel is from the badge colour, which
    keeps the information a blurred, low-resolution glyph still has.
    """
    hsv = cv2.cvtColor(half, cv2.COLOR_BGR2HSV)
    colored = ((hsv[:, :, 1] >= min_saturation) & (hsv[:, :, 2] >= 50)).astype(np.uint8)
    colored = cv2.morphologyEx(colored, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(colored, connectivity=8)
    if count < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[biggest, cv2.CC_STAT_AREA] < 0.04 * half.shape[0] * half.shape[1]:
        return None
    blob = (labels == biggest).astype(np.uint8)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(blob)
    cv2.drawContours(filled, contours, -1, 1, thickness=-1)
    x, y, w, h = cv2.boundingRect(contours[0]) if len(contours) == 1 else cv2.boundingRect(
        np.concatenate(contours))
    if int(filled.sum()) - int(blob.sum()) < 0.012 * w * h:
        return None  # no glyph inside the badge
    angles = hsv[:, :, 0][blob.astype(bool)].astype(np.float64) * (np.pi / 90)
    hue = float(np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) / 2) % 180
    lab = cv2.cvtColor(half, cv2.COLOR_BGR2LAB).astype(np.float32)
    badge_color = lab[blob.astype(bool)].mean(axis=0)
    distance = np.linalg.norm(lab - badge_color, axis=2)
    margin = max(1, int(round(min(w, h) * 0.08)))
    inner = cv2.erode(filled, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
    strength = distance * inner
    top = float(np.percentile(strength[inner.astype(bool)], 97)) if inner.any() else 0.0
    if top < 1e-3:
        return None
    crop = np.clip(strength[y:y + h, x:x + w] / top, 0, 1)
    return Badge(hue, _normalise(cv2.resize(crop, GLYPH, interpolation=cv2.INTER_AREA)))


def glyph_similarity(glyph: np.ndarray, template: np.ndarray) -> float:
    """Correlation allowing a shift of a few pixels (badge outlines are found to ±2 px)."""
    padded = cv2.copyMakeBorder(glyph, SHIFT, SHIFT, SHIFT, SHIFT, cv2.BORDER_CONSTANT,
                                value=float(glyph.min()))
    return float(cv2.matchTemplate(padded, template, cv2.TM_CCOEFF_NORMED).max())


def hue_distance(a: float, b: float) -> float:
    d = abs(a - b) % 180
    return min(d, 180 - d)


@dataclass(frozen=True)
class BadgeRead:
    coordinate: Coordinate
    glyph_score: float
    glyph_margin: float
    hue_ratio: float
    """Distance to the chosen colour's hue over distance to the next: 0 is certain."""


def classify(badge: Badge, model: CardModel) -> BadgeRead | None:
    distances = sorted((hue_distance(badge.hue, h), c) for c, h in model.hues.items())
    (d1, color), (d2, _) = distances[0], distances[1]
    scores = sorted(((max(glyph_similarity(badge.glyph, t) for t in ts), s)
                     for s, ts in model.templates.items() if ts), reverse=True)
    if len(scores) < 2:
        return None
    (best, symbol), (second, _) = scores[0], scores[1]
    number = None if symbol == "?" else int(symbol)
    return BadgeRead(Coordinate(color, number), best, best - second, d1 / max(d2, 1e-6))


def is_clear(read: BadgeRead | None) -> bool:
    """Whether a badge read is clear by every margin: only then is it used."""
    return (read is not None and read.glyph_score >= MIN_GLYPH_SCORE
            and read.glyph_margin >= MIN_GLYPH_MARGIN and read.hue_ratio <= MAX_HUE_RATIO)


# ---------------------------------------------------------------------------------------------
# Reading a card
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


def read_upright(face: np.ndarray, model: CardModel) -> tuple[BadgeRead | None, BadgeRead | None]:
    h = face.shape[0]
    top, bottom = face[: h // 2], face[h // 2:]
    reads = []
    for half in (top, bottom):
        badge = badge_in(half, model.min_saturation)
        reads.append(None if badge is None else classify(badge, model))
    return reads[0], reads[1]


def read_card(bgr: np.ndarray, quad: np.ndarray, model: CardModel) -> CardRead:
    """Read one card outline, trying both upright orientations (a card may lie turned)."""
    options = []
    for turn in (0, 2):
        corners = np.roll(quad, -turn, axis=0)
        top, bottom = read_upright(warp_upright(bgr, corners), model)
        options.append((corners, top, bottom))
    readable = [o for o in options if is_clear(o[1]) and is_clear(o[2])]
    if not readable:
        return CardRead(None, 0.0, quad, "a coordinate is not clear enough to read")
    canonical = [o for o in readable if _canonical(o[1], o[2])]
    if not canonical:
        return CardRead(None, 0.0, quad, "its colours are not in printed order")
    if len(canonical) == 2:
        first, second = sorted(canonical, key=_glyph_total, reverse=True)
        if _glyph_total(first) - _glyph_total(second) < MIN_ORIENTATION_MARGIN:
            return CardRead(None, 0.0, quad, "which way up it lies is not clear")
        canonical = [first]
    corners, top, bottom = canonical[0]
    assert top is not None and bottom is not None
    try:
        card = Card.parse(f"{top.coordinate}/{bottom.coordinate}")
    except MalformedEventError as error:
        return CardRead(None, 0.0, quad, str(error))
    confidence = min(_confidence(top), _confidence(bottom))
    return CardRead(card, confidence, corners)


def _canonical(top: BadgeRead | None, bottom: BadgeRead | None) -> bool:
    assert top is not None and bottom is not None
    return COLORS.index(top.coordinate.color) <= COLORS.index(bottom.coordinate.color)


def _glyph_total(option: tuple[np.ndarray, BadgeRead | None, BadgeRead | None]) -> float:
    return sum(r.glyph_score for r in option[1:] if r is not None)


def _confidence(read: BadgeRead) -> float:
    return float(min(read.glyph_score, 1.0 - read.hue_ratio, 0.5 + read.glyph_margin))


# ---------------------------------------------------------------------------------------------
# Teaching
# ---------------------------------------------------------------------------------------------

class TeachingError(ValueError):
    """A labelled example that cannot be used; the message names it."""


def teach(examples: list[tuple[str, np.ndarray, Card]]) -> CardModel:
    """A model learned from labelled photos: (name, BGR image, the card it shows).

    Each photo must show one card clearly; its badges give the hues and glyph templates.
    """
    hue_samples: dict[str, list[float]] = {c: [] for c in COLORS}
    templates: dict[str, list[np.ndarray]] = {s: [] for s in SYMBOLS}
    saturation = 70
    for name, image, card in examples:
        quads = find_card_outlines(image)
        if len(quads) != 1:
            raise TeachingError(f"{name}: expected one card in the photo, found {len(quads)}")
        badges = _taught_badges(image, quads[0], card, saturation)
        if badges is None:
            raise TeachingError(f"{name}: the two coordinate badges could not be found")
        for coordinate, badge in zip(card.coordinates, badges):
            hue_samples[coordinate.color].append(badge.hue)
            templates["?" if coordinate.number is None else str(coordinate.number)].append(
                badge.glyph)
    missing = [c for c in COLORS if not hue_samples[c]]
    if missing:
        raise TeachingError(f"no example shows the colour(s) {', '.join(missing)}")
    hues = {c: _circular_mean(samples) for c, samples in hue_samples.items()}
    return CardModel(hues, {s: ts for s, ts in templates.items() if ts}, saturation)


def _taught_badges(image: np.ndarray, quad: np.ndarray, card: Card,
                   saturation: int) -> tuple[Badge, Badge] | None:
    """The badges in the orientation whose colours match the label (either way up)."""
    for turn in (0, 2):
        face = warp_upright(image, np.roll(quad, -turn, axis=0))
        h = face.shape[0]
        top, bottom = badge_in(face[: h // 2], saturation), badge_in(face[h // 2:], saturation)
        if top is None or bottom is None:
            continue
        if card.top.color == card.bottom.color or _hue_order_fits(top, bottom, card):
            return top, bottom
    return None


def _hue_order_fits(top: Badge, bottom: Badge, card: Card) -> bool:
    """Whether the top badge looks more like the label's top colour than the bottom one does."""
    rough = {c: bgr_hue(REFERENCE_STYLE.colors[c]) for c in COLORS}  # orientation only
    straight = (hue_distance(top.hue, rough[card.top.color])
                + hue_distance(bottom.hue, rough[card.bottom.color]))
    turned = (hue_distance(top.hue, rough[card.bottom.color])
              + hue_distance(bottom.hue, rough[card.top.color]))
    return straight <= turned


def bgr_hue(bgr: tuple[int, int, int]) -> float:
    pixel = np.array([[bgr]], dtype=np.uint8)
    return float(cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV)[0, 0, 0])


def _circular_mean(hues: list[float]) -> float:
    angles = np.radians(np.array(hues) * 2)
    return float(np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) / 2) % 180


@lru_cache(maxsize=1)
def reference_model() -> CardModel:
    """The model of the reference style, taught from its own drawings (one card per symbol)."""
    codes = ["B1/G2", "B3/O4", "G?/O1", "B?/G3", "G4/O?"]
    examples = []
    for code in codes:
        face = draw_card(Card.parse(code))
        framed = cv2.copyMakeBorder(face, 60, 60, 60, 60, cv2.BORDER_CONSTANT, value=(60, 80, 50))
        examples.append((code, framed, Card.parse(code)))
    return teach(examples)
