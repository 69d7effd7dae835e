"""Teaching: a deck learned from one labelled photo per card code (or more).

1. In each photo, the card's two coordinates: the spots of the label's two colours that lie as
   a card's two coordinates do (taps, where the user gave them, say which). The deck's three
   inks are then settled on what those spots show, and the spots looked for again. Where
   that leaves two places alike (a card the colour of its table, its outline not seen), the
   pair where a network quickly taught on the other photos reads the label.
2. The card's frame in each photo (``pose``): where the coordinates are, how big they are
   printed, and the card's outline around them, the same on every card of a deck (each taken
   as the median over the photos). A coordinate printed upside down at the bottom (as playing
   cards print their corner indices) is found so, and read turned back.
3. A card whose two coordinates share a colour (``O1/O3``) does not say by its colours which
   is on top: its numbers do, as the other photos show them.
4. Many views of every photo as a table's camera sees cards (``views``); the network learns
   from their patches to name a coordinate's number, or nothing. Views of signs the deck does
   not print (another game's 5 to 9 and letters, in the deck's badges and in other games',
   ``foreign``) teach it that a badge of the deck's ink is not yet a coordinate.
5. Checks: new views, never learned from, read as the reader reads them; and every photo read
   back, at the size its card is printed there. Codes that fail are reported, for another
   photo.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.rules import Card, Refusal
from vision.cards.classifier import Classifier, Committee
from vision.cards.cores import side_by_side
from vision.cards.features import cover_looks, describe
from vision.cards.model import COVER_LABELS, LABELS, SPOT_LABELS, CardModel
from vision.cards.palette import Palette, settled
from vision.cards.pose import Pose, Pyramid, patch_matrix, sample
from vision.cards.reader import SURE, code_scores, coordinate_chances, read_cards, sure_code
from vision.cards.spots import Spot, find_spots, ink_colour
from vision.cards.foreign import foreign_sources, other_game_sources
from vision.cards.views import (COVER_CONTEXT, Deck, Layout, Source, Views, make_views,
                               view_area)

SMALLEST_PHOTO = 64
"""Pixels along a teach photo's shorter side, at least: a card and its coordinates need more
(a 1x5000 image is no photo)."""
VIEWS = (40, 180)
"""Views made of each photo to learn from, at the fewest and the most: as many as
``VIEW_PIXELS`` and ``ALL_VIEWS`` allow (a deck whose coordinates are small on its cards makes
large views)."""
VIEW_PIXELS = 180e6
ALL_VIEWS = 7200
"""The pixels of all the views a deck is taught from, about, and the views at the most:
teaching's time (about 35-45 s here for 50 photos or more, 1.4 GB at the most). The numbers at
16-24 px are what more views teach: on four decks of another generator's three styles, 94.7 %
of cards were read from a third as many pixels, 96.5 % from two thirds, 98.5 % from these,
none wrongly."""
QUICK_VIEWS = 600
"""Views, of all the photos together, the network that reads unsettled teaching photos learns
from: enough to read a sharp, close, upright card, in a tenth of a whole teaching's time."""
CHECK_VIEWS = 8
"""New views of each photo to check with."""
SIDE = 1.3
"""A coordinate's patch side over its spot's size."""
SPACING = (1.1, 9.0)
"""The distance between a card's two coordinates, over their size: wider or narrower, two
spots are not one card's coordinates."""
SAME_SIZE = 2.0
"""A card's two coordinates are printed at about one size: their spots differ at most so."""
TEACHING_HUES = (35.0, 20.0)
"""How near its ink's hue a pixel must be, before the inks are learned and after (a photo
taken to teach is in one plain light)."""
SPOT_HIDDEN = 16
SPOT_EPOCHS = 30
"""The spot judge's size and training: a small network, its inputs a few dozen numbers."""
COVER_HIDDEN = 96
"""The cover judge's hidden units (chosen by measure, not tied to the number network's): its
lesson is not only whether a badge is cut, but whether what lies beside it is the card's own
(its rim, its corner, the table past it seen at a slant) or something laid over it. At 32,
another generator's 32 decks (seeds 10181-10190 in three styles, 11 in two) had 11 to 13
clear cards read right that the judge found 0.4 likely covered or more (left unsure), most
by a card's corner seen at 20-40 degrees; at 64, 5 to 7; at 96, 4. The own decks' tables
read as many cards or more (starfield 160 of 160, not 158), their 720 card-edge views each
none wrongly, as before; teaching takes as long (the judge learns beside the spot judge)."""
CHECK_PASS = 0.75
CHECK_SMALLEST = 16.0
"""A code read right in fewer of its new views than ``CHECK_PASS`` (its coordinates at least
``CHECK_SMALLEST`` pixels tall, one view at a time) is weak: another photo of it helps ..."""
CHECK_SPREAD = 2.5
CHECK_FAILED = 0.5
"""... where its deck's codes are read so, most of them. Where the deck's art makes every
view harder (the own starfield deck: three codes in four read right, typically; its tables
at 99.4 %), a code is weak when it is read in ``CHECK_SPREAD`` chance spreads fewer of its
views than the deck's typical code: another photo of it helps, not of the others (that deck
named 29 of its 60 codes weak, now 2). Where most codes are read in fewer than
``CHECK_FAILED`` of their views, the photos as a whole are at fault (dim, out of focus), and
every code under ``CHECK_PASS`` is named."""
ROUGH_SIDE = 320
"""A photo is looked at this long (px) to find the card's outline."""
MIN_CARD_AREA = 0.03
"""A teaching photo's card covers more of it than this."""
CARD_PROPORTION = 0.1
"""A card found whose long side over short differs from most photos' by more than this (in
log) is not taken for the card."""


class TeachingError(Refusal):
    """A set of photos that cannot teach a deck; the message says why and what to do (a
    screen translates it, as it does the engine's refusals)."""


@dataclass(frozen=True)
class TeachingPhoto:
    name: str
    image: np.ndarray
    card: Card
    taps: tuple[tuple[float, float], tuple[float, float]] | None = None
    """Image points on the top coordinate and on the bottom one, when the user tapped them."""


@dataclass(frozen=True)
class Taught:
    model: CardModel
    photos: int
    """Photos taught from."""
    cards: int
    """Card codes taught."""
    skipped: tuple[str, ...]
    """Photos that could not be used, each with the reason."""
    weak: tuple[str, ...]
    """Codes the checks read wrongly or not at all: photograph them again (or more)."""


@dataclass
class _Found:
    photo: TeachingPhoto
    top: Spot
    bottom: Spot
    ordered: bool
    """The label's colours said which spot is the top one (else the numbers must)."""
    card: np.ndarray | None = None
    """The card's rectangle in the photo, where it was found."""

    @property
    def pose(self) -> Pose:
        return Pose.between(self.top.centre, self.bottom.centre)

    @property
    def ratios(self) -> tuple[float, float]:
        length = max(self.pose.length, 1e-9)
        return (self.top.size / length, self.bottom.size / length)


def teach(photos: list[TeachingPhoto], seed: int = 0) -> Taught:
    skipped = [f"{photo.name}: {photo.image.shape[1]}x{photo.image.shape[0]} px is too small "
               "to show a card" for photo in photos if min(photo.image.shape[:2]) < SMALLEST_PHOTO]
    photos = [photo for photo in photos if min(photo.image.shape[:2]) >= SMALLEST_PHOTO]
    if not photos:
        if skipped:
            raise TeachingError("no photos to teach from ({first})", first=skipped[0])
        raise TeachingError("no photos to teach from")
    # the inks: first as their names say, then as the photos show them; the coordinates
    # looked for again with a nearer hue (a badge parted from a nebula of a near hue beside
    # it)
    cards = _alike(side_by_side(lambda photo: _card_quad(photo.image), photos))
    palette = Palette.plain()
    first = side_by_side(lambda photo: find_spots(photo.image, palette,
                                                   hue=TEACHING_HUES[0]), photos)
    palette = _inks(_coordinates(photos, first, cards, []), palette)
    spots = side_by_side(lambda photo: find_spots(photo.image, palette,
                                                   hue=TEACHING_HUES[1]), photos)
    unsettled: dict[int, _Unsettled] = {}
    found = _coordinates(photos, spots, cards, skipped, unsettled)
    if not found or len(found) < len(photos) // 2:
        raise TeachingError(
            "the coordinates were found in only {found} of {photos} photos: take each card "
            "alone, flat, whole and well lit, filling most of the photo",
            found=len(found), photos=len(photos))
    ratios = _typical_ratios(found)
    outline = _outline(found)
    layout, found = _oriented(found, ratios)
    deck = Deck(layout, palette, outline)
    if unsettled:
        # photos whose coordinates their place on the card did not settle (a card the
        # colour of its table), read by a network the others taught quickly (a teaching
        # photo is sharp, close and upright: few views suffice to read it)
        quick = _learned(found, deck, ratios, seed, -(-QUICK_VIEWS // len(found)))
        more = _read_back(list(unsettled.values()), quick)
        settled_now = {f.photo.name for f in more}
        skipped = [reason for reason in skipped if not any(
            u.reason == reason and u.photo.name in settled_now for u in unsettled.values())]
        found = found + more
    model = _learned(found, deck, ratios, seed)
    weak, alike = _checked(found, model, seed + 1)
    model.weak, model.look_alikes = weak, alike
    return Taught(model, len(found), len(model.codes), tuple(skipped), weak)


def _learned(found: list[_Found], deck: Deck, ratios: tuple[float, float], seed: int,
             each: int | None = None) -> CardModel:
    """The networks learned from views of the photos' cards (``each`` of every photo, or as
    many as ``_views_each`` says, and then views of other games' signs too), as a deck's
    model."""
    sources = _sources(found)
    views = make_views(sources, deck, _views_each(deck, len(found)) if each is None else each,
                       seed)
    patches, names = views.patches, views.labels
    if each is None:
        others = _other_signs(sources, deck, FOREIGN_SHARE * len(views.labels), seed + 2)
        patches, names = np.concatenate([patches, others.patches]), names + others.labels
    targets = np.array([LABELS.index(name) for name in names])
    classifier = Committee.fit(describe(patches), targets, LABELS, seed, own=True)
    # which spots are coordinates' (what pairs up at the table), and which coordinates are
    # partly covered: two small networks, learned side by side
    with ThreadPoolExecutor(2) as pool:
        spot_judge = pool.submit(
            lambda: Classifier.fit(np.concatenate(views.spots),
                                   np.array([0 if c else 1 for c in views.spots_coordinate]),
                                   SPOT_LABELS, seed, hidden=SPOT_HIDDEN, epochs=SPOT_EPOCHS))
        cover_judge = pool.submit(
            lambda: Classifier.fit(cover_looks(np.array(views.cover_patches),
                                               np.array(views.cover_contexts)),
                                   np.array(views.covered, np.intp), COVER_LABELS, seed,
                                   hidden=COVER_HIDDEN))
    # the reader pairs spots of the sizes it found the coordinates at in the views
    seen = np.median(np.array(views.ratios), axis=0) if views.ratios else ratios
    codes = frozenset(f.photo.card.code for f in found)
    return CardModel(deck.palette, deck.layout, deck.outline, (float(seen[0]), float(seen[1])),
                     codes, classifier, spot_judge.result(), cover_judge=cover_judge.result(),
                     cover_context=COVER_CONTEXT, cover_on_card=True)


FOREIGN_SHARE = 0.2
"""Patches of other games' signs learned from, as a share of the deck's own: half in the
deck's own badges (``foreign_sources``), half in badges of another game's
(``other_game_sources``). On another generator's decks (four, of two styles), another game's
cards in the deck's inks were read as a code (at 0.5 or more) 13 times from 131 of their pairs
with none, 3 times with a quarter; the deck's own coordinates at 16-24 px, as surely as
before. A fifth is what keeps a 50-photo deck's teaching under a minute."""
FOREIGN_VIEWS = 40
"""Views of each source of other games' signs."""


def _other_signs(sources: list[Source], deck: Deck, patches: float, seed: int) -> Views:
    """Views of the deck's cards with a number replaced by another game's sign, and of
    another game's cards in the deck's inks: about ``patches`` patches, all "nothing" where
    a sign is."""
    rng = np.random.default_rng(seed)
    each_source = max(1, int(patches / (2 * FOREIGN_VIEWS * PATCHES_PER_VIEW)))
    signs = foreign_sources(sources, deck.layout, each_source, rng) + \
        other_game_sources(sources, deck, each_source, rng)
    return make_views(signs, deck, FOREIGN_VIEWS, seed)


PATCHES_PER_VIEW = 8
"""Patches a view gives, about (its two coordinates twice, and patches of nothing)."""


# -- 1. the coordinates in each photo ------------------------------------------------------

def _coordinates(photos: list[TeachingPhoto], spots: list[list[Spot]],
                 cards: list[np.ndarray | None], skipped: list[str],
                 unsettled: dict[int, _Unsettled] | None = None) -> list[_Found]:
    """Each photo's coordinates among its spots (the reason, in ``skipped``, where none; and
    where it had pairs of its colours, in ``unsettled`` by the photo's index, for
    ``_read_back``):
    the pair of spots of its label's colours that lies as the pairs of the other photos do.
    A deck prints its two coordinates alike on every card: at the same places on the card
    (``cards``: the card found in each photo, where it was), and of the same size for their
    distance apart. Where most photos have a pair is the coordinates'; a painting's patches
    of the same inks pair up by chance, each photo's elsewhere."""
    candidates = [_candidates(photo, mine) for photo, mine in zip(photos, spots)]
    places = [None if card is None or photo.taps is not None else
              _canonical(_on_card(card, np.array([[a.centre, b.centre] for (a, b), _ in mine],
                                                 np.float64).reshape(-1, 2)).reshape(-1, 2, 2))
              for photo, mine, card in zip(photos, candidates, cards)]
    every_look = [np.array([look for _, look in mine]).reshape(-1, 2)
                  for photo, mine in zip(photos, candidates) if photo.taps is None]
    untapped = [place for photo, place in zip(photos, places) if photo.taps is None]
    # where on the card and of what size most photos have a pair (of those nearly as
    # shared, the largest: a badge and the icon printed beside it pair up alike on every
    # card, the badge larger)
    typical_place, typical_look = None, None
    placed = [np.concatenate([place, look], axis=1)
              for look, place in zip(every_look, untapped) if place is not None]
    if len(placed) >= len(every_look) / 2:
        typical = _most_shared(placed, np.concatenate([PLACE, ALIKE]), largest=5)
        if typical is not None:
            typical_place, typical_look = typical[:4], typical[4:]
    else:
        typical_look = _most_shared(every_look, ALIKE, largest=1)
    aspects = [_aspect(card) for card in cards if card is not None]
    aspect = float(np.median(aspects)) if aspects else None
    found = []
    for index, (photo, mine, place, card) in enumerate(zip(photos, candidates, places, cards)):
        if photo.taps is not None:
            if mine:
                found.append(_Found(photo, *mine[0][0], True, card))
            else:
                skipped.append(f"{photo.name}: no coordinate of its colours where it was "
                               "tapped")
            continue
        looks_now = np.array([look for _, look in mine]).reshape(-1, 2)
        fitting, misfit = _fitting(looks_now, typical_look, place, typical_place, 1.0)
        if not fitting.any():  # a second chance: the card's outline found a little off, a
            # coordinate's spot split from its bar
            fitting, misfit = _fitting(looks_now, typical_look, place, typical_place, LOOSER)
        best = int(np.argmin(np.where(fitting, misfit, np.inf))) if fitting.any() else -1
        if best >= 0 and place is None and typical_place is not None and aspect is not None:
            # the card not told from its table: of the pairs of the coordinates' size, the
            # one where the card's outline lies, as the other photos place it around them
            loose, _ = _fitting(looks_now, typical_look, None, None, LOOSER)
            best = _outlined(photo.image, mine, loose, typical_place, aspect)
        if best >= 0:
            top, bottom = mine[best][0]
            found.append(_Found(photo, top, bottom, top.colour != bottom.colour, card))
            continue
        if best == RIVALLED:
            reason = (f"{photo.name}: the card could not be told from the table around it: "
                      "take it again with the whole card on a plain table")
        else:
            colours = " and ".join(sorted({c.color for c in photo.card.coordinates}))
            reason = (f"{photo.name}: no two coordinates of its colours ({colours}) were "
                      "found where the other photos show them")
        skipped.append(reason)
        if unsettled is not None and mine:
            unsettled[index] = _Unsettled(photo, [pair for pair, _ in mine], reason, card)
    return found


@dataclass(frozen=True)
class _Unsettled:
    """A photo whose coordinates were not told by where they lie on the card (the card not
    told from its table, or its pairs all off their place): its pairs of its colours."""

    photo: TeachingPhoto
    pairs: list[tuple[Spot, Spot]]
    reason: str
    """What ``skipped`` says of it, unless ``_read_back`` finds its coordinates."""
    card: np.ndarray | None


READ_BACK_MARGIN = 20.0
"""An unsettled photo's pair is its coordinates when the network reads its label there this
many times likelier than on any pair of two other places in the photo."""
SAME_PLACE = 0.25
"""A spot this near (a part of the coordinates' distance apart) to one of a pair's is of the
same coordinate (a number and its bar, found apart)."""


def _read_back(unsettled: list[_Unsettled], model: CardModel) -> list[_Found]:
    """The coordinates of photos their place on the card did not settle, read by a network
    taught from the other photos: of the photo's pairs of its label's colours, the one that
    shows the label's two numbers, plainly (``SURE``) and plainly more than any pair of two
    other places (``READ_BACK_MARGIN``, ``SAME_PLACE``)."""
    found = []
    for item in unsettled:
        card = item.photo.card
        wanted = [LABELS.index(str(c)[1]) for c in (card.top, card.bottom)]
        poses = [Pose.between(a.centre, b.centre) for a, b in item.pairs]
        chances = coordinate_chances(Pyramid(item.photo.image), poses, model)
        scores = chances[:, 0, wanted[0]] * chances[:, 1, wanted[1]]
        best = int(np.argmax(scores))
        ends = [spot.centre for spot in item.pairs[best]]
        near = SAME_PLACE * poses[best].length
        elsewhere = [score for pair, score in zip(item.pairs, scores)
                     if all(math.dist(spot.centre, end) > near for spot in pair for end in ends)]
        if scores[best] >= SURE and all(scores[best] >= READ_BACK_MARGIN * score
                                        for score in elsewhere):
            top, bottom = item.pairs[best]
            found.append(_Found(item.photo, top, bottom, True, item.card))
    return found


def _fitting(looks: np.ndarray, typical_look: np.ndarray | None, place: np.ndarray | None,
             typical_place: np.ndarray | None, slack: float) -> tuple[np.ndarray, np.ndarray]:
    """Which of a photo's pairs lie as most photos' do (of their size, at their place on the
    card: ``ALIKE`` and ``PLACE`` times ``slack``), and how far off each is."""
    fitting = np.ones(len(looks), bool) if typical_look is None else \
        _near(looks, typical_look, ALIKE * slack)
    misfit = np.abs((looks - (0 if typical_look is None else typical_look)) / ALIKE
                    ).max(axis=1) if len(looks) else np.zeros(0)
    if place is not None and typical_place is not None:
        at_place = fitting & _near(place, typical_place, PLACE * slack)
        # a card told badly from its table (a card the table's colour) puts every pair off
        # its place: the one pair of the coordinates' size stands then
        if at_place.any() or fitting.sum() != 1:
            fitting = at_place
            misfit = np.maximum(misfit, np.abs((place - typical_place) / PLACE).max(axis=1))
    return fitting, misfit


def _outlined(image: np.ndarray, pairs: list[tuple[tuple[Spot, Spot], np.ndarray]],
              fitting: np.ndarray, place: np.ndarray, aspect: float) -> int:
    """Of the fitting pairs, the one around which a card of the deck's proportions, placed as
    the other photos show it (``place``), has its outline on the photo's edges; ``RIVALLED``
    when a card placed elsewhere, around other spots, has nearly as plain an outline. Two
    spots of one coordinate (its number and its bar) place the card a little apart: the same
    card (``SAME_OUTLINE``), no rival."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    outlines = {k: _outline_step(lab, pairs[k][0], place, aspect)
                for k in np.nonzero(fitting)[0]}
    best = max(outlines, key=lambda k: outlines[k][0])
    step, corners = outlines[best]
    if step < PLAIN_OUTLINE or corners is None:
        return RIVALLED
    width = float(np.linalg.norm(corners[1] - corners[0]))
    for other, other_corners in outlines.values():
        if other > OUTLINE_RIVAL * step and other_corners is not None and \
                _corners_apart(corners, other_corners) > SAME_OUTLINE * width:
            return RIVALLED
    return int(best)


def _corners_apart(one: np.ndarray, other: np.ndarray) -> float:
    """How far apart two outlines' corners lie at the most, either outline turned half
    round (a card placed from its two coordinates the other way round)."""
    return min(float(np.linalg.norm(np.roll(other, shift, axis=0) - one, axis=1).max())
               for shift in (0, 2))


def _outline_step(lab: np.ndarray, pair: tuple[Spot, Spot], place: np.ndarray,
                  aspect: float) -> tuple[float, np.ndarray | None]:
    """How plainly a card's outline shows around a pair of spots: the card placed so that
    the pair lies where ``place`` says (fractions of its width and length, ``_canonical``,
    either spot first), the median colour step (Lab) across its sides, inside to outside;
    and that card's corners (None where no side of it lies in the photo)."""
    card = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, aspect], [0.0, aspect]])
    marks = place.reshape(2, 2) * [1.0, aspect]
    ends = np.array([pair[0].centre, pair[1].centre], np.float64)
    height, width = lab.shape[:2]
    best, best_corners = 0.0, None
    for ours in (marks, marks[::-1]):
        # the similarity taking the card's two marks onto the pair (complex numbers: one
        # multiplication turns and scales)
        a, b = complex(*ours[0]), complex(*ours[1])
        p, q = complex(*ends[0]), complex(*ends[1])
        if abs(b - a) < 1e-9:
            continue
        scale = (q - p) / (b - a)
        corners = [p + scale * (complex(*c) - a) for c in card]
        reach = OUTLINE_REACH * abs(scale)
        steps = []
        for k in range(4):
            start, end = corners[k], corners[(k + 1) % 4]
            outward = (end - start) / abs(end - start) * -1j  # clockwise card: out is left
            for t in np.linspace(0.15, 0.85, OUTLINE_SAMPLES):  # clear of round corners
                point = start + t * (end - start)
                inside, outside = point - reach * outward, point + reach * outward
                xy = np.array([[inside.real, inside.imag], [outside.real, outside.imag]])
                if (xy < 0).any() or (xy[:, 0] >= width - 1).any() or \
                        (xy[:, 1] >= height - 1).any():
                    continue
                colours = lab[xy[:, 1].round().astype(int), xy[:, 0].round().astype(int)]
                steps.append(float(np.linalg.norm(colours[0].astype(np.float64)
                                                  - colours[1])))
        if len(steps) >= OUTLINE_SAMPLES:  # a side's worth of the outline in the photo
            step = float(np.median(steps))
            if step > best:
                best = step
                best_corners = np.array([[c.real, c.imag] for c in corners])
    return best, best_corners


def _candidates(photo: TeachingPhoto, spots: list[Spot]
                ) -> list[tuple[tuple[Spot, Spot], np.ndarray]]:
    """The pairs of spots that may be the photo's two coordinates (the tapped pair alone,
    when taps were given), each with its look: log of the spots' size over their distance,
    log of their size over the photo's."""
    top_colour, bottom_colour = (c.color for c in photo.card.coordinates)
    if photo.taps is not None:
        tapped = _tapped(photo, spots, top_colour, bottom_colour)
        return [] if isinstance(tapped, str) else [((tapped.top, tapped.bottom),
                                                    np.zeros(2))]
    diagonal = math.hypot(*photo.image.shape[:2])
    xs = np.array([s.x for s in spots])
    ys = np.array([s.y for s in spots])
    sizes = np.array([s.size for s in spots])
    colours = np.array([s.colour for s in spots])
    length = np.hypot(xs[:, None] - xs[None, :], ys[:, None] - ys[None, :])
    larger = np.maximum(sizes[:, None], sizes[None, :])
    fits = ((colours[:, None] == top_colour) & (colours[None, :] == bottom_colour)
            & (sizes[:, None] <= SAME_SIZE * sizes[None, :])
            & (sizes[None, :] <= SAME_SIZE * sizes[:, None])
            & (length >= SPACING[0] * larger) & (length <= SPACING[1] * larger))
    # two spots of one colour: both orders (which is the top, the card's place says)
    first, second = np.nonzero(fits)
    size = (sizes[first] + sizes[second]) / 2
    looks = np.stack([np.log(size / length[first, second]), np.log(size / diagonal)], axis=1)
    return [((spots[a], spots[b]), look) for a, b, look in zip(first, second, looks)]


ALIKE = np.array([0.25, 0.4])
"""Two pairs are of a size when their logs (``_candidates``) differ by less than these."""
PLACE = np.array([0.1, 0.1, 0.1, 0.1])
"""Two pairs lie at one place on their cards when their fractions (``_canonical``) differ by
less than these."""
LOOSER = 1.6
"""Where no pair of a photo is of that size at that place, one this many times as far off
is taken."""
RIVALLED = -2
"""``_outlined``'s answer when no pair stands out."""
OUTLINE_SAMPLES = 12
"""Places on each side of a card where its outline is looked for."""
PLAIN_OUTLINE = 12.0
"""A card's outline is plain where the colour steps across it by this much (Lab)."""
OUTLINE_RIVAL = 0.8
"""Another pair whose outline steps this much of the best's rivals it."""
OUTLINE_REACH = 0.04
"""How far inside and outside a card's side its colours are compared (of its width)."""
SAME_OUTLINE = 0.25
"""Two outlines whose corners lie within this part of the card's width are one card's."""


def _near(values: np.ndarray, typical: np.ndarray, tolerance: np.ndarray) -> np.ndarray:
    return (np.abs(values - typical) <= tolerance).all(axis=1)


def _most_shared(values: list[np.ndarray], tolerance: np.ndarray,
                 largest: int | None = None) -> np.ndarray | None:
    """The value (of pairs: ``_candidates``, ``_canonical``) that most photos have a pair
    near: each photo (an array of its pairs' values) votes once for every cell it has a pair
    in, on grids of cells one and a half ``tolerance`` a side, shifted half a cell or not
    along each axis (values near each other share a cell on one of them). With
    ``largest``, of the values nearly as shared (``NEARLY_AS_SHARED``), the one largest in
    that column (a badge and the icon beside it pair up alike on every card: the badge is
    the larger)."""
    cell = tolerance * 1.5
    dims = len(tolerance)
    shifts = np.array(np.meshgrid(*[(0.0, 0.5)] * dims, indexing="ij")).reshape(dims, -1).T
    # (a pair far off any card is as good as at the grid's edge: it keeps the numbers below)
    mine_cells = [np.clip(np.floor(np.unique(mine, axis=0)[:, None, :] / cell + shifts),
                          -FAR_CELL, FAR_CELL).astype(np.int64)
                  for mine in values if len(mine)]
    if not mine_cells:
        return None
    # each grid's cell as one number (its coordinates counted from the lowest, in a base
    # wider than any span, the first the highest digit; above them, which grid), so that a
    # photo's votes and then everyone's are counted by one flat sort
    every = np.concatenate([cells.reshape(-1, dims) for cells in mine_cells])
    low = every.min(axis=0) - 1
    base = int((every.max(axis=0) - low).max()) + 2
    weights = base ** np.arange(dims, dtype=np.int64)[::-1]
    grid = np.arange(len(shifts), dtype=np.int64) * base ** dims
    voted = [np.unique(((cells - low) @ weights + grid).ravel()) for cells in mine_cells]
    keys, votes = np.unique(np.concatenate(voted), return_counts=True)
    # the grid's votes only point where to look (a cell between two clusters gathers both's
    # votes): the likeliest cells are each taken as the middle of the values near them, and
    # judged by how many photos truly have a pair that near
    shortlist = np.argsort(-votes, kind="stable")[:SHORTLIST]
    shortlist = shortlist[votes[shortlist] >= SHORTLIST_VOTES * votes[shortlist[0]]]
    voters = _Voters([mine for mine in values if len(mine)])
    chosen = [voters.middle((cells + 0.5 - shifts[which]) * cell, tolerance)
              for cells, which in zip((keys[shortlist, None] // weights) % base + low,
                                      keys[shortlist] // base ** dims)]
    support = np.array([voters.near(middle, tolerance) for middle in chosen])
    best = int(np.argmax(support))
    if largest is not None:
        shared = np.nonzero(support >= NEARLY_AS_SHARED * support[best])[0]
        best = int(shared[np.argmax([chosen[k][largest] for k in shared])])
    return chosen[best]


class _Voters:
    """Every photo's values (each an array of its pairs'), all in one array: each question
    below is a few operations on it, not a loop over the photos (a deck's hundreds of
    questions, thousands of pairs)."""

    def __init__(self, values: list[np.ndarray]) -> None:
        self.values = np.concatenate(values)
        self.owner = np.repeat(np.arange(len(values)), [len(mine) for mine in values])

    def middle(self, centre: np.ndarray, tolerance: np.ndarray) -> np.ndarray:
        """The middle of the values near ``centre``: the median of the nearest of each
        photo's that is within ``tolerance`` (one a photo); ``centre`` where none is."""
        off = np.abs(self.values - centre)
        inside = np.flatnonzero((off <= tolerance).all(axis=1))
        if not len(inside):
            return centre
        # each photo's nearest: the first of its values in the order of their distance (a
        # stable sort: of values as near, the first)
        owner = self.owner[inside]
        order = np.lexsort(((off[inside] / tolerance).max(axis=1), owner))
        firsts = inside[order[np.r_[0, np.flatnonzero(np.diff(owner[order])) + 1]]]
        return np.median(self.values[firsts], axis=0)

    def near(self, centre: np.ndarray, tolerance: np.ndarray) -> int:
        """How many photos have a value within ``tolerance`` of ``centre``."""
        close = (np.abs(self.values - centre) <= tolerance).all(axis=1)
        return len(np.unique(self.owner[close]))


NEARLY_AS_SHARED = 0.8
"""A value this share of photos have a pair near, of those the most shared one has, is nearly
as shared."""
SHORTLIST = 400
SHORTLIST_VOTES = 0.4
"""The cells of the most votes that ``_most_shared`` looks at closer: at most this many, each
with at least this share of the most votes."""
FAR_CELL = 300
"""The grids of ``_most_shared`` run this many cells either way (six values of up to 603
digits and the grid's number stay within 64 bits)."""


def _tapped(photo: TeachingPhoto, spots: list[Spot], top_colour: str, bottom_colour: str
            ) -> _Found | str:
    """The spots the user tapped: for each tap, the nearest spot of its colour that covers
    it (or nearly)."""
    assert photo.taps is not None
    chosen = []
    for (x, y), colour in zip(photo.taps, (top_colour, bottom_colour)):
        near = [(math.hypot(s.x - x, s.y - y) / s.size, s) for s in spots
                if s.colour == colour]
        near = [(d, s) for d, s in near if d <= 1.0]
        if not near:
            return "no coordinate of its colour where it was tapped"
        chosen.append(min(near, key=lambda item: item[0])[1])
    if chosen[0] == chosen[1]:
        return "both taps are on one coordinate"
    return _Found(photo, chosen[0], chosen[1], True)


def _inks(found: list[_Found], fallback: Palette) -> Palette:
    samples: dict[str, list[tuple[float, float]]] = {}
    for item in found:
        for spot in (item.top, item.bottom):
            ab = ink_colour(item.photo.image, spot)
            if ab is not None:
                samples.setdefault(spot.colour, []).append(ab)
    return settled(samples, fallback)


def _typical_ratios(found: list[_Found]) -> tuple[float, float]:
    """Each coordinate's spot size over the two coordinates' distance, the median over the
    photos (over both, where the colours do not say which is on top)."""
    ordered = [f.ratios for f in found if f.ordered]
    both = [r for f in found for r in f.ratios]
    if len(ordered) >= 3:
        return (float(np.median([r[0] for r in ordered])),
                float(np.median([r[1] for r in ordered])))
    typical = float(np.median(both)) if both else 0.5
    return (typical, typical)


# -- 2. the card's outline ------------------------------------------------------------------

def _outline(found: list[_Found]) -> np.ndarray:
    """The card's corners in its frame: the median over the photos where the card stands out
    from the table around it; a rectangle around the coordinates where none does."""
    outlines = []
    for item in found:
        quad = item.card
        if quad is not None:
            frame = _to_frame(item.pose, quad)
            outlines.append(_upright(frame))
    if len(outlines) >= 2:
        return np.median(np.array(outlines), axis=0)
    size = max(np.median([f.ratios for f in found], axis=0))
    return _upright(np.array([[-size, -size], [size, -size], [size, 1 + size],
                              [-size, 1 + size]], np.float64))


def _card_quad(image: np.ndarray) -> np.ndarray | None:
    """The card a teaching photo shows, told from the table by colour: the table is what the
    photo's border shows; the card is the largest region unlike it, as a rectangle (its
    corners, clockwise on the image); None where no region looks like a card."""
    factor = min(1.0, ROUGH_SIDE / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    band = max(2, min(h, w) // 25)
    border = np.concatenate([lab[:band].reshape(-1, 3), lab[-band:].reshape(-1, 3),
                             lab[:, :band].reshape(-1, 3), lab[:, -band:].reshape(-1, 3)])
    table = np.median(border, axis=0)
    spread = np.median(np.linalg.norm(border - table, axis=1))
    unlike = (np.linalg.norm(lab - table, axis=2) > max(10.0, 4.0 * spread)).astype(np.uint8)
    # specks of the table's grain and light first (joined to the card, they widen its
    # rectangle), then the card's own gaps closed (art of the table's colour)
    opening = max(3, int(min(h, w) * 0.015) | 1)
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_OPEN, np.ones((opening, opening), np.uint8))
    closing = max(3, int(min(h, w) * 0.03) | 1)
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_CLOSE, np.ones((closing, closing), np.uint8))
    contours, _ = cv2.findContours(unlike, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:3]:
        quad = cv2.boxPoints(cv2.minAreaRect(cv2.convexHull(contour))).astype(np.float64)
        aspect = _aspect(quad)
        area = cv2.contourArea(quad.astype(np.float32))
        if 1.05 <= aspect <= 2.2 and MIN_CARD_AREA * h * w <= area <= 0.9 * h * w:
            return quad / factor
    return None


def _alike(quads: Iterable[np.ndarray | None]) -> list[np.ndarray | None]:
    """The cards found, each left out (None) whose proportions are unlike most others': a
    region told badly from the table (the card and a patch of light beside it, or a planet
    painted on a card of the table's colour) is no card to place its coordinates on."""
    quads = list(quads)
    aspects = [None if quad is None else _aspect(quad) for quad in quads]
    known = [a for a in aspects if a is not None]
    if len(known) < 3:
        return quads
    typical = float(np.median(known))
    return [None if a is None or abs(math.log(a / typical)) > CARD_PROPORTION else quad
            for quad, a in zip(quads, aspects)]


def _aspect(quad: np.ndarray) -> float:
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(max(sides[0], sides[1]) / max(min(sides[0], sides[1]), 1e-9))


def _on_card(quad: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (N x 2) as fractions of the card's width and length (u, v) from one corner; which
    of two opposite corners is the first is not known (a card half round is the same
    rectangle): see ``_canonical``."""
    first, second = quad[1] - quad[0], quad[2] - quad[1]
    across, along = (first, second) if np.linalg.norm(first) <= np.linalg.norm(second) \
        else (second, first)
    origin = quad[0]
    if across[0] * along[1] - across[1] * along[0] < 0:  # one handedness on every photo
        origin, across = origin + across, -across
    return (points - origin) @ np.linalg.inv(np.column_stack([across, along])).T


def _canonical(pairs: np.ndarray) -> np.ndarray:
    """Pairs of spots on a card (N x 2 x 2, fractions ``_on_card``), each the same whichever
    way round the card was taken: the first spot nearer the card's first end (N x 4)."""
    top, bottom = pairs[:, 0], pairs[:, 1]
    turned = (top[:, 1] > bottom[:, 1] + 0.05) | \
        ((np.abs(top[:, 1] - bottom[:, 1]) <= 0.05) & (top[:, 0] > bottom[:, 0]))
    return np.where(turned[:, None, None], 1.0 - pairs, pairs).reshape(-1, 4)


def _to_frame(pose: Pose, points: np.ndarray) -> np.ndarray:
    matrix = np.vstack([pose.matrix, [0, 0, 1]])
    back = np.linalg.inv(matrix)
    mapped = np.hstack([points, np.ones((len(points), 1))]) @ back.T
    return mapped[:, :2]


def _upright(corners: np.ndarray) -> np.ndarray:
    """A card's four corners (in its frame) ordered clockwise from the upright face's
    top-left: the card's long axis points from the top coordinate towards the bottom one."""
    centre = corners.mean(axis=0)
    order = np.argsort(np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0]))
    quad = corners[order]
    sides = quad - np.roll(quad, -1, axis=0)  # side k from corner k + 1 to corner k
    lengths = np.linalg.norm(sides, axis=1)
    long_k = int(np.argmax(lengths[:2] + lengths[2:]))
    down = sides[long_k] / max(lengths[long_k], 1e-9)
    if down[1] < 0:  # towards the bottom coordinate, at (0, 1)
        down = -down
    right = np.array([down[1], -down[0]])
    along, across = quad @ down, quad @ right
    top_two = np.argsort(along)[:2]
    first = int(top_two[np.argmin(across[top_two])])
    quad = np.roll(quad, -first, axis=0)
    if (quad[1] - quad[0]) @ right < 0:  # clockwise on the image: the next corner is right
        quad = np.vstack([quad[0], quad[1:][::-1]])
    return quad


# -- 3. which coordinate is on top ----------------------------------------------------------

def _oriented(found: list[_Found], ratios: tuple[float, float]
              ) -> tuple[Layout, list[_Found]]:
    """The layout (whether the bottom coordinate is printed upside down), and every card with
    its top coordinate decided: by the colours where they differ, else by which way round its
    numbers look most like the same numbers on the other cards."""
    sides = (SIDE * ratios[0], SIDE * ratios[1])
    size = max(ratios)
    ordered = [f for f in found if f.ordered]
    straight, turned = Layout(sides, size, False), Layout(sides, size, True)
    looks = {False: _looks(ordered, straight), True: _looks(ordered, turned)}
    bottom_turned = _agreement(looks[True]) > _agreement(looks[False])
    layout = turned if bottom_turned else straight
    known = looks[bottom_turned]
    result = []
    for item in found:
        if not item.ordered:
            flipped = replace(item, top=item.bottom, bottom=item.top, ordered=True)
            costs = [_distance_to(known, _looks([f], layout)) for f in (item, flipped)]
            item = flipped if costs[1] < costs[0] else replace(item, ordered=True)
        result.append(item)
    return layout, result


def _looks(found: list[_Found], layout: Layout) -> list[tuple[str, int, np.ndarray]]:
    """Each card's two coordinates as the photo shows them: (number, place, description)."""
    out = []
    for item in found:
        pyramid = Pyramid(item.photo.image)
        pose = item.pose
        patches = np.array([sample(pyramid, patch_matrix(pose, (0.0, 0.0), layout.sides[0])),
                            sample(pyramid, patch_matrix(pose, (0.0, 1.0), layout.sides[1],
                                                         layout.bottom_turned))])
        described = describe(patches)
        top, bottom = (str(c)[1] for c in item.photo.card.coordinates)
        out += [(top, 0, described[0]), (bottom, 1, described[1])]
    return out


def _agreement(looks: list[tuple[str, int, np.ndarray]]) -> float:
    """How often a bottom coordinate's nearest top coordinate shows its number."""
    tops = [(n, d) for n, place, d in looks if place == 0]
    bottoms = [(n, d) for n, place, d in looks if place == 1]
    if not tops or not bottoms:
        return 0.0
    top_numbers = np.array([n for n, _ in tops])
    top_looks = np.array([d for _, d in tops])
    hits = [top_numbers[np.argmin(np.linalg.norm(top_looks - d, axis=1))] == n
            for n, d in bottoms if n in top_numbers]
    return float(np.mean(hits)) if hits else 0.0


def _distance_to(known: list[tuple[str, int, np.ndarray]],
                 mine: list[tuple[str, int, np.ndarray]]) -> float:
    """How far a card's coordinates are from the same numbers on the other cards."""
    total = 0.0
    for number, _, look in mine:
        same = [d for n, _, d in known if n == number]
        if same:
            total += float(np.linalg.norm(np.array(same) - look, axis=1).min())
    return total


# -- 4. learning ----------------------------------------------------------------------------

def _views_each(deck: Deck, photos: int) -> int:
    """How many views of each photo to learn from."""
    return int(np.clip(min(VIEW_PIXELS / view_area(deck), ALL_VIEWS) / photos, *VIEWS))


def _sources(found: list[_Found]) -> list[Source]:
    return [Source(Pyramid(f.photo.image), f.pose,
                   (str(f.photo.card.top)[1], str(f.photo.card.bottom)[1]),
                   (f.photo.card.top.color, f.photo.card.bottom.color)) for f in found]


# -- 5. checks ------------------------------------------------------------------------------

def _checked(found: list[_Found], model: CardModel, seed: int
             ) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """Codes read wrongly or not at all in new views of their photos, or in the photos
    themselves; and the taught codes read in their place."""
    deck = Deck(model.layout, model.palette, model.outline)
    views = make_views(_sources(found), deck, CHECK_VIEWS, seed, CHECK_SMALLEST, covered=0.0)
    chances = model.classifier.probabilities(describe(views.patches))
    right: dict[str, list[bool]] = {}
    alike: set[tuple[str, str]] = set()
    for top, bottom, index in views.pairs:
        card = found[index].photo.card
        read = _code_of(chances[top], chances[bottom], card, model)
        right.setdefault(card.code, []).append(read == card.code)
        if read is not None and read != card.code:
            first, second = sorted((read, card.code))
            alike.add((first, second))
    for index in views.missed:
        right.setdefault(found[index].photo.card.code, []).append(False)
    weak = _weak(right)
    # each photo read at the size its card is printed there, as at a calibrated table:
    # what is checked is that its code reads, not that every size is searched for cards (a
    # fourth to a tenth of the time: a photo of the own starfield deck in 81 ms rather than
    # 314, of another generator's ring deck in 21 rather than 195; a 60-photo deck's
    # teaching about 8 s shorter here)
    reads = side_by_side(lambda f: read_cards(f.photo.image, model,
                                              f.pose.length * model.long_side), found)
    weak |= {f.photo.card.code for f, read in zip(found, reads)
             if not any(r.card is not None and r.card.code == f.photo.card.code for r in read)}
    return tuple(sorted(weak)), tuple(sorted(alike))


def _weak(right: dict[str, list[bool]]) -> set[str]:
    """The codes read right in too few of their check views (``right``: each view's outcome,
    by code), against ``CHECK_PASS`` and the deck's typical code."""
    rates = {code: float(np.mean(results)) for code, results in right.items() if results}
    if not rates:
        return set()
    typical = float(np.median(list(rates.values())))
    if typical < CHECK_FAILED:
        return {code for code, rate in rates.items() if rate < CHECK_PASS}
    # a code's share of views read right, by chance, spreads so about the typical share
    return {code for code, rate in rates.items() if rate < min(
        CHECK_PASS, typical - CHECK_SPREAD * math.sqrt(typical * (1 - typical)
                                                       / len(right[code])))}


def _code_of(top: np.ndarray, bottom: np.ndarray, card: Card, model: CardModel) -> str | None:
    """What the reader's rule makes of a view's two patches (colours as the card's)."""
    return sure_code(code_scores(top, bottom, model, (card.top.color, card.bottom.color)))
