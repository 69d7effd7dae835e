"""`companion scan`: what the vision pipeline reads in still images (DESIGN.md §5.2)."""

from __future__ import annotations

import argparse
import json

from companion.cli import complain, printable
from vision.config import Calibration, CalibrationError, load_calibration
from vision.pipeline import Pipeline
from vision.sources import SourceError, read_image

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    scan = commands.add_parser(
        "scan", help="read cards, tile stickers and markers in still images",
        description="Read each image with the vision pipeline. Exit status 0 when every image "
                    "was read (whatever was found in it); 2 when an image cannot be opened. "
                    "A card the reader is unsure of, or a QR code that is not a tile sticker, "
                    "is listed under problems.")
    scan.add_argument("images", nargs="+", metavar="IMAGE")
    scan.add_argument("--calibration", metavar="FILE",
                      help="calibration file from 'companion calibrate'")
    scan.add_argument("--json", action="store_true", help="print a JSON list, one per image")
    scan.add_argument("--raw", action="store_true",
                      help="also list every decoded QR text under 'codes', foreign ones too")
    scan.set_defaults(handler=_scan)


def _scan(args: argparse.Namespace) -> int:
    try:
        calibration = (load_calibration(args.calibration) if args.calibration
                       else Calibration())
    except CalibrationError as error:
        complain(error)
        return EXIT_BAD_INPUT
    for problem in (calibration.cards_problem, calibration.ring_problem):
        if problem:
            complain(f"note: {problem}")
    pipeline = Pipeline(calibration)
    results = []
    for path in args.images:
        try:
            image = read_image(path)
        except SourceError as error:
            complain(error)
            return EXIT_BAD_INPUT
        results.append((path, pipeline.read_still(image).to_json(raw=args.raw)))
    if args.json:
        print(json.dumps([data for _, data in results]))
        return EXIT_OK
    for path, data in results:
        print(f"{printable(path)}:")
        for card in data["cards"]:  # zone names come from the calibration file
            print(f"  card {card['code']} (confidence {card['confidence']:.2f}) "
                  f"in {printable(card['zone'] or 'no zone')}")
        for tile in data["tiles"]:
            print(f"  tile T{tile['id']:02d} {tile['kind']} in "
                  f"{printable(tile['zone'] or 'no zone')}")
        print(f"  markers: {', '.join(str(m['id']) for m in data['markers']) or 'none'}")
        if "pieces" in data:  # names come from the calibration file
            pieces = data["pieces"]
            print("  ships: " + (", ".join(f"{colour} on {printable(place)}" for colour, place
                                           in pieces["ships"].items()) or "none sure"))
            print("  jump gate: " + (", ".join(f"{colour} {count}" for colour, count
                                              in pieces["gate"].items()) or "not sure"))
            built = {printable(name): colour for name, colour in pieces["stations"].items()
                     if colour}
            print("  stations: " + (", ".join(f"{colour} on {name}"
                                             for name, colour in built.items()) or "none"))
            print("  reserved: " + (", ".join(
                f"{colour} {count} beside {printable(name)}"
                for name, counts in pieces["reserved"].items()
                for colour, count in counts.items()) or "none"))
            for colour, place in pieces.get("glimpsed", {}).items():
                print(f"  glimpsed, not sure: the {colour} ship in part on {printable(place)}")
        for problem in data["problems"]:
            print(f"  problem: {printable(problem['message'])}")
        for code in data.get("codes", []):
            print(f"  code: {code['text']!r}")
    return EXIT_OK
