"""Reading cards: their coordinates found, grouped into cards, each coordinate named.

1. The spots of the deck's inks in the image (``spots``): where a coordinate may be.
2. Every two spots that could be one card's two coordinates: of colours a taught code has
   top and bottom, of about the sizes and the distance apart the deck prints them (on a
   calibrated table, at the card's true size).
3. For each such pair, both coordinates' patches cut in the pair's frame (``pose``) and named
   by the taught network: a number, or nothing. A pair that may be a card has its frame moved
   to where its patches look most like coordinates (``_centred``); where one coordinate is
   plain and its partner's spot shows nothing, the partner is looked for around that spot
   (``_sought``).
4. A pair is a card when the two names make a taught code clearly more likely than anything
   else (another code, a code never taught, or nothing at all), each patch is of its spot's
   ink and neither patch shows a ring of another ink round its spot (``_rings``), and the
   cover judge sees neither coordinate partly covered (what a chip leaves of a 3 may be a
   plain 4; where it does, it looks again from frames moved a little). Of pairs that share
   a spot, or claim the same card, the surest is kept.
5. A busy table's pairs are read in two rounds: the likeliest first, then the next ones of
   spots on no card the first round read.
6. A card found partly covered is looked at again in its part of the image stretched four
   ways (a camera's slant undone, ``_second_look``): read where two such views read the code
   it leaned to and none reads or leans to another.

Whatever the card's art, the table or a corner lying under another card, only the two
coordinates need to be seen. Anything not clear is "unsure": a wrong read is worse than none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.rules import Card, MalformedEventError
from vision.cards.features import describe
from vision.cards.model import LABELS, NUMBERS, CardModel
from vision.cards.pose import (PATCH, Pose, Pyramid, on_card_only, patch_affine, sample,
                               sample_affine)
from vision.cards.palette import Palette
from vision.cards.spot_looks import describe_spots
from vision.cards.spots import Spot, extents_along, find_spots
from vision.cards.views import coordinate_matrices

SIZE_SLACK = (0.55, 1.6)
"""How far a spot's extent along the line to its partner may be from what the deck's print
and the two spots' distance apart say it is (a small spot grows with blur, a badge with a
halo of its ink around it; a thin number blurred at 17 px is found a little short of its
print, 0.63 of it: another generator's corner-index decks, 2 more cards read of 511 at 0.55,
none wrongly)."""
PIECE = 0.1
"""The smaller of the two spots may be as small as this (a piece of its coordinate)."""
MERGED = 2.5
MERGED_BESIDE = 0.5
"""The other of the two may be as large as this (a coordinate run into its panel's rim or
art of its ink) beside a spot of the deck's size the spot judge finds at least this likely
a coordinate's."""
MAX_PAIRS = 240
"""Pairs read in an image's first round at the most (a busy table's spots pair up by the
thousand). A card seen at 35-40 degrees, its number cut from its bar, shows a spot the spot
judge finds only 0.03 likely a coordinate's, and its pair ranks far down (654th of 3555
pairs in another generator's corner style, seed 11, scene 24: read in the second round). On
that generator's 32 decks, at 120, 8 cards of 2852 were not found; at 240, 6, and 3 more
read, none wrongly; a busy photo with no calibrated table reads in about 11 ms more (72
rather than 61 s for their 990 scenes)."""
PAIRS_LOOKED_AT = 1200
"""Pairs ranked at the most: past ``MAX_PAIRS``, those the second round may read ..."""
MORE_PAIRS = 240
"""... and how many it reads at the most. Where more pairs than ``MAX_PAIRS`` are found, a
second round reads those ranked next, down to rank ``PAIRS_LOOKED_AT``, leaving out any pair
of a spot on a card the first round read (its art, its coordinates' pieces: most of a busy
table's likeliest pairs).
On a wood table of another generator's corner style (seed 10188, scene 19), a clear B4/O1 at
29 px, its 4 and its bar found apart, the spot judge finding them 0.18 and 0.45 likely
coordinates', ranked 293rd of 1773 pairs. On that generator's 32 decks, 3 more cards read
of 2852 (2840 -> 2843), none wrongly; their 990 scenes read in 72 rather than 68 s."""
SPOT_KEEP = 0.02
"""A spot the spot judge gives less than this chance of being a coordinate's is not paired."""
SURE = 0.88
"""A card is read when its code is at least this likely (another generator's six decks: of
1810 cards read right, one was read at less, 0.774 as B1/G2 where a B3/G2 lay, 17 px,
blurred past reading). At 0.85, two wrong reads on the own decks' tables 540-599 (plain and
chipped): B1/G4 at 0.864 where B3/G4 lay under a blue chip, G3/O2 at 0.878 paired from two
cards lying one on the other; of the 1967 read right there, 6 were at 0.85-0.88, and of
cardgen seed 4242's 303 read right in three styles, none below 0.9. On the bench's tables
300-339 the parchment deck read 2 cards of 141 fewer, the full-bleed 1 of 137."""
COULD_BE = SURE / 2
"""A pair not read whose likeliest code is at least this likely says which codes it could be,
and is looked at again (``_second_look``)."""
MARGIN = 6.0
"""... and this many times likelier than any other taught code."""
BOTH_JOKERS_SURE = 0.98
"""A code of two jokers ("B?/O?") is read only when at least this likely: no digit anchors it,
and another game's card with two strange signs in coloured discs looks like one (7/7 in discs
were read as two jokers at 0.86, 0.952 and 0.964; of 112 double jokers read right on another
generator's six decks, one was read at less, 0.959)."""
UNTAUGHT = "untaught"
"""In ``code_scores``: numbers that are no taught code of the pair's colours."""
LOOKS_LIKE_CARD = 0.5
"""A pair not read but at least this likely to be a card's two coordinates is reported as
a card the reader is unsure of."""
PROMISING = 0.2
"""A pair whose likeliest code is at least this likely is read again (``WOBBLE``)."""
WOBBLE = 0.06
"""How far a read's frame is moved to check it holds (a part of a coordinate's patch)."""
ZOOM_WOBBLE = 0.06
SHIFTS = 4
"""``_wobbled``'s first cuts: the frame moved across and along, each way."""
TWIN = 0.25
"""Two pairs of one card's colours whose two ends each lie this near (a part of a
coordinate's patch side), and whose frames as cut show the same two numbers, are twins: one
card's coordinates found twice (a number, and the number with the bar under it, say). Only
the likelier is read again around its frame (``_centred``, ``_steady``): the other's frame is
its own moved a little, and is read again only where the likelier is not read after all.
Reading twins again was most of a busy card's time (the fullbleed deck: of 9.5 pairs read
again per card, 1.2 were no twins)."""
TWIN_REASON = "its coordinates are read from the pair beside it"
SOUGHT = (-0.45, -0.3, -0.15, 0.0, 0.15, 0.3, 0.45)
SOUGHT_FINER = (-0.05, 0.0, 0.05)
"""Where ``_sought`` looks for a coordinate's other end: moved along and across the frame by
these parts of the two coordinates' distance apart; then around the best of those by the
finer steps. (A spot of the card's art a little off the way to the partner makes a frame up
to 25 degrees askew: its plain end still reads, its partner lies 0.4 across.)"""
PLAIN = 0.9
"""A patch shows its number plainly when its chance is at least this."""
BLANK = 0.5
"""A patch shows no coordinate when its chance of "nothing" is at least this."""
SOUGHT_SURE = 0.95
"""A pair ``_sought`` moved is read when its code is at least this likely."""
MOST_SOUGHT = 8
"""Plain spots whose partner ``_sought`` looks for, in one image at the most."""
CENTRED = 0.05
"""A frame moved shows its two coordinates this much more plainly (its chances of "nothing",
summed) than as the spots placed it, or it is not moved."""
TURNS = (-0.5, 0.5)
"""Turns (radians, about 30 degrees) a read's patches are checked at (``_steady``)."""
TURN_MARGIN = 0.1
"""A patch turned so that shows its number this much more plainly than as cut is askew."""
COVERED = 0.4
"""A card read is unsure when the cover judge finds either coordinate this likely partly
covered (own full-bleed deck, an orange 2 half under another card's pale face: read as 1,
the judge finding it 0.57 likely covered; a blue 2 half under it, read as a "?", 0.48. Of
the 682 cards read from their own areas on the own decks' tables, none was judged 0.5 to 0.7
likely covered; those tables read as many cards at 0.5 as at 0.7, and as at 0.4; another
generator's eighteen decks read as many cards at 0.4 as at 0.5, one fewer at 0.35) ..."""
SOUGHT_COVERED = 0.05
PIECE_COVERED = 0.25
"""... and at least this likely where the frame lies on what a cover may have left of a
coordinate: an end ``_sought`` placed (the number's own spot cut by a card's edge, a spot
beside what is left of it found instead), or a spot that is a piece of its coordinate's print
(shorter than ``SIZE_SLACK`` allows a whole one). The own decks' teaching photos under another
card's edge, taught at three seeds: a half-hidden 3 read as a 1 (reference, parchment), a 3
as a 4 (full-bleed) from such frames, the judge finding them 0.08 to 0.34 likely covered, a
green 1 read as blue from a frame sought, 0.14; 11 -> 5 of 8640 views read wrongly. The
cards read right from a frame sought on the own decks' tables and another generator's fifteen
decks were judged 0.015 likely covered at the most (one, 0.39, is read from another frame);
both read the same cards as before, none wrongly. Such a card leans to no code: what it
leant to was read from what the cover left (and a second look read the full-bleed deck's
G3/O3 so as G3/O4)."""
PARTLY_COVERED = "a coordinate is partly covered"
"""... and says so."""
COVER_MOVED = 0.03
"""A coordinate the cover judge finds partly covered only in its frame as read, and whole in
that frame moved this part of the coordinates' distance apart along or across (each of four
ways), is whole. The judge is fragile to where the frame lies: another generator's hexbadge
style (seed 10189, scene 14), a clear B3/G2 at 43 px seen 38 degrees aslant, was found 0.64
likely covered, and 0.01-0.09 in the frames moved 2.5 px. A card's edge or a chip across a
number is seen from every such frame. On that generator's 32 decks, 2 more cards read of
2852 (2843 -> 2845), none wrongly; the own decks' card-edge views, taught at three seeds,
read as wrongly as before (12 of 8640, the same views). With the median of the five frames
rather than all four moved ones, one more such view was read wrongly."""
PLAIN_SPOT = 0.75
"""Of two reads of other codes at one card's place whose inks do not tell them apart (both
show their inks plainly, or neither does), the one whose two spots the spot judge finds at
least this likely coordinates' is read, where the other's are not: the other's frame is set
by a piece of a coordinate (the dot beside a number), a coordinate run into art of its ink,
or the card's own colour inside a coordinate's ring, and it cuts its number off its middle
or names the wrong ink. (Our own decks, dev tables: of 9 such pairs of reads, the right
one's weaker spot was 0.78-1.00 likely, the other's 0.04-0.60.)"""
SAME_CARD = 0.4
"""Two reads whose cards overlap by more than this part of the smaller are one card."""
SLANTS = (0.0, 45.0, 90.0, 135.0)
SLANT_STRETCH = 1.25
"""A card found partly covered is read again (``_second_look``) in its part of the image
stretched this much along each of these directions (degrees, on the image): a camera 35-40
degrees from straight above shortens a card along one way to 0.77-0.82 of its length, and
the reader's frame, set by the two coordinates' distance apart, no longer fits it. Another
generator's decks, three styles, five seeds: 8 of the 15 cards of 16 px or more left unsure
were seen 35-39 degrees aslant, 5 of them found "partly covered" (the card's own edge showing
where its outline, as the frame placed it, said the card went on). Looked at again so, those
15 sets read 5 more cards of 16 px or more (2662 -> 2667 of 2676) and one under 16 px, none
wrongly; the own decks' tables 5 more (parchment 99.49 -> 100 %, full-bleed 97.44 -> 98.30 %,
art over a number's panel judged a cover), their card-edge views as wrongly as before (11 of
8640, the same views)."""
SLANTS_AGREE = 2
"""Views of those that must read the code the card leaned to, surely."""
SLANT_REACH = 0.25
"""The image around the card looked at again: this part of its extent each side."""
SLANT_PLACE = 0.25
"""A read in a stretched view is of the card when its middle lies this near the card's (a
part of its diagonal)."""


@dataclass(frozen=True)
class CardRead:
    card: Card | None
    """None when the reader is unsure."""
    confidence: float
    corners: np.ndarray
    """Image corners (4 x 2) clockwise from the top-left of the card's upright face."""
    reason: str = ""
    """Why the reader is unsure."""
    leaning: str = ""
    """Where it is unsure for how its coordinates look: the taught code it finds likeliest
    ("" where none is, where another frame at its place reads another code, where its frame
    lies on what a cover may have left of a coordinate, ``PIECE_COVERED``: a card's edge
    across a number leaves a piece that one frame reads as another number, and a second
    look, from one frame again, may read that piece; and, in a still photo, where it is found
    two codes alike and partly covered)."""

    @property
    def centre(self) -> tuple[float, float]:
        middle = self.corners.mean(axis=0)
        return (float(middle[0]), float(middle[1]))


def read_cards(bgr: np.ndarray, model: CardModel, card_px: float | None = None,
               second_look: bool = True) -> list[CardRead]:
    """The cards in ``bgr``: those read, and those the reader is unsure of (``card`` None,
    with a reason). ``card_px``: a card's long side in pixels where the cards lie, when the
    table is calibrated. ``second_look``: a card left unsure but leaning to a code (found
    partly covered, two codes alike: ``_doubted``) is looked at again as if seen from straight
    above (``_second_look``); four reads more for each such card."""
    if bgr.ndim != 3 or min(bgr.shape[:2]) < 8:
        return []
    return [_second_look(bgr, model, card_px, read) if second_look and _doubted(read) else read
            for read in _read_once(bgr, model, card_px, doubts=second_look)]


def _read_once(bgr: np.ndarray, model: CardModel, card_px: float | None,
               doubts: bool = False) -> list[CardRead]:
    """``read_cards`` without its second look (``doubts``: the cards it would look at again
    judged for covers, ``_read_pairs``)."""
    distance = None if card_px is None else card_px / model.long_side
    symbol_px = None if distance is None else distance * max(model.spot_sizes)
    pyramid = Pyramid(bgr)
    spots = find_spots(bgr, model.palette, symbol_px, fine=True)
    likely = model.spot_judge.probabilities(describe_spots(pyramid, spots))[:, 0] \
        if spots else np.zeros(0)
    ranked = _pairs(spots, likely, model, distance, PAIRS_LOOKED_AT)
    first = ranked[:MAX_PAIRS]
    if not first:
        return []
    reads = _read_pairs(pyramid, spots, likely, first, model, doubts)
    kept = _kept(reads, first)
    if len(ranked) > MAX_PAIRS:
        # a busy table (wood grain, art of the inks) pairs up by the thousand, and a card
        # whose spots the spot judge doubts ranks far down: the next pairs are read too,
        # but not those of spots on the cards read (their art, their coordinates' pieces)
        cards_read = [r.corners for r in kept if r.card is not None]
        on_read = {k: _on_card(spots[k], cards_read)
                   for k in {k for pair in ranked[MAX_PAIRS:] for k in pair}}
        more = [pair for pair in ranked[MAX_PAIRS:]
                if not (on_read[pair[0]] or on_read[pair[1]])][:MORE_PAIRS]
        if more:
            reads += _read_pairs(pyramid, spots, likely, more, model, doubts)
            kept = _kept(reads, first + more)
    return kept


def _read_pairs(pyramid: Pyramid, spots: list[Spot], likely: np.ndarray,
                pairs: list[tuple[int, int]], model: CardModel, doubts: bool = False
                ) -> list[_Read]:
    """Each pair of spots read as a card's two coordinates (or found unsure). ``doubts``:
    the pairs left unsure that a second look would read again (``_doubted``) are judged for
    covers too, and found covered lean to no code."""
    poses = [Pose.between(spots[i].centre, spots[j].centre) for i, j in pairs]
    colours = [(spots[i].colour, spots[j].colour) for i, j in pairs]
    patches = coordinate_patches(pyramid, poses, model)
    chances = model.classifier.probabilities(describe(patches)).reshape(len(poses), 2, -1)
    reads = [_decided(pose, top, bottom, model, colour)
             for pose, (top, bottom), colour in zip(poses, chances, colours)]
    sought = _sought(pyramid, pairs, poses, reads, model, colours, chances)
    twins = _twins(poses, reads, chances, colours, model)
    left = set(twins)
    for _round in range(2):  # the second only for twins whose first was not read after all
        poses, reads, chances, wobbled = _centred(pyramid, poses, reads, model, colours,
                                                  chances, left)
        reads = _steady(pyramid, poses, reads, model, colours, chances, wobbled, left,
                        sought)
        orphans = {k for k, first in twins.items()
                   if k in left and reads[first].read.card is None}
        if not orphans:
            break
        left, twins = set(range(len(reads))) - orphans, \
            {k: first for k, first in twins.items() if k not in orphans}
    for k, first in twins.items():  # a twin stands aside: its first speaks for both
        reads[k] = reads[k].unsure(reads[first].read.reason or TWIN_REASON)
    for k in sought:
        if reads[k].read.card is not None and reads[k].read.confidence < SOUGHT_SURE:
            reads[k] = reads[k].unsure("a coordinate is not clear enough to read")
    # the inks checked where the frames now lie (``_sought`` and ``_centred`` move some)
    read = [k for k, r in enumerate(reads) if r.read.card is not None]
    patches = coordinate_patches(pyramid, [poses[k] for k in read], model)
    for n, k in enumerate(read):
        reads[k] = _coloured(reads[k], patches[2 * n:2 * n + 2], colours[k], model.palette)
        if reads[k].read.card is not None and _ring_shown(
                patches[2 * n:2 * n + 2], _rings(spots, pairs[k], model.spot_sizes),
                model.palette):
            reads[k] = reads[k].unsure(INK_UNCLEAR)
    # how plainly each frame weighed against another (``_kept``) lies on two coordinates'
    # spots: of the hundred pairs of a busy table, the few likely enough to read or lean
    for k, pair in enumerate(pairs):
        if reads[k].best >= LEANING:
            reads[k] = replace(reads[k], spots_likely=0.0 if k in sought else
                               float(min(likely[list(pair)])))
    reads = _twins_spots(reads, twins, pairs, likely, sought)
    for n, k in enumerate(read):  # whose inks are plain, where a rival code is read
        if _rivals(reads[k], [reads[j] for j in read]):
            reads[k] = replace(reads[k], plain_inks=all(
                patch_ink(patch, model.palette) in (colour, FAINT_INK)
                for patch, colour in zip(patches[2 * n:2 * n + 2], colours[k])))
    # a pair left unsure that leans to a code is looked at again (``read_cards``) only where
    # the cover judge finds it whole
    doubted = [k for k, r in enumerate(reads) if k not in read and _doubted(r.read)] \
        if doubts else []
    judged = read + doubted
    if doubted:
        patches = np.concatenate(
            [patches, coordinate_patches(pyramid, [poses[k] for k in doubted], model)])
    if judged and model.cover_judge is not None:
        covered = _covered_chances(pyramid, [poses[k] for k in judged], patches, model)
        for n, k in enumerate(judged):
            if not (covered[n] >= _cover_limits(spots, pairs[k], k in sought, model)).any():
                continue
            if reads[k].read.card is not None:
                # found covered only under a lower limit, what it leans to was read from
                # what a cover left: no lean (and no second look, which would read that again)
                reads[k] = reads[k].unsure(PARTLY_COVERED, leaning=covered[n].max() >= COVERED)
            else:  # unsure already (two codes alike, an ink not clear), and partly covered
                reads[k] = reads[k].unsure(reads[k].read.reason, leaning=False)
    return reads


def _doubted(read: CardRead) -> bool:
    """Whether ``read`` is looked at again (``_second_look``): unsure, leaning to a code it
    finds at least ``COULD_BE`` likely (found partly covered, two codes alike, an ink not
    clear)."""
    return read.card is None and bool(read.leaning) and read.confidence >= COULD_BE


def _cover_limits(spots: list[Spot], pair: tuple[int, int], sought: bool, model: CardModel
                  ) -> np.ndarray:
    """How likely the cover judge may find each coordinate of a pair read (top, bottom)
    partly covered before the card is unsure: ``COVERED``; less where what the frame lies on
    is what a cover leaves of a coordinate: an end ``_sought`` placed (``SOUGHT_COVERED``),
    or a spot that is a piece of its coordinate's print (``PIECE_COVERED``)."""
    if sought:
        return np.full(2, SOUGHT_COVERED)
    top, bottom = spots[pair[0]], spots[pair[1]]
    apart = math.hypot(bottom.x - top.x, bottom.y - top.y)
    if apart <= 0:
        return np.full(2, COVERED)
    shares = (top.extent_along(bottom.centre) / (model.spot_sizes[0] * apart),
              bottom.extent_along(top.centre) / (model.spot_sizes[1] * apart))
    return np.array([PIECE_COVERED if share < SIZE_SLACK[0] else COVERED
                     for share in shares])


def _second_look(bgr: np.ndarray, model: CardModel, card_px: float | None, read: CardRead
                 ) -> CardRead:
    """``read`` (``_doubted``: found partly covered, or two codes alike, leaning to one) read
    again in its part of the image stretched by ``SLANT_STRETCH`` along each of ``SLANTS``: as
    the card would be seen from straight above were the camera slanted that way. Read as its
    leaning code where at least ``SLANTS_AGREE`` of those views read that code surely and
    none reads or leans to another (or finds two codes at its place); else as it was. A view
    stretched the wrong way shows the card more slanted still, and may find it partly covered
    again.
    Another card's edge across a number (the own decks' card-edge views) is seen in every
    view: one lean to another code or a rival read is enough to leave the card unsure (with
    only a sure read of another code doing so, the full-bleed deck's G3/O3 under an edge,
    leaning to G3/O4, was read as G3/O4 in two views; with one view's sure read enough, the
    starfield deck's G2/O1 as B2/O1). A card found two codes alike is looked at so only where
    the cover judge finds it whole (``_read_pairs``): under another card's edge, the parchment
    deck's G2/O3, leaning to G2/O1, was read as G2/O1. So, another generator's 21 decks (seeds
    10305-10311, three styles) read 2 more cards of 16 px or more (3728 -> 3730 of 3743) and
    the own decks' tables 1 more (full-bleed 346 -> 347 of 352), none wrongly; the card-edge
    views as wrongly as before (5 of 8640, the same views)."""
    corners = read.corners
    reach = SLANT_REACH * float(np.ptp(corners, axis=0).max())
    h, w = bgr.shape[:2]
    x0, y0 = np.maximum(corners.min(axis=0) - reach, 0).astype(int)
    x1, y1 = np.minimum(corners.max(axis=0) + reach, (w, h)).astype(int)
    if min(x1 - x0, y1 - y0) < 8:
        return read
    crop = bgr[y0:y1, x0:x1]
    centre = np.array(read.centre) - (x0, y0)
    near = SLANT_PLACE * float(np.linalg.norm(corners[0] - corners[2]))
    sure: list[CardRead] = []
    for slant in SLANTS:
        way = np.array([math.cos(math.radians(slant)), math.sin(math.radians(slant))])
        stretch = np.eye(2) + (SLANT_STRETCH - 1) * np.outer(way, way)
        size = np.ceil(np.abs(stretch) @ (x1 - x0, y1 - y0)).astype(int)
        matrix = np.hstack([stretch, (size / 2 - stretch @ ((x1 - x0) / 2, (y1 - y0) / 2)
                                      )[:, None]])
        seen = cv2.warpAffine(crop, matrix, (int(size[0]), int(size[1])),
                              flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        back = np.linalg.inv(stretch)
        for again in _read_once(seen, model, card_px):
            if np.linalg.norm(back @ (np.array(again.centre) - matrix[:, 2]) - centre) > near:
                continue  # another card in view
            if (again.card.code if again.card is not None else again.leaning) != read.leaning:
                return read  # another code read or leant to, or two codes at its place
            if again.card is not None:
                sure.append(again)
    if len(sure) < SLANTS_AGREE:
        return read
    return CardRead(sure[0].card, min(r.confidence for r in sure), corners)


def _on_card(spot: Spot, cards: list[np.ndarray]) -> bool:
    """Whether ``spot`` lies on one of the cards (their image corners)."""
    return any(cv2.pointPolygonTest(corners.astype(np.float32).reshape(-1, 1, 2),
                                    (float(spot.x), float(spot.y)), False) >= 0
               for corners in cards)


def _covered_chances(pyramid: Pyramid, poses: list[Pose], patches: np.ndarray,
                     model: CardModel) -> np.ndarray:
    """How likely the cover judge finds each pose's two coordinates (``patches``) partly
    covered, a row a pose. A coordinate found covered is judged again in its frame moved a
    little four ways (``COVER_MOVED``): found whole in all four, it is whole."""
    chances = _judged(pyramid, poses, patches, model)
    doubted = [n for n, pair in enumerate(chances) if pair.max() >= COVERED]
    if not doubted:
        return chances
    moved = [poses[n].moved(along, across) for n in doubted
             for along, across in ((COVER_MOVED, 0.0), (-COVER_MOVED, 0.0),
                                   (0.0, COVER_MOVED), (0.0, -COVER_MOVED))]
    again = _judged(pyramid, moved, coordinate_patches(pyramid, moved, model), model)
    for n, most in zip(doubted, again.reshape(len(doubted), 4, 2).max(axis=1)):
        chances[n] = np.where(chances[n] >= COVERED, most, chances[n])
    return chances


def _judged(pyramid: Pyramid, poses: list[Pose], patches: np.ndarray, model: CardModel
            ) -> np.ndarray:
    """The cover judge's chances for each pose's two coordinates (``patches``), a row a pose,
    each seen with its wider patch where the judge was so taught."""
    wider = _cover_contexts(pyramid, poses, model) if model.cover_context else patches
    return model.covered_chances(patches, wider).reshape(-1, 2)


def _cover_contexts(pyramid: Pyramid, poses: list[Pose], model: CardModel) -> np.ndarray:
    """Each pose's top and bottom wider patches, which the cover judge sees beside their own
    (``cover_context`` times as wide): on the card only, where it was so taught."""
    wider = []
    for pose in poses:
        for matrix in coordinate_matrices(pose, model.layout, model.cover_context):
            patch = sample(pyramid, matrix)
            wider.append(on_card_only(patch, matrix, pose, model.outline)
                         if model.cover_on_card else patch)
    return np.array(wider, np.uint8).reshape(-1, PATCH, PATCH, 3)


RINGED = (0.25, 2.0, (1.15, 1.8))
"""A spot lies inside a ring of another ink when that spot's middle lies within this part of
the ring's size from the ring's middle, the ring holds at least this many times its ink, and
is this many times as wide (a ring round it, not the card's whole sky, nor a coordinate run
into art). Which of the two inks is the coordinate's is then not clear: the card's fill inside
a ring (a navy sky inside a green ring, taken for blue), or a number of one ink inside a badge
of another. Own starfield deck, table 1582 with a chip: the fill inside G4/O3's green ring was
read with the orange 3 as B4/O3 (0.9996), the card's own pair left unsure by its ring's patch
showing more sky than ring. On the own decks' tables 540-599 (plain), one card read before
is left unsure, of the full-bleed deck's 170 (table 591, G?/O3), none of the other three
decks' 625; at 2.5 times as wide, 5 of 215 starfield cards were (a ring run into art, inside
the card's whole sky)."""
RING_SHOWN = 0.1
"""A ring of another ink round a coordinate's spot leaves its colour unclear only where the
coordinate's patch shows that ring: at least this share of the patch's most coloured part
is of the ring's ink (starfield table 1582: 0.44 of the navy sky's patch is the green ring).
A dark halo of the card's sky round a coordinate, found as a larger spot of another ink,
lies outside the patch (cardgen's ring deck, seed 10025: the sky round O2/O2's orange ring
found as a blue spot, 0.00 of the patch blue; its own teach photo was not read back)."""
INK_UNCLEAR = "a coordinate's colour is not clear"


def _rings(spots: list[Spot], pair: tuple[int, int], sizes: tuple[float, float]
           ) -> tuple[set[str], set[str]]:
    """The inks of the larger spots each spot of a pair (top, bottom) lies inside (``RINGED``)
    that could be the coordinate in its place: no larger along the pair's line than the
    deck prints a coordinate (``sizes``, top and bottom, as parts of the two coordinates'
    distance apart) allows (``SIZE_SLACK``). A frame of another ink round a coordinate's
    panel, far larger than any coordinate, leaves the coordinate's own ink plain (own
    full-bleed deck: a lime frame round an orange panel, 2.5 times a coordinate's size,
    left 2 of 137 cards read alone unsure)."""
    reach, larger, wider = RINGED
    top, bottom = spots[pair[0]], spots[pair[1]]
    apart = math.hypot(bottom.x - top.x, bottom.y - top.y)

    def around(own: Spot, partner: Spot, size: float) -> set[str]:
        return {other.colour for other in spots
                if other.colour != own.colour and other.area >= larger * own.area and
                wider[0] * own.size <= other.size <= wider[1] * own.size and
                math.hypot(other.x - own.x, other.y - own.y) <= reach * other.size and
                other.extent_along(partner.centre) <= SIZE_SLACK[1] * size * apart}

    return around(top, bottom, sizes[0]), around(bottom, top, sizes[1])


def _ring_shown(patches: np.ndarray, rings: tuple[set[str], set[str]], palette: Palette
                ) -> bool:
    """Whether either coordinate's patch shows a ring of another ink round its spot
    (``_rings``, top and bottom) as ``RING_SHOWN`` of its most coloured part."""
    return any(ink_share(patch, ink, palette) >= RING_SHOWN
               for patch, inks in zip(patches, rings) for ink in inks)


def _coloured(read: _Read, patches: np.ndarray, colours: tuple[str, str],
              palette: Palette) -> _Read:
    """A card read stays read only when each of its two patches shows its spot's ink
    (``shows_ink``): a patch cut on a pale centre inside a badge of another ink does not."""
    if read.read.card is None or all(shows_ink(p, c, palette)
                                     for p, c in zip(patches, colours)):
        return read
    return read.unsure(INK_UNCLEAR)


FAINT = 12.0
"""A patch whose most coloured part is less colourful than this (a/b units; an ink's is about
50) shows no ink at all."""
FAINT_INK = "faint"
"""``patch_ink`` of such a patch."""
INK_SHARE = 1 / 3
"""A patch shows an ink when at least this share of its most coloured part is of it."""
MEAN_INK_SHARE = 0.2
"""The mean colour of a patch's most coloured part names an ink only when at least this share
of that part is of the ink pixel by pixel: a mean of pixels of no ink is no ink. Cardgen's
ring deck, seed 10306: a blue badge 14 px tall, seen 27 degrees aslant on a wooden table,
was pixels of no ink (0.65 of them) and a few of each ink, their mean a teal 34 degrees
from green and 79 from blue; it was read as G1/O2 (0.986) for B1/O2. Measured at the reader's
ink check: every patch of a card read right whose mean named its ink had at least 0.41 of
its pixels of it (3045 patches, cardgen's three styles, seeds 10305 and 10306); on the own
four decks' bench tables (300-339, 500-579) every patch of a card read right had at least
0.36 of its pixels of its ink (4644 patches); the wrong read, 0.06."""


def _coloured_part(patch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The a and b (Lab) of the most coloured part of a patch's middle: where its print is."""
    margin = PATCH // 5
    middle = cv2.cvtColor(np.ascontiguousarray(patch[margin:-margin, margin:-margin]),
                          cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float64)
    a, b = middle[:, 1] - 128, middle[:, 2] - 128
    chroma = np.hypot(a, b)
    core = chroma >= np.percentile(chroma, 70)
    return a[core], b[core]


def patch_ink(patch: np.ndarray, palette: Palette) -> str | None:
    """The ink a coordinate's patch shows: the colour of the most coloured part of its
    middle, when it is plainly one of the palette's; ``FAINT_INK`` when it is hardly
    coloured at all; None when its colour is none of the inks, or between two."""
    return _ink_of(*_coloured_part(patch), palette)


def _ink_of(a: np.ndarray, b: np.ndarray, palette: Palette) -> str | None:
    """``patch_ink`` of a patch whose most coloured part has ``a`` and ``b``: the ink its
    mean is, where enough of its pixels are of it too (``MEAN_INK_SHARE``)."""
    mean_a, mean_b = float(a.mean()), float(b.mean())
    if np.hypot(mean_a, mean_b) < FAINT:
        return FAINT_INK
    ink = palette.name(mean_a, mean_b)
    if ink is None or _named_share(a, b, ink, palette) < MEAN_INK_SHARE:
        return None
    return ink


def shows_ink(patch: np.ndarray, colour: str, palette: Palette) -> bool:
    """Whether a coordinate's patch may be of ``colour``: its most coloured part is of that
    ink, or hardly coloured at all, pixel by pixel and not only in the mean of two inks (a
    thin dark-blue digit, blurred: ``FAINT``; the spot named its ink), or at least
    ``INK_SHARE`` of it is of that ink pixel by pixel (a small badge in a card's corner, with
    art of another ink around it inside the patch: the mean of the two is neither). A blue
    ring sharpened by a phone, an orange halo inside it, has a mean of no colour: cardgen's
    ring deck, seed 2357, read B2/B4 at 14.6 px as O2/O4 so; with the check on each pixel,
    it is unsure, and no card fewer is read on cardgen's three styles (seed 8642) or on the
    own four decks (tables 600-699)."""
    a, b = _coloured_part(patch)
    ink = _ink_of(a, b, palette)
    if ink == colour:
        return True
    if ink == FAINT_INK and float(np.hypot(a, b).mean()) < FAINT:
        return True
    return _named_share(a, b, colour, palette) >= INK_SHARE


def ink_share(patch: np.ndarray, colour: str, palette: Palette) -> float:
    """The share of a coordinate's patch's most coloured part that is of ``colour``, pixel
    by pixel."""
    return _named_share(*_coloured_part(patch), colour, palette)


def _named_share(a: np.ndarray, b: np.ndarray, colour: str, palette: Palette) -> float:
    return float(np.mean(palette.names(a, b) == colour))


@dataclass(frozen=True)
class Cut:
    """How a pair's two patches are cut: in its frame, a little larger or smaller (``zoom``),
    each turned about its middle by ``turn`` (radians)."""

    pose: Pose
    zoom: float = 1.0
    turn: float = 0.0


def _sought(pyramid: Pyramid, pairs: list[tuple[int, int]], poses: list[Pose],
            reads: list[_Read], model: CardModel, colours: list[tuple[str, str]],
            chances: np.ndarray) -> list[int]:
    """Where a spot plainly shows a number and no pair of it reads as a card, its likeliest
    partner's end of the frame looked for around that spot (``SOUGHT``): a coordinate printed
    thin, in a corner, beside art of its ink is often found as a spot a little off its
    middle, or as a piece of the art next to it, not as itself. The end is moved where its
    patch shows a coordinate most plainly, and its ink is then the one that patch shows. In
    place (``poses``, ``reads``, ``colours``, ``chances``); ``_steady`` then decides as for
    any pair, and the read must be surer (``SOUGHT_SURE``): of the many places looked at, one
    may show half a number by chance. The pairs moved."""
    numbers = len(NUMBERS)
    done = {spot for k, r in enumerate(reads) if r.read.card is not None for spot in pairs[k]}
    # a plain spot: the pair whose frame shows its number most plainly (the frame that
    # stands most nearly the card's way), the end to move
    chosen: dict[int, tuple[int, int]] = {}
    plainness: dict[int, float] = {}
    for k, r in enumerate(reads):
        if r.read.card is not None:
            continue
        for plain in (0, 1):
            spot, loose = pairs[k][plain], 1 - plain
            shows = float(chances[k][plain, :numbers].max())
            if spot in done or shows <= plainness.get(spot, 0.0) or \
                    (spot not in chosen and len(chosen) >= MOST_SOUGHT):
                continue
            # the partner's end shows no number plainly: nothing, or half a number (cut
            # off its middle, it may look like a little of two)
            if shows >= PLAIN and chances[k][loose, :numbers].max() < PLAIN:
                chosen[spot], plainness[spot] = (k, loose), shows
    if not chosen:
        return []
    offsets = [(a, b) for a in SOUGHT for b in SOUGHT if a or b]
    numbers_of = {spot: chances[k][1 - loose, :numbers].argmax()
                  for spot, (k, loose) in chosen.items()}
    best_cuts = _best_sought(pyramid, poses, chosen, chances, model, offsets, numbers_of)
    # then around the best place of each, finer
    finer = [(a, b) for a in SOUGHT_FINER for b in SOUGHT_FINER if a or b]
    centred = {spot: (found[0], found[1], found[2]) for spot, found in best_cuts.items()}
    refined = _best_sought(pyramid, poses, chosen, chances, model, finer, numbers_of, centred)
    for spot, found in refined.items():
        if found[3] < best_cuts[spot][3]:
            best_cuts[spot] = found
    moved = []
    for spot, (k, loose) in chosen.items():
        if spot not in best_cuts or best_cuts[spot][3] >= BLANK:
            continue
        pose, mine = best_cuts[spot][4], best_cuts[spot][5]
        ink = found_ink(coordinate_patches(pyramid, [pose], model)[loose], model.palette)
        if ink is None:
            continue  # the coordinate found must name its own colour
        colour = (ink, colours[k][1]) if loose == 0 else (colours[k][0], ink)
        poses[k], colours[k], chances[k] = pose, colour, mine
        reads[k] = _decided(pose, mine[0], mine[1], model, colour)
        moved.append(k)
    return moved


def _best_sought(pyramid: Pyramid, poses: list[Pose], chosen: dict[int, tuple[int, int]],
                 chances: np.ndarray, model: CardModel, offsets: list[tuple[float, float]],
                 numbers_of: dict[int, int],
                 around: dict[int, tuple[float, float, float]] | None = None
                 ) -> dict[int, tuple[float, float, int, float, Pose, np.ndarray]]:
    """For each plain spot of ``chosen``, its partner's end moved by each of ``offsets``
    (around an earlier best move, where ``around`` has one): the move where the partner's
    patch shows a coordinate most plainly (its chance of "nothing" least) while the plain end
    still shows its number as plainly. Each as (along, across, offset's index, that chance,
    the pose, its chances)."""
    numbers = len(NUMBERS)
    cuts, owners = [], []
    for spot, (k, loose) in chosen.items():
        if around is not None and spot not in around:
            continue
        start = (0.0, 0.0) if around is None else around[spot][:2]
        (x, y), (dx, dy) = poses[k].top, poses[k].step
        ends = [(x, y), (x + dx, y + dy)]
        for n, (along, across) in enumerate(offsets):
            along, across = along + start[0], across + start[1]
            placed = list(ends)
            placed[loose] = (ends[loose][0] + along * dx + across * dy,
                             ends[loose][1] + along * dy - across * dx)
            cuts.append(Pose.between(placed[0], placed[1]))
            owners.append((spot, along, across, n))
    if not cuts:
        return {}
    again = coordinate_chances(pyramid, cuts, model)
    best: dict[int, tuple[float, float, int, float, Pose, np.ndarray]] = {}
    for cut, (spot, along, across, n), mine in zip(cuts, owners, again):
        k, loose = chosen[spot]
        plain = 1 - loose
        # the plain end must still show its number as plainly, the frame turned as it is
        if mine[plain, :numbers].argmax() != numbers_of[spot] or \
                mine[plain, :numbers].max() < PLAIN:
            continue
        blank = float(mine[loose, numbers])
        if spot not in best or blank < best[spot][3]:
            best[spot] = (along, across, n, blank, cut, mine)
    return best


def found_ink(patch: np.ndarray, palette: Palette) -> str | None:
    """The ink of a coordinate ``_sought`` found: the one its most coloured part is; or else,
    of the more coloured half of the pixels round its middle (where its number is, not the
    art at a frame's corners), the ink most are, by far (``FOUND_INK``); None when neither
    tells (a thin number on a pale panel, art of another ink beside it)."""
    ink = patch_ink(patch, palette)
    if ink is not None and ink != FAINT_INK:
        return ink
    ys, xs = np.mgrid[0:PATCH, 0:PATCH]
    middle = (PATCH - 1) / 2
    disc = np.hypot(xs - middle, ys - middle) <= FOUND_REACH * PATCH
    lab = cv2.cvtColor(np.ascontiguousarray(patch), cv2.COLOR_BGR2LAB)[disc].astype(np.float64)
    a, b = lab[:, 1] - 128, lab[:, 2] - 128
    coloured = np.hypot(a, b) >= np.median(np.hypot(a, b))
    named = palette.names(a[coloured], b[coloured])
    inks, counts = np.unique(named[named != ""], return_counts=True)
    if len(counts) == 0:
        return None
    order = np.argsort(-counts)
    first = counts[order[0]]
    second = counts[order[1]] if len(counts) > 1 else 0
    return str(inks[order[0]]) if first >= FOUND_INK * max(second, 1) else None


FOUND_REACH = 0.3
FOUND_INK = 2.0
"""``found_ink`` looks this far from a patch's middle (a part of its side), and names the
ink that at least this many times as many pixels are as any other."""


def _twins_spots(reads: list[_Read], twins: dict[int, int], pairs: list[tuple[int, int]],
                 likely: np.ndarray, sought: list[int]) -> list[_Read]:
    """``reads``, each twin's first on spots as likely coordinates' as its twin's where
    those are plainer: a twin's frame lies on the same card's coordinates found again, on
    the whole number where the first's lies on a piece of it (cardgen's corner deck, seed
    10172, scene 7: a B3/G3 read 0.961 from spots 0.12 likely, its twin 0.996 from spots
    0.98 standing aside, was left unsure for a frame on spots 0.39 likely leaning to
    B3/G4). A twin whose spot was sought (not found) lends nothing."""
    reads = list(reads)
    for k, first in twins.items():
        if k not in sought and reads[first].best >= LEANING:
            reads[first] = replace(reads[first], spots_likely=max(
                reads[first].spots_likely, float(min(likely[list(pairs[k])]))))
    return reads


def _twins(poses: list[Pose], reads: list[_Read], chances: np.ndarray,
           colours: list[tuple[str, str]], model: CardModel) -> dict[int, int]:
    """Each pair that may be a card and is a twin (``TWIN``) of a likelier one: that one."""
    chosen = sorted((k for k, r in enumerate(reads) if r.best >= PROMISING),
                    key=lambda k: -reads[k].best)
    numbers = chances[:, :, :len(NUMBERS)].argmax(axis=2)
    firsts: list[int] = []
    twins: dict[int, int] = {}
    for k in chosen:
        top, step = np.array(poses[k].top), np.array(poses[k].step)
        reach = TWIN * max(model.layout.sides) * float(np.hypot(*step))
        for first in firsts:
            other, other_step = np.array(poses[first].top), np.array(poses[first].step)
            if colours[first] == colours[k] and (numbers[first] == numbers[k]).all() \
                    and np.hypot(*(top - other)) <= reach \
                    and np.hypot(*(top + step - other - other_step)) <= reach:
                twins[k] = first
                break
        else:
            firsts.append(k)
    return twins


def _centred(pyramid: Pyramid, poses: list[Pose], reads: list[_Read], model: CardModel,
             colours: list[tuple[str, str]], chances: np.ndarray, left: set[int]
             ) -> tuple[list[Pose], list[_Read], np.ndarray, dict[int, np.ndarray]]:
    """Each pair that may be a card, its frame moved a little each way (``WOBBLE``) to where
    its two patches look least like "nothing" at all, when that is plainly so (``CENTRED``):
    a spot's middle is its ink's, which a number's shape, a bar beside it or blur puts off
    its print's middle. Moved by how plainly the patches show a coordinate, never by which
    number they show, so no number is sought; ``_steady`` then decides around the moved
    frame. Also, for each pair left where it was, the chances of all its ``_wobbled`` cuts,
    read here with the moves (one pass for both: most frames stay where the spots put them,
    and ``_steady`` reads only the moved ones' again). The pairs ``left`` are left as they
    are."""
    chosen = [k for k, r in enumerate(reads) if r.best >= PROMISING and k not in left]
    if not chosen:
        return poses, reads, chances, {}
    cuts = [_wobbled(poses[k], model) for k in chosen]
    again = coordinate_chances(pyramid, [cut for group in cuts for cut in group], model)
    per = len(cuts[0])
    nothing = len(NUMBERS)
    poses, reads, chances = list(poses), list(reads), chances.copy()
    wobbled: dict[int, np.ndarray] = {}
    for n, k in enumerate(chosen):
        wobbled[k] = again[n * per:(n + 1) * per]
        mine = wobbled[k][:SHIFTS]
        blank = mine[:, :, nothing].sum(axis=1)
        # a move that would change either number is no centring
        same = (mine.argmax(axis=2) == chances[k].argmax(axis=1)).all(axis=1)
        blank[~same] = np.inf
        best = int(np.argmin(blank))
        if blank[best] + CENTRED < chances[k][:, nothing].sum():
            poses[k], chances[k] = cuts[n][best].pose, mine[best]
            reads[k] = _decided(poses[k], mine[best][0], mine[best][1], model, colours[k])
            del wobbled[k]
    return poses, reads, chances, wobbled


def _steady(pyramid: Pyramid, poses: list[Pose], reads: list[_Read], model: CardModel,
            colours: list[tuple[str, str]], chances: np.ndarray,
            wobbled: dict[int, np.ndarray], left: set[int], sought: list[int]
            ) -> list[_Read]:
    """Each pair that may be a card, read again with its frame moved a little each way and
    its patches cut a little larger and smaller (``WOBBLE``), and decided on what all those
    reads show together. A number half in its patch (the frame put on a bar under it, say)
    reads as another number from one exact frame, not from the frames around it; a number
    read for sure reads so from all. And a card read so is unsure still when either patch,
    turned a little (``TURN_CHECK``), shows its number more plainly than as cut: its number
    does not stand the frame's way up (two spots of two cards lying askew). ``wobbled``: the
    chances of the ``_wobbled`` cuts of the pairs ``_centred`` read them for already. The
    pairs ``left`` are left as they are. A pair ``sought`` is decided on all its cuts alike
    (``_together`` lets one cut miss its number): one end of its frame was placed by a
    search, not on a spot (own full-bleed deck, a B2/O4 teaching photo with a card's edge
    across the 2: a pair sought read as G4/O4, 0.962 sure on all cuts but one, 0.894 on
    all, under ``SOUGHT_SURE``)."""
    chosen = [k for k, r in enumerate(reads) if r.best >= PROMISING and k not in left]
    if not chosen:
        return reads
    anew = [k for k in chosen if k not in wobbled]
    if anew:
        cuts = [cut for k in anew for cut in _wobbled(poses[k], model)]
        again = coordinate_chances(pyramid, cuts, model)
        per = len(cuts) // len(anew)
        wobbled = {**wobbled, **{k: again[n * per:(n + 1) * per] for n, k in enumerate(anew)}}
    out = list(reads)
    for k in chosen:
        mine = wobbled[k]
        per = len(mine)
        wobbles, turns = mine[:per - len(TURNS)], mine[per - len(TURNS):]
        cuts = np.concatenate([chances[k:k + 1], wobbles])
        mean = cuts.mean(axis=0) if k in sought else _together(cuts)
        read = _decided(poses[k], mean[0], mean[1], model, colours[k])
        numbers = len(NUMBERS)
        upright = mean[:, :numbers].max(axis=1)  # per patch
        if read.read.card is not None and \
                (turns[:, :, :numbers].max(axis=2) > upright + TURN_MARGIN).any():
            read = read.unsure("its numbers do not stand its way up")
        out[k] = read
    return out


def _together(reads: np.ndarray) -> np.ndarray:
    """What the cuts of one pair's patches show together (N x 2 x labels: as cut, then
    ``_wobbled``'s moved and zoomed cuts): for each patch, the mean of its cuts but the one
    moved cut that shows the likeliest label least. A frame moved off a number's middle may
    miss a plain number (own reference deck, table 312: a plain 2 read 1.00 as cut and 0.24
    from the frame moved across, which left B2/O3 unsure at 0.862 on the plain mean); a
    number another cut doubts as well stays in doubt (a 1 half under a card's edge, read as
    a 3 from five cuts, 0.73 from a moved one and as a 4 from the one cut smaller). A moved
    cut that plainly shows another number (``PLAIN``) did not miss one, and is not left out
    (own reference deck, the B1/O3 teaching photo with a card's edge over the top of the 3's
    badge: six cuts read a 2, the frame moved along the 3 at 0.99; it was read as B1/O2)."""
    likeliest = reads.mean(axis=0).argmax(axis=-1)  # per patch
    patches = np.arange(reads.shape[1])
    moved = reads[1:1 + SHIFTS]
    least = moved[:, patches, likeliest].argmin(axis=0)
    # a cut that plainly shows another number did not miss its number: it is heard
    numbers = len(NUMBERS)
    shown = moved[least, patches, :numbers]
    missed = (shown.argmax(axis=-1) == likeliest) | (shown.max(axis=-1) < PLAIN)
    kept = np.ones(reads.shape[:2], bool)
    kept[1 + least[missed], patches[missed]] = False
    return (reads * kept[..., None]).sum(axis=0) / kept.sum(axis=0)[:, None]


def _wobbled(pose: Pose, model: CardModel) -> list[Cut]:
    """The frame moved a little each way across and along (the first ``SHIFTS``); as it is,
    its patches cut a little larger and smaller; and last, its patches turned a little each
    way (``TURNS``)."""
    side = max(model.layout.sides) * WOBBLE
    cuts = [Cut(pose.moved(along, across))
            for along, across in ((0.0, side), (0.0, -side), (-side, 0.0), (side, 0.0))]
    cuts += [Cut(pose, 1 - ZOOM_WOBBLE), Cut(pose, 1 + ZOOM_WOBBLE)]
    return cuts + [Cut(pose, turn=turn) for turn in TURNS]


def coordinate_chances(pyramid: Pyramid, cuts: list[Cut] | list[Pose], model: CardModel
                       ) -> np.ndarray:
    """For each cut (or pose, cut plainly), how likely its top and bottom patches show each
    of ``LABELS`` (N x 2 x len(LABELS))."""
    patches = coordinate_patches(pyramid, cuts, model)
    chances = model.classifier.probabilities(describe(patches))
    return chances.reshape(len(cuts), 2, len(LABELS))


def coordinate_patches(pyramid: Pyramid, cuts: list[Cut] | list[Pose], model: CardModel
                       ) -> np.ndarray:
    """Each cut's (or pose's) top and bottom patches, one after the other."""
    layout = model.layout
    patches = np.empty((2 * len(cuts), PATCH, PATCH, 3), np.uint8)
    for k, cut in enumerate(cuts):
        if isinstance(cut, Pose):
            cut = Cut(cut)
        for which in (0, 1):
            patches[2 * k + which] = sample_affine(pyramid, patch_affine(
                cut.pose, (0.0, float(which)), layout.sides[which] * cut.zoom,
                which == 1 and layout.bottom_turned, cut.turn))
    return patches


@dataclass(frozen=True)
class _Read:
    read: CardRead
    likely_card: float
    """How likely the pair is a card's two coordinates at all."""
    best: float = 0.0
    """How likely its likeliest taught code is."""
    likeliest: str = ""
    """That code (read or not; none where its colours are no taught code's)."""
    plain_inks: bool = False
    """Each of its two patches' most coloured part is of its ink (``patch_ink``)."""
    spots_likely: float = 0.0
    """How likely the spot judge finds the less likely of its two spots a coordinate's; 0
    where its frame does not lie on its two spots (``_sought`` moved an end). Known only for
    pairs whose likeliest code is at least ``LEANING`` likely, the ones read or leaning (0
    for the rest, which nothing weighs)."""

    def unsure(self, reason: str, leaning: bool = True) -> _Read:
        """This pair found unsure, for ``reason``, leaning to its likeliest code (to none,
        without ``leaning``)."""
        return replace(self, read=CardRead(None, self.read.confidence, self.read.corners,
                                           reason, self.likeliest if leaning else ""))

    @property
    def plain_spots(self) -> bool:
        """Its frame lies on two spots the spot judge finds plainly coordinates'
        (``PLAIN_SPOT``)."""
        return self.spots_likely >= PLAIN_SPOT


def _pairs(spots: list[Spot], likely: np.ndarray, model: CardModel, distance: float | None,
           most: int) -> list[tuple[int, int]]:
    """The (top, bottom) pairs of spots that could be one card's two coordinates, likeliest
    first, ``most`` at the most: of colours a taught code has on top and at the bottom, and
    placed as the deck prints them: one of the two (at least) of its size for their distance
    apart, each measured along the line between them (``SIZE_SLACK``: the other may be a
    piece of its coordinate, a number without its bar); on a calibrated table, that distance
    about the card's. Only spots that may be a
    coordinate's (``likely``, from the spot judge) are paired, likeliest first."""
    keep = np.nonzero(likely >= SPOT_KEEP)[0]
    if len(keep) < 2:
        return []
    spots = [spots[k] for k in keep]
    likely = likely[keep]
    xs = np.array([s.x for s in spots])
    ys = np.array([s.y for s in spots])
    sizes = np.array([s.size for s in spots])
    spreads = np.array([s.spread for s in spots])
    colours = np.array([s.colour for s in spots])
    dx, dy = xs[None, :] - xs[:, None], ys[None, :] - ys[:, None]
    apart = np.hypot(dx, dy)
    apart[apart < 1e-6] = np.inf  # a spot with itself, or two at one place: no pair
    # each spot's extent along the line to the other (a slant shortens both alike)
    along = extents_along(spreads[:, None, :], sizes[:, None], dx, dy)
    top_size, bottom_size = model.spot_sizes
    top = along / (top_size * apart)
    bottom = along.T / (bottom_size * apart)
    larger, smaller = np.maximum(top, bottom), np.minimum(top, bottom)
    fits = (larger >= SIZE_SLACK[0]) & (larger <= SIZE_SLACK[1]) & (smaller >= PIECE)
    # a coordinate run into its panel's rim or art of its ink is a spot too large: paired
    # only with a spot of the deck's size that surely is a coordinate's
    sized = (top >= SIZE_SLACK[0]) & (top <= SIZE_SLACK[1]) & (likely[:, None] >= MERGED_BESIDE)
    sized_bottom = (bottom >= SIZE_SLACK[0]) & (bottom <= SIZE_SLACK[1]) & \
        (likely[None, :] >= MERGED_BESIDE)
    fits |= (sized & (bottom > SIZE_SLACK[1]) & (bottom <= MERGED)) | \
        (sized_bottom & (top > SIZE_SLACK[1]) & (top <= MERGED))
    if distance is not None:
        fits &= (apart >= SIZE_SLACK[0] * distance) & (apart <= SIZE_SLACK[1] * distance)
    allowed = np.zeros_like(fits)
    for upper, lower in model.colour_pairs():
        allowed |= (colours[:, None] == upper) & (colours[None, :] == lower)
    first, second = np.nonzero(fits & allowed)
    # likeliest first: both spots a coordinate's, of the size the deck prints for their
    # distance apart
    odd = np.abs(np.log(top[first, second])) + np.abs(np.log(bottom[first, second]))
    score = np.log(likely[first] * likely[second] + 1e-9) - odd
    order = np.argsort(-score, kind="stable")[:most]
    return [(int(keep[first[k]]), int(keep[second[k]])) for k in order]


def code_scores(top: np.ndarray, bottom: np.ndarray, model: CardModel,
                colours: tuple[str, str]) -> list[tuple[str, float]]:
    """How likely a pair of patches (their chances of each label) shows each taught code of
    the pair's colours, likeliest first; last, as ``UNTAUGHT``, how likely it shows the
    likeliest pair of numbers that is no taught code. (Sorted as plain numbers: a read
    decides a hundred pairs of a dozen codes each, where numpy's sorting of a small array
    costs more than the sort.)"""
    codes, upper, lower = model.codes_of(colours)
    numbers = len(NUMBERS)
    every = top[:numbers, None] * bottom[None, :numbers]
    scores = every[upper, lower].tolist()
    order = sorted(range(len(scores)), key=lambda k: -scores[k])  # stable: ties in order
    every[upper, lower] = 0.0
    return [(codes[k], scores[k]) for k in order] + [(UNTAUGHT, float(every.max()))]


def sure_code(ranked: list[tuple[str, float]]) -> str | None:
    """The code a pair is read as, when it is sure (``SURE``, ``BOTH_JOKERS_SURE``,
    ``MARGIN``): likelier by far than the next taught code and than any pair of numbers that
    is no taught code (a card of a code never taught is not read as the nearest taught
    one)."""
    if len(ranked) < 2 or ranked[0][0] == UNTAUGHT:
        return None
    code, best = ranked[0]
    rival = max(score for _, score in ranked[1:])
    least = BOTH_JOKERS_SURE if code.count("?") == 2 else SURE
    return code if best >= least and best >= MARGIN * rival else None


def _decided(pose: Pose, top: np.ndarray, bottom: np.ndarray, model: CardModel,
             colours: tuple[str, str]) -> _Read:
    """What a pair reads as, and how likely it is a card at all."""
    corners = pose.to_image(model.outline)
    nothing = len(NUMBERS)
    likely_card = float((1 - top[nothing]) * (1 - bottom[nothing]))
    ranked = code_scores(top, bottom, model, colours)
    if len(ranked) == 1:
        return _Read(CardRead(None, 0.0, corners, "its colours are no taught code's"), 0.0)
    (code, best), (other, _) = ranked[0], ranked[1]
    if sure_code(ranked) is not None:
        try:
            return _Read(CardRead(Card.parse(code), best, corners), likely_card, best, code)
        except MalformedEventError:  # a taught code is canonical: never, but no guess
            pass
    numbers = [NUMBERS[int(np.argmax(chances[:nothing]))] for chances in (top, bottom)]
    read = f"{colours[0]}{numbers[0]}/{colours[1]}{numbers[1]}"
    if code == UNTAUGHT:
        reason = f"it reads as {read}, a code the deck was not taught"
    elif best >= COULD_BE:
        reason = f"it could be {code} or " + (
            "a code the deck was not taught" if other == UNTAUGHT else other)
    else:
        reason = "a coordinate is not clear enough to read"
    likeliest = code if code != UNTAUGHT else ""
    return _Read(CardRead(None, best, corners, reason, likeliest), likely_card, best, likeliest)


def _kept(reads: list[_Read], pairs: list[tuple[int, int]]) -> list[CardRead]:
    """The cards read, surest first, each spot and each card claimed once (by a read, or by
    a card read but partly covered); then the pairs that look like cards but were not read,
    where no card was. A card read as two codes from pairs at its place (a green ring's
    spot, and a spot of the purple art inside it taken for blue) is read as the one whose
    patches plainly show its inks, or else whose spots are plainly coordinates
    (``_against_rivals``); else it is unsure."""
    order = sorted(range(len(reads)), key=lambda k: -reads[k].read.confidence)
    aside = _seen_whole_elsewhere(reads)
    used: set[int] = set()
    kept: list[CardRead] = []
    for k in order:
        read = reads[k].read
        if k in aside:
            continue
        # a card read but partly covered claims its spots and its place as a read does:
        # another pair of one of its spots (a piece of the card's art beside a coordinate)
        # is not read in its place
        if (read.card is None and read.reason != PARTLY_COVERED) or \
                used & set(pairs[k]) or _claimed(read, kept):
            continue
        read = _against_rivals(reads[k], reads)
        if read is None:
            continue
        used |= set(pairs[k])
        kept.append(read)
    unsure: list[CardRead] = []
    for k in sorted(range(len(reads)), key=lambda k: -reads[k].likely_card):
        read = reads[k].read
        if read.card is not None or reads[k].likely_card < LOOKS_LIKE_CARD or \
                used & set(pairs[k]) or _claimed(read, kept + unsure):
            continue
        used |= set(pairs[k])
        unsure.append(read)
    return [read for read in kept if read.card is not None] + \
        [read for read in kept if read.card is None] + unsure


def _seen_whole_elsewhere(reads: list[_Read]) -> set[int]:
    """The reads judged partly covered whose card another frame at its place reads as the
    same code, judged whole, and none as another code: that frame's read stands (where
    another code is read too, the covered frame still claims the place, and the card stays
    unsure). The cover judge sees each frame's coordinate a little off; a neighbour's edge,
    or the coordinate's own badge cut off at its patch's side, may fall in one frame's view
    and not in the other's (cardgen's hexbadge style, seed 10174: a clear B1/G3 read by
    three frames, two judged 0.74 and 0.63 likely covered and surer than the third, judged
    whole, so the card was unsure; corner style, seed 10176: B4/O2's whole frame a tenth
    shorter than its covered one)."""
    aside = set()
    for k, mine in enumerate(reads):
        if mine.read.reason != PARTLY_COVERED:
            continue
        codes = {other.read.card.code for other in reads if other.read.card is not None
                 and _one_place(other.read.corners, mine.read.corners)}
        if codes == {mine.likeliest}:
            aside.add(k)
    return aside


def _rivals(mine: _Read, reads: list[_Read]) -> list[_Read]:
    """The reads of another code at ``mine``'s place (none when ``mine`` is no card)."""
    card = mine.read.card
    return [other for other in reads if card is not None and other.read.card is not None
            and other.read.card != card and _same_place(other.read.corners, mine.read.corners)]


def _against_rivals(mine: _Read, reads: list[_Read]) -> CardRead | None:
    """``mine``'s read, weighed against reads of other codes at its place: as it is where
    none is, or where only its patches show their inks plainly (``plain_inks``), or else
    where only its spots are plainly coordinates (``plain_spots``); None (a rival's read
    stands) where only a rival's are so; else unsure. Unsure too where a pair at its place
    leans to another number (``_leaning``)."""
    weighed = _against_read_rivals(mine, reads)
    if weighed is None or weighed.card is None or mine.plain_spots or \
            weighed.confidence >= LEANED_SURE:
        return weighed
    other = _leaning(mine, reads)
    return weighed if other is None else CardRead(
        None, weighed.confidence, weighed.corners, f"it could be {weighed.card.code} or {other}")


LEANING = 0.5
"""A card read from one pair of spots is unsure where another pair at its place finds
another code likeliest, at least this likely, though too little to be read: where its frame
lies decides what a coordinate shows (another card's edge across it: an orange 3 half hidden
by a card of its badge's colour was read as 1, 0.988, from a frame sought on the orange of
both, while a frame on what showed of the 3 read "3 or 2", 0.566). A code of other inks
counts too: with part of a coordinate's panel hidden, the coloured frame round the panel is
found as a spot of its own, and a pair on it reads the number inside with the frame's ink
(own full-bleed deck, teaching photos with a card's edge across a coordinate: a green 4 in a
red frame read as O4, 0.900, where the pair on the green 4 leaned to B2/G4, 0.668; a blue 4
in a green frame read as G4, 0.955, against B4/O4, 0.832). Leaning to any code cost no card
read right on the own decks' tables 300-339 and 400-415, nor on cardgen's three styles
(seed 10135)."""
LEANED_SURE = 0.99
"""... unless it is read at least this surely, or from two spots plainly coordinates'
(``PLAIN_SPOT``). Frames on pieces of art and of coordinates lean otherwise often: on the own
decks' tables 300-339 and 400-415, 13 cards read right were doubted so, 11 of them read
0.992 to 1.0 surely; at this, 2 (full-bleed deck, 0.917 and 0.928 sure). The teaching photos
with another card's edge across a coordinate were read wrongly so 4 times, 0.895 to 0.988
sure (a 3 read as 1 or 2, a 4 as 1, a 1 as 3; one is left, a 3 read as 2 on plain spots)."""
ONE_PLACE = 0.75
"""... at its place: the two frames' cards overlap by this part of the larger (a frame set on
a piece of a coordinate is shorter or longer than one set on its whole spot: 0.82 there)."""


def _leaning(mine: _Read, reads: list[_Read]) -> str | None:
    """Another code that a pair at ``mine``'s place not read finds likeliest (``LEANING``),
    if any, from spots at least as likely coordinates' as ``mine``'s: a frame on a piece of
    a coordinate or of the card's art leans as it likes (own full-bleed deck, table 311: a
    B3/G2 read 0.983 from a spot 0.40 likely a coordinate's, a frame on a sliver of the 3,
    0.20 likely, leaning to B2/G2)."""
    card, corners = mine.read.card, mine.read.corners
    for other in reads:
        code = other.likeliest
        if other.read.card is None and code not in ("", card.code) and \
                other.best >= LEANING and other.spots_likely >= mine.spots_likely and \
                _one_place(other.read.corners, corners):
            return code
    return None


def _against_read_rivals(mine: _Read, reads: list[_Read]) -> CardRead | None:
    """``_against_rivals``, of the reads of other codes alone."""
    card = mine.read.card
    rivals = _rivals(mine, reads)
    if card is None or not rivals:
        return mine.read
    inked = [other for other in rivals if other.plain_inks]
    if inked and not mine.plain_inks:
        return None
    if mine.plain_inks and not inked:
        return mine.read
    # both show their inks, or neither (a ring of one ink round the card's own colour): the
    # spots decide
    even = inked or rivals
    spotted = [other for other in even if other.plain_spots]
    if mine.plain_spots and not spotted:
        return mine.read
    if spotted and not mine.plain_spots:
        return None
    rival = even[0]
    named = rival.read.card.code if rival.read.card is not None else "?"
    return CardRead(None, mine.read.confidence, mine.read.corners,
                    f"it could be {card.code} or {named}")


SAME_PLACE = 0.1
"""Two reads whose cards' corners lie this near (a part of the card's diagonal), either way
round, are of one card's coordinates."""


def _same_place(one: np.ndarray, other: np.ndarray) -> bool:
    diagonal = float(np.linalg.norm(one[2] - one[0]))
    apart = min(float(np.linalg.norm(np.roll(other, shift, axis=0) - one, axis=1).max())
                for shift in (0, 2))
    return apart <= SAME_PLACE * diagonal


def _one_place(one: np.ndarray, other: np.ndarray) -> bool:
    """Whether two reads' cards overlap by ``ONE_PLACE`` of the larger."""
    overlap, first, second = _overlap(one, other)
    return overlap >= ONE_PLACE * max(first, second, 1e-6)


def _claimed(read: CardRead, others: list[CardRead]) -> bool:
    """Whether another read's card lies mostly on this one's."""
    for other in others:
        overlap, mine, theirs = _overlap(read.corners, other.corners)
        if overlap > SAME_CARD * max(min(mine, theirs), 1e-6):
            return True
    return False


def _overlap(one: np.ndarray, other: np.ndarray) -> tuple[float, float, float]:
    """The area two cards' quadrilaterals share, and each one's area."""
    first, second = one.astype(np.float32), other.astype(np.float32)
    shared, _ = cv2.intersectConvexConvex(first, second)
    return float(shared), abs(cv2.contourArea(first)), abs(cv2.contourArea(second))
