"""The ``companion`` command (DESIGN.md §5.2)."""

from __future__ import annotations

import argparse
import codecs
import errno
import io
import json
import os
import stat
import sys
import unicodedata
from importlib.metadata import PackageNotFoundError, entry_points, version
from collections.abc import Sequence

from companion.box import BoxProfileError, load_box
from companion.journal import JournalError, encode, read_journal, write_journal
from companion.rules import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from companion.scoring import ScoreSheet, score
from companion.simulate import simulate

EXIT_OK, EXIT_BAD_INPUT = 0, 2
PLUGIN_GROUP = "companion.commands"
"""Camera, calibration and screen commands plug in here (entry points in pyproject.toml), so
the core never imports them: the dependency arrows of DESIGN.md §2 run one way."""


def main(argv: Sequence[str] | None = None) -> int:
    _tolerate_any_terminal()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "handler"):
        parser.print_help()
        return EXIT_OK
    try:
        code = int(args.handler(args))
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # output piped into `head` and the like: not an error
        sys.stderr.close()
        return EXIT_OK
    except OSError as error:
        if error.errno not in OUTPUT_FULL:
            raise
        # what could not be written is not tried again when Python exits
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        complain(f"companion: the output cannot be written ({error.strerror})")
        return EXIT_BAD_INPUT


OUTPUT_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)
"""Why standard output may refuse a write (a full disk, a quota, a failing device): every file
a command writes itself is caught where it is written, so such an error is the output's."""


def printable(text: object) -> str:
    """Text from a record, a file or a file's name, as a terminal may show it: control and
    format characters (an escape sequence, a newline that would fake an error line, a
    right-to-left override) written as Python escapes, everything else as it is."""
    return "".join(_escaped(c) if unicodedata.category(c) in UNPRINTABLE else c
                   for c in str(text))


UNPRINTABLE = {"Cc", "Cf", "Cs", "Zl", "Zp"}
"""Unicode's control, format and surrogate characters and its line and paragraph separators."""


def _escaped(character: str) -> str:
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def complain(message: object) -> None:
    """One line on standard error, whatever the message holds (see ``printable``)."""
    print(printable(message), file=sys.stderr)


def _tolerate_any_terminal() -> None:
    """A name like "Zoë" must print on a terminal that is not UTF-8: what it cannot show is
    written as an escape rather than ending the command in a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _stdout_is_utf8() -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def installed_version() -> str:
    """The installed package's version (pyproject.toml), or "unknown" when run from a tree
    that was never installed."""
    try:
        return version("space-mission-companion")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Space Mission table companion: keeps the game record, checks every "
                    "action against the rules and scores the end automatically.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    score_cmd = commands.add_parser(
        "score", help="replay a game journal and print the scores",
        description="Replay a journal (JSON Lines, format v1) and score it. Exit status 0 on "
                    "success; 2 with 'line N: reason' on stderr when a line is malformed or "
                    "breaks a rule. An incomplete last line (a write cut short by a power cut) "
                    "is dropped with a warning on stderr.")
    score_cmd.add_argument("journal", metavar="JOURNAL", help="the game record to score")
    score_cmd.add_argument("--json", action="store_true",
                           help="print the score sheet as JSON instead of a table")
    score_cmd.set_defaults(handler=_score)

    sim_cmd = commands.add_parser(
        "simulate", help="write a random legal game journal",
        description="Play a random legal game with the box profile's example deck and tiles, "
                    "and write its journal (set-up, actions with undos, and every player's "
                    "tiles at the end). The same seed gives the same game.")
    sim_cmd.add_argument("--seed", type=int, required=True, help="random seed (an integer)")
    sim_cmd.add_argument("--players", type=int, required=True,
                         choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), metavar="P",
                         help=f"number of players, {MIN_PLAYERS}-{MAX_PLAYERS}")
    sim_cmd.add_argument("--variant", choices=VARIANTS, default="table",
                         help="rules variant (default: table)")
    sim_cmd.add_argument("--box", metavar="PROFILE",
                         help="box profile JSON (default: the shipped example profile)")
    sim_cmd.add_argument("--out", metavar="FILE",
                         help="journal file to write (default: standard output)")
    sim_cmd.add_argument("--force", action="store_true",
                         help="replace FILE if it exists (a record is never overwritten "
                              "otherwise)")
    sim_cmd.set_defaults(handler=_simulate)

    box_cmd = commands.add_parser(
        "box", help="show and check a box profile",
        description="Load a box profile, report what is wrong with it, and list its planets. "
                    "Coordinates still at their shipped example values are marked.")
    box_cmd.add_argument("profile", nargs="?", metavar="PROFILE",
                         help="box profile JSON (default: the shipped example profile)")
    box_cmd.set_defaults(handler=_box)
    for plugin in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        plugin.load()(commands)
    return parser


def _score(args: argparse.Namespace) -> int:
    try:
        contents = read_journal(args.journal)
    except OSError as error:
        complain(f"{args.journal}: {error.strerror}")
        return EXIT_BAD_INPUT
    except JournalError as error:
        complain(error)
        return EXIT_BAD_INPUT
    if contents.dropped is not None:
        complain(f"warning: {contents.dropped}")
    sheet = score(contents.game.state)
    if args.json:
        # JSON escapes what a non-UTF-8 terminal cannot show, so the output stays valid JSON
        print(json.dumps(sheet.to_json(), ensure_ascii=not _stdout_is_utf8()))
    else:
        print(format_sheet(sheet))
    return EXIT_OK


def format_sheet(sheet: ScoreSheet) -> str:
    """The score sheet as a plain-text table; '?' where a player's tiles are not known."""
    columns = ("jump_gate", "station_points", "minerals", "aliens", "matter", "water",
               "medals", "space", "total")
    headers = ("gate", "stations", "minerals", "aliens", "matter", "water", "medals", "space",
               "total")
    names = [printable(p.name) for p in sheet.players]
    width = max([len(name) for name in names] + [6])
    lines = ["player".ljust(width) + "".join(h.rjust(10) for h in headers)]
    for p, name in zip(sheet.players, names):
        cells = ["?" if getattr(p, c) is None else str(getattr(p, c)) for c in columns]
        lines.append(name.ljust(width) + "".join(c.rjust(10) for c in cells))
    status = ("game over" if sheet.ended else
              "final round" if sheet.final_round else "game in progress")
    lines.append(f"\n{status}; space tiles revealed {sheet.revealed_space} of "
                 f"{sheet.threshold}")
    if sheet.winners:
        lines.append(f"winner{'s' if len(sheet.winners) > 1 else ''}: "
                     f"{', '.join(map(printable, sheet.winners))}")
    elif sheet.ended:
        lines.append("winners: not known until every player's tiles are entered")
    return "\n".join(lines)


def _simulate(args: argparse.Namespace) -> int:
    try:
        box = load_box(args.box)
    except BoxProfileError as error:
        complain(error)
        return EXIT_BAD_INPUT
    if args.out and (refusal := _not_writable(args.out, args.force)):
        complain(f"{args.out}: {refusal}")
        return EXIT_BAD_INPUT
    game = simulate(args.seed, args.players, args.variant, box=box)
    if args.out:
        try:
            write_journal(args.out, game.setup, game.events)
        except OSError as error:
            complain(f"{args.out}: cannot be written ({error.strerror or error})")
            return EXIT_BAD_INPUT
    else:
        sys.stdout.write(encode(game.setup).decode())
        for event in game.events:
            sys.stdout.write(encode(event).decode())
    return EXIT_OK


def _not_writable(path: str, force: bool) -> str:
    """Why a record must not be written at ``path`` ('' when it may): a record is never
    overwritten unasked, and never replaces a folder, a device or a pipe."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return ""
    except OSError as error:
        return f"cannot be written ({error.strerror})"
    if stat.S_ISDIR(mode):
        return "is a folder; give a file name"
    if not stat.S_ISREG(mode):
        return "is not a regular file (a device or a pipe); give a file name"
    return "" if force else "exists; give --force to replace it"


def _box(args: argparse.Namespace) -> int:
    try:
        box = load_box(args.profile)
    except BoxProfileError as error:
        complain(error)
        return EXIT_BAD_INPUT
    for planet in box.planets:
        print(printable(planet.describe()))
    counts = ", ".join(f"{kind} {n}" for kind, n in box.tiles.items())
    print(f"tiles: {counts}" + (" (per-colour split assumed)" if box.tiles_split_assumed
                                else ""))
    print(f"deck: {len(box.deck)} cards" + (" (example deck)" if box.deck_is_example else ""))
    if box.has_examples:
        print("note: example values are not the printed ones; correct them from your box")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
