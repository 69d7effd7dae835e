"""The synthetic table: a seeded renderer of the table as a camera above it sees it.

It is the ground truth for the vision tests and the demo camera. A ``Scene`` places things on the
table in millimetres (corner and tray markers, colour swatches, planet boards, cards, stickered
tiles); ``render`` photographs it through a ``View`` (what the camera covers, with perspective)
and a ``Degradation`` (defocus and motion blur, sensor noise, uneven light, glare, shadow, JPEG),
and returns the frame with every thing's true image corners.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.observations import StickerPayload
from companion.rules import Card, Coordinate, Planet
from vision.card_art import PX_PER_MM, REFERENCE_STYLE, CardStyle, draw_badge, draw_card
from vision.layout import (ARUCO_DICTIONARY, CARD_SIZE, PLANET_BOARD, STICKER_SIZE, TILE_SIZE,
                           TableLayout, default_layout)
from vision.sticker_art import QUIET_MODULES, STICKER_MODULES, draw_sticker

SWATCH_COLORS = {"B": (190, 95, 20), "G": (60, 150, 35), "O": (20, 125, 240)}
"""Printed swatch colours (BGR); the same inks as the reference card badges."""


@dataclass(frozen=True)
class Thing:
    kind: str
    """``marker``, ``card``, ``tile``, ``board`` or ``swatch``."""
    label: str
    """Marker id, card code, sticker payload, planet name or colour code."""
    face: np.ndarray
    """BGR image of the thing, upright."""
    center: tuple[float, float]
    """Position on the table in mm."""
    size: tuple[float, float]
    """Width and height in mm."""
    angle: float = 0.0
    """Rotation in degrees, counter-clockwise as seen from above."""
    truth_box: tuple[float, float, float, float] | None = None
    """The part whose corners are the ground truth, as fractions (x0, y0, x1, y1) of the face;
    the whole face when None (a sticker's truth is its QR symbol, not the paper)."""

    def to_table(self) -> np.ndarray:
        """3x3 transform from face pixels to table mm."""
        h, w = self.face.shape[:2]
        sx, sy = self.size[0] / w, self.size[1] / h
        a = math.radians(-self.angle)
        c, s = math.cos(a), math.sin(a)
        to_center = np.array([[sx, 0, -self.size[0] / 2], [0, sy, -self.size[1] / 2], [0, 0, 1]])
        rotate = np.array([[c, -s, self.center[0]], [s, c, self.center[1]], [0, 0, 1]])
        return rotate @ to_center

    def truth_corners(self) -> np.ndarray:
        h, w = self.face.shape[:2]
        x0, y0, x1, y1 = self.truth_box or (0.0, 0.0, 1.0, 1.0)
        return np.array([[x0 * w, y0 * h], [x1 * w, y0 * h], [x1 * w, y1 * h],
                         [x0 * w, y1 * h]], dtype=np.float64)


@dataclass
class Scene:
    layout: TableLayout = field(default_factory=default_layout)
    things: list[Thing] = field(default_factory=list)
    felt: tuple[int, int, int] = (62, 84, 52)
    """BGR of the table cloth."""

    @classmethod
    def table(cls, layout: TableLayout | None = None) -> Scene:
        """A table with its markers and colour swatches, nothing else yet."""
        scene = cls(layout or default_layout())
        scene.add_markers()
        scene.add_swatches()
        return scene

    def add(self, thing: Thing) -> Thing:
        self.things.append(thing)
        return thing

    def remove(self, thing: Thing) -> None:
        self.things.remove(thing)

    def add_markers(self) -> None:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
        for marker in self.layout.markers:
            px = 12 * 6  # 6x6 cells incl. the black border, 12 px each
            code = cv2.aruco.generateImageMarker(dictionary, marker.marker_id, px)
            margin = px // 6  # one cell of white paper around it
            paper = cv2.copyMakeBorder(code, margin, margin, margin, margin,
                                       cv2.BORDER_CONSTANT, value=255)
            size = marker.size * paper.shape[0] / px
            fraction = margin / paper.shape[0]
            self.add(Thing("marker", str(marker.marker_id), cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR),
                           marker.center, (size, size), 0.0,
                           (fraction, fraction, 1 - fraction, 1 - fraction)))

    def add_swatches(self) -> None:
        for code, polygon in self.layout.swatches.items():
            xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
            w, h = max(xs) - min(xs), max(ys) - min(ys)
            face = np.full((int(h * 4), int(w * 4), 3), SWATCH_COLORS[code], dtype=np.uint8)
            self.add(Thing("swatch", code, face, ((max(xs) + min(xs)) / 2,
                                                  (max(ys) + min(ys)) / 2), (w, h)))

    def add_card(self, card: Card, center: tuple[float, float], angle: float = 0.0,
                 style: CardStyle = REFERENCE_STYLE) -> Thing:
        return self.add(Thing("card", card.code, draw_card(card, style), center,
                              style.size_mm, angle))

    def add_tile(self, sticker: StickerPayload, center: tuple[float, float], angle: float = 0.0,
                 sticker_mm: float = STICKER_SIZE, tile_mm: float | None = None) -> Thing:
        module_px = 8
        art = draw_sticker(sticker, module_px)
        side = art.shape[1]
        tile_mm = tile_mm or max(TILE_SIZE, sticker_mm * 1.35)
        px_per_mm = side / sticker_mm
        tile_px = int(round(tile_mm * px_per_mm))
        face = np.full((tile_px, tile_px, 3), (150, 170, 185), dtype=np.uint8)  # cardboard
        y0, x0 = (tile_px - art.shape[0]) // 2, (tile_px - side) // 2
        face[y0:y0 + art.shape[0], x0:x0 + side] = art[:, :, None]
        quiet = QUIET_MODULES * module_px
        code_side = side - 2 * quiet
        box = ((x0 + quiet) / tile_px, (y0 + quiet) / tile_px,
               (x0 + quiet + code_side) / tile_px, (y0 + quiet + code_side) / tile_px)
        return self.add(Thing("tile", sticker.text, face, center, (tile_mm, tile_mm), angle,
                              box))

    def add_board(self, planet: Planet, center: tuple[float, float]) -> Thing:
        """A planet board: the planet, its name, and its four printed coordinates (blue jump,
        green scan, two orange landing) as badges in the reference style."""
        px = int(PLANET_BOARD * PX_PER_MM)
        face = np.full((px, px, 3), (40, 30, 30), dtype=np.uint8)
        cv2.circle(face, (px // 2, int(px * 0.42)), int(px * 0.22), (90, 120, 170), -1,
                   cv2.LINE_AA)
        cv2.putText(face, planet.name, (int(px * 0.06), int(px * 0.13)),
                    cv2.FONT_HERSHEY_SIMPLEX, 2.2, (230, 230, 230), 4, cv2.LINE_AA)
        badges = [("B", planet.jump), ("G", planet.scan), ("O", planet.landing[0]),
                  ("O", planet.landing[1])]
        for k, (color, number) in enumerate(badges):
            draw_badge(face, Coordinate(color, number), (14.0 + k * 24.0, 84.0), REFERENCE_STYLE,
                       radius_mm=10.0, glyph_mm=10.0)
        return self.add(Thing("board", planet.name, face, center, (PLANET_BOARD, PLANET_BOARD)))


@dataclass(frozen=True)
class View:
    """What the camera covers: a rectangle of the table (mm), at a frame size (px)."""

    x: float
    y: float
    width: float
    height: float
    frame: tuple[int, int] = (1280, 720)

    @classmethod
    def whole_table(cls, layout: TableLayout, frame: tuple[int, int] = (1280, 720)) -> View:
        return cls(0.0, 0.0, layout.width, layout.height, frame)

    @classmethod
    def around(cls, polygon: tuple[tuple[float, float], ...], margin: float,
               frame: tuple[int, int] = (1280, 720)) -> View:
        """A view of a zone with a margin, stretched to the frame's aspect ratio."""
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        w, h = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin
        aspect = frame[0] / frame[1]
        if w / h < aspect:
            w = h * aspect
        else:
            h = w / aspect
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
        return cls(cx - w / 2, cy - h / 2, w, h, frame)

    @property
    def px_per_mm(self) -> float:
        return self.frame[0] / self.width


@dataclass(frozen=True)
class Degradation:
    perspective: float = 0.0
    """Largest shift of a frame corner, as a fraction of the frame size."""
    defocus: float = 0.0
    """Gaussian blur sigma in pixels."""
    motion: float = 0.0
    """Motion blur length in pixels."""
    noise: float = 0.0
    """Sensor noise sigma in grey levels."""
    light: float = 0.0
    """Uneven light: the darkest part gets this fraction less light."""
    glare: float = 0.0
    """Peak brightness added by a glare spot, 0-1."""
    shadow: float = 0.0
    """Darkening inside a soft shadow band, 0-1."""
    jpeg: int | None = None
    """JPEG quality, or None for no compression."""

    @classmethod
    def random(cls, rng: random.Random, strength: float = 1.0) -> Degradation:
        """A mix of every kind, each drawn up to ``strength`` times a bad-but-usable level."""
        s = strength
        return cls(perspective=rng.uniform(0, 0.06 * s), defocus=rng.uniform(0, 1.2 * s),
                   motion=rng.uniform(0, 3.0 * s), noise=rng.uniform(0, 8 * s),
                   light=rng.uniform(0, 0.45 * s), glare=rng.uniform(0, 0.35 * s),
                   shadow=rng.uniform(0, 0.45 * s),
                   jpeg=rng.choice([None, 95, 85, 75]) if s > 0 else None)


@dataclass(frozen=True)
class Truth:
    kind: str
    label: str
    corners: np.ndarray
    """4 x 2 image points, clockwise from the top-left of the thing's upright face."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    truth: tuple[Truth, ...]
    table_to_image: np.ndarray
    """3x3 homography from table mm to image pixels."""


def camera_homography(view: View, perspective: float, rng: random.Random) -> np.ndarray:
    fw, fh = view.frame
    src = np.array([[view.x, view.y], [view.x + view.width, view.y],
                    [view.x + view.width, view.y + view.height], [view.x, view.y + view.height]],
                   dtype=np.float32)
    dst = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], dtype=np.float32)
    jitter = np.array([[rng.uniform(-1, 1) * perspective * fw,
                        rng.uniform(-1, 1) * perspective * fh] for _ in range(4)])
    # corners move inwards only, so the view never shows beyond the table's edge more than asked
    inward = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]])
    dst = (dst + np.abs(jitter) * inward).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def render(scene: Scene, view: View, degradation: Degradation = Degradation(),
           seed: int = 0) -> Frame:
    rng = random.Random(seed)
    homography = camera_homography(view, degradation.perspective, rng)
    fw, fh = view.frame
    image = _felt(scene.felt, (fw, fh), rng)
    truths = []
    for thing in scene.things:
        to_image = homography @ thing.to_table()
        _paste(image, thing.face, to_image)
        corners = cv2.perspectiveTransform(thing.truth_corners()[None], to_image)[0]
        if _visible(corners, fw, fh):
            truths.append(Truth(thing.kind, thing.label, corners))
    image = _degrade(image, degradation, rng)
    return Frame(image, tuple(truths), homography)


def _felt(color: tuple[int, int, int], size: tuple[int, int], rng: random.Random) -> np.ndarray:
    w, h = size
    coarse = np.random.default_rng(rng.randrange(2**32)).normal(0, 6, (h // 40 + 2, w // 40 + 2))
    texture = cv2.resize(coarse.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    image = np.empty((h, w, 3), dtype=np.float32)
    image[:] = color
    image += texture[:, :, None]
    return np.clip(image, 0, 255).astype(np.uint8)


def _visible(corners: np.ndarray, w: int, h: int) -> bool:
    return bool(np.all((corners[:, 0] >= 0) & (corners[:, 0] < w)
                       & (corners[:, 1] >= 0) & (corners[:, 1] < h)))


def _paste(image: np.ndarray, face: np.ndarray, to_image: np.ndarray) -> None:
    """Warp ``face`` into ``image`` where it lands, resampled without aliasing."""
    fh, fw = face.shape[:2]
    outline = np.array([[[0, 0], [fw, 0], [fw, fh], [0, fh]]], dtype=np.float64)
    corners = cv2.perspectiveTransform(outline, to_image)[0]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    # shrink the face first so the warp never skips source pixels (no moire on QR codes)
    scale = math.sqrt(abs(np.linalg.det(to_image[:2, :2])))
    factor = min(1.0, 1.5 * scale)
    if factor < 1.0:
        face = cv2.resize(face, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        to_image = to_image @ np.diag([1 / factor, 1 / factor, 1.0])
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], dtype=np.float64)
    matrix = shift @ to_image
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), matrix, size,
                               flags=cv2.INTER_LINEAR)
    alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
    roi = image[y0:y1, x0:x1]
    roi[:] = (warped * alpha + roi * (1 - alpha)).astype(np.uint8)


def _degrade(image: np.ndarray, d: Degradation, rng: random.Random) -> np.ndarray:
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    if d.light or d.shadow or d.glare:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        field_ = np.ones((h, w), np.float32)
        if d.light:
            angle = rng.uniform(0, 2 * math.pi)
            ramp = (xx * math.cos(angle) + yy * math.sin(angle))
            ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1.0)
            field_ *= 1.0 - d.light * ramp
        if d.shadow:
            angle = rng.uniform(0, math.pi)
            offset = rng.uniform(0.3, 0.7) * (w * abs(math.cos(angle)) + h * abs(math.sin(angle)))
            distance = xx * math.cos(angle) + yy * math.sin(angle) - offset
            band = 1 / (1 + np.exp(-distance / (0.02 * w)))
            field_ *= 1.0 - d.shadow * band
        out *= field_[:, :, None]
        if d.glare:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            radius = rng.uniform(0.08, 0.2) * w
            spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius ** 2))
            out += (255 * d.glare * spot)[:, :, None]
    if d.defocus > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), d.defocus)
    if d.motion >= 1.0:
        length = int(round(d.motion)) | 1
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                           rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rotation, (length, length))
        kernel /= max(float(kernel.sum()), 1e-6)
        out = cv2.filter2D(out, -1, kernel)
    if d.noise:
        noise = np.random.default_rng(rng.randrange(2**32)).normal(0, d.noise, out.shape)
        out += noise.astype(np.float32)
    result = np.clip(out, 0, 255).astype(np.uint8)
    if d.jpeg is not None:
        ok, data = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, d.jpeg])
        result = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return result


def sticker_mm_for(px_per_module: float, view: View) -> float:
    """The sticker size (quiet zone included) that gives ``px_per_module`` in ``view``."""
    return px_per_module * STICKER_MODULES / view.px_per_mm


__all__ = ["Scene", "Thing", "View", "Degradation", "Frame", "Truth", "render", "CARD_SIZE",
           "sticker_mm_for"]
