"""The deck's photo album: the labelled photos a deck is taught from (DESIGN.md §5.2), and
teaching from them.

A photo's file name is its card code with ``-`` for ``/``: ``B3-G2.png``; several photos of one
card as ``B3-G2.1.png``, ``B3-G2.2.png``. Photos taken on the touchscreen come from the scan
tray with two taps, where the top coordinate is printed and where the bottom one is; the taps
are kept beside them (``taps.json``). What is learned from the photos is ``vision.cards``'s.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import cv2
import numpy as np

from companion.box import BoxProfile, load_box
from companion.files import read_regular, write_atomically
from companion.jsontext import parse_json
from companion.rules import Card, MalformedEventError
from vision.cards import TeachingError, TeachingPhoto, Taught, teach
from vision.cards.cores import side_by_side
from vision.sources import SourceError, read_image

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
TAPS_FILE = "taps.json"
"""Beside photos taken on the touchscreen: for each file, where the top and the bottom
coordinate were tapped (image pixels)."""
TAPS_LIMIT = 1024 * 1024
"""A deck's taps take a few kilobytes."""

Taps = tuple[tuple[float, float], tuple[float, float]]
TEACH_PIXELS = 4e6
"""A teach photo larger than this is taught from shrunk to it: a card filling a phone's photo
keeps coordinates of a hundred pixels, and fifty 12-megapixel photos held whole take 1.8 GB."""


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


def read_taps(directory: Path) -> dict[str, Taps]:
    """The taps saved beside the photos; a damaged file counts as no taps (the photos are still
    taught, their coordinates found by their colours)."""
    try:
        data = parse_json(read_regular(directory / TAPS_FILE, TAPS_LIMIT))
        return {str(name): ((float(a[0]), float(a[1])), (float(b[0]), float(b[1])))
                for name, (a, b) in data.items()}
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError,
            OverflowError):
        return {}  # JSONTextError is a ValueError


def add_photo(directory: Path, image: np.ndarray, card: Card, taps: Taps) -> str:
    """Keep a photo taken on the touchscreen (``B3-O1.png``, or ``B3-O1.2.png`` for a second
    one) with its taps; the file's name. Both are written whole or not at all: a power cut
    leaves the album as it was."""
    name = keep_new_photo(directory, card.code.replace("/", "-"), image)
    taps_now = read_taps(directory)
    taps_now[name] = taps
    text = json.dumps({k: [list(a), list(b)] for k, (a, b) in taps_now.items()})
    write_atomically(directory / TAPS_FILE, text.encode("utf-8"))
    return name


def keep_new_photo(directory: Path, stem: str, image: np.ndarray) -> str:
    """Write ``image`` whole into the album as ``stem.png``, or ``stem.2.png`` and on where
    that is taken; the file's name."""
    directory.mkdir(parents=True, exist_ok=True)
    name, count = f"{stem}.png", 1
    while (directory / name).exists():
        count += 1
        name = f"{stem}.{count}.png"
    ok, encoded = cv2.imencode(".png", image)
    if not ok:
        raise OSError(f"{directory / name}: the photo could not be encoded")
    write_atomically(directory / name, encoded.tobytes())
    return name


def remove_photo(directory: Path, name: str) -> None:
    """Take a photo (and its taps) out of the album."""
    (directory / name).unlink(missing_ok=True)
    taps_now = read_taps(directory)
    if name in taps_now:
        del taps_now[name]
        text = json.dumps({k: [list(a), list(b)] for k, (a, b) in taps_now.items()})
        write_atomically(directory / TAPS_FILE, text.encode("utf-8"))


def photos_of(directory: Path) -> dict[str, list[str]]:
    """The album's photo files by card code, each card's in the order they were kept
    (``B3-O1.png``, ``B3-O1.2.png``, …)."""
    found: dict[str, list[str]] = {}
    if directory.is_dir():
        for path in sorted(directory.iterdir(), key=_kept_order):
            if path.suffix.lower() in IMAGE_SUFFIXES and path.is_file():
                try:
                    code = card_of(path).code
                except TeachingError:
                    continue
                found.setdefault(code, []).append(path.name)
    return found


def opens(path: Path) -> bool:
    """Whether a photo's file looks like an image: not empty, as a power cut can leave one,
    and starting as an image file does (only its first bytes are read)."""
    try:
        return path.stat().st_size > 0 and cv2.haveImageReader(str(path))
    except (OSError, cv2.error):
        return False


def _kept_order(path: Path) -> tuple[str, int, str]:
    parts = path.name.split(".")
    copy = int(parts[1]) if len(parts) > 2 and re.fullmatch("[0-9]{1,6}", parts[1]) else 1
    return (parts[0], copy, path.name)


def photographed(directory: Path) -> dict[str, int]:
    """How many photos of each card code the folder holds."""
    return {code: len(names) for code, names in photos_of(directory).items()}


def shrunk_photo(pixels: float, image: np.ndarray,
             taps: Taps | None) -> tuple[np.ndarray, Taps | None]:
    """The photo shrunk to hold at most ``pixels``, and its taps with it."""
    scale = math.sqrt(pixels / (image.shape[0] * image.shape[1]))
    if scale >= 1.0:
        return image, taps
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if taps is None:
        return small, None
    (x0, y0), (x1, y1) = taps
    return small, (((x0 + 0.5) * scale - 0.5, (y0 + 0.5) * scale - 0.5),
                   ((x1 + 0.5) * scale - 0.5, (y1 + 0.5) * scale - 0.5))


def _opened(path: Path, taps: Taps | None) -> TeachingPhoto | str:
    """A folder's file as a labelled photo, shrunk for teaching; or why it is left out."""
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        return f"{path.name}: not an image file"
    try:
        card = card_of(path)
        image = read_image(path)
    except TeachingError as error:
        return str(error)
    except SourceError as error:
        return f"{path.name}: left out, it cannot be read ({error})"
    image, tapped = shrunk_photo(TEACH_PIXELS, image, taps)
    return TeachingPhoto(path.name, image, card, tapped)


def teach_folder(folder: str | Path) -> Taught:
    """The deck taught from a folder of labelled photos. Files that are no labelled photos,
    or that cannot be read (one cut short by a power cut), are left out and said so."""
    directory = Path(folder)
    if not directory.is_dir():
        raise TeachingError(f"{directory}: not a folder")
    taps = read_taps(directory)
    # opened side by side: decoding a photo is OpenCV's, which lets go of the interpreter
    # (a 50-photo deck's PNGs took 2 s of its teaching, one after the other)
    opened = side_by_side(lambda path: _opened(path, taps.get(path.name)),
                          [path for path in sorted(directory.iterdir())
                           if path.name != TAPS_FILE])
    photos = [photo for photo in opened if isinstance(photo, TeachingPhoto)]
    skipped = [reason for reason in opened if isinstance(reason, str)]
    if not photos:
        raise TeachingError(f"{directory}: no labelled card photos (named like B3-G2.png)"
                            + "".join(f"; {reason}" for reason in skipped[:3]))
    taught = teach(photos)
    return Taught(taught.model, taught.photos, taught.cards, tuple(skipped) + taught.skipped,
                  taught.weak)

