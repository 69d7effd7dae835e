"""The boards' photo album: one photo of each planet board, a board's print is taught from.

A photo's file name is the four numbers printed on its board, jump, scan and the two landings:
``1-3-2-4.png`` (two boards printing the same four: ``1-3-2-4.2.png``). Where the four
coordinates lie in each photo is kept beside them (``taps.json``: for each file, four image
points, jump, scan, landing, landing). What is learned is ``vision.boards``'s.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np

from companion.files import read_regular, write_atomically
from companion.jsontext import parse_json
from vision.boards import BoardPhoto, BoardTeachingError, TaughtBoards, teach_boards
from vision.sources import SourceError, read_image

from calibration.album import (IMAGE_SUFFIXES, TAPS_FILE, TAPS_LIMIT, TEACH_PIXELS, keep_new_photo,
                               shrunk_photo)

NAME = re.compile(r"([1-4])-([1-4])-([1-4])-([1-4])(\.[0-9]{1,6})?")


def board_taps(directory: Path) -> dict[str, tuple[tuple[float, float], ...]]:
    """The taps kept beside the photos; ``BoardTeachingError`` when the file is damaged (a
    board photo without its taps teaches nothing, unlike a card's)."""
    try:
        data = parse_json(read_regular(directory / TAPS_FILE, TAPS_LIMIT))
        taps = {str(name): tuple((float(x), float(y)) for x, y in points)
                for name, points in data.items()}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, TypeError, AttributeError, OverflowError) as error:
        raise BoardTeachingError(f"{directory / TAPS_FILE}: the taps cannot be read "
                                 f"({error!s:.100})") from None
    return {name: points for name, points in taps.items()
            if len(points) == 4 and all(math.isfinite(v) for p in points for v in p)}


def add_board_photo(directory: Path, image: np.ndarray, numbers: tuple[int, int, int, int],
                    taps: tuple[tuple[float, float], ...]) -> str:
    """Keep a board's photo taken on the touchscreen (``1-3-2-4.png``, or ``1-3-2-4.2.png``
    for a second board printing the same four) with its four taps; the file's name. Both are
    written whole or not at all."""
    name = keep_new_photo(directory, "-".join(map(str, numbers)), image)
    try:
        kept = board_taps(directory)
    except BoardTeachingError:
        kept = {}  # a damaged taps file is written anew, with this photo's taps
    kept[name] = taps
    text = json.dumps({k: [list(point) for point in points] for k, points in kept.items()})
    write_atomically(directory / TAPS_FILE, text.encode("utf-8"))
    return name


def board_photos(directory: Path) -> list[str]:
    """The album's board photos that have their taps."""
    try:
        taps = board_taps(directory)
    except BoardTeachingError:
        return []
    return sorted(name for name in taps if (directory / name).is_file())


def teach_board_folder(folder: str | Path) -> TaughtBoards:
    """The print taught from a folder of board photos. Files that are not a named photo with
    its four taps, or cannot be read, are left out and said so."""
    directory = Path(folder)
    if not directory.is_dir():
        raise BoardTeachingError(f"{directory}: not a folder")
    taps = board_taps(directory)
    photos, skipped = [], []
    for path in sorted(directory.iterdir()):
        if path.name == TAPS_FILE:
            continue
        named = NAME.fullmatch(path.name.rsplit(".", 1)[0])
        if path.suffix.lower() not in IMAGE_SUFFIXES or not named:
            skipped.append(f"{path.name}: not a board photo named by its four numbers "
                           "(like 1-3-2-4.png)")
            continue
        if path.name not in taps:
            skipped.append(f"{path.name}: no four taps for it in {TAPS_FILE}")
            continue
        try:
            image = read_image(path)
        except SourceError as error:
            skipped.append(f"{path.name}: left out, it cannot be read ({error})")
            continue
        image, points = _shrunk(image, taps[path.name])
        numbers = tuple(int(n) for n in named.groups()[:4])
        photos.append(BoardPhoto(path.name, image, points, numbers))  # type: ignore[arg-type]
    if not photos:
        raise BoardTeachingError(f"{directory}: no board photos with their taps"
                                 + "".join(f"; {reason}" for reason in skipped[:3]))
    taught = teach_boards(photos)
    return TaughtBoards(taught.board, taught.photos, tuple(skipped) + taught.skipped,
                        taught.unread)


def _shrunk(image: np.ndarray, taps: tuple[tuple[float, float], ...]
            ) -> tuple[np.ndarray, tuple[tuple[float, float], ...]]:
    """A large photo shrunk as card photos are (``TEACH_PIXELS``), its taps with it."""
    small, _ = shrunk_photo(TEACH_PIXELS, image, None)
    scale = small.shape[1] / image.shape[1]
    return small, tuple(((x + 0.5) * scale - 0.5, (y + 0.5) * scale - 0.5) for x, y in taps)
