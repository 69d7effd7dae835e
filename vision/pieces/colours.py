"""The players' colours as the table's light shows them: learned from each ship on the jump
gate at the start, then sought in every picture.

A chromatic colour is a hue (the direction in Lab's a/b plane) and a least chroma: the light
of a room changes lightness and, a little, the cast, far more than a piece's hue. Red reaches
from crimson to orange-red and blue from navy to azure, so a player's hue is the one their
own ship showed; each colour reaches halfway to its nearest rival at the table. Black is no
hue: it is what is grey and much darker than the ground around it (a dark table or a soft
shadow darkens the ground as well, so it is no black piece). Its ship at calibration, though,
is sought by the coloured ships' silhouette (``_black_ship``): on a dark gate a black ship is
hardly darker than the gate, and on a navy one its plastic catches the light and shows
lighter, or as light: there it shows grey where the gate is blue (``FADED_STEPS``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.pieces.shapes import likeness, silhouette, typical, whole

PLAYER_COLOURS = ("red", "blue", "green", "yellow", "black")
BROAD_HUES = {"red": 35.0, "yellow": 90.0, "green": 150.0, "blue": 280.0}
"""Where each chromatic colour's hue lies roughly (degrees of Lab's a/b plane), to find the
ships at calibration; from then on each player's own ship's hue is used."""
BROAD_REACH = 45.0
LEAST_CHROMA = 18.0
"""A player's piece is at least this coloured (Lab, OpenCV's 8-bit scale) ..."""
CHROMA_SHARE = 0.5
"""... and at least this share of its ship's chroma at calibration (paler is art or skin)."""
BROAD_CHROMA = 1.4 * LEAST_CHROMA
"""A ship at calibration is at least this coloured; where no ship of a colour is found so
(in dim light), one at least ``LEAST_CHROMA`` coloured is sought."""
WIDEST_REACH = 40.0
"""A colour's hue reaches at most this far (degrees), less where a rival is nearer."""
GREY = 18.0
"""Black is at most this coloured ..."""
DARKEST_GROUND = 0.85
"""... and at most this share of its ground's lightness when its ship is sought; from then on
halfway between its ship's share and the ground's own, and never above this."""
BLACK_REACH = 1.5
"""Black is at most this much lighter than its ship was, in the same light, and at least
this much darker ..."""
GROUND_MIXED = 0.2
"""... or, on ground lighter than that, lighter than its ship by this share of the ground's
lightness above the ship's: blur mixes the ground into a thin piece's edges and fins, so a
black ship on a pale board shows lighter than it did on a dark gate (bench table 7318: its
ship 36 at calibration on a gate of 92, 47 to 58 on a board of 197, was found as 0.38 of a
ship). Bench tables from 7300, 7500, 7800, 8400, 9100 and 9130 (30 each): ships read right
+6, stations +5, reservations +7, gate counts +1 (9130-9159: a station and a reservation
fewer), none more wrong, hands included; at 0.3, black found in the shadows round coloured
chips left out 7 stations of 7300-7329."""
SHIP_SHARE = 0.12
"""A ship covers at most this share of the gate (a larger patch is the table's art) ..."""
SHIP_SIZES = (0.5, 2.0)
"""... and this much of most ships' size, at the least and the most (a ship half seen,
a ship's shadow joined to it)."""
RIM_BAND = 0.3
ALONG_RIM = 0.5
"""... and at most this share of it lies within ``RIM_BAND`` times the root of its area of
the gate's rim: what lies along the rim is the gate's edge in shade (its side, seen by a
camera at a slant) or the table's art showing at it. Of the ships learned on tables
8000-8069 straight down and 7300-7339 and 9700-9809 at 15-30 degrees, the 705 learned right
had at most 0.19 of themselves so near; 6 of the 17 learned wrongly, 0.55 to 0.93 (table
9711 at 30 degrees: black's learned from the gate's dark near edge, its ship then read on
the gate on every photo). Ships standing near the rim of a gate small beside them (table
10115 at 30 degrees) had up to 0.39; asking them to reach 1.2 times the root of their area
into the gate, as first done, refused that ring."""
SHIP_WHOLE = 0.9
"""A ship at calibration is compact: its silhouette holds at least this share of it (a
board's rim in the gate's corner, a long arc, does not)."""
BLACK_STEPS = (0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6)
"""Black's ship at calibration is sought where the gate is grey and darker than its ground by
each of these shares, or lighter by its inverse ..."""
LIKE_SHIP = 0.7
"""... and is the patch most like the coloured ships' silhouette (``likeness``), when at least
this like it ..."""
LIKER = 0.1
"""... and this much more than any patch elsewhere (else black's ship is the patch dark
against the gate nearest a ship's size, as where no coloured ship shows)."""
FADED_GREY = 12.0
FADED_SHARE = 0.4
FADED_DARKER = 0.93
"""On the boards black is also what is at most ``FADED_GREY`` coloured where the board was
coloured (more than ``GREY``, and at least 1 / ``FADED_SHARE`` times as coloured as now) at
the start, and at most ``FADED_DARKER`` of its lightness then: a black ship on a navy board
is hardly darker than the board (L 27-33 against 34) and was seen by its lightness only
where it lies over the planet's pale art, half a ship; but it is grey where the board was
blue (chroma 0-12 against 24-30). A shadow darkens a board and keeps its hue. Bench tables
(30 a block) from 7300, 7500, 8000, 8030, 8400, 9100, 11000, 11030, 11090 and 11120
straight down, from 9700, 9730, 9760, 9800, 11060, 11150 and 11180 at 15-30 degrees: ships
placed right 2032 -> 2044 of 2405, stations 4810 -> 4819 and reservations 4619 -> 4626 of
5512, gate counts 1830 -> 1828, the same reads wrong, hands included. The demo game's black
ship, fatter by its rim over a navy board, is once no more like a ship than a dark patch
elsewhere: 149 of its 165 events carried by the camera, not 151."""
FADED_GATE = 9.5
FADED_STEPS = (0.4, 0.55, 0.7)
"""Black's ship at calibration is also sought where a gate at least ``FADED_GATE`` coloured
(the median of its chroma) turns grey: as saturated as each of these shares of the gate or
less. On a navy gate a black ship may be no darker than the gate (it catches the light), but
it is grey where the gate is blue: dev tables 8022, 8026 and 8032 showed it plainly and it
was not found, so black was no one's colour there and none of its pieces was read (and each
unknown black chip left the gate's other counts unsure). The navy gates of the dev tables
are 10.2 to 13.6 coloured, the brown and grey ones 6.3 to 7.8 (where a blotch of the brown's
noise is as faded as a ship). Dev tables 8000-8059, 8300-8359, 8400-8459 straight down and
9700-9759, 8500-8559 at 15-30 degrees: black learned from its ship on 19 more, and moved
onto it on 2 (8034, 8055: learned from the gate's own print); 12 more learned as before but
from a patch a little larger or smaller; every one on the ship, none lost. Read on the same
tables (no hand): ships placed right 1240 -> 1252, gate counts 1112 -> 1129 of 1414,
stations 2922 -> 2924 and reservations 2790 -> 2827 of 3232; the same reads wrong, hands
included."""
HARDLY_DARKER = 0.8
"""A black ship at calibration more than this share of the gate's lightness was hardly darker
than the gate (a navy or a dark one): black's pieces there may show grey rather than darker,
or only in part (``PieceColour.hardly_darker``; bench table 7327: in a brighter light two
black chips on a grey-navy gate, its ship 0.82 of it, showed only their rims as black, and
were counted as none)."""
FADED_READ = 0.55
"""On the boards and the gate where they were at least ``FADED_GATE`` coloured at the start,
black is also what is grey there and at most this share as saturated as the start was (and
no lighter than its ship may show, ``BLACK_REACH``): a black piece as light as a dark navy
board (chroma 10-18, too little for ``FADED_GREY``) differs from it by its greyness alone;
a shadow keeps the board's saturation. Dev tables (``FADED_STEPS``'s 300, no hand): ships
placed right 1252 -> 1253 (dev table 8223: black's ship half over a navy board placed, not
only glimpsed), gate counts 1129 -> 1134 of 1414, stations 2924 -> 2928 and reservations
2827 -> 2830 of 3232; the same reads wrong, hands included. Black chips as light as a navy
gate are no change from the start to the eye that finds what is new: where black's ship was
hardly darker than the gate, what turned grey there is new too (``patches._turned_grey``),
and black is counted there from plain single chips alone (``reader._plain_black_chip``;
with greyness new on every gate and every black patch counted, bench table 11010 counted two
black chips there as three)."""
LAB_OFFSET = 16 * 255 / 100
"""Lab's lightness and chroma both grow as the cube root of the light: a shadow (less light)
keeps chroma over lightness plus this (Lab's 16, on OpenCV's 8-bit scale)."""

GROUND_WINDOW = 0.06
"""The ground's lightness: the median over a square this share of the picture's long side."""


@dataclass(frozen=True)
class PieceColour:
    lightness: float
    a: float
    b: float
    """Lab (OpenCV's 8-bit scale, a and b about 0) of the player's ship at calibration."""
    darkness: float = 1.0
    """The ship's lightness as a share of its ground's (what tells black, on any table)."""

    @property
    def chroma(self) -> float:
        return float(np.hypot(self.a, self.b))

    @property
    def hue(self) -> float:
        return float(np.degrees(np.arctan2(self.b, self.a)) % 360)

    def to_json(self) -> list[float]:
        return [round(self.lightness, 2), round(self.a, 2), round(self.b, 2),
                round(self.darkness, 3)]

    @classmethod
    def from_json(cls, raw: object) -> PieceColour:
        lightness, a, b, darkness = (float(v) for v in raw)  # type: ignore[attr-defined]
        if not (0 <= lightness <= 255 and -128 <= a <= 128 and -128 <= b <= 128
                and 0 < darkness <= 1):
            raise ValueError("a piece colour is a Lab colour and a share of its ground's "
                             "lightness")
        return cls(lightness, a, b, darkness)

    @property
    def hardly_darker(self) -> bool:
        """Whether the ship was hardly darker than its ground (``HARDLY_DARKER``)."""
        return self.darkness > HARDLY_DARKER

    @property
    def darkest(self) -> float:
        return min(DARKEST_GROUND, (self.darkness + 1) / 2)


def lab_of(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def saturation(lightness: np.ndarray, chroma: np.ndarray) -> np.ndarray:
    """How saturated each pixel is: its chroma over its lightness plus ``LAB_OFFSET``, about
    the same in shadow as in full light."""
    return chroma / (lightness + LAB_OFFSET)


def _hue_chroma(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a, b = lab[..., 1] - 128, lab[..., 2] - 128
    return np.degrees(np.arctan2(b, a)) % 360, np.hypot(a, b)


def _apart(hue: np.ndarray | float, centre: float) -> np.ndarray:
    return np.abs((np.asarray(hue) - centre + 180) % 360 - 180)


def broad_masks(lab: np.ndarray, players: list[str], least: float = BROAD_CHROMA
                ) -> dict[str, np.ndarray]:
    """Where each player's colour may be, before their ship is known (calibration): a
    chromatic colour by its broad hue, at least ``least`` coloured; black as ``dark_mask``
    finds it."""
    hue, chroma = _hue_chroma(lab)
    chromatic = [p for p in players if p in BROAD_HUES]
    masks: dict[str, np.ndarray] = {}
    if chromatic:
        apart = np.stack([_apart(hue, BROAD_HUES[p]) for p in chromatic])
        nearest = apart.argmin(axis=0)
        near = (apart.min(axis=0) <= BROAD_REACH) & (chroma >= least)
        for k, player in enumerate(chromatic):
            masks[player] = near & (nearest == k)
    if "black" in players:
        masks["black"] = chroma <= GREY  # its darkness is judged once the gate is known
    return masks


def colour_masks(lab: np.ndarray, colours: dict[str, PieceColour],
                 before: np.ndarray | None = None, black_shown: np.ndarray | None = None,
                 on_boards: np.ndarray | None = None, unlearned: tuple[str, ...] = (),
                 coloured_before: np.ndarray | None = None,
                 saturated_before: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Where each player's colour shows in ``lab``. Black is judged against ``before`` (the
    lightness the table showed there at the start, in today's light) when it is given, else
    against the ground around it; and by how light its ship would show at each pixel in
    today's light (``black_shown``). On the boards (``on_boards``, with ``before`` and
    ``black_shown``) black is also what is grey, lighter than a ground darker than its ship,
    and about as light as its ship (``BLACK_REACH``): a black piece on a navy or black board
    catches the light and shows lighter than the board, as its ship on such a gate did at
    calibration. Dev and bench tables (as ``LIGHT_ADDED``): ships read right
    1815 -> 1826 of 2192, gate counts 1683 -> 1688, stations 4287 -> 4299 and reservations
    4088 -> 4106 of 5024, none wrong; off the boards a tile's grey frame on a dark table
    was black too (70 stations fewer). On the boards, with ``coloured_before`` (how coloured
    each pixel was at the start), black is also what turned grey there (``FADED_GREY``); and
    with ``saturated_before`` (its saturation then), what lost its saturation there
    (``FADED_READ``).
    ``unlearned``: players whose colour was not learned; no other colour's hue reaches more
    than halfway to theirs (``BROAD_HUES``)."""
    hue, chroma = _hue_chroma(lab)
    masks: dict[str, np.ndarray] = {}
    chromatic = {p: c for p, c in colours.items() if p != "black"}
    # a player whose colour was not learned still plays: their pieces are no one else's
    # (table 9991, yellow alone learned: a green station read as yellow)
    broad = [BROAD_HUES[p] for p in unlearned if p in BROAD_HUES]
    for player, colour in chromatic.items():
        rivals = [float(_apart(other.hue, colour.hue)) for p, other in chromatic.items()
                  if p != player] + [float(_apart(h, colour.hue)) for h in broad]
        reach = min([WIDEST_REACH] + [gap / 2 for gap in rivals])
        least = max(LEAST_CHROMA, CHROMA_SHARE * colour.chroma)
        masks[player] = (_apart(hue, colour.hue) <= reach) & (chroma >= least)
    if "black" in colours:
        black = colours["black"]
        darkest = black.darkest * (before if before is not None else ground_lightness(lab))
        if black_shown is not None:  # as dark as the ship was, give or take, in today's light
            ceiling = black_shown * BLACK_REACH
            if before is not None:
                ceiling = np.maximum(ceiling, black_shown + GROUND_MIXED * (before - black_shown))
            darkest = np.minimum(darkest, ceiling)
        lightness, grey = lab[..., 0], chroma <= GREY
        masks["black"] = grey & (lightness <= darkest)
        if on_boards is not None and before is not None and black_shown is not None:
            shows_lighter = (on_boards & (before * black.darkest < black_shown)
                             & (lightness >= before) & (lightness >= black_shown / BLACK_REACH)
                             & (lightness <= black_shown * BLACK_REACH))
            masks["black"] |= grey & shows_lighter
        if on_boards is not None and before is not None and coloured_before is not None:
            masks["black"] |= on_boards & (coloured_before > GREY) & (chroma <= FADED_GREY) & \
                (chroma <= FADED_SHARE * coloured_before) & (lightness <= FADED_DARKER * before)
        if on_boards is not None and coloured_before is not None and \
                saturated_before is not None and black_shown is not None:
            masks["black"] |= on_boards & grey & (coloured_before >= FADED_GATE) & \
                (saturation(lightness, chroma) <= FADED_READ * saturated_before) & \
                (lightness <= black_shown * BLACK_REACH)
    return masks


def ground_lightness(lab: np.ndarray) -> np.ndarray:
    """Each pixel's ground: the median lightness around it, wider than any piece."""
    lightness = lab[..., 0].astype(np.uint8)
    window = max(3, int(GROUND_WINDOW * max(lightness.shape)) | 1)
    step = max(1, window // 9)  # the median over a shrunk picture: as good, far quicker
    small = lightness[::step, ::step]
    ground = cv2.medianBlur(small, min(255, max(3, (window // step) | 1)))
    ground = cv2.resize(ground, lightness.shape[::-1], interpolation=cv2.INTER_LINEAR)
    return ground.astype(np.float32)


def learn_colours(lab: np.ndarray, gate: np.ndarray, players: list[str]
                  ) -> tuple[dict[str, PieceColour], dict[str, np.ndarray]]:
    """Each player's colour from their ship on the gate (``gate``: a 0/1 mask). A ship is a
    patch of the gate in that colour's broad hue (black: dark and grey), longer than wide;
    one maker's ships are all alike, so each player's is of about the size most players'
    largest are: the patch nearest it, or of several, the one most like the coloured ships'
    silhouette. Returns the colours and each ship's mask; a player with no such patch, even
    paler (``BROAD_CHROMA``), is missing from both; none lies along the gate's rim
    (``ALONG_RIM``)."""
    inside = cv2.erode(gate.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    from_rim = cv2.distanceTransform(inside.astype(np.uint8), cv2.DIST_L2, 3)
    ground = ground_lightness(lab)
    share = lab[..., 0] / np.maximum(ground, 1.0)
    found: dict[str, list[np.ndarray]] = {}
    for player, mask in broad_masks(lab, players).items():
        if player == "black":
            mask = mask & (share <= DARKEST_GROUND)
        found[player] = _ship_patches(mask, inside, from_rim)
    # the coloured ships' sizes first: black's patch may be the gate's own dark art
    largest = [max(float(p.sum()) for p in patches) for player, patches in found.items()
               if patches and player != "black"] or [
        max(float(p.sum()) for p in patches) for patches in found.values() if patches]
    if not largest:
        return {}, {}
    size = float(np.median(largest))

    def sized(patches: list[np.ndarray]) -> list[np.ndarray]:
        return [p for p in patches if SHIP_SIZES[0] <= p.sum() / size <= SHIP_SIZES[1]]
    alike = {player: sized(patches) for player, patches in found.items()}
    dim = [player for player in players if player in BROAD_HUES and not alike.get(player)]
    if dim:  # a colour dimmed by the light (a navy ship under a dim lamp), sought paler
        paler = broad_masks(lab, players, LEAST_CHROMA)
        alike.update({player: sized(_ship_patches(paler[player], inside, from_rim))
                      for player in dim})
    chosen = {player: min(patches, key=lambda p: abs(math.log(p.sum() / size)))
              for player, patches in alike.items() if patches}
    # where a colour shows several patches of a ship's size (black: the table's dark art at
    # the gate's edge), its ship is the one of the coloured ships' silhouette
    ship_shape = typical([shape for player, ship in chosen.items() if player != "black"
                          for shape in [silhouette(ship)] if shape is not None])
    if "black" in players and ship_shape is not None:
        coloured = [ship for player, ship in chosen.items() if player != "black"]
        black = _black_ship(lab, ground, inside, from_rim, coloured, ship_shape, size)
        dark = chosen.get("black")
        # where black's patch found as before (dark against the gate, of about a ship's
        # size) lies on that ship, it is kept: its outline is the ship's own, not widened
        # by its shadow as at a looser step
        if black is not None and (dark is None or not (black & dark).any()):
            alike["black"], chosen["black"] = [black], black
    colours: dict[str, PieceColour] = {}
    ships: dict[str, np.ndarray] = {}
    for player, patches in alike.items():
        if not patches:
            continue
        ship = chosen[player]
        if ship_shape is not None and len(patches) > 1:
            ship = max(patches, key=lambda p: _likeness_to(p, ship_shape))
        lightness, a, b = np.median(lab[ship], axis=0)
        darkness = float(np.clip(np.median(share[ship]), 0.01, 1.0))
        colours[player] = PieceColour(float(lightness), float(a) - 128, float(b) - 128,
                                      darkness)
        ships[player] = ship
    return colours, ships


def _black_ship(lab: np.ndarray, ground: np.ndarray, inside: np.ndarray,
                from_rim: np.ndarray, coloured: list[np.ndarray], shape: np.ndarray,
                size: float) -> np.ndarray | None:
    """Black's ship on the gate (``inside``): of the grey patches of a ship's ``size`` darker
    or lighter than the gate (its ``ground``'s lightness) by any of ``BLACK_STEPS``, away
    from the ``coloured`` ships (their shadows), the one most like their silhouette
    ``shape`` (``LIKE_SHIP``, ``LIKER``); None where none is plainly so."""
    ys, xs = np.nonzero(inside)
    top, left = max(0, ys.min() - 2), max(0, xs.min() - 2)
    box = (slice(top, ys.max() + 3), slice(left, xs.max() + 3))  # the gate alone: quicker
    smooth = cv2.GaussianBlur(lab[box], (5, 5), 1.2)  # the noise of a dark gate's pixels
    _, chroma = _hue_chroma(smooth)
    share = smooth[..., 0] / np.maximum(ground[box], 1.0)
    width = max(3, int(math.sqrt(size) / 2) | 1)
    near = cv2.dilate(np.any(coloured, axis=0)[box].astype(np.uint8),
                      np.ones((width, width), np.uint8)).astype(bool)
    grey = (chroma <= GREY) & ~near
    masks = [mask for step in BLACK_STEPS for mask in (share <= step, share >= 1 / step)]
    masks += _faded(smooth[..., 0], chroma, inside[box] & ~near)
    found = [(_likeness_to(patch, shape), patch) for mask in masks
             for patch in _ship_patches(grey & mask, inside[box], from_rim[box])
             if SHIP_SIZES[0] <= patch.sum() / size <= SHIP_SIZES[1]]
    if not found:
        return None
    like, best = max(found, key=lambda one: one[0])
    middle, reach = _middle(best), math.sqrt(float(best.sum()))
    elsewhere = [other for other, patch in found
                 if math.dist(_middle(patch), middle) > reach]
    if like < LIKE_SHIP or like - max(elsewhere, default=0.0) < LIKER:
        return None
    ship = np.zeros(inside.shape, bool)
    ship[box] = best
    return ship


def _faded(lightness: np.ndarray, chroma: np.ndarray, ground: np.ndarray) -> list[np.ndarray]:
    """Where a coloured gate turns grey, at each of ``FADED_STEPS``: its saturation (chroma
    over lightness) at most that share of the gate's own (the median over its ``ground``: the
    gate but the coloured ships), where the gate is at least ``FADED_GATE`` coloured. A
    shadow or a lamp's fall-off darkens the gate and keeps its saturation (``LAB_OFFSET``);
    black plastic has none. No mask where the gate is hardly coloured."""
    if not ground.any() or float(np.median(chroma[ground])) < FADED_GATE:
        return []
    saturated = saturation(lightness, chroma)
    usual = float(np.median(saturated[ground]))
    return [saturated <= step * usual for step in FADED_STEPS]


def _middle(patch: np.ndarray) -> tuple[float, float]:
    ys, xs = np.nonzero(patch)
    return float(xs.mean()), float(ys.mean())


def _ship_patches(mask: np.ndarray, inside: np.ndarray, from_rim: np.ndarray
                  ) -> list[np.ndarray]:
    """The patches of ``mask`` on the gate (``inside``) that may be a ship: longer than wide,
    no larger than a ship may be, and not along the gate's rim (``ALONG_RIM``; each
    pixel's distance ``from_rim``)."""
    largest = SHIP_SHARE * max(1, int(inside.sum()))
    mask = cv2.morphologyEx((mask & inside).astype(np.uint8), cv2.MORPH_CLOSE,
                            np.ones((5, 5), np.uint8))  # a ship's printed line mended
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) & inside
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    return [patch for k in range(1, count)
            if stats[k, cv2.CC_STAT_AREA] <= largest
            and _ship_like(labels[stats[k, 1]:stats[k, 1] + stats[k, 3],
                                  stats[k, 0]:stats[k, 0] + stats[k, 2]] == k)
            for patch in [labels == k]
            if (from_rim[patch] <= RIM_BAND * math.sqrt(stats[k, cv2.CC_STAT_AREA])).mean()
            <= ALONG_RIM]


def _likeness_to(patch: np.ndarray, shape: np.ndarray) -> float:
    own = silhouette(patch)
    return 0.0 if own is None else likeness(own, shape)


SHIP_LONGER = 1.3
"""At calibration a ship is sought among the patches at least this much longer than wide
(the table's art showing through the gate's edge is not)."""


def _ship_like(patch: np.ndarray) -> bool:
    outlines, _ = cv2.findContours(patch.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (side_a, side_b), _ = cv2.minAreaRect(max(outlines, key=cv2.contourArea))
    shape = silhouette(patch)
    return max(side_a, side_b) >= SHIP_LONGER * max(1.0, min(side_a, side_b)) and \
        shape is not None and whole(shape) >= SHIP_WHOLE
