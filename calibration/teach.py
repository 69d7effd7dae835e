"""Card teaching from a folder of labelled photos (DESIGN.md §5.2).

File name = card code with ``-`` for ``/``: ``B3-G2.png``; several photos of one card as
``B3-G2.1.png``, ``B3-G2.2.png``. One photo per card type is enough for the reader to learn a
deck's colours and glyphs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.rules import Card, MalformedEventError
from vision.cards import CardModel, TeachingError, teach
from vision.sources import SourceError, read_image

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


@dataclass(frozen=True)
class Taught:
    model: CardModel
    photos: int
    cards: int
    skipped: tuple[str, ...]
    """Files in the folder that are not labelled photos, with the reason."""


def card_of(path: Path) -> Card:
    """The card a photo's file name labels."""
    label = path.name.split(".", 1)[0]
    try:
        return Card.parse(label.replace("-", "/"))
    except MalformedEventError as error:
        raise TeachingError(f"{path.name}: the name is not a card code ({error})") from None


def teach_folder(folder: str | Path) -> Taught:
    directory = Path(folder)
    if not directory.is_dir():
        raise TeachingError(f"{directory}: not a folder")
    examples, skipped = [], []
    for path in sorted(directory.iterdir()):
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
        examples.append((path.name, image, card))
    if not examples:
        raise TeachingError(f"{directory}: no labelled card photos (named like B3-G2.png)")
    model = teach(examples)
    return Taught(model, len(examples), len({c.code for _, _, c in examples}), tuple(skipped))
