"""JSON that came from outside (game records, box profiles, calibration files): whatever the
bytes hold, the reader gets the value or one ``JSONTextError`` saying what is wrong, never a
traceback from deep inside the parser.

Stricter than ``json.loads`` where the standard is: ``NaN``, ``Infinity`` and numbers too large
for a float are not JSON. Python's own limits become errors too: integers of more than 4,300
digits, and nesting deeper than the interpreter can follow.
"""

from __future__ import annotations

import json
import math
from typing import Any


class JSONTextError(ValueError):
    """Text that is not usable JSON; the message says why, in a few words."""


def _not_json(name: str) -> Any:
    raise JSONTextError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONTextError(f"the number {text[:20]} is too large")
    return value


def parse_json(text: str | bytes) -> Any:
    """The JSON value in ``text`` (UTF-8 when bytes), or ``JSONTextError``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise JSONTextError(f"not UTF-8 text (byte {error.start + 1})") from None
    try:
        return json.loads(text, parse_constant=_not_json, parse_float=_finite)
    except JSONTextError:
        raise
    except json.JSONDecodeError as error:
        where = (f"line {error.lineno} column {error.colno}" if error.lineno > 1
                 else f"column {error.colno}")
        raise JSONTextError(f"{error.msg} at {where}") from None
    except RecursionError:
        raise JSONTextError("nested too deeply to read") from None
    except ValueError:  # Python refuses to convert integers of more than 4,300 digits
        raise JSONTextError("a number with too many digits") from None
