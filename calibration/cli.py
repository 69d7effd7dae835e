"""`companion print-stickers`, `companion print-markers` and `companion calibrate`."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from companion.box import BoxProfileError, load_box
from companion.cli import complain, printable
from vision.config import Calibration, CalibrationError, load_calibration, save_calibration
from vision.layout import default_layout
from vision.sources import SourceError, read_image

from calibration.printables import (DEFAULT_STICKER_MM, MAX_STICKER_MM, MIN_STICKER_MM,
                                    PAPERS, print_markers, print_stickers)
from calibration.table import CalibrationFailed, calibrate_table
from calibration.album import TeachingError, missing_codes, teach_folder
from calibration.board_album import teach_board_folder
from vision.boards import BoardTeachingError
from vision.pieces import RingNotFound, find_ring

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    stickers = commands.add_parser(
        "print-stickers", help="write the 64 tile stickers as a PDF",
        description="Write a PDF of the 64 tile stickers (version-1 QR codes, error correction "
                    "Q, quiet zone kept), numbered 1-64 in the box profile's tile order, with "
                    "the kind and number printed under each and corner ticks to cut along.")
    stickers.add_argument("out", metavar="OUT.pdf")
    stickers.add_argument("--size-mm", type=sticker_mm, default=DEFAULT_STICKER_MM,
                          help=f"code size with its quiet zone (default {DEFAULT_STICKER_MM:g})")
    stickers.add_argument("--paper", choices=sorted(PAPERS), default="a4")
    stickers.add_argument("--box", metavar="PROFILE", help="box profile (default: shipped)")
    stickers.set_defaults(handler=_print_stickers)

    markers = commands.add_parser(
        "print-markers", help="write the table's ArUco markers as a PDF",
        description="Write a PDF of the ArUco markers: four for the table corners, four for "
                    "the scan tray, and the colour swatches used for the colour profile.")
    markers.add_argument("out", metavar="OUT.pdf")
    markers.add_argument("--paper", choices=sorted(PAPERS), default="a4")
    markers.set_defaults(handler=_print_markers)

    calibrate = commands.add_parser(
        "calibrate", help="calibrate the table from a photo, or teach the cards",
        description="'table IMAGE': find the markers, solve the homography and zones, report "
                    "pixels per QR module per zone and measure the colour swatches. "
                    "'cards DIR': learn the deck's printing from labelled photos (B3-G2.png). "
                    "'boards DIR': learn the planet boards' printing from one photo of each "
                    "board, named by its four numbers (1-3-2-4.png), with four taps each in "
                    "DIR/taps.json (jump, scan, landing, landing). 'ring IMAGE': find the jump "
                    "gate and the eight planets around it, named clockwise from the tapped one, "
                    "and learn the players' colours from their ships on the gate. Each adds to "
                    "CAL.json if it exists.")
    kinds = calibrate.add_subparsers(dest="what", metavar="WHAT", required=True)
    table = kinds.add_parser("table", help="markers, homography, zones, sizing, colours")
    table.add_argument("image", metavar="IMAGE")
    table.add_argument("--out", required=True, metavar="CAL.json")
    table.add_argument("--sticker-mm", type=sticker_mm, default=DEFAULT_STICKER_MM,
                       help="the sticker size to give sizing advice for")
    table.set_defaults(handler=_calibrate_table)
    cards = kinds.add_parser("cards", help="teach the card reader from labelled photos")
    cards.add_argument("folder", metavar="DIR")
    cards.add_argument("--out", required=True, metavar="CAL.json")
    cards.set_defaults(handler=_calibrate_cards)
    boards = kinds.add_parser("boards", help="teach the board reader from tapped photos")
    boards.add_argument("folder", metavar="DIR")
    boards.add_argument("--out", required=True, metavar="CAL.json")
    boards.set_defaults(handler=_calibrate_boards)
    ring = kinds.add_parser("ring", help="the jump gate, the planets and the players' colours")
    ring.add_argument("image", metavar="IMAGE",
                      help="the table as a game starts, every player's ship on the jump gate")
    ring.add_argument("--planets", required=True, type=_names, metavar="N1,...,N8",
                      help="the eight planets' names, clockwise as the image shows them")
    ring.add_argument("--first", required=True, type=_point, metavar="X,Y",
                      help="a pixel on the first planet")
    ring.add_argument("--players", required=True, type=_names, metavar="C1,C2,...",
                      help="the players' colours (red, blue, green, yellow, black)")
    ring.add_argument("--out", required=True, metavar="CAL.json")
    ring.set_defaults(handler=_calibrate_ring)


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"an empty name in {text!r:.80}")
    return names


def _point(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a pixel X,Y: {text!r:.40}") from None
    if not all(math.isfinite(v) for v in (x, y)):
        raise argparse.ArgumentTypeError(f"not a pixel X,Y: {text!r:.40}")
    return x, y


def sticker_mm(text: str) -> float:
    """A sticker's size as given on the command line: a number of millimetres a sticker can
    be printed at (not 0, -1, nan or inf, which would be written into the calibration)."""
    try:
        size = float(text)
    except ValueError:
        size = math.nan
    if not MIN_STICKER_MM <= size <= MAX_STICKER_MM:  # False for nan
        raise argparse.ArgumentTypeError(
            f"{text[:20]!r} is no sticker size: give millimetres from {MIN_STICKER_MM:g} to "
            f"{MAX_STICKER_MM:g}")
    return size


def _print_stickers(args: argparse.Namespace) -> int:
    try:
        box = load_box(args.box)
        sheet = print_stickers(box, args.out, args.size_mm, args.paper)
    except (BoxProfileError, ValueError, OSError) as error:
        complain(error)
        return EXIT_BAD_INPUT
    print(f"{printable(args.out)}: 64 stickers on {sheet.pages} page(s), code "
          f"{sheet.sticker_mm:.1f} mm, "
          f"module {sheet.module_mm:.2f} mm")
    return EXIT_OK


def _print_markers(args: argparse.Namespace) -> int:
    try:
        pages = print_markers(default_layout(), args.out, args.paper)
    except OSError as error:
        complain(error)
        return EXIT_BAD_INPUT
    print(f"{printable(args.out)}: markers on {pages} page(s)")
    return EXIT_OK


def _existing(path: str) -> Calibration | None:
    return load_calibration(path) if Path(path).exists() else None


def _saved(calibration: Calibration, out: str, what: str) -> bool:
    """Whether ``calibration`` was saved to ``out``; if not (a full disk, a folder that cannot
    be written), says so: the file is written whole or not at all."""
    try:
        save_calibration(calibration, out)
    except OSError as error:
        complain(f"{out}: the {what} cannot be saved ({error.strerror or error}); the file is "
                 "as it was")
        return False
    return True


def _calibrate_table(args: argparse.Namespace) -> int:
    try:
        image = read_image(args.image)
        base = _existing(args.out)
        layout = base.layout if base else default_layout()
        result = calibrate_table(image, layout, args.sticker_mm, base)
    except (CalibrationFailed, CalibrationError, SourceError, OSError) as error:
        complain(error)
        return EXIT_BAD_INPUT
    if not _saved(result.calibration, args.out, "calibration"):
        return EXIT_BAD_INPUT
    rect = result.rectification
    print(f"markers used: {', '.join(map(str, rect.markers_used))} "
          f"(agreement {rect.residual_mm:.2f} mm)")
    for zone in result.sizing:
        print(printable(zone.advice(args.sticker_mm)))
    if result.colors_found:
        print(f"colour profile measured for {', '.join(result.colors_found)}")
    for note in result.notes:
        print(f"note: {printable(note)}")
    print(f"saved {printable(args.out)}")
    return EXIT_OK


def _calibrate_cards(args: argparse.Namespace) -> int:
    try:
        base = _existing(args.out) or Calibration()
        taught = teach_folder(args.folder)
        base.cards = taught.model
    except (TeachingError, CalibrationError, OSError) as error:
        complain(error)
        return EXIT_BAD_INPUT
    if not _saved(base, args.out, "taught deck"):
        return EXIT_BAD_INPUT
    for reason in taught.skipped:
        print(f"skipped {printable(reason)}")
    print(f"learned {taught.cards} card code(s) from {taught.photos} photo(s)")
    missing = missing_codes(taught.model.codes)
    if missing:
        print(f"not taught yet ({len(missing)}): {', '.join(missing)}; the reader leaves "
              "those cards unsure")
    if taught.weak:
        print(f"read narrowly or wrongly without their own photo: {', '.join(taught.weak)}; "
              "add a second photo of each (another copy, other light)")
    for first, second in taught.model.look_alikes:
        print(f"look alike to the reader: {first} and {second}")
    print(f"saved {printable(args.out)}")
    return EXIT_OK


def _calibrate_boards(args: argparse.Namespace) -> int:
    try:
        base = _existing(args.out) or Calibration()
        taught = teach_board_folder(args.folder)
        base.boards = taught.board
    except (BoardTeachingError, CalibrationError, OSError) as error:
        complain(error)
        return EXIT_BAD_INPUT
    if not _saved(base, args.out, "taught board print"):
        return EXIT_BAD_INPUT
    for reason in taught.skipped:
        print(f"skipped {printable(reason)}")
    print(f"learned the boards' print from {taught.photos} photo(s)")
    for reason in taught.unread:
        print(f"not read back: {printable(reason)}; take that board again (flat, well lit)")
    print(f"saved {printable(args.out)}")
    return EXIT_OK


def _calibrate_ring(args: argparse.Namespace) -> int:
    try:
        image = read_image(args.image)
        base = _existing(args.out) or Calibration()
        base.ring = find_ring(image, args.planets, args.first, args.players)
    except (RingNotFound, CalibrationError, SourceError, OSError) as error:
        complain(error)
        return EXIT_BAD_INPUT
    if not _saved(base, args.out, "ring"):
        return EXIT_BAD_INPUT
    ring = base.ring
    print("planets clockwise: " + ", ".join(
        f"{printable(name)} at {_middle(corners)}" for name, corners in ring.planets))
    print(f"jump gate at {_middle(ring.gate)}")
    print("players' colours learned from their ships: " + ", ".join(ring.colours))
    if ring.unseen:
        print(f"not found on the jump gate: the {' and '.join(ring.unseen)} ship; those "
              "pieces are not read (light the gate, or stand the ship on a lighter part of "
              "it, and calibrate the ring again)")
    print(f"saved {printable(args.out)}")
    return EXIT_OK


def _middle(polygon: tuple[tuple[float, float], ...]) -> str:
    x = sum(p[0] for p in polygon) / len(polygon)
    y = sum(p[1] for p in polygon) / len(polygon)
    return f"{x:.0f},{y:.0f}"
