"""Untrusted inputs and what each may raise: shared by the fuzz tests and `make bench`.

Each target takes one generated input and must either succeed or raise the one clear error
its caller handles; anything else is a crash.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from companion.box import BoxProfileError, load_box, parse_box
from companion.cli import main as companion
from companion.journal import Journal, JournalError, read_journal
from companion.observations import parse_sticker
from companion.rules import RulesError, parse_event
from ui.i18n import LANGUAGES
from ui.preferences import NAME_LENGTH, ROSTER_SIZE, load_preferences, save_preferences
from companion.rules import PLAYER_COLORS
from vision.config import Calibration, CalibrationError, load_calibration
from vision.pipeline import Pipeline

_PIPELINE = Pipeline()
_FOLDER = Path(tempfile.mkdtemp(prefix="fuzz-"))


def sticker(text: str) -> None:
    found = parse_sticker(text)
    if found is not None:
        assert found.text == text  # only the exact form is ever accepted


def event(data: Any) -> None:
    try:
        parse_event(data)
    except RulesError:
        pass


def journal(raw: bytes) -> None:
    path = _FOLDER / "journal.jsonl"
    path.write_bytes(raw)
    try:
        read_journal(path)
    except JournalError:
        pass


def journal_lines(lines: list[Any]) -> None:
    journal(("\n".join(json.dumps(line) for line in lines) + "\n").encode())


def box(data: Any) -> None:
    try:
        parse_box(data)
    except BoxProfileError:
        pass


def calibration(data: Any) -> None:
    try:
        Calibration.from_json(data)
    except CalibrationError:
        pass


def score_command(raw: bytes, ascii_terminal: bool = True) -> None:
    """`companion score FILE --json`, as a user runs it, on a terminal that may not be UTF-8:
    exit 0, or exit 2 with `line N: reason`; never a traceback."""
    path = _FOLDER / "record.jsonl"
    path.write_bytes(raw)
    encoding = "ascii" if ascii_terminal else "utf-8"
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding=encoding)
    stderr = io.TextIOWrapper(err, encoding=encoding, errors="backslashreplace")
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = companion(["score", str(path), "--json"])
    stdout.flush()
    stderr.flush()
    message = err.getvalue().decode(encoding)
    assert status in (0, 2), status
    if status == 2:
        assert re.match(r"line \d+: ", message), message
    else:
        json.loads(out.getvalue().decode(encoding))


def journal_open(raw: bytes) -> None:
    """Opening a record to play on refuses a bad line, and otherwise keeps every byte: in the
    record, or (a line cut short) in the file beside it."""
    path = _FOLDER / "open.jsonl"
    cut = _FOLDER / "open.jsonl.cut"
    path.write_bytes(raw)
    cut.unlink(missing_ok=True)
    try:
        journal = Journal.open(path)
    except JournalError:
        assert path.read_bytes() == raw  # a refused record is left exactly as it was
        return
    journal.close()
    kept = path.read_bytes()
    if journal.dropped is not None:
        assert cut.read_bytes() == raw[journal.dropped.offset:] + b"\n"
        raw = raw[:journal.dropped.offset]
    assert kept.rstrip(b"\n") == raw[:len(kept.rstrip(b"\n"))]
    assert not raw[len(kept.rstrip(b"\n")):].strip(), "only blank lines may go"


def box_file(raw: bytes) -> None:
    path = _FOLDER / "box.json"
    path.write_bytes(raw)
    try:
        load_box(path)
    except BoxProfileError:
        pass


def calibration_file(raw: bytes) -> None:
    path = _FOLDER / "calibration.json"
    path.write_bytes(raw)
    try:
        load_calibration(path)
    except CalibrationError:
        pass


def image(array: np.ndarray) -> None:
    _PIPELINE.read_still(array)
    _PIPELINE.process(array)


TARGETS = {"sticker": sticker, "event": event, "journal": journal,
           "journal_lines": journal_lines, "box": box, "calibration": calibration,
           "image": image, "score_command": score_command, "journal_open": journal_open,
           "box_file": box_file, "calibration_file": calibration_file}


_FRAMES = [np.zeros((120, 160, 3), np.uint8),
           np.random.default_rng(0).integers(0, 256, (120, 160, 3), dtype=np.uint8)]


def calibration_in_use(raw: bytes) -> None:
    """A calibration file is refused whole, or is safe for the camera: the live pipeline and
    a still read take frames of its size under it (a file that loaded once killed the camera
    thread on its first frame)."""
    path = _FOLDER / "calibration-in-use.json"
    path.write_bytes(raw)
    try:
        calibration = load_calibration(path)
    except CalibrationError:
        return
    pipeline = Pipeline(calibration)
    for frame in _FRAMES:
        pipeline.process(frame)
        pipeline.read_still(frame)


def preferences_file(raw: bytes) -> None:
    """Any preferences file starts the app: what is usable is kept, the rest is its default,
    and what is kept saves and loads again as it is."""
    path = _FOLDER / "preferences.json"
    path.write_bytes(raw)
    preferences = load_preferences(path)
    assert preferences.language in LANGUAGES
    assert isinstance(preferences.auto_confirm, bool)
    assert len(preferences.roster) <= ROSTER_SIZE
    for regular in preferences.roster:
        assert isinstance(regular.name, str) and 0 < len(regular.name) <= NAME_LENGTH
        assert regular.color in PLAYER_COLORS
    save_preferences(preferences, path)
    assert load_preferences(path) == preferences
