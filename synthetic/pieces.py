"""The players' pieces on the synthetic table: ships, probe and station chips, the jump gate,
and a ring table as a game starts (eight planets around the gate, every ship on it).

Each player colour is drawn in a shade picked from a range (crimson to orange-red, navy to
azure...), each ship in one of several silhouettes and sizes: a reader measured on these
must not lean on one hue or one outline. Faces are BGRA (a piece is seen only where it is).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.box import load_box
from companion.observations import GATE, JUMP_GATE_ZONE, PiecesSeen
from synthetic.board_faces import BOARD_STYLES
from synthetic.card_faces import PX_PER_MM
from synthetic.scene import Degradation, Frame, Scene, Thing, View, render

PLAYER_SHADES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "red": ((40, 30, 200), (45, 20, 150), (30, 70, 225), (60, 50, 215)),
    "blue": ((130, 50, 20), (210, 130, 40), (170, 80, 30), (150, 90, 60)),
    "green": ((40, 140, 40), (70, 165, 30), (60, 115, 35), (90, 150, 60)),
    "yellow": ((30, 205, 230), (40, 185, 240), (60, 225, 225), (20, 170, 215)),
    "black": ((25, 25, 25), (38, 32, 30), (20, 24, 30), (45, 45, 45)),
}
"""Each player colour's shades (BGR), from one maker's pieces to another's."""
PLAYER_COLOURS = tuple(PLAYER_SHADES)
SHIP_MM = (34.0, 17.0)
"""A ship's length and width (drawn 0.8 to 1.25 times this)."""
CHIP_MM = 20.0
"""A chip's diameter (drawn 0.85 to 1.15 times this)."""
GATE_MM = 150.0
TILE_BACK = "reserved tile"
"""The label of a tile laid face down beside a planet (under a probe)."""


def _bgra(shape: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.dstack([shape, mask])


def ship_face(shade: tuple[int, int, int], kind: int) -> np.ndarray:
    """A ship seen from above, pointing up, in one of three silhouettes (``kind``), lit from
    one side."""
    w, h = int(SHIP_MM[1] * PX_PER_MM), int(SHIP_MM[0] * PX_PER_MM)
    mask = np.zeros((h, w), np.uint8)
    if kind == 0:  # an arrow
        outline = [(0.5, 0.0), (1.0, 0.85), (0.62, 0.7), (0.5, 1.0), (0.38, 0.7), (0.0, 0.85)]
    elif kind == 1:  # a rocket with fins
        outline = [(0.5, 0.0), (0.68, 0.2), (0.68, 0.7), (1.0, 1.0), (0.5, 0.88), (0.0, 1.0),
                   (0.32, 0.7), (0.32, 0.2)]
    else:  # a wide wedge with a cut tail
        outline = [(0.5, 0.0), (0.95, 0.75), (0.8, 1.0), (0.2, 1.0), (0.05, 0.75)]
    points = np.array([(x * (w - 1), y * (h - 1)) for x, y in outline], np.int32)
    cv2.fillPoly(mask, [points], 255, cv2.LINE_AA)
    ramp = np.linspace(1.15, 0.8, w)[None, :, None]
    body = np.clip(np.array(shade, np.float32) * ramp + 10, 0, 255).repeat(h, axis=0)
    body = body.astype(np.uint8)
    cv2.line(body, (w // 2, h // 8), (w // 2, h * 3 // 4), tuple(int(c * 0.7) for c in shade), 3)
    return _bgra(body, mask)


def chip_face(shade: tuple[int, int, int], station: bool, rng: random.Random) -> np.ndarray:
    """A chip: a disc of the player's colour with a lighter print (a probe's dish, or a
    station's ring) and a darker rim."""
    side = int(CHIP_MM * PX_PER_MM)
    middle, radius = side // 2, side // 2 - 1
    mask = np.zeros((side, side), np.uint8)
    cv2.circle(mask, (middle, middle), radius, 255, -1, cv2.LINE_AA)
    face = np.zeros((side, side, 3), np.uint8)
    face[:] = shade
    cv2.circle(face, (middle, middle), radius, tuple(int(c * 0.7) for c in shade), 6)
    mark = tuple(int(min(255, c * 0.6 + 100)) for c in shade)
    if station:
        cv2.circle(face, (middle, middle), radius // 2, mark, 5, cv2.LINE_AA)
        cv2.rectangle(face, (middle - 6, middle - radius // 2 - 4),
                      (middle + 6, middle + radius // 2 + 4), mark, -1)
    else:
        cv2.ellipse(face, (middle, middle + 8), (radius // 2, radius // 3), 0, 180, 360, mark,
                    5, cv2.LINE_AA)
        cv2.line(face, (middle, middle), (middle, middle - radius // 2), mark, 4)
    return _bgra(face, mask)


def gate_face(rng: random.Random) -> np.ndarray:
    """The jump gate: a round board of dark art with rings."""
    side = int(GATE_MM * PX_PER_MM)
    middle = side // 2
    mask = np.zeros((side, side), np.uint8)
    cv2.circle(mask, (middle, middle), middle - 1, 255, -1, cv2.LINE_AA)
    ground = rng.choice([(60, 40, 35), (90, 70, 60), (120, 110, 100), (50, 55, 70)])
    face = np.zeros((side, side, 3), np.uint8)
    face[:] = ground
    for k in range(5, 0, -1):
        tone = tuple(int(min(255, c + 18 * k)) for c in ground)
        cv2.circle(face, (middle, middle), middle * k // 6, tone, 3, cv2.LINE_AA)
    return _bgra(face, mask)


@dataclass(frozen=True)
class RingTable:
    """A ring table as laid out at the start of a game, and what a reader must find there."""

    scene: Scene
    planets: tuple[str, ...]
    """Clockwise from the top, as the table's own frame has them."""
    players: tuple[str, ...]
    shades: dict[str, tuple[int, int, int]]
    places: dict[str, tuple[float, float]]
    """Each planet's centre and the gate's (``gate``), in table mm."""
    ships: dict[str, Thing]
    """Each player's ship as it stands now."""
    chip_mm: float
    """This box's chips' diameter (one maker's chips are all alike)."""


def ring_table(rng: random.Random, players: int = 3, surface: str | None = None,
               style: str | None = None) -> RingTable:
    """The default layout's ring: eight planets of the shipped box (shuffled) each a little
    off its place and askew, the jump gate in the middle, every player's ship on it, and the
    discard pile's cards and the tray's tiles where they lie."""
    from synthetic.surfaces import SURFACES  # the table tops, each seeded
    scene = Scene.table()
    scene.surface = surface or rng.choice(SURFACES)
    scene.add_markers()
    layout = scene.layout
    board_style = BOARD_STYLES[style or rng.choice(sorted(BOARD_STYLES))]
    planets = [entry.planet for entry in load_box().planets]
    rng.shuffle(planets)
    names = []
    places: dict[str, tuple[float, float]] = {}
    for k, planet in enumerate(planets[:8]):
        zone = np.array(layout.zones[f"planet-{k + 1}"])
        cx, cy = zone.mean(axis=0)
        centre = (float(cx + rng.uniform(-8, 8)), float(cy + rng.uniform(-8, 8)))
        scene.add_board(planet, centre, rng.uniform(-12, 12), board_style, rng)
        names.append(planet.name)
        places[planet.name] = centre
    colours = rng.sample(PLAYER_COLOURS, players)
    return _gate_and_ships(scene, tuple(names), places, tuple(colours), rng)


def demo_ring(scene: Scene, planets: tuple[str, ...], colours: tuple[str, ...]) -> RingTable:
    """The jump gate and every player's ship on it added to the demo table, whose planet
    boards lie on the layout's planet zones (``planets`` in ring order), in each colour's
    plainest shade."""
    places = {name: _centre(scene.layout.zones[f"planet-{k + 1}"])
              for k, name in enumerate(planets)}
    return _gate_and_ships(scene, planets, places, colours, random.Random("demo ring"),
                           plain=True)


def _centre(polygon: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    x, y = np.array(polygon).mean(axis=0)
    return float(x), float(y)


def _gate_and_ships(scene: Scene, planets: tuple[str, ...],
                    places: dict[str, tuple[float, float]], colours: tuple[str, ...],
                    rng: random.Random, plain: bool = False) -> RingTable:
    """The gate on the layout's gate zone and the players' ships standing on it."""
    places = dict(places)
    places[GATE] = _centre(scene.layout.zones[JUMP_GATE_ZONE])
    gx, gy = places[GATE]
    scene.add(Thing("gate", GATE, gate_face(rng), places[GATE], (GATE_MM, GATE_MM)))
    shades = {colour: PLAYER_SHADES[colour][0] if plain else rng.choice(PLAYER_SHADES[colour])
              for colour in colours}
    table = RingTable(scene, planets, colours, shades, places, {},
                      CHIP_MM * (1.0 if plain else rng.uniform(0.85, 1.15)))
    start = rng.uniform(0, 2 * math.pi)
    kind, scale = rng.randrange(3), rng.uniform(0.8, 1.25)  # one maker's ships are alike
    for k, colour in enumerate(colours):
        angle = start + k * 2 * math.pi / len(colours)
        reach = rng.uniform(25, 40)
        table.ships[colour] = scene.add(Thing(
            "ship", colour, ship_face(shades[colour], kind),
            (gx + reach * math.cos(angle), gy + reach * math.sin(angle)),
            (SHIP_MM[1] * scale, SHIP_MM[0] * scale), rng.uniform(0, 360)))
    return table


def lay_game(table: RingTable, rng: random.Random, turns: int | None = None) -> PiecesSeen:
    """The pieces as a game has left them some turns in: each ship on the gate or a planet,
    probes on the gate (touching, some two in a loose stack), stations on some planets and
    probes on tiles reserved beside others. Changes ``table.scene``; says what it laid."""
    turns = rng.randrange(0, 12) if turns is None else turns
    players = table.players
    truth = PiecesSeen({}, {colour: 0 for colour in players},
                        {name: None for name in table.planets},
                        {name: {} for name in table.planets})
    built = rng.sample(table.planets, min(len(table.planets), rng.randrange(0, 1 + turns // 2)))
    for name in built:
        truth.stations[name] = rng.choice(players)
    for colour in players:
        truth.gate[colour] = min(5, rng.randrange(0, 2 + turns // 3))
    for name in table.planets:
        if name in built or rng.random() < 0.6:
            continue
        for colour in rng.sample(players, rng.randrange(1, min(3, len(players)) + 1)):
            truth.reserved[name][colour] = rng.randrange(1, 3)
    for colour in players:
        truth.ships[colour] = rng.choice((GATE,) + table.planets)
    return lay_pieces(table, truth, rng)


def lay_pieces(table: RingTable, truth: PiecesSeen, rng: random.Random) -> PiecesSeen:
    """``truth``'s pieces laid on ``table`` (its ships moved there, chips and tiles added to
    its scene); says what it laid (beside a board, at most as many tiles as lie there)."""
    scene, players = table.scene, table.players
    gx, gy = table.places[GATE]
    scene.things = [thing for thing in scene.things if thing.kind not in ("ship", "chip")
                    and not (thing.kind == "other" and thing.label == TILE_BACK)]
    # what stands on a planet board: ships side by side on its upper half, a station on its
    # lower; on the gate, ships anywhere, each in its own direction
    for colour, ship in table.ships.items():
        place = truth.ships[colour]
        x, y = table.places[place]
        here = [c for c in players if truth.ships[c] == place]
        slot = here.index(colour)
        if place == GATE:
            angle = rng.uniform(0, 2 * math.pi) if len(here) == 1 else \
                slot * 2 * math.pi / len(here) + rng.uniform(-0.3, 0.3)
            distance = rng.uniform(0.3, 1.0) * 45.0
        else:
            share = (slot + rng.uniform(0.2, 0.8)) / len(here)
            angle = -math.pi * (0.9 - 0.8 * share)
            distance = rng.uniform(0.5, 1.0) * 28.0
        table.ships[colour] = scene.add(replace(
            ship, center=(x + distance * math.cos(angle), y + distance * math.sin(angle)),
            angle=rng.uniform(0, 360)))
    for name, colour in truth.stations.items():
        if colour is not None:
            x, y = table.places[name]
            _chip(scene, table, colour, True, (x + rng.uniform(-22, 22), y + rng.uniform(12, 28)),
                  rng)
    _gate_probes(scene, table, truth.gate, rng)
    laid = replace(truth, reserved={})
    for name, counts in truth.reserved.items():
        x, y = table.places[name]
        out = math.atan2(y - gy, x - gx)  # tiles are laid outside the ring, beside the board
        spots = [out + k * 0.42 for k in (0, -1, 1, -2, 2)]
        probes = [colour for colour, count in counts.items() for _ in range(count)]
        probes = probes[:len(spots)]  # as many tiles as lie beside a board
        laid.reserved[name] = {colour: probes.count(colour) for colour in dict.fromkeys(probes)}
        for turn, colour in zip(spots, probes):
            tile = (x + 80 * math.cos(turn), y + 80 * math.sin(turn))
            scene.add(Thing("other", TILE_BACK, _tile_back(), tile, (30.0, 30.0),
                            rng.uniform(-20, 20)))
            _chip(scene, table, colour, False, (tile[0] + rng.uniform(-3, 3),
                                                tile[1] + rng.uniform(-3, 3)), rng)
    return laid


def _gate_probes(scene: Scene, table: RingTable, counts: dict[str, int],
                 rng: random.Random) -> None:
    """Each colour's probes in a little heap of its own on the gate: chips side by side, just
    touching or a little apart, and now and then one lying loosely on another."""
    gx, gy = table.places[GATE]
    colours = [colour for colour in table.players if counts[colour]]
    start = rng.uniform(0, 2 * math.pi)
    side = table.chip_mm
    for k, colour in enumerate(colours):
        turn = start + k * 2 * math.pi / max(1, len(colours))
        hx, hy = gx + 42 * math.cos(turn), gy + 42 * math.sin(turn)
        along = turn + math.pi / 2  # the heap runs around the gate
        placed: list[tuple[float, float]] = []
        stacked = False
        for _ in range(counts[colour]):
            if placed and not stacked and rng.random() < 0.3:  # loosely on the last one
                stacked = True
                px, py = placed[-1]
                shift = side * rng.uniform(0.3, 0.45)
                direction = rng.uniform(0, 2 * math.pi)
                spot = (px + shift * math.cos(direction), py + shift * math.sin(direction))
            else:
                row, place = divmod(len(placed) - stacked, 3)
                gap = side * rng.uniform(0.97, 1.08)
                spot = (hx + (place - 1) * gap * math.cos(along) - row * gap * math.cos(turn),
                        hy + (place - 1) * gap * math.sin(along) - row * gap * math.sin(turn))
            placed.append(spot)
            _chip(scene, table, colour, False, spot, rng)


def _chip(scene: Scene, table: RingTable, colour: str, station: bool,
          centre: tuple[float, float], rng: random.Random) -> None:
    size = table.chip_mm
    scene.add(Thing("chip", colour, chip_face(table.shades[colour], station, rng), centre,
                    (size, size), rng.uniform(0, 360)))


SKIN_TONES = ((205, 225, 250), (170, 200, 240), (130, 170, 225), (95, 135, 195),
              (70, 100, 160), (45, 65, 110), (35, 45, 75))
"""Skin (BGR), from the palest to the darkest."""
HAND_MM = (95.0, 190.0)
"""A hand and forearm reaching in, as wide and as long as this."""


def hand_face(rng: random.Random) -> np.ndarray:
    """A hand reaching in from above the picture: a palm, four fingers and a forearm, in a
    skin tone from pale to dark, shaded across."""
    w, h = int(HAND_MM[0] * 4), int(HAND_MM[1] * 4)
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (int(w * 0.2), 0), (int(w * 0.8), int(h * 0.55)), 255, -1)  # forearm
    cv2.ellipse(mask, (w // 2, int(h * 0.62)), (int(w * 0.42), int(h * 0.16)), 0, 0, 360, 255,
                -1)  # palm
    for k in range(4):
        x = int(w * (0.2 + 0.2 * k))
        cv2.line(mask, (x, int(h * 0.65)), (x + rng.randint(-8, 8), int(h * 0.95)), 255,
                 int(w * 0.12))
    cv2.ellipse(mask, (int(w * 0.08), int(h * 0.55)), (int(w * 0.07), int(h * 0.14)), -30, 0, 360,
                255, -1)  # thumb
    tone = np.array(rng.choice(SKIN_TONES), np.float32) * rng.uniform(0.9, 1.1)
    ramp = np.linspace(1.1, 0.8, w)[None, :, None]
    skin = np.clip(tone * ramp, 0, 255).astype(np.uint8).repeat(h, axis=0)
    mask = cv2.GaussianBlur(mask, (0, 0), 3)
    return np.dstack([skin, mask])


def add_hand(table: RingTable, rng: random.Random, over: str | None = None) -> str:
    """A hand over one place of the ring (the gate or a planet, ``over`` or any), reaching in
    from outside the ring; says which place it is over."""
    place = over or rng.choice((GATE,) + table.planets)
    x, y = table.places[place]
    gx, gy = table.places[GATE]
    away = math.atan2(y - gy, x - gx) if place != GATE else rng.uniform(0, 2 * math.pi)
    # the fingertips over the place, the arm running out away from the gate
    length = HAND_MM[1]
    centre = (x + 0.35 * length * math.cos(away), y + 0.35 * length * math.sin(away))
    angle = -math.degrees(away) - 90  # the face's top (the arm) points away from the gate
    table.scene.add(Thing("hand", place, hand_face(rng), centre, HAND_MM, angle))
    return place


@dataclass(frozen=True)
class RingShoot:
    """One table's photos: the start (for ``companion calibrate ring``) and later positions,
    all through one camera, each in its own light."""

    start: Frame
    first: tuple[float, float]
    """A pixel on the first planet, as a user's tap."""
    planets: tuple[str, ...]
    players: tuple[str, ...]
    games: tuple[tuple[Frame, PiecesSeen, str | None], ...]
    """Each later photo, what lies on the table, and the place a hand is over (or None)."""


def ring_shoot(seed: int, positions: int = 2, hands: float = 0.0,
               strength: float = 0.6, hand_over: str | None = None,
               tilt: float = 0.0) -> RingShoot:
    """A ring table photographed as a game starts and at ``positions`` later moments, a hand
    over the ring in about ``hands`` of them (over ``hand_over`` in all, when named: the gate
    or the first planet, ``first``); a lamp, the noise, the blur and the JPEG change from
    photo to photo, the camera does not. ``tilt``: the camera looks at the table that many
    degrees off straight down, towards a side the seed picks (the same table as untilted)."""
    rng = random.Random(seed)
    table = ring_table(rng, players=2 + seed % 4)
    view = View.whole_table(table.scene.layout)
    if tilt:  # its own draw: the table, pieces and light stay those of the seed
        view = replace(view, tilt=tilt, turn=random.Random(-seed).uniform(0, 360))
    light = Degradation.random(rng, strength)
    start = render(table.scene, view, light, seed)
    board = next(t for t in start.truth if t.kind == "board" and t.label == table.planets[0])
    middle = board.corners.mean(axis=0)
    first = (float(middle[0] + rng.uniform(-8, 8)), float(middle[1] + rng.uniform(-8, 8)))
    games = []
    boards = [thing for thing in table.scene.things if thing.kind != "ship"]
    for _ in range(positions):
        # the chips, tiles and hands of the last position taken away, the ships left
        table.scene.things[:] = boards + list(table.ships.values())
        truth = lay_game(table, rng)
        over = table.planets[0] if hand_over == "first" else hand_over
        hand = add_hand(table, rng, over) if over or rng.random() < hands else None
        later = replace(Degradation.random(rng, strength), perspective=light.perspective)
        games.append((render(table.scene, view, later, seed), truth, hand))
    return RingShoot(start, first, table.planets, table.players, tuple(games))


def _tile_back() -> np.ndarray:
    face = np.full((90, 90, 3), (95, 80, 60), np.uint8)  # a tile's back: dark, printed
    cv2.rectangle(face, (8, 8), (81, 81), (140, 120, 95), 3)
    return face
