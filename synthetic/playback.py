"""The synthetic table playing a game record, frame by frame: the demo camera.

Each card played lands on the discard pile; each tile taken (or reserved) is shown in the scan
tray until the next action; the pieces stand as the record has them (ships, probes on the jump
gate, stations, probes on reserved tiles); an undo takes the last change back; at the end each
player's tiles are laid out in the tray in turn. Two views are rendered, as the Pi camera gives
them: the whole table, and the scan tray at high resolution. The camera is fixed: the pose and
the light are the same in every frame, only sensor noise and JPEG differ, as on a real table.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.printables import stickers_for
from companion.box import BoxProfile, load_box
from companion.observations import (DISCARD_ZONE, GATE, TRAY_ZONE, PiecesSeen, StickerPayload,
                                    planet_zone)
from companion.rules import (Card, Develop, Discover, Event, Game, GameState, Inventory, Jump,
                             RulesError, Scan, Setup, TopUp, Undo)
from synthetic.pieces import demo_ring, lay_pieces
from synthetic.scene import Degradation, Frame, Scene, Thing, Truth, View, render

STICKER_MM = 25.0
UNDO_DEPTH = 16
"""How many past tables are kept for undos (a record undoes a few actions at most)."""
HAND_BLUR = 9
HAND_BLUR_REACH = 40
"""A hand's soft edge (the blur's sigma, px), and how far past the blob its kernel reaches
at the least (37 px for this sigma: OpenCV's kernel is eight sigmas wide)."""


@dataclass(frozen=True)
class PlaybackFrame:
    table: np.ndarray
    tray: np.ndarray
    table_truth: tuple[Truth, ...]
    tray_truth: tuple[Truth, ...]
    event_index: int
    """How many events of the record the table shows (-1: the set-up only)."""
    settled: bool
    """No hand over the table in this frame."""


def sticker_ids(box: BoxProfile) -> dict[str, list[int]]:
    """Sticker numbers by kind, as printed."""
    ids: dict[str, list[int]] = {kind: [] for kind in box.tiles}
    for sticker in stickers_for(box):
        ids[sticker.kind].append(sticker.tile_id)
    return ids


class TablePlayback:
    def __init__(self, setup: Setup, events: Sequence[Event], seed: int = 0,
                 degradation: Degradation | None = None, noise: float = 3.0,
                 jpeg: int | None = 90, frames_per_event: int = 6, hand_frames: int = 2,
                 tray_frame: tuple[int, int] = (1280, 720), box: BoxProfile | None = None
                 ) -> None:
        self.setup, self.events = setup, list(events)
        self.seed = seed
        self.degradation = degradation or Degradation(perspective=0.02, light=0.2, shadow=0.15)
        self.noise, self.jpeg = noise, jpeg
        self.frames_per_event, self.hand_frames = frames_per_event, hand_frames
        self.scene = Scene.table()
        layout = self.scene.layout
        self.table_view = View.whole_table(layout)
        self.tray_view = View.around(layout.zones[TRAY_ZONE], 6.0, tray_frame)
        self._ids = sticker_ids(box or load_box())
        self._next_id = {kind: 0 for kind in self._ids}
        for index, planet in enumerate(setup.planets):
            zone = layout.zones[planet_zone(index)]
            center = (float(np.mean([p[0] for p in zone])), float(np.mean([p[1] for p in zone])))
            self.scene.add_board(planet, center)
        self.ring = demo_ring(self.scene, tuple(p.name for p in setup.planets),
                              tuple(p.color for p in setup.players))
        """The gate and the ships (every one on the gate at the start)."""
        self._rng = random.Random(seed)
        self._pieces_rng = random.Random(f"pieces {seed}")  # leaves the rest's draws as they were
        self._noise: dict[tuple[int, ...], list[tuple[np.ndarray, np.ndarray]]] = {}

    # -- scene changes -------------------------------------------------------------------------

    def _zone_center(self, zone: str) -> tuple[float, float]:
        polygon = self.scene.layout.zones[zone]
        return (float(np.mean([p[0] for p in polygon])), float(np.mean([p[1] for p in polygon])))

    def _sticker(self, kind: str) -> StickerPayload:
        ids = self._ids[kind]
        number = ids[self._next_id[kind] % len(ids)]
        self._next_id[kind] += 1
        return StickerPayload(number, kind)

    def _discard(self, card_code: str) -> None:
        for thing in [t for t in self.scene.things if t.kind == "card"]:
            self.scene.remove(thing)  # the new card covers the pile
        x, y = self._zone_center(DISCARD_ZONE)
        self.scene.add_card(Card.parse(card_code), (x + self._rng.uniform(-4, 4),
                                                    y + self._rng.uniform(-4, 4)),
                            self._rng.uniform(-6, 6))

    def _clear_tray(self) -> None:
        for thing in [t for t in self.scene.things if t.kind == "tile"]:
            self.scene.remove(thing)

    def _show_tiles(self, kinds: Sequence[str]) -> None:
        """The tiles laid in the tray, three to a row; from a tenth on (a player's tiles at
        the end), four to a row, up to twelve."""
        self._clear_tray()
        x0, y0, width, _ = self._tray_box()
        columns = 3 if len(kinds) <= 9 else 4
        for k, kind in enumerate(kinds[:3 * columns]):
            cx = x0 + (45 + (k % 3) * 50 if columns == 3 else (k % 4 + 0.5) * width / 4)
            cy = y0 + 50 + (k // columns) * 50
            self.scene.add_tile(self._sticker(kind), (cx, cy), self._rng.uniform(-25, 25),
                                sticker_mm=STICKER_MM, tile_mm=32.0)

    def _tray_box(self) -> tuple[float, float, float, float]:
        polygon = self.scene.layout.zones[TRAY_ZONE]
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)

    def _pieces_of(self, state: GameState) -> None:
        """The pieces laid as ``state`` has them."""
        colours = [seat.color for seat in self.setup.players]
        planets = [planet.name for planet in self.setup.planets]
        reserved: dict[str, dict[str, int]] = {name: {} for name in planets}
        for name, stack in zip(planets, state.stacks):
            for reservation in stack.reservations:
                colour = colours[reservation.player]
                reserved[name][colour] = reserved[name].get(colour, 0) + 1
        truth = PiecesSeen(
            {colour: GATE if player.at is None else planets[player.at]
             for colour, player in zip(colours, state.players)},
            {colour: player.probes for colour, player in zip(colours, state.players)},
            {name: None if stack.developer is None else colours[stack.developer]
             for name, stack in zip(planets, state.stacks)}, reserved)
        lay_pieces(self.ring, truth, self._pieces_rng)

    def _change_for(self, event: Event, state: GameState) -> list[list[Thing]]:
        """The table after each step of one event (a develop lays two cards: two steps), the
        pieces moved with its first step (a hand moves them and lays the card)."""
        steps: list[list[Thing]] = []

        def snapshot() -> None:
            steps.append(list(self.scene.things))

        self._clear_tray()
        self._pieces_of(state)
        cards: list[str] = []
        if isinstance(event, Jump | Scan) and event.card is not None:
            cards = [event.card.code]
        elif isinstance(event, Develop) and event.cards is not None:
            cards = [c.code for c in event.cards]
        elif isinstance(event, TopUp) and event.cards:
            cards = [c.code for c in event.cards]
        for code in cards:
            self._discard(code)
            snapshot()
        tile = getattr(event, "tile", None)
        if isinstance(event, Scan | Develop | Discover) and tile is not None:
            self._show_tiles([tile])
        elif isinstance(event, Inventory):
            self._show_tiles(list(event.tiles))
        snapshot()
        return steps

    # -- frames --------------------------------------------------------------------------------

    def start_frame(self) -> Frame:
        """The table as the game starts (every ship on the gate), as the camera sees it with
        no hand over it: what the ring is calibrated on."""
        return render(self.scene, self.table_view, self.degradation, self.seed)

    def __iter__(self) -> Iterator[PlaybackFrame]:
        states = [list(self.scene.things)]  # the table after each event still in effect
        game = Game(self.setup)  # where the pieces stand
        yield from self._frames_of(states[-1], -1)
        for index, event in enumerate(self.events):
            try:
                game.play(event)
            except RulesError:
                pass  # the table shows what the record makes of it: this event changed nothing
            if isinstance(event, Undo):
                if len(states) > 1:
                    states.pop()
                steps = [states[-1]]
            else:
                self.scene.things = list(states[-1])
                steps = self._change_for(event, game.state)
                states.append(steps[-1])
                del states[:-UNDO_DEPTH]  # old tables hold drawn faces: keep only what undo needs
            for things in steps:
                yield from self._frames_of(things, index)

    def _frames_of(self, things: list[Thing], index: int) -> Iterator[PlaybackFrame]:
        self.scene.things = list(things)
        base = replace(self.degradation, noise=0.0, jpeg=None)
        table = render(self.scene, self.table_view, base, self.seed)
        tray = render(self.scene, self.tray_view, base, self.seed)
        for frame in range(self.hand_frames + self.frames_per_event):
            hand = frame < self.hand_frames
            yield PlaybackFrame(self._finish(table.image, hand), self._finish(tray.image, hand),
                                table.truth, tray.truth, index, not hand)

    def _finish(self, image: np.ndarray, hand: bool) -> np.ndarray:
        out = image
        if hand:  # a hand reaching over the table: a soft skin-coloured blob
            h, w = image.shape[:2]
            center = (int(self._rng.uniform(0.2, 0.8) * w), int(self._rng.uniform(0.2, 0.8) * h))
            axes = (w // 8, h // 5)
            # drawn and blurred within the blob's reach only (the blur's kernel beyond it):
            # the same pixels as over the whole frame, in a fifth of the time
            reach = max(axes) + HAND_BLUR_REACH
            x0, y0 = max(0, center[0] - reach), max(0, center[1] - reach)
            x1, y1 = min(w, center[0] + reach + 1), min(h, center[1] + reach + 1)
            mask = np.zeros((y1 - y0, x1 - x0), np.float32)
            cv2.ellipse(mask, (center[0] - x0, center[1] - y0), axes,
                        self._rng.uniform(0, 180), 0, 360, 1.0, -1)
            mask = cv2.GaussianBlur(mask, (0, 0), HAND_BLUR)[:, :, None]
            skin = np.array([120, 150, 200], np.float32)
            out = image.copy()
            out[y0:y1, x0:x1] = (image[y0:y1, x0:x1] * (1 - mask) + skin * mask).astype(np.uint8)
        if self.noise:
            out = self._noised(out if out is not image else image.copy())
        if self.jpeg is not None:
            ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg])
            out = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return out

    def _noised(self, image: np.ndarray) -> np.ndarray:
        """Sensor noise added to ``image`` (in place): one of a few fields drawn once, shifted
        at random each frame (drawing a fresh field per frame costs more than reading the
        frame). The field as ``np.roll`` shifts it, added and clipped, is what this adds: its
        four pieces added where they land, its rises and falls as two saturating byte sums
        (a 1280x720 frame in 1.4 ms rather than 4.3 as sixteen-bit sums)."""
        fields = self._noise.get(image.shape)
        if fields is None:
            generator = np.random.default_rng(self.seed)
            fields = []
            for _ in range(3):
                drawn = np.clip(generator.normal(0, self.noise, image.shape), -127, 127
                                ).astype(np.int8).astype(np.int16)
                fields.append((np.maximum(drawn, 0).astype(np.uint8),
                               np.maximum(-drawn, 0).astype(np.uint8)))
            self._noise[image.shape] = fields
        rises, falls = fields[self._rng.randrange(len(fields))]
        h, w = image.shape[:2]
        down, across = self._rng.randrange(h), self._rng.randrange(w)
        # np.roll by (down, across): the field's row r lands on row (r + down) % h
        for rows, from_rows in (((down, h), (0, h - down)), ((0, down), (h - down, h))):
            for cols, from_cols in (((across, w), (0, w - across)),
                                    ((0, across), (w - across, w))):
                if rows[0] == rows[1] or cols[0] == cols[1]:
                    continue
                piece = image[rows[0]:rows[1], cols[0]:cols[1]]
                rise = rises[from_rows[0]:from_rows[1], from_cols[0]:from_cols[1]]
                fall = falls[from_rows[0]:from_rows[1], from_cols[0]:from_cols[1]]
                piece[:] = cv2.subtract(cv2.add(piece, rise), fall)
        return image
