"""Untrusted input fuzzed: sticker payloads, journal lines and files, box profiles,
calibration files, random and adversarial images. No crash; only the documented errors."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.box import SHIPPED_PROFILE
from vision.layout import default_layout
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
FUZZ = settings(max_examples=200, deadline=None,
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


# -- the calibration and the preferences, structurally: every part in a shape of its own -----

NUMBER = st.floats(allow_nan=False, allow_infinity=False) | st.integers(-10**6, 10**6) | \
    st.sampled_from([0, -1, 1e-300, 1e308, -1e308, 0.5, 160, 120, 1e6])
POINT = st.lists(NUMBER, min_size=0, max_size=3)
POLYGON = st.lists(POINT, max_size=6) | st.sampled_from(
    [[[0, 0], [100, 0], [100, 100]], [[5, 5], [5, 5], [5, 5]], []])
MARKER = st.fixed_dictionaries({"id": st.integers(-2, 60) | st.booleans(), "center": POINT,
                                "size": NUMBER})
LAYOUT_MINIMAL = {"width": 200, "height": 200, "zones": {}, "markers": [
    {"id": i, "center": [50 + 100 * (i % 2), 50 + 100 * (i // 2)], "size": 20}
    for i in range(4)]}
"""Four corner markers and nothing else: a layout a file may hold."""
MATRIX = st.lists(st.lists(NUMBER, min_size=3, max_size=3), min_size=3, max_size=3) | \
    st.sampled_from([[[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
                     [[1, 0, 0], [0, 1, 0], [-0.01, 0, 1]], [[1e-9, 0, 0], [0, 1e-9, 0],
                                                              [0, 0, 1]]])
TABLE = st.fixed_dictionaries({"image_to_table": MATRIX,
                               "image_size": st.sampled_from([[160, 120], [0, 120], [160, -1]])
                               | st.lists(NUMBER, max_size=3)})
BASE_CALIBRATION = {"version": 1, "layout": default_layout().to_json(),
                    "table": {"image_to_table": [[7.5, 0, 0], [0, 5.625, 0], [0, 0, 1]],
                              "image_size": [160, 120]},
                    "colors": {"B": 105, "G": 60, "O": 12}}
"""A calibration that loads: the 160x120 frame spread over the whole default table."""


def _changed(path: tuple, value) -> dict:  # type: ignore[no-untyped-def]
    """The base calibration with the part at ``path`` (keys and indices) replaced."""
    data = json.loads(json.dumps(BASE_CALIBRATION))
    *parents, last = path
    node = data
    for key in parents:
        node = node[key]
    node[last] = value
    return data


ZONE = st.sampled_from(sorted(BASE_CALIBRATION["layout"]["zones"]))
CALIBRATION = st.one_of(
    st.builds(lambda k, v: _changed(("layout", k), v), st.sampled_from(["width", "height"]),
              NUMBER),
    st.builds(lambda z, v: _changed(("layout", "zones", z), v), ZONE, POLYGON),
    st.builds(lambda z, i, v: _changed(("layout", "zones", z, i % 4), v), ZONE,
              st.integers(0, 3), POINT),
    st.builds(lambda i, k, v: _changed(("layout", "markers", i, k), v), st.integers(0, 7),
              st.sampled_from(["id", "center", "size"]), NUMBER | POINT | st.booleans()),
    st.builds(lambda v: _changed(("layout", "markers"), v), st.lists(MARKER, max_size=9)),
    st.builds(lambda v: _changed(("table", "image_to_table"), v), MATRIX),
    st.builds(lambda r, c, v: _changed(("table", "image_to_table", r, c), v),
              st.integers(0, 2), st.integers(0, 2), NUMBER),
    st.builds(lambda v: _changed(("table", "image_size"), v),
              st.lists(NUMBER, max_size=3) | st.sampled_from([[0, 120], [160, -1]])),
    st.builds(lambda k, v: _changed(("colors", k), v), st.sampled_from(["B", "G", "O"]),
              NUMBER),
    st.just(BASE_CALIBRATION), st.just(_changed(("layout",), LAYOUT_MINIMAL)))


@FUZZ
@given(CALIBRATION)
def test_a_calibration_that_loads_is_safe_for_the_camera(data):
    fuzz.calibration_in_use(json.dumps(data).encode())


REGULAR = st.fixed_dictionaries({}, optional={"name": VALUES | st.text(max_size=30),
                                              "color": VALUES | st.sampled_from(
                                                  ["red", "blue", "green", "yellow", "black"])})
PREFERENCES = st.fixed_dictionaries(
    {"version": st.sampled_from([1, 1.0, True, 2, None, "1"])},
    optional={"language": VALUES | st.sampled_from(["en", "de", "it", "fr", ["en"]]),
              "auto_confirm": VALUES, "roster": st.lists(REGULAR | VALUES, max_size=14) | VALUES})


@FUZZ
@given(PREFERENCES.map(lambda data: as_json_text(data, False).encode("utf-8", "surrogatepass"))
       | LINE_BYTES | DEEP.map(str.encode))
def test_any_preferences_file_starts_the_app_with_what_is_usable(raw):
    fuzz.preferences_file(raw)


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
