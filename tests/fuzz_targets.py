"""Untrusted inputs and what each may raise: shared by the fuzz tests and `make bench`.

Each target takes one generated input and must either succeed or raise the one clear error
its caller handles; anything else is a crash.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from companion.box import BoxProfileError, parse_box
from companion.journal import JournalError, read_journal
from companion.observations import parse_sticker
from companion.rules import RulesError, parse_event
from vision.config import Calibration, CalibrationError
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


def image(array: np.ndarray) -> None:
    _PIPELINE.read_still(array)
    _PIPELINE.process(array)


TARGETS = {"sticker": sticker, "event": event, "journal": journal,
           "journal_lines": journal_lines, "box": box, "calibration": calibration,
           "image": image}
