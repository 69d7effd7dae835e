"""Teaching a board print: one photo of each board, with a tap on each of its four coordinates
(jump, scan, landing, landing) and the numbers printed there.

1. The print's inks, from the tapped coordinates (first as their names say, then as the photos
   show them), and the coordinates looked for again with those inks.
2. Where the print puts the four, and how big: each photo's four in the frame its jump and
   scan set (``Pose``), the median over the photos.
3. Many views of every photo as a table's camera sees a board (the card wing's ``views``): the
   jump and scan cut as a card's two coordinates are, the two landings as another card's. A
   network learns from their patches to name a coordinate's number, or nothing.
4. Each photo read back as the reader reads a board; those it does not read are reported.

Every number 1-4 must show on some taught board: a number the network never saw, it could
take for another one.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from vision.boards.model import COLOURS, BoardPrint
from vision.boards.reader import read_board
from vision.cards.classifier import Committee
from vision.cards.features import describe
from vision.cards.learning import SIDE, SMALLEST_PHOTO, TEACHING_HUES, TeachingError
from vision.cards.model import LABELS
from vision.cards.palette import Palette, settled
from vision.cards.pose import Pose, Pyramid
from vision.cards.spots import Spot, find_spots, ink_colour
from vision.cards.views import Deck, Layout, Source, make_views

NAMES = ("jump", "scan", "landing", "landing")
TAP_REACH = 1.0
"""A tap picks the nearest spot of its colour whose centre lies within this many of the spot's
sizes."""
VIEWS = 2400
VIEWS_PER_BOARD = 300
"""Views made of each pair kind (the jump and scan; the landings), about: this many for each
board taught, up to ``VIEWS`` (teaching's time). At 150 the ``corners`` print, its jump and
scan set close together, was read in 119 of 192 photos on board seeds 5757, 4409, 7321 and
2024, and 7 of its 32 teach photos not read back; at 300, 133 and 5, the other two prints 368
and 369 of 384, none wrong; eight boards teach in 32-40 s here (make bench), not 15."""
BANDED = 0.3
"""The share of views under a flickering lamp (``views``): banded light across a number's
strokes makes a 1 look like a 3 to a network that never saw it."""
MOST_REPEATS = 4
"""A pair showing a rare number is viewed up to this many times as often as one showing the
commonest."""
MARGIN = 2.0
"""The board shown around a pair in its views, in the pair's coordinate sizes."""


class BoardTeachingError(TeachingError):
    """Board photos, taps or numbers that cannot teach a print; the message says why."""


@dataclass(frozen=True)
class BoardPhoto:
    name: str
    image: np.ndarray
    taps: tuple[tuple[float, float], ...]
    """Image points on the jump, the scan and the two landings."""
    numbers: tuple[int, int, int, int]
    """The numbers printed there, in the same order."""


@dataclass(frozen=True)
class TaughtBoards:
    board: BoardPrint
    photos: int
    """Photos taught from."""
    skipped: tuple[str, ...]
    """Photos that could not be used, each with the reason."""
    unread: tuple[str, ...]
    """Photos the taught print does not read back: take those boards again."""


@dataclass(frozen=True)
class _Found:
    photo: BoardPhoto
    spots: tuple[Spot, Spot, Spot, Spot]

    def pose(self, pair: int) -> Pose:
        first, second = self.spots[2 * pair:2 * pair + 2]
        return Pose.between(first.centre, second.centre)

    def names(self, pair: int) -> tuple[str, str]:
        first, second = self.photo.numbers[2 * pair:2 * pair + 2]
        return (str(first), str(second))

    def in_frame(self, pair: int, other: int) -> np.ndarray:
        """The ``other`` pair's two centres in ``pair``'s frame (2 x 2)."""
        return _face_points(self.pose(pair), self.spots[2 * other:2 * other + 2])


def teach_boards(photos: list[BoardPhoto], seed: int = 0, views: int | None = None
                 ) -> TaughtBoards:
    """The print of the boards in ``photos``; ``views``: how many views of each pair kind to
    learn from (fewer teach faster, and read less; by default as ``VIEWS_PER_BOARD`` says)."""
    skipped = [reason for reason in map(_unusable, photos) if reason]
    photos = [photo for photo in photos if not _unusable(photo)]
    palette = Palette.plain()
    first = _tapped_all(photos, palette, TEACHING_HUES[0], [])
    samples: dict[str, list[tuple[float, float, float]]] = {}
    for board in first:
        for spot in board.spots:
            colour = ink_colour(board.photo.image, spot)
            if colour is not None:
                samples.setdefault(spot.colour, []).append(colour)
    palette = settled(samples, palette)
    found = _tapped_all(photos, palette, TEACHING_HUES[1], skipped)
    if not found and skipped:
        raise BoardTeachingError("no board's four coordinates were found where they were "
                                 "tapped ({first})", first=skipped[0])
    if not found:
        raise BoardTeachingError("no board's four coordinates were found where they were "
                                 "tapped")
    unseen = sorted({1, 2, 3, 4} - {n for f in found for n in f.photo.numbers})
    if unseen:
        raise BoardTeachingError(
            "no taught board shows these numbers: {numbers}. Teach a board that does (the "
            "reader must have seen each number 1 to 4 in this print)",
            numbers=", ".join(map(str, unseen)))
    places, sizes = _placing(found)
    pairs = (_pair_layout(found, 0), _pair_layout(found, 1))
    views = views or min(VIEWS, VIEWS_PER_BOARD * len(found))
    shown = Counter(str(n) for f in found for n in f.photo.numbers)
    coloured = [_recoloured(f.photo.image, palette) for f in found]
    patches, labels = [], []
    for pair, layout in enumerate(pairs):
        deck = Deck(layout, palette, _outline(layout))
        other = 1 - pair
        # a number few boards show is viewed as often as a common one (the rarer of a
        # pair's two numbers decides)
        sources = [Source(Pyramid(image), f.pose(pair), f.names(pair),
                          (shift[COLOURS[2 * pair]], shift[COLOURS[2 * pair + 1]]),
                          ((f.in_frame(pair, other), pairs[other].sides, f.names(other)),))
                   for f, inks in zip(found, coloured) for image, shift in inks
                   for _ in range(_repeats(f.names(pair), shown))]
        each = max(1, round(views / len(sources)))
        made = make_views(sources, deck, each, seed + pair, banded=BANDED)
        patches.append(made.patches)
        labels += made.labels
    targets = np.array([LABELS.index(label) for label in labels])
    classifier = Committee.fit(describe(np.concatenate(patches)), targets, LABELS, seed,
                               own=True)
    taught = BoardPrint(palette, places, sizes, pairs, classifier)
    unread = []
    for f in found:
        read = read_board(f.photo.image, taught)
        if (read.jump, read.scan, read.landing) != (f.photo.numbers[0], f.photo.numbers[1],
                                                   tuple(f.photo.numbers[2:])):
            unread.append(f"{f.photo.name}: {read.reason or 'read otherwise'}")
    return TaughtBoards(taught, len(found), tuple(skipped), tuple(unread))


def _repeats(names: tuple[str, str], shown: Counter[str]) -> int:
    """How many times a pair is viewed: the commonest number's count over its rarer one's."""
    return int(np.clip(round(max(shown.values()) / min(shown[n] for n in names)), 1,
                       MOST_REPEATS))


def _recoloured(image: np.ndarray, palette: Palette) -> list[tuple[np.ndarray, dict[str, str]]]:
    """The photo as it is and with its three inks passed round (blue printed green, green
    orange, orange blue; and once more), with which ink became which: a board shows a number
    in one or two inks, and the network is to know it in each."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    a, b = lab[..., 1] - 128, lab[..., 2] - 128
    angle = np.degrees(np.arctan2(b, a))
    chroma = np.hypot(a, b)
    nearest = np.full(angle.shape, -1)
    best = np.full(angle.shape, INK_REACH)
    for k, ink in enumerate(palette.angles):
        apart = np.abs((angle - ink + 180.0) % 360.0 - 180.0)
        nearest[apart < best] = k
        best = np.minimum(best, apart)
    out = [(image, {c: c for c in INKS})]
    for turn in (1, 2):
        new_angle, new_chroma = angle.copy(), chroma.copy()
        for k in range(3):
            j = (k + turn) % 3
            mine = nearest == k
            new_angle[mine] += palette.angles[j] - palette.angles[k]
            new_chroma[mine] *= palette.chroma[j] / palette.chroma[k]
        moved = lab.copy()
        moved[..., 1] = 128 + new_chroma * np.cos(np.radians(new_angle))
        moved[..., 2] = 128 + new_chroma * np.sin(np.radians(new_angle))
        recoloured = cv2.cvtColor(np.clip(moved, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)
        out.append((recoloured, {c: INKS[(k + turn) % 3] for k, c in enumerate(INKS)}))
    return out


INKS = ("B", "G", "O")
INK_REACH = 50.0
"""A pixel whose colour lies within this many degrees of an ink's is of that ink."""


def _unusable(photo: BoardPhoto) -> str:
    """Why a photo cannot teach (its size, its taps, its numbers), or nothing."""
    if photo.image.ndim != 3 or min(photo.image.shape[:2]) < SMALLEST_PHOTO:
        return f"{photo.name}: too small to show a board"
    if len(photo.taps) != 4 or len(photo.numbers) != 4:
        return f"{photo.name}: a board is taught from four taps and the four numbers there"
    if any(n not in (1, 2, 3, 4) for n in photo.numbers):
        return f"{photo.name}: a board's numbers are 1 to 4"
    if not all(math.isfinite(v) for tap in photo.taps for v in tap):
        return f"{photo.name}: a tap is not on the photo"
    return ""


def _tapped_all(photos: list[BoardPhoto], palette: Palette, hue: float,
                skipped: list[str]) -> list[_Found]:
    found = []
    for photo in photos:
        spots = find_spots(photo.image, palette, hue=hue)
        chosen: list[Spot] = []
        for (x, y), colour, name in zip(photo.taps, COLOURS, NAMES):
            near = [(math.hypot(s.x - x, s.y - y) / max(s.size, 1.0), k)
                    for k, s in enumerate(spots) if s.colour == colour and s not in chosen]
            near = [item for item in near if item[0] <= TAP_REACH]
            if not near:
                skipped.append(f"{photo.name}: no {_INK_NAMES[colour]} coordinate where the "
                               f"{name} was tapped")
                break
            chosen.append(spots[min(near)[1]])
        else:
            found.append(_Found(photo, tuple(chosen)))  # type: ignore[arg-type]
    return found


_INK_NAMES = {"B": "blue", "G": "green", "O": "orange"}


def _placing(found: list[_Found]) -> tuple[np.ndarray, np.ndarray]:
    """Where the print puts the four coordinates in the jump-scan frame, and how big."""
    places, sizes = [], []
    for f in found:
        pose = f.pose(0)
        places.append(_face_points(pose, f.spots))
        sizes.append([s.size / pose.length for s in f.spots])
    return np.median(np.array(places), axis=0), np.median(np.array(sizes), axis=0)


def _face_points(pose: Pose, spots: tuple[Spot, ...]) -> np.ndarray:
    """The spots' centres in ``pose``'s frame (N x 2)."""
    matrix = pose.matrix
    centres = np.array([s.centre for s in spots])
    return np.linalg.solve(matrix[:, :2], (centres - matrix[:, 2]).T).T


def _pair_layout(found: list[_Found], pair: int) -> Layout:
    """How a pair's two coordinates are cut in their frame: each patch ``SIDE`` times its
    spot's size, as the card wing cuts a card's."""
    ratios = np.median([[f.spots[2 * pair + k].size / max(f.pose(pair).length, 1e-9)
                         for k in (0, 1)] for f in found], axis=0)
    return Layout((SIDE * float(ratios[0]), SIDE * float(ratios[1])), float(ratios.max()),
                  False)


def _outline(layout: Layout) -> np.ndarray:
    """The part of the board a pair's views show, in the pair's frame (4 x 2, clockwise)."""
    m = MARGIN * layout.size
    return np.array([[-m, -m], [m, -m], [m, 1 + m], [-m, 1 + m]])
