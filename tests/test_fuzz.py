"""Untrusted input fuzzed: sticker payloads, journal lines and files, box profiles,
calibration files, random and adversarial images. No crash; only the documented errors."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.box import SHIPPED_PROFILE
from tests import fuzz_targets as fuzz
from tests.conftest import setup_json

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True)
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=10), children, max_size=6),
    max_leaves=20)
KEYS = st.sampled_from(["type", "to", "card", "cards", "tile", "tiles", "player", "discard",
                        "reveal", "only_space", "v", "players", "planets", "first", "variant"])
EVENTISH = st.dictionaries(KEYS, JSON | st.sampled_from(
    ["jump", "fly", "scan", "develop", "discover", "top_up", "undo", "end", "tiles", "setup",
     "B3/G2", "G2/B3", "O?/O1", "MIN-R", "SPC", "Freezer", "Ann"]), max_size=6)
FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@FUZZ
@given(st.text(max_size=40) | st.from_regex(r"SM1:T[0-9]{2}:[A-Z-]{2,6}", fullmatch=True))
def test_sticker_payloads(text):
    fuzz.sticker(text)


@FUZZ
@given(JSON | EVENTISH)
def test_journal_events(data):
    fuzz.event(data)


@FUZZ
@given(st.lists(EVENTISH, max_size=8))
def test_journals_of_events_after_a_valid_setup(events):
    fuzz.journal_lines([setup_json(2), *events])


@FUZZ
@given(st.binary(max_size=400))
def test_journal_files_of_any_bytes(raw):
    fuzz.journal(raw)


@FUZZ
@given(st.lists(st.sampled_from(['{"type": "top_up"}', '{"type": "undo"}', "", "{",
                                 '{"type": "jump", "to": "Freezer"}', "\xff", "null", "[]"]),
                max_size=10))
def test_journal_files_cut_and_mangled(lines):
    head = json.dumps(setup_json(2))
    fuzz.journal((head + "\n" + "\n".join(lines)).encode("utf-8", "surrogateescape"))


SHIPPED = json.loads(SHIPPED_PROFILE.read_text())


@FUZZ
@given(st.sampled_from(["profile", "planets", "tiles", "deck", "deck_is_example"]), JSON)
def test_box_profiles_with_one_part_replaced(key, value):
    fuzz.box({**SHIPPED, key: value})


@FUZZ
@given(JSON)
def test_box_profiles_of_any_json(data):
    fuzz.box(data)


@FUZZ
@given(st.sampled_from(["layout", "table", "colors", "cards"]), JSON)
def test_calibration_files_with_one_part_replaced(key, value):
    fuzz.calibration({"version": 1, "layout": {"width": 1, "height": 1, "markers": [],
                                               "zones": {}}, key: value})


# -- structure and bytes: what a damaged, hostile or foreign file can hold -------------------

ANY_TEXT = st.text(max_size=12) | st.text(st.characters(categories=["Cs"]), max_size=3) | \
    st.text(st.characters(codec="utf-8"), max_size=12)
DEEP = st.integers(1, 4000).flatmap(
    lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n, "[" * n]))
HUGE = st.integers(4000, 6000).map(lambda n: "9" * n) | st.sampled_from(
    ["1e999", "-1e999", "NaN", "Infinity", "-0", "1.0", "1e2"])
VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT,
                      lambda children: st.lists(children, max_size=4)
                      | st.dictionaries(ANY_TEXT | KEYS, children, max_size=5), max_leaves=15)


def as_json_text(value, ascii_only: bool) -> str:
    try:
        return json.dumps(value, ensure_ascii=ascii_only)
    except ValueError:  # NaN floats are fine for json.dumps; this guards oddities only
        return "null"


LINE_TEXT = st.one_of(
    st.builds(as_json_text, VALUES | EVENTISH, st.booleans()),
    st.builds(lambda key, raw: '{"type": "jump", "to": "Freezer", "' + key + '": ' + raw + "}",
              st.sampled_from(["x", "to", "card", "player"]), DEEP | HUGE),
    st.builds(lambda name: as_json_text({**setup_json(2), "players": [
        {"name": name, "color": "red"}, {"name": "Ben", "color": "blue"}]}, True), ANY_TEXT),
    st.builds(lambda key, value: as_json_text({**setup_json(2), key: value}, False),
              st.sampled_from(["v", "variant", "first", "players", "planets"]), VALUES),
    DEEP, HUGE, ANY_TEXT)
LINE_BYTES = LINE_TEXT.map(lambda text: text.encode("utf-8", "surrogatepass")) | st.binary(
    max_size=40)
RECORDS = st.builds(
    lambda first, lines, newline: b"\n".join([first, *lines]) + (b"\n" if newline else b""),
    st.sampled_from([json.dumps(setup_json(2)).encode(), json.dumps(setup_json(3)).encode()])
    | LINE_BYTES,
    st.lists(st.sampled_from([b'{"type": "jump", "to": "Freezer"}', b'{"type": "undo"}',
                              b'{"type": "redo"}', b'{"type": "top_up"}', b""]) | LINE_BYTES,
             max_size=6),
    st.booleans())


@FUZZ
@given(RECORDS, st.booleans())
def test_score_command_on_any_record_exits_0_or_2_with_the_line(raw, ascii_terminal):
    fuzz.score_command(raw, ascii_terminal)


@FUZZ
@given(RECORDS)
def test_opening_any_record_refuses_or_keeps_every_byte(raw):
    fuzz.journal_open(raw)


@FUZZ
@given(st.builds(lambda key, text: json.dumps({**SHIPPED, key: None})
                 .replace("null", text).encode("utf-8", "surrogatepass"),
                 st.sampled_from(["profile", "planets", "tiles", "deck", "about",
                                  "deck_is_example"]),
                 LINE_TEXT | DEEP | HUGE) | LINE_BYTES)
def test_box_profile_files_of_any_structure_and_bytes(raw):
    fuzz.box_file(raw)


@FUZZ
@given(st.builds(lambda key, text: ('{"version": 1, "layout": {"width": 1, "height": 1, '
                                    '"markers": [], "zones": {}}, "' + key + '": ' + text + "}")
                 .encode("utf-8", "surrogatepass"),
                 st.sampled_from(["version", "layout", "table", "colors", "cards"]),
                 LINE_TEXT | DEEP | HUGE) | LINE_BYTES)
def test_calibration_files_of_any_structure_and_bytes(raw):
    fuzz.calibration_file(raw)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.sampled_from([(1, 1, 3), (40, 30, 3), (120, 160, 3),
                                               (240, 320, 3), (480, 640, 3), (64, 64),
                                               (60, 60, 4), (0, 10, 3)]),
       st.sampled_from(["noise", "blocks", "stripes", "flat"]))
def test_random_and_adversarial_images(seed, shape, kind):
    rng = np.random.default_rng(seed)
    if kind == "noise":
        image = rng.integers(0, 256, shape, dtype=np.uint8)
    elif kind == "blocks":
        small = rng.integers(0, 2, (max(1, shape[0] // 8 + 1), max(1, shape[1] // 8 + 1))
                             + shape[2:], dtype=np.uint8) * 255
        image = np.kron(small, np.ones((8, 8) + (1,) * (len(shape) - 2), np.uint8))[
            :shape[0], :shape[1]]
    elif kind == "stripes":
        image = np.zeros(shape, np.uint8)
        image[::3] = 255
    else:
        image = np.full(shape, int(rng.integers(0, 256)), np.uint8)
    fuzz.image(image)
