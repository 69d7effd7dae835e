"""The pieces on a calibrated ring, in one picture: where each ship stands, each colour's
probes on the jump gate, each planet's station and the probes on tiles reserved beside it
(DESIGN.md §5.5).

A piece is a patch of a player's colour where the table at the start showed something else
(not that colour's print, and not the same colour in other light). Each player has one ship:
the patch of their colour on the ring most like a ship (its size at the start, longer than
wide, of the silhouette the ships showed then, and not two chips side by side), and no ship
where another patch of the colour is more like one. Every other patch is chips, counted by
laying chip-sized discs into it until nothing a chip could be is left: chips that touch,
overlap or lie two in a loose stack each leave a disc's worth. On the gate a chip may lie on
another and lean over a neighbour, or hide the one under it but for a sliver: a patch whose
edges show more chips' circles than discs (``rims``), or one chip longer than a chip looks,
is not sure. Where a patch lies says what it is: on the gate a probe, on a planet's board a
station, beside a board a probe on a reserved tile.
Whatever is not sure is left out and named among the problems, never guessed.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.observations import GATE, PiecesSeen, Problem
from vision.pieces.patches import (HEAP, Look, Patch, at_once, black_hidden, discs, discs_cover,
                                   laid_discs, looking_at, patches_of, ship_px_at, thickness,
                                   touches)
from vision.pieces.rims import circles
from vision.pieces.ring import Ring
from vision.pieces.shapes import like_two_chips, likeness, silhouette

FAINT_CHIP = 0.4
"""A patch of black on the gate that is in no patch found (``Look.faint_black``), this share
of a chip or more, leaves black on the gate unsure (a black chip on a grey gate, a third
darker than it, was counted as none; dev tables 8000-8039 and 8140-8199: 2 and 1 black
counts fewer read right, of 140, none read wrong before or after)."""
SHIP_SIZES = (0.55, 1.7)
"""A ship's patch covers this much of the ships' size at the start, at the least and most
(two chips side by side, as long for their width as a ship, cover about twice as much) ..."""
BLACK_SMALLEST = 0.45
"""... and black's as little as this where it stands out whole (``DARK_BESIDE``): its thin
fins fade into pale ground (black ships' patches on the bench's boards: median 0.74 of the
ships' size; coloured ships' about 1.0) ..."""
BLACK_LARGEST = 1.3
"""... and no larger than this: black's ship shows no larger than the ships did at the start
(bench tables, 451 black patches of a ship's size and shape where black's ship stood: 1.22
at the most), while a black chip run into its shadow, or into the dark ground of a tile
beside a board, may be as long and as alike as one (bench table 7307 at 30 degrees, a hand
over the ring: 1.59 of a ship's size, 0.81 alike, taken for the ship on Caldera; table 8039
on the gate: 1.68) ..."""
DARK_BESIDE = 0.25
"""... that is, where at most this share of the ring just round it is nearly as dark as it
(``NEARLY_AS_DARK``): a part of a black chip half over a dark board runs on into ground as
dark as itself, a whole ship on a pale board does not. Bench table 9107, a hand over the
ring: a black station's crescent, 0.46 of a ship and 0.81 alike, 0.32 of its ring dark,
was taken for the ship; black's ships of 0.45 to 0.55 on boards: 0.00 to 0.30."""
NEARLY_AS_DARK = 1.3
"""... (at most this many times as light as the patch's middle)."""
LONGER = 1.45
"""A ship is at least this much longer than wide ..."""
SHORT_ALIKE = (0.8, 1.2)
"""... or this much, where its silhouette is at least this like the ships' (its tip lost
in the print of a board of its colour, or under a chip; not black's: a black chip and its
shadow are as long). Seventeen blocks of bench tables, coloured patches of a ship's size 1.2
to 1.45 times longer than wide, 0.8 alike or more: 11 ships, and one patch off the ring
that was none (0.75 alike and more: 19 ships, 10 that were none). Ships placed right 2083
-> 2091 of 2405, held-out tables 712 -> 715 of 822, dev tables 884 -> 885 of 997; none
more wrong (black's taken too: a black station on bench table 8002 taken for the ship) ..."""
SHIP_FILLS = 0.6
"""... fills this share of its hull ..."""
NARROWER = 1.0
"""... and, where chips lie alone to measure, is narrower than this share of a chip (at its
thickest, two chips side by side are as thick as one) ..."""
SHORTEST_SHIP = 0.7
"""... and at least this much as long as a chip is wide (its thin tips may not show; dev
tables 8000-8069 and 8140-8279: at 0.85, 17 ships were left out and nothing that was no
ship; the silhouette tells them) ..."""
SHIP_LIKENESS = 0.7
"""... and its silhouette overlaps the ships' at calibration by at least this much ...
(dev tables: 99 % of the ships placed right at 0.73 or more; a chip's crescent half seen on a
board of its darkness, a ship and a chip run together, at 0.51 to 0.68). The silhouette
alone tells a ship touching another piece from the crescent of a chip half under another:
asking it to be longer than a chip is wide as well left out 16 ships on dev tables
8000-8069 and 8140-8279, and kept out nothing that was no ship."""
TWO_CHIPS_LIKENESS = 0.9
"""... and less than this with two chips side by side (two touching chips measure as long,
wide and large as a ship: 0.97 or more; no ship placed right above 0.85)."""
LESS_ALIKE = 0.62
LESS_ALIKE_BOUNDS = (1.25, 0.8, 0.8, 1.5)
"""A patch less alike than ``SHIP_LIKENESS``, down to ``LESS_ALIKE``, is a ship still where
it is whole and plainly no chip, standing on a board or the gate: as long as this many chips
are wide, at most this many chips' radii thick, this much of a ship's size, touching no
other piece, its middle this many chips' radii inside the board or gate. Not so a black one
(dev table 8155: a shadow at the gate's rim, 0.66 alike, 1.73 chips long). Dev tables
8000-8069 and 8140-8279: the 7 such patches of a coloured ship stood 2.6 to 4.9 radii
inside; the one that was none, the red table showing between tiles at a board's edge, 0.66
radii outside. 6 more ships placed, none wrong. Touching another player's ship does not
count (``_others_ships``): two ships on one planet, each hiding a little of the other, were
0.68 and 0.69 alike (bench table 11019). Bench tables (as ``FADED_GREY``): ships placed
right 2044 -> 2053 of 2405, stations 4819 -> 4826, the same reads wrong."""
SHIP_AND_CHIP = 1.15
"""A ship placed on the gate whose patch is at least this many ships large and holds a chip's
disc (``CHIP_DEEP``) may have a chip of its colour run into it, uncounted: its colour's count
on the gate is not sure (dev table 8321: black's ship and a black chip touching, one patch
1.27 ships large and 0.99 chips' radii thick, 0.76 like the ships, taken for the ship alone,
black counted none for one). Dev tables 8000-8359 and 9700-9859, the bench's 7300-7329 and
held-out 12000-12159: gate counts read right 2 fewer of 2169, read wrong 1 fewer; thick
alone, 13 fewer."""
UNDER_ANOTHER_SHIP = 0.5
"""... or at least this much of a ship's size where it touches another player's ship: two
ships on one planet, one lying half over the other, leave the one below as little as two
thirds of itself (dev tables 8027 and 8031: 0.67 and 0.69 of a ship, 0.69 and 0.65 alike,
1.5 and 1.8 chips long, each read as no ship). Dev tables 8000-8359 straight down and
9700-9859 at 15-30 degrees: ships placed right 1243 -> 1246 of 1398, stations 2896 -> 2899,
none more wrong; held-out tables 12000-12059 and 12100-12159: 1 ship and 1 station more,
none wrong."""
FAR_MORE_ALIKE = 0.1
"""Of two patches like a ship, the one nearer a ship's size is taken, unless another is
more alike: then that one, if it is this much more alike than any other patch of the
player's of a ship's size (a black chip's crescent half seen on a dark board, 0.75, beside
the black ship whole on a planet, 0.89, on bench table 7514; dev tables 8000-8279: 2 more
ships placed, none wrong); else neither."""
PLAINLY_SHIP = 0.9
"""A patch whose silhouette is at least this like the ships' is plainly a ship: in place of
``NARROWER``, it may be up to ``PLAIN_SHIP_THICKEST`` chips' radii thick (its wings and
shadow seen from a tilted camera).
Dev tables 8000-8139, patches of a ship's size and shape at least ``SHIP_LIKENESS`` alike:
of the 20 that were no ship, none was more alike than 0.86, and the 5 of them these measures
left out, than 0.78; the 35 ships they left out were 0.8 to 0.97 alike, 16 of them at least
0.9."""
PLAIN_SHIP_THICKEST = 1.2
PART_SHOWN_ALIKE = 0.8
"""Where a colour's chips may show only in part (black on a gate its ship was hardly darker
than, ``PieceColour.hardly_darker``), a patch is its ship only if at least this like the
ships' silhouette: a part of a chip is up to 0.75 alike (bench table 8419: a black chip on
a brown gate, its lighter face leaving a C of it black, 0.71, read as the ship on the gate).
Dev tables 8000-8069 and 8140-8279, bench tables 7500-7529, 7800-7829, 7900-7929 and
8400-8429: the black ships placed right on such a gate were 0.85 alike or more, and none was
lost."""
SHOWN_IN_PART = 0.3
"""So alike must black's ship be where its patch runs along ground black does not show on (a
dark board) for this share of its edge or more: what shows may be a part of a station, as a chip
half over a board's badge shows only a crescent of it (bench table 8725: 0.79 alike, placed
as the ship, and the station read as none; dev table 8256 as well). Then what stands there is
not clear. Dev and bench tables: 4 ships, 4 stations and 4 reservations fewer read right of
2192, 5024 and 5024; at 0.15, 9 ships fewer."""
SHIP_OVER = 0.15
"""A ship standing over a board's edge stands on it if its middle is at most this many board
sides off it."""
GLIMPSE_LARGEST = 1.0
"""A black ship not seen whole may show in part where it stands over a planet's art and
vanish where it reaches over a board as dark as it: a black patch of at most this share of
the ships' size, longer than a station chip (``ROUND``) and thinner than a chip
(``CHIP_THICK``), of the ships' silhouette (``SHIP_LIKENESS``) ..."""
GLIMPSE_HIDDEN = (0.15, 0.8)
"""... whose outline runs this share of its length, at the least and the most, along ground
where black does not show (``black_hidden``) or another piece (it may go on there), and
elsewhere along ground where it would show ..."""
DARK_AROUND = 0.05
"""... at least this share of it along dark ground (not only between other pieces: the
shadow in a gap between two chips) ..."""
NO_ARC = 0.05
"""... and is no arc of a chip there: the outline where black would show keeps further from
the circle it best fits than this many chips' radii on average. A station half on a dark
board shows a chip's arc (0.02 to 0.033 on dev tables), a ship's part its straight sides
and tip (0.074 or more). Such a patch is only glimpsed (``PiecesSeen.glimpsed``), for the
tracker to propose a flight or jump there for a tap: dev tables 8000-8069 and 8140-8279, of
116 black ships not seen, 17 glimpsed on the planet they stood on and 1 elsewhere; bench
tables 7500-7529, 2 and 3. Every glimpse elsewhere was a black station half over a badge
printed on its board: the tracker takes no glimpse where the record has that station."""
ROUND = 1.3
"""A station chip is at most this much longer than wide."""
THICKEST = 1.3
"""No patch of chips is thicker than this many chips' radii (a dark tile under a black one
is). A thicker patch, or one more ragged than chips (``HEAP``: a shadow's edge, art under
changed light, half a piece under a hand) leaves its colour unknown where it lies."""
AREA_PER_CHIP = (0.6, 1.2)
"""Chips counted on the gate cover this much of a chip's area each, at the least (heaps,
stacks) and the most; outside it the count is not sure (a chip under another is left out of
the discs counted, though a sliver beyond them, a circle in the edges or a chip's worth too
long tell it first: with no most at all, dev tables 8000-8069 and 8140-8279 and bench
tables 7500-7529, 7800-7829, 7900-7929 and 8400-8429 read one gate count wrong, a black chip
hiding another at 1.32 chips. From 1.15 to 1.2, 43 more gate counts were read right on those
tables and dev tables 8070-8139, none wrong) ..."""
RIMMED_CHIP = 1.4
"""... but for chips of up to this much area each, none with more than ``NOTHING_BEYOND``
beyond its disc (and, touching, ``TOUCHING_BEYOND``): what makes them larger is their rim and
shadow, seen from a tilted camera, all round the disc; a chip hidden under another peeps out
beyond it (dev tables 8000-8139: of 52 gate counts at 1.15-1.3 chips a chip read right, 50
were at most 0.03 beyond; of the 13 one short, none was: 0.037 to 0.094. Dev tables
8000-8069 and 8140-8279, gate counts of 1.2 to 1.4 chips each: of those read right, 25 of 29
at most 0.03 beyond; of those one short, none: 0.043 to 0.16. From 1.3 for lone chips
alone to 1.4 for chips touching too: dev, bench and held-out tables 14 more gate counts right
of 2106, and dev tables 8140-8279 none wrong of 954)."""
LONE_CHIP = (1.3, 0.06)
"""... and a colour's one chip on the gate of up to this many chips' area, with up to this
share of it beyond its disc: what hides under one chip alone peeps out, and it shows longer
(``ONE_CHIP_LONGEST``) or more beyond. Seventeen blocks of bench tables, a colour's one patch
of one disc on the gate, over 1.2 chips' area and 0.03 to 0.1 beyond: within these, 25 of 25
were one chip; the 3 that hid another were 1.32 to 1.43 chips or 0.067 to 0.097 beyond. Gate
counts read right there 1862 -> 1884 of 2405, on the held-out tables 639 -> 645 of 822, none
wrong. This and ``RIMMED_CHIP`` raise only the most: less than ``AREA_PER_CHIP``'s least is
no chip sure (bench table 7319 at 30 degrees, black learned there at last: a dark sliver of
0.39 chips among red chips on a navy gate was counted as a black chip; dev tables, 1 gate
count of 1414 fewer read right, bench tables 7300-7329 straight down 1 of 119, none more
wrong)."""
NOTHING_BEYOND = 0.03
"""A patch of chips and nothing else has at most this share of it beyond the chips' discs:
their rims and shadows lie within the discs' reach, while a chip hidden under another, or a
piece of a ship run into them, reaches beyond ...
(dev tables, patches of two discs or more, 0.03 to 0.1 beyond: 20 held as many chips as
discs, 16 one more; of those the other measures let through, 9 were right and 3 one short)."""
TOUCHING_BEYOND = 0.025
"""... and where chips touch, at most this share: chips on the gate with more beyond are not
counted for sure. Dev tables 8000-8279, a colour's one patch of two discs or more on the
gate: of those at 0.01 to 0.025 beyond, none hid a chip more than its discs; at 0.025 to
0.03, 5 of 11 did. At ``NOTHING_BEYOND`` three gate counts were read one short, at 0.026 to
0.03 (dev tables 8035 and 8232 with a hand, bench table 7327); here they are unsure, with 10
counts right of some 2,000 on the dev and bench tables; unless their edges show a chip's
circle more than their discs (``_loose_stack``)."""
THIN_CHIPS = 0.8
"""... unless they cover at most this many chips' area a disc: a chip hidden under them
peeps out, and what shows of it adds to their area. Seventeen blocks of bench tables, a
colour's one patch of two discs or more on the gate, 0.025 to 0.1 beyond its discs, as many
circles in its edges: at 0.8 chips' area a disc or less, 15 of 15 held as many chips as
discs; from 0.8 to 0.85, 13 of 13; from 0.85 to 0.9, 14 of 16. Gate counts read right 1852
-> 1862 of 2405 there, and on held-out tables (from 11210, 11240 and 11270 straight down,
11300, 11330 and 11360 at a slant) with the rows of ``ROW_FILL``, 624 -> 639 of 822; none
wrong."""
FEWER_CIRCLES_FROM = 3
"""On the gate, a row of at least this many discs whose edges show fewer chips' circles is
not counted for sure (``_circles_disagree``). Tables 8000-8069 straight down and 9700-9809
at 15-30 degrees: 2 gate counts read wrong no more (9709, 9769), 3 of 337 right ones
straight down left unknown, none at a slant. Any row whose circles are fewer: 5 straight
down."""
AREA_PER_PROBE = (0.6, 1.5)
"""The same beside a board, where each probe lies alone on its tile (a patch of two discs
there is not counted) and nothing hides under it: its rim and shadow, seen from a tilted
camera, make it up to half as large again as a chip's disc (dev tables 8000-8069: 71 counts
of a colour's probes beside a planet left out for their area alone were right, at 1.15-1.48
chips a probe; the 2 wrong at such areas are left out by other rules)."""
OWN_GROUND = 0.5
"""Beside a board whose ground showed a player's colour over at least this share at the
start (a blue player at a blue table), a probe of that colour on a reserved tile may not
show: a piece is seen by how it changed the start, and a blue chip there hardly changes the
blue under it. Its tile still shows: there, a tile's bare edge beside another's probe is
enough to leave the planet's reservations unknown (dev tables: 3 planets' reservations read
without their blue probe, beside the red or green probe on the next tile). Not so where a
piece of that colour shows beside the board: there it is no ground a probe vanishes on (a
wooden table, yellow to the camera, its yellow probes seen on their tiles; dev tables
8000-8069 and 8140-8279, 19 more planets' reservations read right; bench tables 7500-7529,
7900-7929 and 8400-8429, 6, 1 and 6; none wrong)."""
ONE_CHIP_LONGEST = 1.25
"""A chip's worth that holds one disc is at most this much longer than wide (a chip seen
from 30 degrees off above is 1.15); a longer one is a chip with another under it, peeping
out (dev tables: 5 such on the gate, each read one short; of 277 single chips read right,
none of a chip's worth was longer, 5 pieces of chips, of 0.27 to 0.56 chips' area, were)."""
PLAIN_CHIPS_FILL = 0.7
"""Chips touching on the gate, where their colour's ship is not seen, are plainly chips only
if they cover at least this many chips' area for each disc laid in them: a ship run into two
chips and taken for a third disc covers less (bench table 9147: 0.645 a disc, three discs
and three circles, read as three chips where two lay; the chips read right on the bench's
tables from 7300, 7500, 7800, 8400, 9100, 9130, 9200, 9230 and 9260 covered 0.734 to 1.2)."""
WHOLE_CHIP = 0.7
"""A patch of at least this many chips' area is a chip's worth (pieces of chips cut short
measured 0.27 to 0.56; two black chips stacked on a grey gate, the lower peeping out, 0.79
on bench table 7605 with a hand, read as one at 0.8; no read of the dev tables changed)."""
CHIP_THICK = 0.8
"""A patch plainly of chips is at least this many chips' radii thick."""
BEYOND_DISCS = 0.1
"""A patch of which more than this share lies beyond the chips' discs laid in it is chips
and something else of their colour (dev tables: a black chip run into the dark tile under
it, 0.12 and 0.15; of 820 patches counted right, 4 above)."""
TILE_RING = 1.3
AROUND = 24
ON_TILE = 0.6
"""A chip lies on a tile when this share of the points ``TILE_RING`` chip radii around its
middle is new (a tile's edge reaches about half a chip beyond its probe)."""
STATION_INSIDE = 1.5
"""A station stands on its board: a chip whose middle lies fewer of its radii than this
within the board's edge is not surely one (dev tables 8000-8069 and 8140-8209: of 285 chips
taken for stations, the 9 that near the edge were none, probes on tiles reaching over it; the
nearest station right was farther in)."""
OFF_BOARD = 1.2
"""A round chip whose middle lies this many of its radii beyond a board's edge lies wholly
off the board: no station; beside it, a probe on a reserved tile, even where the tile shows
too little change around it (a tile much like the table, the chip near its edge). Dev tables
8000-8069: of 73 chips beside boards left unsure as on no tile, the round ones this far off
were all probes on tiles; the fragments and long pieces (shadows, ship parts) among them
stay unsure by their shape and area."""
TILE_REACH = 1.8
"""A reserved tile reaches about this many chip radii from its probe's middle."""
UNEXPLAINED = 0.3
"""Something new of no player's colour, of at least this share of a chip, on the gate or a
board makes its place unknown; beside a board, where reserved tiles lie, what is larger than
``HAND`` chips (a few tiles in a row are smaller) or carries no piece."""
HAND = 12.0
FINGERS = 10.0
"""Something of no colour this many chips large or more, mostly on the gate or one board, is
a hand over that place, as is anything larger than ``HAND`` chips: a ship seen there may be
a piece peeping between its fingers (held-out table 13134 at 25 degrees: a red station
under a hand's fingers on a board, 11.8 chips of no colour there, was taken for red's ship,
and the true ship for a station). Beside the 91 ships seen on a place with something of no
colour on it in twenty-two blocks of tables, with a hand or not, that thing was up to 9.1
chips large or at least 12.7."""
OVER_EDGE = 1.0
"""Something of no colour smaller than this many chips, partly off a board and hardly on it,
is a tile's edge reaching over the board's (``_over_edge``), judged as what lies beside the
board. Seventeen blocks of bench tables: stations 4918 -> 4925 of 5512, reservations 4667
-> 4672; held-out and dev tables: 3 stations and 2 reservations more; none more wrong."""
BARE_THICK = 0.6
"""Beside a board not of a player's colour, a bare piece of tile hides a probe only if it is
larger than a chip and holds a disc of this many chip radii: the corners of tiles lying edge
to edge, each tile's probe seen, join into a thin piece as large as a chip (0.58 radii thick
at the most), while a tile whose probe does not show is bare across its middle. Dev tables
8000-8069 and 8140-8279, bench tables 7500-7529, 7800-7829, 7900-7929 and 8400-8429: with
no bare piece counted there, 57 planets' reservations were read wrong, each beside a bare
piece 0.71 to 1.97 radii thick (and one was wrong either way: black probes on dark tiles,
table 7511); with this, 145 more planets' reservations were read right, none wrong."""
MOVED = 4.0
"""The view is taken as moved since the ring was found when it shifted by more than this
many pixels (``Ring.moved``: one pixel of the start, kept at a quarter of the frame's size):
every place would be read where it no longer is (dev tables, frames moved 6 pixels: ships
read on the wrong planet). Dev tables 8000-8039 and 7500-7519 as shot: at most 3.2, a hand
over the table; moved 6 pixels: 4.7 at the least; turned 1 degree: 4.4."""
DIMMEST = 0.25
"""A place lit at less than this share of its light at calibration is not read (rendered
tables with their lamps moved: 0.5 at the least, 0.95 in the middle)."""


Read = tuple[PiecesSeen | None, tuple[Problem, ...]]
"""The pieces seen (None: none could be read) and what could not be read."""
Reading = Generator[None, None, Read]
"""A read taken a step at a time: each ``next`` does one part of it, so that the live loop
spreads it over frames; the read is the generator's return value."""


def read_pieces(bgr: np.ndarray, ring: Ring) -> Read:
    """What ``bgr`` shows of the pieces on ``ring``, and what could not be read."""
    return at_once(reading_pieces(bgr, ring))


def reading_pieces(bgr: np.ndarray, ring: Ring) -> Reading:
    """``read_pieces`` in seven steps of about the same time (a frame's share)."""
    height, width = bgr.shape[:2]
    if (width, height) != ring.image_size:
        return None, (Problem("no_ring", f"the ring was found in {ring.image_size[0]}x"
                              f"{ring.image_size[1]} frames, not {width}x{height}: calibrate "
                              "the ring again"),)
    moved = ring.moved(bgr)
    if moved > MOVED:
        return None, (Problem("no_ring", f"the camera has moved since the ring was found (by "
                              f"about {moved:.0f} pixels): calibrate the ring again"),)
    look = yield from looking_at(bgr, ring)
    dim = _dim(ring, look)
    if len(dim) == len(ring.planets) + 1:
        return None, (Problem("unsure_piece", "the table is too dark to read its pieces (the "
                              "light, or the camera covered)"),)
    problems = [Problem("unsure_piece", f"the {player} pieces are not read: their ship was "
                        "not found on the jump gate when the ring was calibrated")
                for player in ring.unseen]
    problems += [Problem("unsure_piece", f"{place} is too dark to read") for place in sorted(dim)]
    unsure = _Unsure(_hidden(ring, look))
    hands = [p for p in look.patches if _hand_coloured(ring, look, p)]
    pieces = [p.centre for p in look.patches if not any(p is hand for hand in hands)]
    own_ground = _own_ground(ring, look)
    unknown, unknown_beside, under_hand = _unexplained(ring, look, hands, own_ground, pieces)
    yield
    unknown_beside |= _thin_rims(ring, look, own_ground, pieces, unknown_beside)
    # what lies in the dark is as unknown as what lies under a hand
    unknown, unknown_beside, under_hand = unknown | dim, unknown_beside | dim, under_hand | dim
    ships, shipped = _ships(bgr, ring, look, problems, unsure, under_hand)
    # black alone vanishes into a table's dark print; so only its ship may be glimpsed
    glimpse = _black_glimpse(ring, look) if "black" in ring.colours and "black" not in ships \
        and "black" not in ring.unseen else None
    yield
    other: set[tuple[str, str]] = set()
    """(place, colour): something of that colour there is no piece (``_something_else``)."""
    tally, built = _chips(bgr, ring, look, shipped, unsure, other)
    black = ring.colours.get("black")
    if black is not None and black.hardly_darker and (GATE, "black") not in tally:
        unsure.add(GATE, "black")  # no black seen on such a gate is no proof of none there
    for place, player in sorted(unsure.on):
        problems.append(Problem("unsure_piece", f"{player} is not clear on {place}"))
    for place, player in sorted(unsure.beside):
        problems.append(Problem("unsure_piece", f"{player} is not clear beside {place}"))
    for place in sorted(unknown):
        problems.append(Problem("unsure_piece", f"something on {place} is not a piece of "
                                "any player's colour (a hand, a piece in shadow)"))
    for place in sorted(unknown_beside - unknown):
        problems.append(Problem("unsure_piece", f"something beside {place} is not a piece "
                                "of any player's colour (a tile whose probe does not show, "
                                "a hand)"))
    gate = {player: int(tally.get((GATE, player), (0, 0))[0]) for player in ring.colours
            if GATE not in unknown and (GATE, player) not in unsure.on}
    # a planet's counts name only the colours with probes there: one colour not clear
    # beside its board leaves them all out; so do two stations on its board, which cannot
    # be (what is there is not as it looks: a board found larger than it is takes its tiles
    # in).
    # A colour whose ship was not found at calibration (``ring.unseen``) leaves out only the
    # places where something unexplained lies: its pieces are new and of no colour learned,
    # so they are that (dev tables: of the planets with its probes beside them, 19 of 19
    # were left out so, and of those with its station, 5 of 5)
    reserved = {name: {player: int(count) for (place, player), (count, *_) in tally.items()
                       if place == name}
                for name, _ in ring.planets
                if name not in unknown_beside
                and not any(place == name for place, _ in unsure.beside)
                and len(built[name]) <= 1}
    stations: dict[str, str | None] = {}
    for name, colours in built.items():
        if name in unknown or any(place == name for place, _ in unsure.on):
            continue  # its station, if any, is not clear
        if len(colours) > 1:
            problems.append(Problem("unsure_piece", f"{name} shows stations of "
                                    f"{' and '.join(sorted(colours))}"))
        else:
            stations[name] = next(iter(colours), None)
    # a ship seen beside something of its own colour that is no piece (a hand, red as skin
    # is, reaching over it) may be a part of that
    unclear = {player: at for player, at in ships.items() if (at, player) in other}
    for player, at in unclear.items():
        problems.append(Problem("unsure_piece", f"the {player} ship is seen on {at}, "
                                "where something else is not clear"))
    ships = {player: at for player, at in ships.items() if player not in unclear}
    glimpsed = {"black": glimpse} if glimpse is not None and glimpse not in under_hand else {}
    return PiecesSeen(ships, gate, stations, reserved, glimpsed), tuple(problems)


def _dim(ring: Ring, look: Look) -> set[str]:
    """The gate and the planets lit at less than ``DIMMEST`` of the light at calibration:
    nothing new shows there, so nothing there is known (a frame with the lamp off would read
    as no probes on the gate)."""
    if look.light is None:
        return set()
    height, width = look.light.shape
    return {place for place, (x, y) in ring.middles
            if look.light[min(max(int(y), 0), height - 1), min(max(int(x), 0), width - 1)]
            < DIMMEST}


def _hidden(ring: Ring, look: Look) -> set[tuple[str, str]]:
    """Where a colour's chips may not show at all: black on a gate showing a patch of black
    in no patch found, ``FAINT_CHIP`` of a chip or more; and black on a gate lit brighter than
    the light around it (``Look.gate_light``): a lamp's glare adds to a black chip as much as
    to the gate, so the chip shows far less dark than its share (8822: the gate 58 -> 102, a
    black chip 31 -> 75, 0.73 of it, not new: two were counted as none). (On a gate its ship
    was hardly darker than, black is counted from plain chips alone: ``_plain_black_chip``.)"""
    black = ring.colours.get("black")
    if black is None:
        return set()
    chip_area = math.pi * look.radius(ring, ring.middle) ** 2
    if look.faint_black >= FAINT_CHIP * chip_area or look.gate_light > 1:
        return {(GATE, "black")}
    return set()


def _ships(bgr: np.ndarray, ring: Ring, look: Look, problems: list[Problem], unsure: _Unsure,
           under_hand: set[str]) -> tuple[dict[str, str], list[Patch]]:
    """Where each player's ship stands, and the patches that are ships. A ship not seen
    leaves its colour unsure on the gate, and on the boards where a patch of it is not plainly
    chips (a piece of it, half hidden, could be taken for chips; on the gate, among chips
    that touch, it could be one of them: so relaxed on the gate too, 5 more gate counts were
    wrong on dev tables). Dev tables: stations read 70.6 -> 72.4 %, reservations 66.1 ->
    67.9 %, none more wrong. On the gate, a colour whose every patch there is plainly chips
    and nothing else (``_plain_chips``) is still counted: dev tables 8000-8069 and
    8140-8279, gate counts 64.7 -> 67.1 % and 60.0 -> 63.1 % for chips lying alone, then
    75.9 -> 79.6 % and 68.2 -> 71.0 % for chips touching, none more wrong (a black ship run
    into two chips, read as three, reached 0.099 beyond their discs). On a board, a patch
    of it touching another player's ship is not sure either, plainly chips or not: it may be
    the ship itself, half under the other (bench table 7818: yellow's nose beside the green
    ship was read as a yellow station; the dev tables' reads did not change). A ship seen
    where its colour may show in part, under a hand (``under_hand``: a piece peeping between
    its fingers), or off the ring, is no surer than one not seen: any other patch of its
    colour may be the ship (bench table 8038, the gate's own light always taken: black's
    ship was chosen under a hand on Hazard, and the true one on Ruby Red was read as a
    station). Bench and held-out tables: 10 stations and reservations of 9696 left out that
    were read right so. A coloured ship run into its chips on the gate is found
    there as what is left with the chips taken out (``_ship_among_chips``); that colour's
    count on the gate is not sure then (counting the discs laid in its patch, seventeen
    blocks of bench tables read 8 counts more right and 3 wrong)."""
    ships: dict[str, str] = {}
    found = {player: _ship(bgr, ring, look.patches, player, look) for player in ring.colours}
    shipped = [ship for ship in found.values() if ship is not None]
    # a ship not found may stand on the gate, run into its chips: its part of their patch
    among = {player: _ship_among_chips(ring, look, player)
             for player, ship in found.items() if ship is None}
    for player, (part, whole) in ((p, a) for p, a in among.items() if a is not None):
        found[player] = part
        shipped += [part, whole]
    for player, ship in found.items():
        place = None if ship is None else ring.place(ship.centre, beside=False, reach=SHIP_OVER)
        if ship is None:
            problems.append(Problem("unsure_piece", f"the {player} ship is not seen"))
        elif place is None:
            problems.append(Problem("unsure_piece", f"the {player} ship is off the ring"))
        elif ((place, player) in unsure.on or (player == "black" and (
                (place == GATE and ring.colours[player].hardly_darker)
                or _shown_in_part(ring, look, ship)))) \
                and _ship_likeness(ring, ship) < PART_SHOWN_ALIKE:
            problems.append(Problem("unsure_piece", f"the {player} ship is seen on {place}, "
                                    f"where {player} chips may show in part"))
            unsure.add(place, player)  # what shows there of it, on the board or beside
        elif place in under_hand:
            problems.append(Problem("unsure_piece", f"the {player} ship is seen on {place}, "
                                    "where something else is not clear"))
        else:
            ships[player] = place
            continue
        # the ship not placed for sure: any other patch of its colour may be the ship
        for patch in (p for p in look.patches if p.player == player and p is not ship):
            place = ring.place(patch.centre)
            if place is None:
                continue
            if (place == GATE and not _plain_chips(bgr, ring, look, patch)) or (
                    place != GATE and (not _chips_alone(ring, look, patch)
                                       or touches(patch, shipped)
                                       or _over_chips(ring, look, patch)
                                       or _more_circles(bgr, ring, look, patch))):
                unsure.where(ring, look, place, player, patch.centre)
    for player in (p for p, a in among.items() if a is not None):
        unsure.add(GATE, player)  # the chips its ship ran into are not counted
    for player, place in ships.items():
        ship = found[player]
        if place == GATE and ship is not None and \
                ship.area >= SHIP_AND_CHIP * ship_px_at(ring, ship.centre) and \
                thickness(ship) >= CHIP_DEEP * look.radius(ring, ship.centre):
            unsure.add(GATE, player)  # as thick as a chip: one may be run into it
    return ships, shipped


def _chips(bgr: np.ndarray, ring: Ring, look: Look, shipped: list[Patch], unsure: _Unsure,
           other: set[tuple[str, str]]
           ) -> tuple[dict[tuple[str, str], list[float]], dict[str, set[str]]]:
    """The chips counted at each (place, colour) with their area in chips and the largest
    share of one of their patches beyond its discs, and the colours of the stations on each
    planet (in ``bgr``); what is not clear is added to ``unsure``, and where it is no piece
    at all also to ``other``."""
    tally: dict[tuple[str, str], list[float]] = {}
    built: dict[str, set[str]] = {name: set() for name, _ in ring.planets}
    for patch, found in _chip_patches(bgr, ring, look):
        place = ring.place(patch.centre, beside=True)
        radius = look.radius(ring, patch.centre)
        off_gate = -ring.inside(GATE, patch.centre)
        if (place is None and off_gate <= radius) or (place != GATE
                                                      and off_gate <= ring.gate_doubt):
            # half over the gate's rim, or where a gate whose edge was not seen may reach:
            # on it, or off?
            unsure.add(GATE, patch.player)
        if place is None or any(patch is ship for ship in shipped):
            continue
        rival = ring.rival(patch.centre, place) if place != GATE and \
            ring.inside(place, patch.centre) < 0 else None
        if rival is not None:  # beside two boards: whose tile is it on?
            for either in (place, rival):
                unsure.where(ring, look, either, patch.player, patch.centre)
            continue
        if _something_else(ring, look, patch):
            unsure.where(ring, look, place, patch.player, patch.centre)
            other.add((place, patch.player))
            continue
        count, beyond = discs(patch, radius)
        inside = ring.inside(place, patch.centre)  # how far within its board, in pixels
        on_tile = place != GATE and inside < radius and (
            (inside <= -OFF_BOARD * radius and patch.elongation <= ROUND)
            or _on_tile(look, patch, radius, found))
        on_board = place != GATE and not on_tile and inside >= 0
        stacked = _loose_stack(bgr, patch, radius, count) if place == GATE and (
            beyond > BEYOND_DISCS or (count > 1 and beyond > TOUCHING_BEYOND)) else 0
        if stacked:
            count = stacked
        if (on_board and patch.elongation > ROUND) or (beyond > BEYOND_DISCS and not stacked):
            # no station (part of a ship, two things), or no chips alone (one run into a tile)
            unsure.where(ring, look, place, patch.player, patch.centre)
        elif on_board and count:
            if inside >= STATION_INSIDE * radius:
                built[place].add(patch.player)
            else:  # at the board's edge: a station, or a probe on a tile reaching over it?
                unsure.add(place, patch.player)
        elif place != GATE and not on_tile:  # beside a board, yet on no tile: at its edge
            unsure.add(place, patch.player)
        elif count:
            if place == GATE and patch.player == "black" and \
                    ring.colours["black"].hardly_darker and \
                    not _plain_black_chip(patch, count, stacked, beyond):
                unsure.add(place, patch.player)
            if place == GATE and not stacked and (
                    _peeping(patch, radius, count)
                    or (count > 1 and beyond > TOUCHING_BEYOND
                        and patch.area > THIN_CHIPS * count * math.pi * radius ** 2
                        and not _just_discs(ring, look, patch, radius, count))
                    or _circles_disagree(bgr, patch, radius, count)):
                # a chip on another, the other part seen (a sliver beyond the discs, a
                # circle in the edges, a chip's worth too long)
                unsure.add(place, patch.player)
            elif place != GATE and (count > 1 or patch.area
                                    < AREA_PER_PROBE[0] * math.pi * radius ** 2):
                # each probe beside a board lies on its own tile, a tile's width from the
                # next: chips touching there are no probes (a dark tile under a black one);
                # nor is less than a probe's worth (a piece of a dark tile beside a black
                # probe, which it would add to, half over its own)
                unsure.add(place, patch.player, on=False)
            counted = tally.setdefault((place, patch.player), [0.0, 0.0, 0.0])
            counted[0] += count
            counted[1] += patch.area / (math.pi * radius ** 2)
            counted[2] = max(counted[2], beyond)
    for (place, player), (count, area, beyond) in tally.items():
        least, most = AREA_PER_CHIP if place == GATE else AREA_PER_PROBE
        rimmed = (place == GATE and area / count <= RIMMED_CHIP
                  and beyond <= NOTHING_BEYOND)
        lone = place == GATE and count == 1 and area <= LONE_CHIP[0] and beyond <= LONE_CHIP[1]
        if not (least <= area / count and (area / count <= most or rimmed or lone)):
            # the discs and the area tell different counts (beside a board: of its tiles)
            unsure.add(place, player, on=place == GATE)
    return tally, built


CORE_GAP = 25.0
"""A black patch beside a board that is more than its chips (a dark tile taken in with them)
is split in two by its lightness where its darker and lighter parts lie at least this far
apart (Lab lightness, 0-255) ..."""
CORE_CHIP = (0.6, 1.5)
"""... and each darker part is one chip's worth (as ``AREA_PER_PROBE``), round as a chip
(``ROUND``) with nothing beyond its disc (``NOTHING_BEYOND``): then those parts are the
chips, and the rest their tiles. A black chip on a dark tile is about L 25-45, the tile
L 75-95. With ``ROOM``, photos with no hand: bench tables 7300-7329, stations read right
284 -> 289 of 304, reservations 279 -> 284; dev tables 8000-8059, 8300-8359 and 8400-8459,
stations 1759 -> 1785 of 1936, reservations 1695 -> 1721; tables 9700-9759 at 15-30
degrees, 556 -> 561 and 524 -> 528 of 648; the same reads wrong, hands included."""


def _chip_patches(bgr: np.ndarray, ring: Ring, look: Look) -> list[tuple[Patch, Patch]]:
    """The patches to count chips in, each with the patch found it is of (``_black_parts``)."""
    return [(part, found) for found in look.patches
            for part in _black_parts(bgr, ring, look, found)]


def _black_parts(bgr: np.ndarray, ring: Ring, look: Look, patch: Patch) -> list[Patch]:
    """What of a patch on a board or beside one is pieces: of a black one, nothing where it
    is only the shadow of other colours' chips it touches (``_shadow_of_other``) or, beside a
    board, a dark tile round another colour's probe (``_tile_round_other``); its darker
    cores where it takes in the dark tiles under its chips (``CORE_GAP``, ``CORE_CHIP``: a
    tile darker than black's ship at the start shows as black all over, the chips on it
    darker still); else the patch itself."""
    if patch.player != "black":
        return [patch]
    place = ring.place(patch.centre, beside=True)
    if place in (None, GATE):
        return [patch]
    radius = look.radius(ring, patch.centre)
    if _shadow_of_other(look, patch, radius):
        return []
    if ring.inside(place, patch.centre) >= 0 or (
            discs(patch, radius)[1] <= BEYOND_DISCS and not _something_else(ring, look, patch)):
        return [patch]
    if _tile_round_other(look, patch, radius):
        return []
    x, y, w, h = patch.box
    lightness = cv2.cvtColor(bgr[y:y + h, x:x + w], cv2.COLOR_BGR2LAB)[..., 0]
    inside = patch.mask > 0
    values = lightness[inside].reshape(-1, 1)
    split, _ = cv2.threshold(values, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    darker, lighter = values[values <= split], values[values > split]
    if not len(darker) or not len(lighter) or \
            float(lighter.mean()) - float(darker.mean()) < CORE_GAP:
        return [patch]
    core = np.zeros(bgr.shape[:2], np.uint8)
    core[y:y + h, x:x + w] = (inside & (lightness <= split)).astype(np.uint8)
    cores = patches_of(patch.player, core, ring.ship_px, ring.table_shape)
    chip_area = math.pi * radius ** 2
    for one in cores:
        count, beyond = discs(one, radius)
        if count != 1 or beyond > NOTHING_BEYOND or one.elongation > ROUND \
                or not CORE_CHIP[0] <= one.area / chip_area <= CORE_CHIP[1]:
            return [patch]
    return cores or [patch]


ROOM = 0.6
"""A black patch round another colour's chip, with no room for a disc of this many chips'
radii once that chip and its rim are taken out, is the dark tile under that chip: no black
piece lies there (it left black not clear beside the board: its station and reservations
unknown)."""


def _shadow_of_other(look: Look, patch: Patch, radius: float) -> bool:
    """Whether black ``patch`` is only the shadow of other colours' chips it touches: less
    than a chip's worth (``CORE_CHIP``), with no room for a chip once they and their shadows
    (``SHADOW_REACH``) are taken out (``ROOM``)."""
    if patch.area >= CORE_CHIP[0] * math.pi * radius ** 2:
        return False
    others = [other for other in look.patches
              if other.player != patch.player and touches(patch, [other])]
    return bool(others) and _room_left(patch, others, SHADOW_REACH * radius) < ROOM * radius


def _tile_round_other(look: Look, patch: Patch, radius: float) -> bool:
    """Whether black ``patch`` is only a dark tile round another colour's chip (``ROOM``):
    its hull holds that chip's middle (the tile's frame may not close round it)."""
    x, y, _, _ = patch.box
    hull = cv2.convexHull(np.vstack(cv2.findContours(patch.mask, cv2.RETR_EXTERNAL,
                                                     cv2.CHAIN_APPROX_SIMPLE)[0]))
    held = [other for other in look.patches if other.player != patch.player
            and cv2.pointPolygonTest(hull, (other.centre[0] - x, other.centre[1] - y),
                                     False) > 0]
    return bool(held) and _room_left(patch, held, RIM_TAKEN * radius) < ROOM * radius


def _room_left(patch: Patch, others: list[Patch], reach: float) -> float:
    """The radius of the largest disc in ``patch`` once ``others`` are taken out of it, and
    ``reach`` pixels round them."""
    x, y, _, _ = patch.box
    taken = np.zeros_like(patch.mask)
    for other in others:
        cv2.drawContours(taken, cv2.findContours(other.mask, cv2.RETR_EXTERNAL,
                                                 cv2.CHAIN_APPROX_SIMPLE)[0],
                         -1, 1, -1, offset=(other.box[0] - x, other.box[1] - y))
    side = 2 * int(round(reach)) + 1
    taken = cv2.dilate(taken, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    return thickness(replace(patch, mask=patch.mask & (1 - taken)))


RIM_TAKEN = 0.3
"""A chip's rim and shadow reach this many of its radii beyond its patch ..."""
SHADOW_REACH = 0.5
"""... and its shadow on a tile, where a black patch is only that (the tile's own dark edge
beside it), this many. Photos with no hand, stations and reservations read right: bench
tables 7300-7329, 289 -> 290 and 284 -> 285 of 304; dev tables 8000-8059, 8300-8359 and
8400-8459, 1785 -> 1803 and 1721 -> 1737 of 1936; at 15-30 degrees, tables 9700-9759,
561 -> 566 and 528 -> 533 of 648, and 8500-8559 (with the black parts above), 535 -> 553
and 504 -> 520; the same reads wrong, hands included."""


EDGE = 1.0
"""What is not clear within this many chips' radii of a planet's board's edge, on the board
or off it, may be a station or a probe on a reserved tile."""


@dataclass
class _Unsure:
    """Where what a colour shows is not clear, as (place, colour): on the gate or a planet's
    board (``on``: its station, or its count on the gate, is not known), and beside a
    planet's board (``beside``: its reservations are not known). Something not clear on a
    board leaves the reservations beside it read, and beside it, its station; near the
    board's edge (``EDGE``), neither. Not so for black: one black piece not clear is black
    that does not show plainly there, on a board or on a tile beside it (dev table 9650: a
    black and a green probe beside a board on a dark table not seen at all; the board's
    black not clear was all that left its reservations out). Dev and bench tables 7300-7329,
    8000-8279, 8400-8429, 8500-8559 and 9600-9659, photos with no hand: stations read right
    4336 -> 4361 and reservations 4175 -> 4230 of 4872, none more wrong (the same 4 wrong
    before and after)."""

    on: set[tuple[str, str]]
    beside: set[tuple[str, str]] = field(default_factory=set)

    def add(self, place: str, player: str, on: bool = True, beside: bool = True) -> None:
        """``player`` not clear at ``place``: on it, beside it (a planet), or both."""
        if place == GATE or on or player == "black":
            self.on.add((place, player))
        if place != GATE and (beside or player == "black"):
            self.beside.add((place, player))

    def where(self, ring: Ring, look: Look, place: str, player: str,
              point: tuple[float, float]) -> None:
        """``add``, on or beside a planet's board as ``point`` lies (or both: ``EDGE``)."""
        if place == GATE:
            self.add(place, player)
            return
        inside = ring.inside(place, point)
        reach = EDGE * look.radius(ring, point)
        self.add(place, player, on=inside > -reach, beside=inside < reach)


def _plain_black_chip(patch: Patch, count: int, stacked: int, beyond: float) -> bool:
    """Whether a black patch on a gate its ship was hardly darker than
    (``PieceColour.hardly_darker``) is plainly one chip: one disc, no stack, round
    (``ROUND``), nothing beyond its disc (``NOTHING_BEYOND``). There black shows grey rather
    than darker (``patches._turned_grey``), and so may a chip's shadow or a clump of chips:
    black is counted there from such chips alone, and where none is seen, not at all. Before,
    black was no count on such a gate. Photos with no hand, tables 7300-7329, 8000-8099,
    8140-8179, 8300-8329, 8400-8429, 9100-9129, 11000-11059, 11090-11149 straight down and
    7300-7329, 8500-8529, 9700-9729, 9760-9789, 9800-9829, 11060-11089, 11150-11209 at
    15-30 degrees: gate counts read right 2310 -> 2341 of 2914, ships 2566 -> 2568, stations
    6141 -> 6142 and reservations 5864 -> 5867 of 6712; the same reads wrong, hands included.
    Counting every black patch there, bench table 7322 read a loose stack of three as two,
    table 8152 a chip and its shadow as two, 9713 a chip not seen as none; and with a black
    patch on such a gate taken for the ship however unlike the ships (not held to
    ``PART_SHOWN_ALIKE``), 11135 took three black chips in a clump for the black ship."""
    return count == 1 and not stacked and patch.elongation <= ROUND and beyond <= NOTHING_BEYOND


def _loose_stack(bgr: np.ndarray, patch: Patch, radius: float, count: int) -> int:
    """How many chips a patch on the gate with much beyond its discs (``BEYOND_DISCS``), or
    chips touching with a little beyond them (``TOUCHING_BEYOND``), holds where one lies
    half on another: as many as the circles in its edges, where those are one more than its
    discs and it is as thick as a chip (``CHIP_THICK``); else 0. Dev tables 8000-8069 and
    8140-8279, a colour's one patch on the gate so: 22 of 22 held as many chips as circles
    (two chips showing one disc's worth, three showing two); where the circles were as many
    as the discs, 5 of 8 held more. Chips touching, bench tables 7300-7329, 8400-8429 and
    9230-9259: of 15 patches with a little beyond their discs, the 4 with a circle more held
    that many; of the 11 with as many circles as discs, 3 held a chip more, so they stay
    not clear. Counted so, bench tables from 7300, 7500, 7800, 8400, 9100, 9130, 9200, 9230
    and 9260 (30 each) read 16 gate counts more right, none more wrong, hands included."""
    if thickness(patch) < CHIP_THICK * radius:
        return 0
    shown = circles(bgr, patch, radius)
    return shown if shown == count + 1 else 0


def _circles_disagree(bgr: np.ndarray, patch: Patch, radius: float, count: int) -> bool:
    """Whether the circles in a patch's edges tell another count than the discs laid in
    it: more circles (a chip on another), or, in a row of three discs or more, fewer (the
    discs laid by a radius a little short at a slant: three black chips in a row on table
    9709 at 20 degrees, 3.0 chips' area, were 4 discs and 3 circles)."""
    shown = circles(bgr, patch, radius)
    return shown > count or (count >= FEWER_CIRCLES_FROM and shown < count)


COVERED = 0.95
"""Chips touching on the gate with a little beyond their discs (``TOUCHING_BEYOND``) are
counted all the same where that many discs, fitted, cover them this well ..."""
NO_MORE = 0.01
"""... and one disc more covers them better by at most this much: a chip half hidden under
them shows as a bump no disc of theirs covers (``discs_cover``) ..."""
FIT_MOST = 6
"""... for at most this many discs (a fit of more costs too much of a frame). Fitted so, on
dev tables 8000-8059, 8300-8359 and 9700-9759, such patches (a colour's only one on the
gate) holding a chip more or fewer than their discs (a chip hidden under the others)
covered at most 0.94, and at most 0.91 where one disc more added at most 0.01; those
holding as many, up to 0.99. Photos with no hand, gate counts read right: bench tables
7300-7329 101 -> 102 of 119; dev tables 8000-8059, 8300-8359 and 8400-8459 722 -> 729 of
857; at 15-30 degrees, 9700-9759 and 8500-8559 374 -> 383 of 557; the same reads wrong,
hands included."""


def _just_discs(ring: Ring, look: Look, patch: Patch, radius: float, count: int) -> bool:
    """Whether ``count`` discs explain the patch on the gate and one more would not
    (``COVERED``, ``NO_MORE``, ``FIT_MOST``). Only for its colour's one patch on the gate:
    where it has another, that may be a part of its ship, or of a chip (table 9723 at 25
    degrees, a hand over the ring: two black chips fitted so, and a piece of black beside
    them, read as three)."""
    if count > FIT_MOST or any(
            other is not patch and other.player == patch.player
            and ring.place(other.centre, beside=True) == GATE for other in look.patches):
        return False
    covered = discs_cover(patch, radius, count)
    return covered >= COVERED and discs_cover(patch, radius, count + 1) - covered <= NO_MORE


def _peeping(patch: Patch, radius: float, count: int) -> bool:
    """Whether a patch of one chip's worth is longer than one chip looks: another lies
    under it and peeps out."""
    return count == 1 and patch.area >= WHOLE_CHIP * math.pi * radius ** 2 and \
        patch.elongation > ONE_CHIP_LONGEST


def _chips_alone(ring: Ring, look: Look, patch: Patch,
                 laid: tuple[int, float] | None = None) -> bool:
    """Whether a patch is plainly chips and nothing else: as thick as a chip
    (``CHIP_THICK``), and little of it beyond the chips' discs laid in it; a piece of a ship
    half hidden is thinner, or reaches beyond them. ``laid``: its ``discs``, where the
    caller has them."""
    radius = look.radius(ring, patch.centre)
    return (not _something_else(ring, look, patch) and thickness(patch) >= CHIP_THICK * radius
            and (laid or discs(patch, radius))[1] <= BEYOND_DISCS)


def _over_chips(ring: Ring, look: Look, patch: Patch) -> bool:
    """Whether a patch covers more than its chips would (``AREA_PER_CHIP``, the most, for
    each disc laid in it): what shows of a ship half hidden (a black one half over a dark
    board, half over its planet's art) can be as thick as a chip and lie within a disc, yet
    cover a chip's worth and more (table 9818: 1.21 chips for its one disc, taken for a
    black station). Asked only of a ship not placed: tables 7500-7529 read 3 stations of
    304 fewer right, 9800-9829 one reservation of 320; dev tables 8000-8069 and 8140-8209,
    7300-7329 and 9860-9889 the same as before."""
    radius = look.radius(ring, patch.centre)
    count, _ = discs(patch, radius)
    return patch.area > AREA_PER_CHIP[1] * max(count, 1) * math.pi * radius ** 2


def _plain_chips(bgr: np.ndarray, ring: Ring, look: Look, patch: Patch) -> bool:
    """Whether a patch on the gate is chips and no piece of a ship run into them: plainly
    chips (``_chips_alone``), and either one chip lying alone (one disc's worth, round as one
    chip, no larger than one, touching nothing) or chips with nothing beyond their discs
    (``TOUCHING_BEYOND``), as many circles in their edges as discs (a ship's piece, taken
    for a disc, shows no chip's circle), a chip's area for each (``PLAIN_CHIPS_FILL``) and,
    two discs, not more of a ship's shape than of two chips' (``_more_ship_than_chips``)."""
    radius = look.radius(ring, patch.centre)
    count, beyond = laid = discs(patch, radius)
    if not _chips_alone(ring, look, patch, laid):
        return False
    alone = (count == 1 and not touches(patch, look.patches)
             and patch.elongation <= ONE_CHIP_LONGEST
             and patch.area <= AREA_PER_CHIP[1] * math.pi * radius ** 2)
    return alone or (beyond <= TOUCHING_BEYOND
                     and patch.area >= PLAIN_CHIPS_FILL * count * math.pi * radius ** 2
                     and circles(bgr, patch, radius) == count
                     and not (count == 2 and _more_ship_than_chips(ring, patch)))


def _more_circles(bgr: np.ndarray, ring: Ring, look: Look, patch: Patch) -> bool:
    """Whether a patch's edges show more chips' circles than the discs laid in it: what
    shows of a ship over a planet's art of its own hue, its nose over the board, is as
    round and thick as a chip, yet its edges show three circles (table 9758 at 25
    degrees: red's nose on Ruby Red read as a red station). Asked only of a ship not
    placed: tables 8000-8069 straight down and 9700-9809 at 15-30 degrees, that station read
    wrong no more, nothing right lost."""
    radius = look.radius(ring, patch.centre)
    return circles(bgr, patch, radius) > discs(patch, radius)[0]


def _more_ship_than_chips(ring: Ring, patch: Patch) -> bool:
    """Whether a patch's silhouette is more like the ships' than like two chips side by
    side: a ship run into a chip, whose discs and circles count two (table 9778 at 25
    degrees: 0.80 like the ships, 0.71 like two chips, its blue counted 2 for 1). Of the
    patches of two discs on the gate of tables 8000-8039 straight down and 9700-9809 at
    15-30 degrees, 5 of 138 that were chips alone were so, and 24 of 39 where that colour's
    ship stood on the gate. (A row of three chips is like neither.)"""
    alike = _silhouette_alike(ring, patch)
    return alike is not None and alike[0] > alike[1]


def _something_else(ring: Ring, look: Look, patch: Patch) -> bool:
    """Whether a patch is no chips, nor a ship: thicker or more ragged than chips (a hand as
    red as skin is, a shadow's edge, art under changed light), unless it is a bent row of
    chips (``_row_of_chips``)."""
    radius = look.radius(ring, patch.centre)
    if thickness(patch) > THICKEST * radius:
        return True
    return patch.solidity < HEAP and not _row_of_chips(patch, radius)


ROW_FILL = 0.95
"""A patch less solid than chips mostly are (``HEAP``) is still chips where the discs laid in
it leave nothing beyond them (``NOTHING_BEYOND``) and it fills at least this share of what
its discs, drawn alone, fill of their hull: four chips touching in a curve along the gate's
rings fill 0.70-0.74 of their hull, and were taken for something else, their colour's count
on the gate left out. Seventeen blocks of bench tables, such patches of three discs or more:
0.97 to 1.34 of their discs' fill (44), and 0.62 to 0.88 (5, each black: chips with their
shadows, the gate's dark art); gate counts read right 1828 -> 1852 of 2405, none wrong."""


def _row_of_chips(patch: Patch, radius: float) -> bool:
    """Whether ``patch`` is three chips or more of ``radius`` and nothing else, however they
    lie (``ROW_FILL``)."""
    middles, beyond = laid_discs(patch, radius)
    if len(middles) < 3 or beyond > NOTHING_BEYOND:
        return False
    around = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    rims = np.array([(x + radius * math.cos(t), y + radius * math.sin(t))
                     for x, y in middles for t in around], np.float32)
    hull = cv2.contourArea(cv2.convexHull(rims))
    margin = int(radius) + 1  # a disc's edge reaches past the patch's box
    drawn = np.zeros((patch.box[3] + 2 * margin, patch.box[2] + 2 * margin), np.uint8)
    for x, y in middles:
        cv2.circle(drawn, (x + margin, y + margin), int(round(radius)), 1, -1)
    return patch.solidity >= ROW_FILL * float(drawn.sum()) / max(1.0, hull)


def _ship(bgr: np.ndarray, ring: Ring, patches: list[Patch], player: str, look: Look
          ) -> Patch | None:
    """The player's patch most like a ship: of a ship's size (black's smaller where it
    stands out whole), longer than wide, narrower than a chip and not much shorter (when
    chips were measured), of the ships' silhouette and not of two chips', nearest a ship's
    size. When another of the player's patches of a ship's size has a silhouette more like
    the ships' (a ship touching a chip fails a measure that two chips half seen pass), the
    one far more alike than every other (``FAR_MORE_ALIKE``); None when none is such, as when
    none is like a ship: which is the ship is not clear."""
    def ship_sized(patch: Patch) -> bool:
        size = patch.area / ship_px_at(ring, patch.centre)
        if player == "black" and BLACK_SMALLEST <= size < SHIP_SIZES[0]:
            return _stands_out(bgr, patch)
        return SHIP_SIZES[0] <= size <= (BLACK_LARGEST if player == "black" else SHIP_SIZES[1])
    sized = [p for p in patches if p.player == player and ship_sized(p)]
    likeness_of = {id(p): _ship_likeness(ring, p) for p in sized}

    def like_ship(patch: Patch) -> bool:
        longer = SHORT_ALIKE[1] if player != "black" \
            and likeness_of[id(patch)] >= SHORT_ALIKE[0] else LONGER
        if not (patch.elongation >= longer and patch.solidity >= SHIP_FILLS
                and likeness_of[id(patch)] >= LESS_ALIKE):
            return False
        chip = look.radius(ring, patch.centre)
        if not look.measured:
            return likeness_of[id(patch)] >= SHIP_LIKENESS
        length = patch.length / (2 * chip)
        if likeness_of[id(patch)] < SHIP_LIKENESS:
            if player == "black":  # a shadow is as black, and as long
                return False
            longest, thickest, whole, inward = LESS_ALIKE_BOUNDS
            place = ring.place(patch.centre, beside=False, reach=SHIP_OVER)
            others = _others_ships(ring, look, player)
            ships = {id(other) for other in others}
            if touches(patch, others):  # half under another's ship, its tip or tail hidden
                whole = UNDER_ANOTHER_SHIP
            return length >= longest and thickness(patch) <= thickest * chip and \
                patch.area >= whole * ship_px_at(ring, patch.centre) and \
                not touches(patch, [p for p in look.patches if id(p) not in ships]) and \
                place is not None and ring.inside(place, patch.centre) >= inward * chip
        thickest = PLAIN_SHIP_THICKEST if likeness_of[id(patch)] >= PLAINLY_SHIP else NARROWER
        return thickness(patch) <= thickest * chip and length >= SHORTEST_SHIP
    alike = list(filter(like_ship, sized))
    ship = min(alike, key=lambda p: abs(math.log(p.area / ship_px_at(ring, p.centre))),
               default=None)
    if ship is not None and ring.ship_shape is not None and \
            any(likeness_of[id(p)] > likeness_of[id(ship)] for p in sized):
        # nearer a ship's size, yet less alike than another: the far more alike one, if any
        best = max(alike, key=lambda p: likeness_of[id(p)])
        runner_up = max((likeness_of[id(p)] for p in sized if p is not best), default=0.0)
        return best if likeness_of[id(best)] >= runner_up + FAR_MORE_ALIKE else None
    return ship


CHIP_DEEP = 0.85
"""Where a patch on the gate is at least this many chips' radii thick, a chip lies: a ship is
thinner (what was left of the ships run into their chips, below: 0.43 to 0.83) ..."""
CHIP_CUT = 1.1
"""... and a chip's disc taken out of the patch reaches this many radii (its blurred rim)."""
AMONG_CHIPS_ALIKE = 0.78
AMONG_CHIPS_LONGER = 1.6
"""What is left of a patch on the gate, its chips taken out, is its colour's ship when it is
of a ship's size and shape: at least this like the ships' silhouette, and this much longer
than wide. Bench tables from 7300, 7500, 8000, 8030, 8400, 9100, 11000, 11030, 11090 and
11120 straight down and from 9700, 9730, 9760, 9800, 11060, 11150 and 11180 at 15-30
degrees, ships no other way found: of the parts left so, 0.79 to 0.88 alike where the ship
stood on the gate (13), 0.75 at the most where it did not (a loose stack's sliver beside
the chips, under a hand). Then held-out tables from 11210, 11240 and 11270 straight down,
11300, 11330 and 11360 at a slant: 5 ships found so, each where it stood, and one chip of
two on a tilted gate, too thin for a disc, left whole beside a sliver, 0.81 alike: 1.53
times longer than wide, where the ships left were 1.64 to 2.92."""


def _ship_among_chips(ring: Ring, look: Look, player: str) -> tuple[Patch, Patch] | None:
    """A coloured ship on the gate run into its own chips, found as what is left of its
    patch with the chips taken out (``_without_chips``), and that patch; None where no such
    part, or two, is plainly a ship (``AMONG_CHIPS_ALIKE``). Black is not sought so: a
    shadow run into black chips is as dark as they."""
    if player == "black" or ring.ship_shape is None or not look.measured:
        return None
    found = []
    for patch in look.patches:
        if patch.player != player or ring.place(patch.centre) != GATE \
                or patch.area <= SHIP_SIZES[0] * ship_px_at(ring, patch.centre):
            continue
        radius = look.radius(ring, patch.centre)
        rest = _without_chips(patch, radius)
        if rest is None:
            continue
        left, top = patch.box[0] - 1, patch.box[1] - 1  # ``rest`` has a pixel's border

        def table_shape(at: tuple[float, float], x: int = left, y: int = top
                        ) -> np.ndarray | None:
            return ring.table_shape((at[0] + x, at[1] + y))  # ``at`` is in ``rest``
        for part in patches_of(player, rest, ship_px_at(ring, patch.centre), table_shape):
            x, y, width, height = part.box
            part = replace(part, box=(x + left, y + top, width, height),
                           centre=(part.centre[0] + left, part.centre[1] + top))
            size = part.area / ship_px_at(ring, part.centre)
            if SHIP_SIZES[0] <= size <= SHIP_SIZES[1] and part.elongation >= AMONG_CHIPS_LONGER \
                    and thickness(part) <= NARROWER * radius \
                    and _ship_likeness(ring, part) >= AMONG_CHIPS_ALIKE:
                found.append((part, patch))
    return found[0] if len(found) == 1 else None


def _without_chips(patch: Patch, radius: float) -> np.ndarray | None:
    """``patch``'s mask, with a pixel's border, less a disc (``CHIP_CUT``) wherever a chip
    lies in it (``CHIP_DEEP``); None where none does."""
    middles, _ = laid_discs(patch, radius, CHIP_DEEP)
    if not middles:
        return None
    rest = cv2.copyMakeBorder(patch.mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    for x, y in middles:
        cv2.circle(rest, (x + 1, y + 1), int(round(CHIP_CUT * radius)), 0, -1)
    return rest


def _others_ships(ring: Ring, look: Look, player: str) -> list[Patch]:
    """The other players' patches of a ship's size and shape: as alike as a ship less alike
    may be (``LESS_ALIKE``; black's, as a ship placed surely), longer than wide. Two ships
    on one planet touch, each hiding a little of the other."""
    return [patch for patch in look.patches if patch.player != player
            and SHIP_SIZES[0] <= patch.area / ship_px_at(ring, patch.centre) <= SHIP_SIZES[1]
            and patch.elongation >= LONGER and _ship_likeness(ring, patch) >= (
                SHIP_LIKENESS if patch.player == "black" else LESS_ALIKE)]


def _stands_out(bgr: np.ndarray, patch: Patch) -> bool:
    """Whether at most ``DARK_BESIDE`` of the ring just round ``patch`` in ``bgr`` is nearly
    as dark as its middle lightness (``NEARLY_AS_DARK``)."""
    (left, top, width, height), mask, around = _boxed(patch, bgr.shape[:2])
    lightness = cv2.cvtColor(bgr[top:top + height, left:left + width],
                             cv2.COLOR_BGR2LAB)[..., 0]
    own = float(np.median(lightness[mask.astype(bool)]))
    ring = around.astype(bool)
    return bool(ring.any()) and \
        float((lightness[ring] <= NEARLY_AS_DARK * own).mean()) <= DARK_BESIDE


def _boxed(patch: Patch, shape: tuple[int, ...]
           ) -> tuple[tuple[int, int, int, int], np.ndarray, np.ndarray]:
    """``patch`` in a box a little larger than it, within a picture of ``shape``: the box
    (left, top, width, height), its mask there, and the pixels just around it (0/1 each)."""
    x, y, w, h = patch.box
    pad = 3
    left, top = max(0, x - pad), max(0, y - pad)
    right, bottom = min(shape[1], x + w + pad), min(shape[0], y + h + pad)
    mask = np.zeros((bottom - top, right - left), np.uint8)
    mask[y - top:y - top + h, x - left:x - left + w] = patch.mask
    around = cv2.dilate(mask, np.ones((5, 5), np.uint8)) - mask
    return (left, top, right - left, bottom - top), mask, around


def _black_glimpse(ring: Ring, look: Look) -> str | None:
    """The one place where a part of black's ship, not seen whole, shows (half over a board
    as dark as it: ``GLIMPSE_LARGEST``); None where no patch or more than one is such a
    part."""
    places = set()
    for patch in look.patches:
        if patch.player != "black":
            continue
        chip = look.radius(ring, patch.centre)
        if patch.area > GLIMPSE_LARGEST * ship_px_at(ring, patch.centre) \
                or patch.elongation <= ROUND or thickness(patch) >= CHIP_THICK * chip \
                or _ship_likeness(ring, patch) < SHIP_LIKENESS or not _cut_short(ring, look, patch):
            continue
        place = ring.place(patch.centre, beside=False, reach=SHIP_OVER)
        if place is not None:
            places.add(place)
    return places.pop() if len(places) == 1 else None


def _edge(ring: Ring, look: Look, patch: Patch
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Black ``patch`` in a box a little larger than it: its mask, the pixels just around it,
    the ground there where black does not show (``black_hidden``), and where another piece
    lies (0/1 each)."""
    box, mask, around = _boxed(patch, look.owner.shape)
    left, top, width, height = box
    own = next(n for n, other in enumerate(look.patches) if other is patch) + 1
    others = look.owner[top:top + height, left:left + width]
    dark = black_hidden(look, ring, box)
    return mask, around, dark, ((others > 0) & (others != own)).astype(np.uint8)


def _shown_in_part(ring: Ring, look: Look, patch: Patch) -> bool:
    """Whether black ``patch`` runs along ground where black does not show for
    ``SHOWN_IN_PART`` of its edge or more."""
    _, around, dark, _ = _edge(ring, look, patch)
    length = float(around.sum())
    return bool(length) and float((around & dark).sum()) >= SHOWN_IN_PART * length


def _cut_short(ring: Ring, look: Look, patch: Patch) -> bool:
    """Whether black ``patch`` is cut short by ground where black does not show, or by
    another piece (``GLIMPSE_HIDDEN``), and its outline elsewhere is no chip's arc
    (``NO_ARC``)."""
    mask, around, dark, others = _edge(ring, look, patch)
    hidden = dark | others  # where it may go on: ground black does not show on, or under a piece
    length = float(around.sum())
    if not length:
        return False
    share = float((around & hidden).sum()) / length
    if float((around & dark).sum()) < DARK_AROUND * length \
            or not GLIMPSE_HIDDEN[0] <= share <= GLIMPSE_HIDDEN[1]:
        return False
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    points = max(outlines, key=len)[:, 0, :]
    near_hidden = cv2.dilate(hidden, np.ones((5, 5), np.uint8))
    shown = points[near_hidden[points[:, 1], points[:, 0]] == 0].astype(np.float64)
    if len(shown) < 6:
        return False
    return _off_circle(shown) > NO_ARC * look.radius(ring, patch.centre)


def _off_circle(points: np.ndarray) -> float:
    """How far ``points`` (x, y) lie on average from the circle that best fits them
    (pixels; a least-squares fit)."""
    terms = np.column_stack([2 * points, np.ones(len(points))])
    (cx, cy, c), *_ = np.linalg.lstsq(terms, (points ** 2).sum(axis=1), rcond=None)
    radius = math.sqrt(max(c + cx * cx + cy * cy, 0.0))
    return float(np.sqrt(((np.hypot(points[:, 0] - cx, points[:, 1] - cy) - radius) ** 2)
                         .mean()))


def _ship_likeness(ring: Ring, patch: Patch) -> float:
    """How like the ships' silhouette at calibration ``patch``'s is: 0 where it is like two
    chips side by side or has no shape; 1 where the ring kept no silhouette."""
    if ring.ship_shape is None:
        return 1.0
    alike = _silhouette_alike(ring, patch)
    if alike is None or alike[1] >= TWO_CHIPS_LIKENESS:
        return 0.0
    return alike[0]


def _silhouette_alike(ring: Ring, patch: Patch) -> tuple[float, float] | None:
    """How like the ships' silhouette at calibration, and how like two chips side by side,
    ``patch``'s silhouette is; None where the ring kept no silhouette or it has no shape."""
    shape = silhouette(patch.mask) if ring.ship_shape is not None else None
    if shape is None or ring.ship_shape is None:
        return None
    return likeness(shape, ring.ship_shape), like_two_chips(shape)


def _hand_coloured(ring: Ring, look: Look, patch: Patch) -> bool:
    """Whether a patch of a player's colour is a hand of that colour (red as skin is): no
    chips nor a ship, and as large as a hand."""
    chip_area = math.pi * look.radius(ring, patch.centre) ** 2
    return patch.area > HAND * chip_area and _something_else(ring, look, patch)


def _own_ground(ring: Ring, look: Look) -> set[str]:
    """The planets beside whose boards the ground is of a player's colour (``OWN_GROUND``)
    where no piece of that colour shows beside the board: there, it may not show."""
    shown = {(ring.place(p.centre, beside=True), p.player) for p in look.patches
             if ring.place(p.centre) is None and not _something_else(ring, look, p)}
    return {name for name, shares in ring.ground_shares.items()
            if any(share >= OWN_GROUND and (name, player) not in shown
                   for player, share in shares.items())}


def _unexplained(ring: Ring, look: Look, hands: list[Patch], own_ground: set[str],
                 pieces: list[tuple[float, float]]) -> tuple[set[str], set[str], set[str]]:
    """Where something new lies that is no player's colour, or a hand of one (``hands``):
    on the gate or a board (a hand over it, a piece in a shadow too deep to show its colour:
    what is on it is unknown, never empty); and beside a board, where only what lies beside
    it is unknown (a reserved tile whose probe does not show, for each tile carries one: it
    is bare across its middle (``BARE_THICK``); beside boards in ``own_ground`` a little of
    it bare is enough, as a piece near it may leave little of it so; a hand reaching past
    it); and the gate and boards a hand covers (``HAND``, ``FINGERS``)."""
    opened = cv2.morphologyEx(look.unexplained.astype(np.uint8), cv2.MORPH_OPEN,
                              np.ones((5, 5), np.uint8))
    for hand in hands:
        x, y, w, h = hand.box
        opened[y:y + h, x:x + w] |= hand.mask.astype(np.uint8)
    # the pieces of one thing joined (a tile's edge around a probe that does not show)
    side = 2 * int(look.radius(ring, ring.middle)) + 1
    (left, top), joined = closed_around(opened, side)
    if joined.size == 0:  # nothing new (OpenCV's components of no picture end the process)
        return set(), set(), set()
    board_map = ring.board_map(opened.shape)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(joined)
    boards = board_map[top:top + joined.shape[0], left:left + joined.shape[1]]
    names = [GATE] + [name for name, _ in ring.planets]
    on_board: set[str] = set()
    under_hand: set[str] = set()
    beside: set[str] = set()
    for k in range(1, count):
        centre = (float(centres[k][0]) + left, float(centres[k][1]) + top)
        chip_area = math.pi * look.radius(ring, centre) ** 2
        chips = stats[k, cv2.CC_STAT_AREA] / chip_area
        if chips < UNEXPLAINED:
            continue
        x, y, w, h = (int(v) for v in stats[k, :4])
        blob = labels[y:y + h, x:x + w] == k
        on = np.bincount(boards[y:y + h, x:x + w][blob], minlength=len(names) + 1)
        corner = (x + left, y + top)  # the blob's, in the picture
        if chips > HAND:  # a hand: every place it covers, and the tiles beside them
            covered = {names[n - 1] for n in range(1, len(names) + 1)
                       if on[n] >= UNEXPLAINED * chip_area}
            edge = cv2.findContours(blob.astype(np.uint8), cv2.RETR_EXTERNAL,
                                    cv2.CHAIN_APPROX_SIMPLE)[0]
            points = [(float(px + corner[0]), float(py + corner[1])) for outline in edge
                      for px, py in outline[::4, 0]]
            on_board |= covered
            under_hand |= covered
            beside |= {place for place in (ring.place(p, beside=True) for p in points)
                       if place}
        elif on[1:].max() * 2 >= on.sum() and not _over_edge(
                ring, names[int(on[1:].argmax())], blob, corner, on[0], chips,
                look.radius(ring, centre)):  # mostly on the gate or one board
            on_board.add(names[int(on[1:].argmax())])
            if chips >= FINGERS:  # a hand's fingers, its palm off the boards
                under_hand.add(names[int(on[1:].argmax())])
        else:  # beside a board: reserved tiles, each of which carries a probe that shows
            place = ring.place(centre, beside=True)
            radius = look.radius(ring, centre)
            area, thickness = _bare(blob, corner, pieces, radius)
            if place is not None and (area > UNEXPLAINED * chip_area if place in own_ground
                                      else area > chip_area and thickness >= BARE_THICK * radius):
                beside.add(place)
    return on_board, beside | on_board, under_hand


THIN_OPENING = 3
"""Pixels across the opening that keeps a tile's thin rim (``_thin_rims``); what else is
new is opened by 5, which leaves none of a rim 3 or 4 pixels wide."""
RIM_THICK = 0.85
"""Beside a board whose ground is no player's colour, a thin rim (closed, its holes filled,
bare of pieces: ``_bare``) hides a probe where it is larger than a chip and holds a disc of
this many chip radii: a tile's whole rim round a probe that does not show holds 0.88-1.3;
what tiles whose probes show leave of their rims beyond a tile's reach, 0.61-0.73 mostly
(the rims of the tiles of twenty blocks of tables, straight down and at 15-30 degrees)."""


def _thin_rims(ring: Ring, look: Look, own_ground: set[str],
               pieces: list[tuple[float, float]], known: set[str]) -> set[str]:
    """The planets not ``known`` already beside whose boards a reserved tile shows only its
    rim: a probe of the ground's colour on a tile of about its shade (a blue probe on a
    blue-grey tile on a blue table, ``own_ground``) is no change at all, nor is a black probe
    on a dark table, and the tile's edge around it is a rim too thin for the opening that
    clears the rest of what is new. Looked at again, off the boards and the gate, opened
    less: what is new and bare of pieces there (``_bare``), a share of a chip
    (``UNEXPLAINED``) beside boards in ``own_ground``, as thick as a tile (``RIM_THICK``)
    beside the others, leaves the reservations unknown. Beside boards in ``own_ground``
    (looked at first): dev tables 8000-8359 straight down and 9700-9859 at 15-30 degrees:
    reservations read right 2780 -> 2771 of 3176, read wrong 7 -> 6; the bench's tables
    7300-7329 both ways and held-out tables 12000-12159: 1574 -> 1570 of 1816, read wrong
    6 -> 2 (blue probes on blue tables, under a hand too). Those left wrong were black probes
    on tiles on dark tables, which hardly change the picture at all; so beside the others
    too: twenty blocks of tables with no hand (as in ``_plain_black_chip``), reservations
    read right 5859 -> 5857 of 6712, read wrong 8 -> 3 (held-out tables 13000-13139: not one
    read changed)."""
    opened = cv2.morphologyEx(look.unexplained.astype(np.uint8), cv2.MORPH_OPEN,
                              np.ones((THIN_OPENING, THIN_OPENING), np.uint8))
    opened[ring.board_map(opened.shape) > 0] = 0
    side = 2 * int(look.radius(ring, ring.middle)) + 1
    (left, top), joined = closed_around(opened, side)
    if joined.size == 0:
        return set()
    count, labels, stats, centres = cv2.connectedComponentsWithStats(joined)
    found: set[str] = set()
    for k in range(1, count):
        centre = (float(centres[k][0]) + left, float(centres[k][1]) + top)
        place = ring.place(centre, beside=True)
        if place is None or place in known or place in found:
            continue
        radius = look.radius(ring, centre)
        chip_area = math.pi * radius ** 2
        if stats[k, cv2.CC_STAT_AREA] < UNEXPLAINED * chip_area or \
                stats[k, cv2.CC_STAT_AREA] > HAND * chip_area:
            continue
        x, y, w, h = (int(v) for v in stats[k, :4])
        area, thick = _bare(labels[y:y + h, x:x + w] == k, (x + left, y + top), pieces, radius)
        if (area > UNEXPLAINED * chip_area if place in own_ground
                else area > chip_area and thick >= RIM_THICK * radius):
            found.add(place)
    return found


def _over_edge(ring: Ring, place: str, blob: np.ndarray, corner: tuple[int, int], off: int,
               chips: float, radius: float) -> bool:
    """Whether something new of no colour, mostly on a planet's board (``blob`` at
    ``corner``, ``off`` of its pixels off every board), is a tile beside it reaching over
    its edge: smaller than a chip (``OVER_EDGE``), partly off the board, and nowhere
    further in than ``EDGE`` chip radii."""
    if place == GATE or off == 0 or chips >= OVER_EDGE:
        return False
    ys, xs = np.nonzero(blob)
    outline = np.array(dict(ring.planets)[place], np.float32)
    deepest = max(cv2.pointPolygonTest(outline, (float(x + corner[0]), float(y + corner[1])),
                                       True) for x, y in zip(xs[::3], ys[::3]))
    return deepest < EDGE * radius


def closed_around(mask: np.ndarray, side: int) -> tuple[tuple[int, int], np.ndarray]:
    """``mask`` (0/1) closed with a disc ``side`` pixels across, worked out only in the part
    of the picture around what it holds: that part's corner and the part closed, the same as
    that part of the whole picture closed. What is new on a settled table lies in a fifth of
    the picture or so, and closing all of it was a fifth of a read's time."""
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0:
        return (0, 0), np.zeros((0, 0), np.uint8)
    # a closing grows and then shrinks by half the disc: what lies a disc's width beyond the
    # mask's part is nothing either way
    height, width = mask.shape
    left, top = max(0, x - side), max(0, y - side)
    right, bottom = min(width, x + w + side), min(height, y + h + side)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    return (left, top), cv2.morphologyEx(mask[top:bottom, left:right], cv2.MORPH_CLOSE, disc)


def _bare(blob: np.ndarray, origin: tuple[int, int], pieces: list[tuple[float, float]],
          radius: float) -> tuple[float, float]:
    """The largest piece of ``blob`` (at ``origin``), its holes filled, lying farther than a
    tile's reach from every piece: a tile there carries no probe that shows. Its area and its
    thickness (the radius of the largest disc inside it), in pixels. A tile whose probe does
    not show leaves its whole edge bare, in one piece; a turned tile whose probe shows leaves
    only its corners, each apart (added up, dev tables 8000-8069 and 8140-8279: 35 planets'
    reservations left unknown that were read right so, and bench tables 7500-7529,
    7800-7829, 7900-7929: 7, 9 and 9; none read wrong)."""
    whole = np.zeros(blob.shape, np.uint8)
    outlines = cv2.findContours(blob.astype(np.uint8), cv2.RETR_EXTERNAL,
                                cv2.CHAIN_APPROX_SIMPLE)[0]
    cv2.drawContours(whole, outlines, -1, 1, -1)
    for px, py in pieces:
        cv2.circle(whole, (int(round(px - origin[0])), int(round(py - origin[1]))),
                   int(round(TILE_REACH * radius)), 0, -1)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(whole)
    if count <= 1:
        return 0.0, 0.0
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    piece = cv2.copyMakeBorder((labels == largest).astype(np.uint8), 1, 1, 1, 1,
                               cv2.BORDER_CONSTANT, value=0)
    return float(stats[largest, cv2.CC_STAT_AREA]), \
        float(cv2.distanceTransform(piece, cv2.DIST_L2, 3).max())


def _on_tile(look: Look, patch: Patch, radius: float, found: Patch) -> bool:
    """Whether the chip lies on something laid since the start (a reserved tile, reaching
    over a board's edge) rather than on the board itself: what is around it is new, where
    it is no other piece (a ship standing beside a station). ``found``: the patch found that
    ``patch`` is (or is a part of: ``_black_parts``)."""
    height, width = look.new.shape
    turns = np.linspace(0, 2 * math.pi, AROUND, endpoint=False)
    x = np.clip(patch.centre[0] + TILE_RING * radius * np.cos(turns), 0, width - 1)
    y = np.clip(patch.centre[1] + TILE_RING * radius * np.sin(turns), 0, height - 1)
    owners = look.owner[y.astype(int), x.astype(int)]
    own = next(n for n, other in enumerate(look.patches) if other is found) + 1
    ground = (owners == 0) | (owners == own)
    new = look.new[y.astype(int), x.astype(int)] & ground
    return bool(ground.any()) and float(new.sum() / ground.sum()) >= ON_TILE
