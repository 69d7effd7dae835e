"""The synthetic table: a seeded renderer of the table as a camera above it sees it.

It is the ground truth for the vision tests and the demo camera. A ``Scene`` places things on a
table top in millimetres (corner and tray markers, colour swatches, planet boards, cards of any
deck, stickered tiles, and things that are not cards: card backs, another game's cards, chips,
notes); ``render`` photographs it through a ``View`` (what the camera covers, tilted up to
35 degrees) and a ``Degradation`` (defocus and motion blur, sensor noise, uneven and rolling
light, glare, shadow, a colour cast, moire, JPEG), and returns the frame with every thing's true
image corners and scale.
"""

from __future__ import annotations

import dataclasses

import math
import random
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.printables import SWATCH_INKS
from calibration.sticker_art import QUIET_MODULES, STICKER_MODULES, draw_sticker
from companion.observations import StickerPayload
from companion.rules import Card, Planet
from vision.layout import (ARUCO_DICTIONARY, CARD_SIZE, PLANET_BOARD, STICKER_SIZE, TILE_SIZE,
                           TableLayout, default_layout)
from synthetic.board_faces import BOARD_STYLES, BoardStyle, draw_board
from synthetic.card_faces import DECKS, Deck
from synthetic.surfaces import surface



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
    symbol_mm: float | None = None
    """A card's printed number height: what the camera must resolve to read it."""

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
    surface: str = "felt"
    """The table top (``surfaces.SURFACES``)."""

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
            face = np.full((int(h * 4), int(w * 4), 3), SWATCH_INKS[code], dtype=np.uint8)
            self.add(Thing("swatch", code, face, ((max(xs) + min(xs)) / 2,
                                                  (max(ys) + min(ys)) / 2), (w, h)))

    def add_card(self, card: Card, center: tuple[float, float], angle: float = 0.0,
                 deck: Deck = DECKS["reference"], copy: int = 0) -> Thing:
        """A card of ``deck``; ``copy`` picks which printing of the code (copies differ in the
        decks whose art varies)."""
        face = deck.draw(card, random.Random(f"{deck.name}:{card.code}:{copy}"))
        return self.add(Thing("card", card.code, face, center, deck.size_mm, angle,
                              symbol_mm=deck.symbol_mm))

    def add_other(self, label: str, face: np.ndarray, center: tuple[float, float],
                  size: tuple[float, float], angle: float = 0.0) -> Thing:
        """Something that is not a card of the deck (a card back, another game's card, a chip,
        a note): the reader must not read it as a card."""
        return self.add(Thing("other", label, face, center, size, angle))

    def add_tile(self, sticker: StickerPayload, center: tuple[float, float], angle: float = 0.0,
                 sticker_mm: float = STICKER_SIZE, tile_mm: float | None = None,
                 curl: float = 0.0) -> Thing:
        """A stickered tile; ``curl`` (radians, up to about 0.8) bends the sticker's paper
        around a cylinder, as an old sticker lifts."""
        module_px = 8
        art = draw_sticker(sticker, module_px)
        if curl > 0.01:
            art = _curled(art, curl)
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

    def add_board(self, planet: Planet, center: tuple[float, float], angle: float = 0.0,
                  style: BoardStyle | None = None, rng: random.Random | None = None) -> Thing:
        """A planet board: the planet, its name, and its four printed coordinates (blue jump,
        green scan, two orange landing), in ``style`` (the demo table's by default)."""
        face = draw_board(planet, style or BOARD_STYLES["badges"],
                          rng or random.Random(planet.name))
        return self.add(Thing("board", planet.name, face, center, (PLANET_BOARD, PLANET_BOARD),
                              angle))


@dataclass(frozen=True)
class View:
    """What the camera covers: a rectangle of the table (mm), at a frame size (px), seen from
    straight above or by a camera tilted ``tilt`` degrees (towards the direction ``turn``, in
    degrees of the image plane); a tilted view is zoomed so the rectangle stays in the frame."""

    x: float
    y: float
    width: float
    height: float
    frame: tuple[int, int] = (1280, 720)
    tilt: float = 0.0
    turn: float = 0.0

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
    cast: float = 0.0
    """A colour cast (white balance): positive warm, negative cool, up to about 0.2."""
    banding: float = 0.0
    """Rolling light (a flickering lamp and a rolling shutter): amplitude of bright and dark
    bands across the frame, 0-0.3."""
    moire: float = 0.0
    """Interference of a fine pattern with the sensor's pixels, amplitude 0-0.2."""
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

    @classmethod
    def photo(cls, rng: random.Random, strength: float = 1.0) -> Degradation:
        """``random`` and, on top, what real cameras add: a colour cast, rolling light from a
        flickering lamp and moire."""
        s = strength
        return dataclasses.replace(cls.random(rng, strength), cast=rng.uniform(-0.2, 0.2) * s,
                                   banding=rng.uniform(0, 0.3) * s, moire=rng.uniform(0, 0.2) * s)


@dataclass(frozen=True)
class Truth:
    kind: str
    label: str
    corners: np.ndarray
    """4 x 2 image points, clockwise from the top-left of the thing's upright face."""
    symbol_px: float | None = None
    """A card's printed number height in the image (pixels)."""
    index: int = -1
    """The thing's place in the scene's list."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    truth: tuple[Truth, ...]
    table_to_image: np.ndarray
    """3x3 homography from table mm to image pixels."""


FIELD_OF_VIEW = 62.0
"""Horizontal field of view of the camera in degrees (the Pi camera's)."""


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
    homography = cv2.getPerspectiveTransform(src, dst)
    if view.tilt:
        homography = _tilted(homography, src, view)
    return homography


def _tilted(homography: np.ndarray, src: np.ndarray, view: View) -> np.ndarray:
    """The camera turned about its centre by ``view.tilt`` degrees (K R K^-1), then zoomed and
    moved so the view's rectangle fills the frame again."""
    fw, fh = view.frame
    focal = fw / (2 * math.tan(math.radians(FIELD_OF_VIEW / 2)))
    camera = np.array([[focal, 0, fw / 2], [0, focal, fh / 2], [0, 0, 1]])
    axis = np.array([math.cos(math.radians(view.turn)), math.sin(math.radians(view.turn)), 0.0])
    rotation, _ = cv2.Rodrigues(axis * math.radians(view.tilt))
    turned = camera @ rotation @ np.linalg.inv(camera) @ homography
    corners = cv2.perspectiveTransform(src[None].astype(np.float64), turned)[0]
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    zoom = min(fw / (x1 - x0), fh / (y1 - y0))
    fit = np.array([[zoom, 0, (fw - zoom * (x1 + x0)) / 2],
                    [0, zoom, (fh - zoom * (y1 + y0)) / 2], [0, 0, 1]])
    return fit @ turned


def render(scene: Scene, view: View, degradation: Degradation = Degradation(),
           seed: int = 0) -> Frame:
    rng = random.Random(seed)
    homography = camera_homography(view, degradation.perspective, rng)
    fw, fh = view.frame
    image = surface(scene.surface, (fw, fh), rng)
    truths = []
    for index, thing in enumerate(scene.things):
        to_image = homography @ thing.to_table()
        _paste(image, thing.face, to_image)
        corners = cv2.perspectiveTransform(thing.truth_corners()[None], to_image)[0]
        if _visible(corners, fw, fh):
            symbol = None
            if thing.symbol_mm is not None:  # the face's scale where it lies, in px per mm
                area_px = abs(cv2.contourArea(corners.astype(np.float32)))
                symbol = thing.symbol_mm * math.sqrt(area_px / (thing.size[0] * thing.size[1]))
            truths.append(Truth(thing.kind, thing.label, corners, symbol, index))
    image = _degrade(image, degradation, rng)
    return Frame(image, tuple(truths), homography)


def _visible(corners: np.ndarray, w: int, h: int) -> bool:
    return bool(np.all((corners[:, 0] >= 0) & (corners[:, 0] < w)
                       & (corners[:, 1] >= 0) & (corners[:, 1] < h)))


def _paste(image: np.ndarray, face: np.ndarray, to_image: np.ndarray) -> None:
    """Warp ``face`` into ``image`` where it lands, resampled without aliasing. A face with a
    fourth channel is seen only where that channel says (a round chip, not its square)."""
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
        face = _shrunk(face, factor)
        to_image = to_image @ np.diag([1 / factor, 1 / factor, 1.0])
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], dtype=np.float64)
    matrix = shift @ to_image
    size = (x1 - x0, y1 - y0)
    shown = face[:, :, 3] if face.shape[2] == 4 else np.full(face.shape[:2], 255, np.uint8)
    warped = cv2.warpPerspective(np.ascontiguousarray(face[:, :, :3]), matrix, size,
                                 flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(shown, matrix, size, flags=cv2.INTER_LINEAR)
    alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
    roi = image[y0:y1, x0:x1]
    roi[:] = (warped * alpha + roi * (1 - alpha)).astype(np.uint8)


SHRUNK_KEPT = 128
"""Shrunk faces kept for the next frames: a table drawn again after each event shrinks the
same faces by the same factors (a demo game's shrinking: 5 s of its 68 here, with none kept).
Both views of a table lay about 70 faces."""
_shrunk_faces: OrderedDict[tuple[int, float], tuple[weakref.ref[np.ndarray], np.ndarray]] = \
    OrderedDict()
_shrunk_lock = threading.Lock()


def _shrunk(face: np.ndarray, factor: float) -> np.ndarray:
    """``face`` shrunk by ``factor`` (area averaging), as it was the last time if it is kept.
    A face is known by its ``id`` while it lives (a weak reference says so), and not kept
    alive by being kept: a card's face drawn at full size is megabytes."""
    key = (id(face), factor)
    with _shrunk_lock:
        kept = _shrunk_faces.get(key)
        if kept is not None and kept[0]() is face:
            _shrunk_faces.move_to_end(key)
            return kept[1]
    small = cv2.resize(face, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    with _shrunk_lock:
        _shrunk_faces[key] = (weakref.ref(face), small)
        while len(_shrunk_faces) > SHRUNK_KEPT:
            _shrunk_faces.popitem(last=False)
    return small


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
    if d.cast:
        out *= np.array([1 - d.cast, 1.0, 1 + d.cast], np.float32)  # BGR: warm is less blue
    if d.banding:
        period = rng.uniform(0.08, 0.25) * h
        phase = rng.uniform(0, 2 * math.pi)
        rows = 1 + d.banding * np.sin(np.arange(h, dtype=np.float32) * 2 * math.pi / period
                                      + phase)
        out *= rows[:, None, None]
    if d.moire:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        pitch = rng.uniform(2.05, 2.4)  # near the pixel pitch: slow beats
        angle = rng.uniform(0, math.pi)
        wave = np.sin((xx * math.cos(angle) + yy * math.sin(angle)) * 2 * math.pi / pitch)
        out *= (1 + d.moire * wave)[:, :, None]
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


def _curled(art: np.ndarray, curl: float) -> np.ndarray:
    """Sticker paper bent around a cylinder by ``curl`` radians each side, seen from above:
    squeezed towards its edges and darker where it turns away from the light."""
    h, w = art.shape[:2]
    radius = (w / 2) / curl
    half = radius * math.sin(curl)  # half the width it shows from above
    xs = np.arange(w, dtype=np.float32) - (w - 1) / 2
    seen = np.clip(xs / (w / 2) * half / radius, -1, 1)
    source = (np.arcsin(seen) * radius + (w - 1) / 2).astype(np.float32)
    map_x = np.tile(source, (h, 1))
    map_y = np.tile(np.arange(h, dtype=np.float32)[:, None], (1, w))
    bent = cv2.remap(art, map_x, map_y, cv2.INTER_LINEAR, borderValue=255)
    shade = 0.75 + 0.25 * np.cos(np.arcsin(seen))
    return np.clip(bent * shade[None, :], 0, 255).astype(np.uint8)


def sticker_mm_for(px_per_module: float, view: View) -> float:
    """The sticker size (quiet zone included) that gives ``px_per_module`` in ``view``."""
    return px_per_module * STICKER_MODULES / view.px_per_mm


__all__ = ["Scene", "Thing", "View", "Degradation", "Frame", "Truth", "render", "CARD_SIZE",
           "sticker_mm_for"]
