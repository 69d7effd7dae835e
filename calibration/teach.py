"""Card teaching: a deck's printing learned from labelled photos (DESIGN.md §5.2).

From a folder, the file name is the card code with ``-`` for ``/``: ``B3-G2.png``; several photos
of one card as ``B3-G2.1.png``, ``B3-G2.2.png``. On the touchscreen a photo comes from the scan
tray with two taps: where the top coordinate is printed, and where the bottom one is.

Teaching finds the card in each photo, turns every card the same way up, and learns where the
two coordinates are printed: taps say so; without taps it is the pair of places whose look
follows the photos' labels best (the top coordinate's place looks alike on cards that share a
top coordinate, and unlike on the others). Then each place's looks are kept, a few slightly
shifted copies of each, with how far a look may be from them and still count. Last, every photo
is read by a model taught without it: codes it reads narrowly or wrongly are reported, so the
user can add photos of them.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.box import BoxProfile, load_box
from companion.rules import Card, MalformedEventError
from vision.card_finder import (WEAK_SIDE, CardShape, edge_map, find_cards, moved_side,
                                refined, side_contrasts, snapped, upright_order)
from vision.cards import (CANON, CELLS, LOOK_SIZE, MIN_MARGIN, CardModel, Looks, Region, blank,
                          describe_many, lab_face, look, read_region, shifted_looks,
                          upright_face)
from vision.sources import SourceError, read_image

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
COPIES = 8
"""Slightly shifted copies of each photo's looks (the outline is found to a pixel or two)."""
DISCOVERY_CELLS = 10
"""Cells per side when places are compared while searching for the coordinates: fine enough
for a number's shape, not only its colour."""
REGION_SIZES = ((0.26, 1.0), (0.34, 1.0), (0.44, 1.0), (0.56, 1.0), (0.26, 1.5), (0.34, 1.5),
                (0.44, 1.5))
"""Candidate places: width as a fraction of the card's, and height over width (in pixels)."""
REGION_STEP = (0.05, 0.035)
LIMIT_FACTOR = 6.0
"""A look counts up to this many times the typical distance between taught looks."""
ODD = LIMIT_FACTOR
"""A teaching card this many times further than typical from its peers is left out: a look
the reader would not take for its own label at the table."""
PHOTO_ASPECT = 1.45
"""Proportions a teaching photo's card is first looked for with (any card from 1.1 to 1.8)."""
PHOTO_CARD_SIZES = (0.45, 0.65, 0.85)
"""A card's long side in a photo taken of it, as fractions of the photo's height."""
MIN_PHOTO_AREA = 0.03
"""A teaching photo's card covers more of it than this."""
ALIKE_AGREEMENT = 0.8
ALIKE_SLACK = 0.05
"""The top and bottom coordinates count as printed alike when a look read among the other
place's looks finds its own coordinate at least this often, and nearly (this much less) as
often as among its own place's looks."""
ALIKE_MOVES = (-0.2, -0.1, 0.0, 0.1, 0.2)
"""How the bottom place is moved about (fractions of its size) while comparing it with the
top one."""
MIN_PARTNERS = 6
"""Photos whose label another photo shares: fewer, and the places cannot be learned from the
labels alone (taps, or more photos, are needed)."""


class TeachingError(ValueError):
    """A labelled photo that cannot be used, or a set that cannot teach; the message says
    which and what to do."""


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
    cards: int
    skipped: tuple[str, ...]
    """Files in the folder that are not labelled photos, with the reason."""
    weak: tuple[str, ...]
    """Codes the model reads wrongly or narrowly without their own photo: photograph them
    again (or more of them)."""


@dataclass
class _Card:
    photo: TeachingPhoto
    quad: np.ndarray
    faces: tuple[np.ndarray, np.ndarray]
    """The upright face both ways up (BGR, canonical size)."""
    turn: int = 0
    """Which of ``faces`` is the card's upright (0 or 1)."""


def card_of(path: Path) -> Card:
    """The card a photo's file name labels."""
    label = path.name.split(".", 1)[0]
    try:
        return Card.parse(label.replace("-", "/"))
    except MalformedEventError as error:
        raise TeachingError(f"{path.name}: the name is not a card code ({error})") from None


def missing_codes(taught: frozenset[str] | set[str], box: BoxProfile | None = None) -> list[str]:
    """The box deck's card codes not taught yet, in deck order."""
    deck = (box or load_box()).deck
    return sorted({card.code for card in deck} - set(taught))


TAPS_FILE = "taps.json"
"""Beside photos taken on the touchscreen: for each file, where the top and the bottom
coordinate were tapped (image pixels)."""


def read_taps(directory: Path) -> dict[str, tuple[tuple[float, float], tuple[float, float]]]:
    """The taps saved beside the photos; a damaged file counts as no taps (the photos are still
    taught, their coordinates found by comparing them)."""
    try:
        data = json.loads((directory / TAPS_FILE).read_text(encoding="utf-8"))
        return {str(name): ((float(a[0]), float(a[1])), (float(b[0]), float(b[1])))
                for name, (a, b) in data.items()}
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return {}


def add_photo(directory: Path, image: np.ndarray, card: Card,
              taps: tuple[tuple[float, float], tuple[float, float]]) -> str:
    """Keep a photo taken on the touchscreen (``B3-O1.png``, or ``B3-O1.2.png`` for a second
    one) with its taps; the file's name."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = card.code.replace("/", "-")
    count = 1
    name = f"{stem}.png"
    while (directory / name).exists():
        count += 1
        name = f"{stem}.{count}.png"
    if not cv2.imwrite(str(directory / name), image):
        raise OSError(f"{directory / name}: the photo could not be written")
    taps_now = read_taps(directory)
    taps_now[name] = taps
    text = json.dumps({k: [list(a), list(b)] for k, (a, b) in taps_now.items()})
    temporary = directory / f".{TAPS_FILE}.new"
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(directory / TAPS_FILE)
    return name


def photographed(directory: Path) -> dict[str, int]:
    """How many photos of each card code the folder holds."""
    counts: dict[str, int] = {}
    if directory.is_dir():
        for path in directory.iterdir():
            if path.suffix.lower() in IMAGE_SUFFIXES:
                try:
                    code = card_of(path).code
                except TeachingError:
                    continue
                counts[code] = counts.get(code, 0) + 1
    return counts


def teach_folder(folder: str | Path) -> Taught:
    directory = Path(folder)
    if not directory.is_dir():
        raise TeachingError(f"{directory}: not a folder")
    photos, skipped = [], []
    taps = read_taps(directory)
    for path in sorted(directory.iterdir()):
        if path.name == TAPS_FILE:
            continue
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            skipped.append(f"{path.name}: not an image file")
            continue
        try:
            card = card_of(path)
        except TeachingError as error:
            skipped.append(str(error))
            continue
        try:
            image = read_image(path)
        except SourceError as error:
            raise TeachingError(str(error)) from None
        photos.append(TeachingPhoto(path.name, image, card, taps.get(path.name)))
    if not photos:
        raise TeachingError(f"{directory}: no labelled card photos (named like B3-G2.png)")
    taught = teach(photos)
    return Taught(taught.model, taught.photos, taught.cards, tuple(skipped), taught.weak)


def teach(photos: list[TeachingPhoto]) -> Taught:
    return _teach([_find(photo) for photo in photos])


def _teach(cards: list[_Card]) -> Taught:
    """A deck taught from the cards found in its photos (one card per photo)."""
    if all(card.photo.taps is not None for card in cards):
        regions = _regions_from_taps(cards)
    else:
        _align(cards)
        regions = _discover(cards)
    regions = (_refine(cards, regions[0], 0), _refine(cards, regions[1], 1))
    distances = _settle(cards, regions)
    alike = _printed_alike(cards, regions)
    if alike is not None:
        regions = alike[0]
        distances = _settle(cards, regions)
    odd = _odd_ones(cards, regions, distances)
    kept = [card for k, card in enumerate(cards) if k not in odd]
    if len(kept) < len(cards) * 0.75:
        raise TeachingError(
            f"{len(odd)} of {len(cards)} photos do not look like the others where the "
            "coordinates are printed: take them again with the card alone, flat and whole, "
            f"first {', '.join(cards[k].photo.name for k in sorted(odd)[:5])}")
    looks, rows = _looks(kept, regions, distances[[k for k in range(len(cards))
                                                    if k not in odd]])
    if alike is not None:
        looks, rows = _shared(looks, rows, alike[1])
    aspect = float(np.median([_aspect(c.quad) for c in kept]))
    codes = frozenset(c.photo.card.code for c in kept)
    model = CardModel(regions, looks, codes, aspect)
    weak, pairs = _check(kept, model, rows)
    weak = tuple(sorted(set(weak) | {cards[k].photo.card.code for k in odd}))
    model = CardModel(regions, looks, codes, aspect, pairs, weak)
    return Taught(model, len(cards), len(codes), (), weak)


# -- finding the card in a photo ---------------------------------------------------------------

def find_in_photo(image: np.ndarray) -> np.ndarray | None:
    """The card a teaching photo shows. Outlines are proposed by the card finder (of any size,
    then at the sizes a card has in a photo taken of it) and by telling the middle of the
    photo from its border (GrabCut); each is put onto the image's edges, and a side that does
    not lie on one (an outline that ran past a card's edge where it fades into the surface) is
    looked for further out or in. The card is the outline whose weakest side stands out most,
    weighed by its size: a printed panel on the card stands out too, but is small."""
    quads = find_cards(image, CardShape(PHOTO_ASPECT))
    quads += [quad for part in PHOTO_CARD_SIZES for quad in find_cards(
        image, CardShape(PHOTO_ASPECT, long_px=part * image.shape[0]))]
    cut = _foreground_quad(image)
    best = _best_outline(image, quads + ([] if cut is None else [cut]))
    return None if best is None else upright_order(best)


def _best_outline(image: np.ndarray, quads: list[np.ndarray]) -> np.ndarray | None:
    best, best_score = None, 0.0
    for quad in quads:
        for candidate in _whole(image, quad):
            if cv2.contourArea(candidate.astype(np.float32)) < MIN_PHOTO_AREA * image.size / 3:
                continue
            score = _photo_score(image, candidate)
            if score > best_score:
                best, best_score = candidate, score
    return best


def _whole(image: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """An outline put onto the image's edges; and, while a side stands out far less than the
    strongest, that side moved to the strongest edge near it (an outline that ran past a
    card's edge where the edge fades into the surface, or stopped at a line in the art)."""
    quad = refined(image, quad)
    found = [quad]
    best, best_score = quad, _photo_score(image, quad)
    for _ in range(3):
        contrasts = side_contrasts(image, best)
        moves = []
        for side in np.argsort(contrasts):
            if contrasts[side] >= WEAK_SIDE * contrasts.max():
                break
            across = float(np.linalg.norm(best[(side + 2) % 4] - best[(side + 1) % 4]))
            moved = refined(image, moved_side(image, best, int(side), 0.6 * across))
            if cv2.isContourConvex(moved.astype(np.float32)):
                moves.append((_photo_score(image, moved), moved))
        if not moves:
            break
        score, moved = max(moves, key=lambda item: item[0])
        if score <= best_score:
            break
        best, best_score = moved, score
        found.append(moved)
    return found


def _photo_score(image: np.ndarray, quad: np.ndarray) -> float:
    """How much an outline looks like the card a teaching photo shows: its weakest side's
    contrast, weighed by its size (a printed panel on the card stands out too, but is small)."""
    area = cv2.contourArea(quad.astype(np.float32))
    if not 1.1 <= _aspect(quad) <= 1.9 or area <= 0:
        return 0.0
    return float(side_contrasts(image, quad).min()) * float(np.sqrt(area))


def _foreground_quad(image: np.ndarray) -> np.ndarray | None:
    """The object in the middle of a photo, told from the surface around it by GrabCut (a
    colour model of the photo's border against one of its middle), as a card outline."""
    height, width = image.shape[:2]
    factor = min(1.0, 480.0 / max(height, width))
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    background, foreground = np.zeros((1, 65)), np.zeros((1, 65))
    margin = max(4, min(h, w) // 25)
    # GrabCut starts from OpenCV's shared random numbers: the same photo must teach the same
    # model whatever ran before it
    cv2.setRNGSeed(1)
    try:
        cv2.grabCut(small, mask, (margin, margin, w - 2 * margin, h - 2 * margin), background,
                    foreground, 4, cv2.GC_INIT_WITH_RECT)
    except cv2.error:
        return None
    shape = np.where((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)
    shape = cv2.morphologyEx(shape, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(shape, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    outline = max(contours, key=cv2.contourArea)
    box = cv2.boxPoints(cv2.minAreaRect(outline)).astype(np.float64)
    if cv2.contourArea(outline) < 0.85 * cv2.contourArea(box.astype(np.float32)):
        return None  # not a filled rectangle
    quad = box / factor
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    ratio = max(sides[0], sides[1]) / max(min(sides[0], sides[1]), 1e-9)
    if not 1.15 <= ratio <= 2.0:
        return None
    near = cv2.dilate(edge_map(image), np.ones((3, 3), np.uint8)) > 0
    return upright_order(snapped(near, quad))


def _find(photo: TeachingPhoto) -> _Card:
    quad = find_in_photo(photo.image)
    if quad is None:
        raise TeachingError(f"{photo.name}: no card found in the photo: lay the card alone on "
                            "a plain surface, all of it in the picture, and take it again")
    face = upright_face(photo.image, quad)
    return _Card(photo, quad, (face, cv2.rotate(face, cv2.ROTATE_180)))


def _aspect(quad: np.ndarray) -> float:
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    first, second = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return max(first, second) / max(min(first, second), 1e-9)


# -- where the coordinates are ------------------------------------------------------------------

def _regions_from_taps(cards: list[_Card]) -> tuple[Region, Region]:
    """Taps put in face coordinates; each card turned so its top tap is the upper one; the
    places centred on the taps' medians, sized by how well their look follows the labels."""
    centres = []
    for card in cards:
        assert card.photo.taps is not None
        w, h = CANON
        target = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
        matrix = cv2.getPerspectiveTransform(card.quad.astype(np.float32), target)
        top, bottom = cv2.perspectiveTransform(np.array([card.photo.taps], np.float64),
                                               matrix)[0]
        if (top[1], top[0]) > (bottom[1], bottom[0]):  # lies the other way up
            card.turn, top, bottom = 1, 1 - top, 1 - bottom
        centres.append((top, bottom))
    top_centre = np.median([c[0] for c in centres], axis=0)
    bottom_centre = np.median([c[1] for c in centres], axis=0)
    return (_sized(cards, top_centre, 0), _sized(cards, bottom_centre, 1))


def _sized(cards: list[_Card], at: np.ndarray, which: int) -> Region:
    """The candidate place around ``at`` that follows the labels best (a middling size when
    the labels cannot tell)."""
    candidates = [r for r in _candidates() if abs((r.x0 + r.x1) / 2 - at[0]) < 0.06
                  and abs((r.y0 + r.y1) / 2 - at[1]) < 0.05]
    if not candidates:
        half = 0.16
        return Region(max(0.0, at[0] - half), max(0.0, at[1] - half * 0.67),
                      min(1.0, at[0] + half), min(1.0, at[1] + half * 0.67))
    scores = _scores(cards, candidates, [_label(c, which) for c in cards])
    if scores is None:
        return min(candidates, key=lambda r: abs((r.x1 - r.x0) - 0.32))
    return candidates[int(np.argmax(scores))]


def _label(card: _Card, which: int) -> str:
    return str(card.photo.card.coordinates[which])


def _candidates() -> list[Region]:
    w, h = CANON
    regions = []
    for width, tall in REGION_SIZES:
        height = width * w / h * tall
        for x0 in np.arange(0.0, 1.0 - width + 1e-9, REGION_STEP[0]):
            for y0 in np.arange(0.0, 1.0 - height + 1e-9, REGION_STEP[1]):
                regions.append(Region(float(x0), float(y0), float(x0 + width),
                                      float(y0 + height)))
    return regions


def _coarse(faces: list[np.ndarray], regions: list[Region]) -> np.ndarray:
    """Every region of every face as DISCOVERY_CELLS^2 normalised cells: faces x regions x D,
    from summed-area tables (thousands of places per face)."""
    n = DISCOVERY_CELLS
    w, h = CANON
    tables = np.stack([cv2.integral(lab_face(face).astype(np.float64)) for face in faces])
    steps = np.linspace(0, 1, n + 1)
    x0 = np.array([r.x0 for r in regions])[:, None]
    x1 = np.array([r.x1 for r in regions])[:, None]
    y0 = np.array([r.y0 for r in regions])[:, None]
    y1 = np.array([r.y1 for r in regions])[:, None]
    xs = np.rint((x0 + (x1 - x0) * steps) * w).astype(int)  # regions x n+1
    ys = np.rint((y0 + (y1 - y0) * steps) * h).astype(int)
    xs[:, 1:] = np.maximum(xs[:, 1:], xs[:, :-1] + 1)
    ys[:, 1:] = np.maximum(ys[:, 1:], ys[:, :-1] + 1)
    xs, ys = np.minimum(xs, w), np.minimum(ys, h)
    ya, yb = ys[:, :-1, None], ys[:, 1:, None]  # regions x n x 1
    xa, xb = xs[:, None, :-1], xs[:, None, 1:]  # regions x 1 x n
    sums = (tables[:, yb, xb] - tables[:, ya, xb] - tables[:, yb, xa] + tables[:, ya, xa])
    cells = sums / ((yb - ya) * (xb - xa))[None, :, :, :, None]  # faces x regions x n x n x 3
    described = describe_many(cells.reshape(-1, n, n, 3).astype(np.float32))
    return described.reshape(len(faces), len(regions), -1)


def _scores(cards: list[_Card], regions: list[Region], labels: list[str]) -> np.ndarray | None:
    """How well each region's look follows the labels: for each photo whose label another
    shares, (nearest other label - nearest same label) / (their sum), averaged."""
    labels_array = np.array(labels)
    same = labels_array[:, None] == labels_array[None, :]
    np.fill_diagonal(same, False)
    partnered = same.any(axis=1)
    if partnered.sum() < MIN_PARTNERS:
        return None
    faces = [c.faces[c.turn] for c in cards]
    scores = np.zeros(len(regions))
    for start in range(0, len(regions), 400):  # in chunks: faces x regions x D can be large
        vectors = _coarse(faces, regions[start:start + 400]).transpose(1, 0, 2)
        norms = (vectors ** 2).sum(axis=2)
        squared = norms[:, :, None] + norms[:, None, :] - 2 * vectors @ vectors.transpose(0, 2, 1)
        distance = np.sqrt(np.maximum(squared, 0))
        nearest_same = np.where(same[None], distance, np.inf).min(axis=2)
        different = ~same
        np.fill_diagonal(different, False)
        nearest_other = np.where(different[None], distance, np.inf).min(axis=2)
        with np.errstate(invalid="ignore"):  # a label no other photo shows: inf - inf
            margin = (nearest_other - nearest_same) / np.maximum(nearest_other + nearest_same,
                                                                 1e-9)
        scores[start:start + 400] = np.nan_to_num(margin[:, partnered]).mean(axis=1)
    return scores


def _align(cards: list[_Card]) -> None:
    """Every card turned the same way up. Two cards that share their top (or bottom)
    coordinate show it alike at one place when they lie the same way up; whether a pair
    agrees best as it lies or with one turned is measured over many places, and the cards are
    turned to agree with the most decisive pairs (a deck whose art changes from card to card,
    or whose corners repeat the coordinates upside down, has no other clue to which way is
    up)."""
    w, h = CANON
    places = [r for r in _candidates() if abs((r.x1 - r.x0) - 0.34) < 1e-6
              and abs((r.y1 - r.y0) - 0.34 * w / h) < 1e-6]
    looks = np.stack([_coarse(list(c.faces), places) for c in cards])  # card x turn x place x D
    # as directions: a place with little detail (a smooth stretch of art) is then no nearer
    # to anything than a place with much, and cannot win by being bare
    looks /= np.maximum(np.linalg.norm(looks, axis=3, keepdims=True), 1e-6)
    edges = []
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            first, second = cards[i].photo.card, cards[j].photo.card
            if first.top != second.top and first.bottom != second.bottom:
                continue  # only a coordinate printed in the same place on both tells
            same = np.sqrt(((looks[i, 0] - looks[j, 0]) ** 2).sum(axis=1)).min()
            turned = np.sqrt(((looks[i, 0] - looks[j, 1]) ** 2).sum(axis=1)).min()
            weight = abs(same - turned) / max(same + turned, 1e-9)
            edges.append((weight, i, j, int(turned < same)))
    edges.sort(reverse=True)
    # the most decisive pairs first, as long as they join cards not yet turned to each other
    group = list(range(len(cards)))
    flip = [0] * len(cards)

    def root(k: int) -> tuple[int, int]:
        parity = 0
        while group[k] != k:
            parity ^= flip[k]
            k = group[k]
        return k, parity

    for _weight, i, j, relation in edges:
        (ri, pi), (rj, pj) = root(i), root(j)
        if ri != rj:
            group[rj], flip[rj] = ri, pi ^ pj ^ relation
    for k, card in enumerate(cards):
        card.turn = root(k)[1]


def _discover(cards: list[_Card]) -> tuple[Region, Region]:
    """The two places whose look follows the top and the bottom labels best, with each card
    turned the way that agrees best with the others (a few rounds)."""
    candidates = _candidates()
    top_labels = [_label(c, 0) for c in cards]
    bottom_labels = [_label(c, 1) for c in cards]
    regions = None
    for _ in range(3):
        top_scores = _scores(cards, candidates, top_labels)
        bottom_scores = _scores(cards, candidates, bottom_labels)
        if top_scores is None or bottom_scores is None:
            raise TeachingError(
                f"{len(cards)} photos are too few to learn where the coordinates are printed: "
                "teach at least a dozen different cards, or tap the coordinates on the "
                "touchscreen")
        top = candidates[int(np.argmax(top_scores))]
        order = np.argsort(-bottom_scores)
        bottom = next(candidates[k] for k in order if _apart(candidates[k], top))
        regions = (top, bottom)
        if not _turn_to_fit(cards, regions, top_labels, bottom_labels):
            break
    assert regions is not None
    return regions


REFINE_MOVES = ((0.02, 0, 1, 1), (-0.02, 0, 1, 1), (0, 0.015, 1, 1), (0, -0.015, 1, 1),
                (0, 0, 1.12, 1.12), (0, 0, 1 / 1.12, 1 / 1.12), (0, 0, 1.12, 1),
                (0, 0, 1, 1.12))
"""How a place is moved while refining it: a step each way, and larger, smaller, wider,
taller (about its centre)."""
REFINE_ROUNDS = 12


def _refine(cards: list[_Card], region: Region, which: int) -> Region:
    """The place moved and resized, step by step, while that makes the photos read better
    by the reader's own measure: each photo's place, shifted as the reader shifts it, against
    the other photos' looks (the coarse search finds the right place roughly; a number cut at
    the place's edge reads narrowly)."""
    labs = [lab_face(c.faces[c.turn]) for c in cards]
    labels = np.array([_label(c, which) for c in cards])
    same = labels[:, None] == labels[None, :]
    np.fill_diagonal(same, False)
    if same.any(axis=1).sum() < MIN_PARTNERS:
        return region
    other = ~same
    np.fill_diagonal(other, False)

    def score(candidate: Region) -> float:
        looks = np.stack([look(lab, candidate) for lab in labs])  # photos x D
        shifted = np.stack([shifted_looks(lab, candidate) for lab in labs])
        squared = ((shifted[:, :, None, :] - looks[None, None, :, :]) ** 2).mean(axis=3)
        distance = np.sqrt(squared.min(axis=1))  # photo x photo, best shift
        nearest_same = np.where(same, distance, np.inf).min(axis=1)
        nearest_other = np.where(other, distance, np.inf).min(axis=1)
        margin = (nearest_other - nearest_same) / np.maximum(nearest_other, 1e-9)
        partnered = np.isfinite(nearest_same)
        return float(np.clip(margin[partnered], -1, 1).mean())

    best, best_score = region, score(region)
    for _ in range(REFINE_ROUNDS):
        moved = [m for m in (_moved(best, *move) for move in REFINE_MOVES) if m is not None]
        scored = [(score(m), m) for m in moved]
        top_score, top = max(scored, key=lambda item: item[0])
        if top_score <= best_score + 1e-3:
            break
        best, best_score = top, top_score
    return best


def _moved(region: Region, dx: float, dy: float, grow_x: float, grow_y: float) -> Region | None:
    cx, cy = (region.x0 + region.x1) / 2 + dx, (region.y0 + region.y1) / 2 + dy
    half_w, half_h = (region.x1 - region.x0) / 2 * grow_x, (region.y1 - region.y0) / 2 * grow_y
    if not (0.08 <= half_w <= 0.3 and 0.05 <= half_h <= 0.25):
        return None
    x0, y0, x1, y1 = cx - half_w, cy - half_h, cx + half_w, cy + half_h
    if x0 < 0 or y0 < 0 or x1 > 1 or y1 > 1:
        return None
    return Region(x0, y0, x1, y1)


def _apart(a: Region, b: Region) -> bool:
    overlap_w = max(0.0, min(a.x1, b.x1) - max(a.x0, b.x0))
    overlap_h = max(0.0, min(a.y1, b.y1) - max(a.y0, b.y0))
    smaller = min((a.x1 - a.x0) * (a.y1 - a.y0), (b.x1 - b.x0) * (b.y1 - b.y0))
    return overlap_w * overlap_h < 0.25 * smaller


def _turn_to_fit(cards: list[_Card], regions: tuple[Region, Region], top_labels: list[str],
                 bottom_labels: list[str]) -> bool:
    """Turn each card the way its two places look most like the same-labelled places of the
    other cards. Whether any card turned."""
    looks = np.stack([_coarse(list(c.faces), list(regions)) for c in cards])  # cards x 2 x 2 x D
    turned = False
    for k, card in enumerate(cards):
        costs = []
        for turn in (0, 1):
            cost = 0.0
            for which, labels in ((0, top_labels), (1, bottom_labels)):
                others = [j for j in range(len(cards)) if j != k and labels[j] == labels[k]]
                if not others:
                    continue
                mine = looks[k, turn, which]
                theirs = looks[others, [cards[j].turn for j in others], which]
                cost += float(np.sqrt(((theirs - mine) ** 2).sum(axis=1)).min())
            costs.append(cost)
        best = int(np.argmin(costs))
        if costs[best] < costs[card.turn] * 0.9 and best != card.turn:
            card.turn, turned = best, True
    return turned


# -- what each coordinate looks like ------------------------------------------------------------

@dataclass(frozen=True)
class _Rows:
    """A region's looks as taught, with the photo each came from."""

    labels: list[str]
    vectors: np.ndarray
    owners: np.ndarray

    def without(self, index: int, limit: float) -> Looks | None:
        keep = self.owners != index
        if not keep.any():
            return None
        return Looks([label for label, k in zip(self.labels, keep) if k], self.vectors[keep],
                     limit)


def _looks(cards: list[_Card], regions: tuple[Region, Region], distances: np.ndarray
           ) -> tuple[tuple[Looks, Looks], tuple[_Rows, _Rows]]:
    rng = random.Random(7)
    looks, rows = [], []
    for which, region in enumerate(regions):
        labels, vectors, owners = [], [], []
        for index, card in enumerate(cards):
            for face in _copies(card, rng):
                labels.append(_label(card, which))
                vectors.append(look(lab_face(face), region))
                owners.append(index)
        taught = _Rows(labels, np.array(vectors, np.float32), np.array(owners))
        looks.append(Looks(labels, taught.vectors, _limit(distances[:, which], taught)))
        rows.append(taught)
    return (looks[0], looks[1]), (rows[0], rows[1])


def _printed_alike(cards: list[_Card], regions: tuple[Region, Region]
                   ) -> tuple[tuple[Region, Region], bool] | None:
    """Whether the deck prints its top and bottom coordinates alike, so that a coordinate's
    look at one place teaches it at the other too (twice the photos of each look). None when
    it does not; else the two places, of one size, and whether the bottom one is printed
    turned half round (corner indices as on playing cards). Decided by the photos: a look
    read among the other place's looks must find its own coordinate nearly as often as
    among its own place's looks. The bottom place is tried at the top one's size and moved
    a little about, as the two were found each on its own."""
    labs = [lab_face(c.faces[c.turn]) for c in cards]
    labels = [np.array([_label(c, which) for c in cards]) for which in (0, 1)]
    top = regions[0]
    top_looks = np.stack([look(lab, top) for lab in labs])
    top_shifted = np.stack([shifted_looks(lab, top) for lab in labs]).reshape(-1, LOOK_SIZE)
    within, _ = _agreement(top_shifted, top_looks, labels[0], labels[0], len(cards), True)
    half_w, half_h = (top.x1 - top.x0) / 2, (top.y1 - top.y0) / 2
    cx, cy = (regions[1].x0 + regions[1].x1) / 2, (regions[1].y0 + regions[1].y1) / 2
    best: tuple[tuple[float, float], Region, bool] | None = None
    for dx in ALIKE_MOVES:
        for dy in ALIKE_MOVES:
            x, y = cx + dx * 2 * half_w, cy + dy * 2 * half_h
            if x - half_w < 0 or y - half_h < 0 or x + half_w > 1 or y + half_h > 1:
                continue
            bottom = Region(x - half_w, y - half_h, x + half_w, y + half_h)
            bottom_looks = np.stack([look(lab, bottom) for lab in labs])
            for half_turn in (False, True):
                theirs = _half_turned(bottom_looks) if half_turn else bottom_looks
                agreed, distance = _agreement(top_shifted, theirs, labels[0], labels[1],
                                              len(cards), False)
                if best is None or (agreed, -distance) > best[0]:
                    best = ((agreed, -distance), bottom, half_turn)
    if best is None or best[0][0] < max(ALIKE_AGREEMENT, within - ALIKE_SLACK):
        return None
    return (top, best[1]), best[2]


def _agreement(shifted: np.ndarray, looks: np.ndarray, source: np.ndarray, target: np.ndarray,
               count: int, own: bool) -> tuple[float, float]:
    """How often a photo's look (``shifted``: every shift of each of ``count`` photos) is
    nearest a look (``looks``) of its own coordinate (``own``: the looks are of the same
    photos, each photo's own left out), and how far on average its own coordinate's nearest
    look is."""
    squared = ((shifted ** 2).sum(axis=1)[:, None] + (looks ** 2).sum(axis=1)[None, :]
               - 2 * shifted @ looks.T).reshape(count, -1, len(looks)).min(axis=1)
    if own:
        np.fill_diagonal(squared, np.inf)
    nearest = np.argmin(squared, axis=1)
    shown = np.isin(source, target)  # a coordinate never printed at the other place is left out
    if not shown.any():
        return 0.0, np.inf
    same = np.where(target[None, :] == source[:, None], squared, np.inf).min(axis=1)
    return (float((target[nearest] == source)[shown].mean()),
            float(np.sqrt(np.maximum(same[shown], 0) / LOOK_SIZE).mean()))


def _half_turned(vectors: np.ndarray) -> np.ndarray:
    """Looks (n x D) as they are seen turned half round: their cells in reverse order."""
    cells = vectors.reshape(len(vectors), CELLS, CELLS, 3)
    return np.ascontiguousarray(cells[:, ::-1, ::-1]).reshape(len(vectors), -1)


def _shared(looks: tuple[Looks, Looks], rows: tuple[_Rows, _Rows], half_turn: bool
            ) -> tuple[tuple[Looks, Looks], tuple[_Rows, _Rows]]:
    """Each place's looks joined by the other place's looks of the coordinates printed at
    both (turned when printed turned)."""
    joined_looks, joined_rows = [], []
    for which in (0, 1):
        mine, theirs = rows[which], rows[1 - which]
        both = np.isin(theirs.labels, mine.labels)
        vectors = theirs.vectors[both]
        if half_turn:
            vectors = _half_turned(vectors)
        row = _Rows(mine.labels + [label for label, k in zip(theirs.labels, both) if k],
                    np.vstack([mine.vectors, vectors]),
                    np.concatenate([mine.owners, theirs.owners[both]]))
        joined_rows.append(row)
        joined_looks.append(Looks(row.labels, row.vectors, looks[which].limit))
    return (joined_looks[0], joined_looks[1]), (joined_rows[0], joined_rows[1])


def _copies(card: _Card, rng: random.Random) -> list[np.ndarray]:
    """The card's face as taught, and COPIES - 1 faces as the table's camera may see it: from
    a slightly moved outline, farther away (a number 16 px tall, blurred), noisier."""
    faces = [card.faces[card.turn]]
    side = float(np.linalg.norm(card.quad[0] - card.quad[2]))
    w, h = CANON
    for copy in range(COPIES - 1):
        jitter = np.array([[rng.gauss(0, 0.008 * side), rng.gauss(0, 0.008 * side)]
                           for _ in range(4)])
        face = upright_face(card.photo.image, card.quad + jitter)
        if copy % 2 == 0:  # seen small: fewer pixels, then the reader's upsampling
            small_h = rng.uniform(110, 190)
            small = cv2.resize(face, (int(small_h * w / h), int(small_h)),
                               interpolation=cv2.INTER_AREA)
            face = cv2.resize(small, CANON, interpolation=cv2.INTER_LINEAR)
        blur = rng.uniform(0.0, 1.2)
        if blur > 0.3:
            face = cv2.GaussianBlur(face, (0, 0), blur)
        noise = np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(0, 5),
                                                                 face.shape)
        face = np.clip(face + noise, 0, 255).astype(np.uint8)
        faces.append(face if card.turn == 0 else cv2.rotate(face, cv2.ROTATE_180))
    return faces


def _cross_distances(cards: list[_Card], regions: tuple[Region, Region]) -> np.ndarray:
    """cards x turns x regions: how far each card's place, each way up, is from the nearest
    look of the same coordinate on another card as that one lies (inf: no other card shows
    that coordinate there)."""
    vectors = np.zeros((len(cards), 2, 2, LOOK_SIZE), np.float32)
    shifted = []
    for k, card in enumerate(cards):
        per_turn = []
        for turn in (0, 1):
            lab = lab_face(card.faces[turn])
            per_region = []
            for which, region in enumerate(regions):
                vectors[k, turn, which] = look(lab, region)
                per_region.append(shifted_looks(lab, region))
            per_turn.append(per_region)
        shifted.append(per_turn)
    result = np.full((len(cards), 2, 2), np.inf)
    for which in (0, 1):
        labels = np.array([_label(c, which) for c in cards])
        theirs = vectors[np.arange(len(cards)), [c.turn for c in cards], which]
        for k in range(len(cards)):
            same = np.nonzero((labels == labels[k]) & (np.arange(len(cards)) != k))[0]
            if not len(same):
                continue
            for turn in (0, 1):
                mine = shifted[k][turn][which]  # shifts x D
                squared = ((mine[:, None, :] - theirs[None, same, :]) ** 2).mean(axis=2)
                result[k, turn, which] = float(np.sqrt(squared.min()))
    return result


def _settle(cards: list[_Card], regions: tuple[Region, Region]) -> np.ndarray:
    """Each card turned, once more, the way its two places look most like the same
    coordinates on the other cards (the turning by whole places is rough); the final
    cross distances."""
    for _ in range(3):
        distances = _cross_distances(cards, regions)
        turned = False
        for k, card in enumerate(cards):
            cost = np.where(np.isfinite(distances[k]), distances[k], 0).sum(axis=1)
            if np.isfinite(distances[k]).any() and cost[1 - card.turn] < 0.8 * cost[card.turn]:
                card.turn, turned = 1 - card.turn, True
        if not turned:
            break
    distances = _cross_distances(cards, regions)
    return distances[np.arange(len(cards)), [c.turn for c in cards]]  # cards x regions


def _odd_ones(cards: list[_Card], regions: tuple[Region, Region],
              distances: np.ndarray) -> set[int]:
    """Cards that look unlike every other card showing the same coordinates (a card found
    wrongly in its photo, a blurred photo), or with nothing printed where the coordinates
    are: left out of the model, and reported."""
    odd = {k for k, card in enumerate(cards)
           if any(blank(look(lab_face(card.faces[card.turn]), region))
                  for region in regions)}
    for which in (0, 1):
        column = distances[:, which]
        known = column[np.isfinite(column)]
        if len(known) < 3:
            continue
        typical = float(np.median(known))
        odd |= {k for k, d in enumerate(column) if np.isfinite(d) and d > ODD * typical}
    return odd


def _limit(distances: np.ndarray, rows: _Rows) -> float:
    """How far a look may be from the taught ones and still count: a few times the typical
    distance from a photo to the nearest same-labelled look on another card (a camera at the
    table sees worse than a photo taken for teaching)."""
    known = distances[np.isfinite(distances)]
    if len(known) >= 3:
        return float(np.median(known) * LIMIT_FACTOR)
    # no coordinate repeats: the spread of each photo's own shifted copies
    spread = [float(np.sqrt(((rows.vectors[rows.owners == k] - rows.vectors[
        rows.owners == k][0]) ** 2).mean(axis=1)).max()) for k in set(rows.owners.tolist())]
    return float(np.median(spread) * LIMIT_FACTOR)


# -- checking what was learned --------------------------------------------------------------------

def _check(cards: list[_Card], model: CardModel, rows: tuple[_Rows, _Rows]
           ) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """Each photo read by the model without that photo's looks: the codes it reads wrongly or
    narrowly, and the pairs of taught codes it mistakes for each other."""
    weak: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    for index, card in enumerate(cards):
        lab = lab_face(card.faces[card.turn])
        reads = []
        for which in (0, 1):
            looks = rows[which].without(index, model.looks[which].limit)
            reads.append(None if looks is None else read_region(lab, model.regions[which],
                                                                looks))
        code = card.photo.card.code
        if any(r is None for r in reads):
            continue  # the only photo of a coordinate here: nothing to check it against
        read = f"{reads[0].coordinate}/{reads[1].coordinate}"
        if read != code:
            weak.add(code)
            if read in model.codes:
                first, second = sorted((code, read))
                pairs.add((first, second))
        elif min(r.margin for r in reads) < 2 * MIN_MARGIN or not all(r.known for r in reads):
            weak.add(code)
    return tuple(sorted(weak)), tuple(sorted(pairs))
