"""The box profile: the shipped file loads, examples are flagged, bad files are named."""

from __future__ import annotations

import json

import pytest

from companion.box import SHIPPED_PROFILE, BoxProfileError, load_box, save_box

KNOWN_NAMES = {"Freezer", "Hazard", "Green Heggar", "Ruby Red", "Caldera"}


def test_the_shipped_profile_holds_the_known_names_and_flags_every_example():
    box = load_box()
    names = {p.planet.name for p in box.planets}
    assert KNOWN_NAMES <= names and len(names) == 12
    assert all(p.example for p in box.planets) and box.deck_is_example
    assert box.tiles_split_assumed and sum(box.tiles.values()) == 64
    assert all("(example coordinates)" in p.describe() for p in box.planets)
    assert box.planet("Freezer").planet.jump == box.planet("Hazard").planet.jump == 1


def test_a_saved_profile_loads_back_equal(tmp_path):
    box = load_box()
    save_box(box, tmp_path / "box.json")
    assert load_box(tmp_path / "box.json") == box


def edited(tmp_path, change):
    data = json.loads(SHIPPED_PROFILE.read_text())
    change(data)
    path = tmp_path / "box.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("change, message", [
    (lambda d: d["planets"].pop(), "the box holds 12 planets; the profile lists 11"),
    (lambda d: d["planets"][2].update(scan=7), "planet 3: Green Heggar's scan coordinate"),
    (lambda d: d["planets"][4].update(name="Freezer"), "planet name 'Freezer' appears twice"),
    (lambda d: d["planets"][0].update(example="no"), "example must be true/false"),
    (lambda d: d["tiles"].update({"MIN-R": 5}), "16 minerals tiles; the profile counts 17"),
    (lambda d: d["tiles"].update({"GOLD": 1}), "unknown tile kind 'GOLD'"),
    (lambda d: d["deck"].pop(), "the deck holds 60 cards; the profile lists 59"),
    (lambda d: d["deck"].__setitem__(5, "G1/B2"), "deck card 6: .*not canonical"),
    (lambda d: d.update(profile=9), "profile version 9 is not supported"),
])
def test_a_broken_profile_is_refused_naming_file_and_problem(tmp_path, change, message):
    path = edited(tmp_path, change)
    with pytest.raises(BoxProfileError, match=f"^{path}: .*{message}"):
        load_box(path)


def test_a_profile_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "box.json"
    path.write_text("{planets: ")
    with pytest.raises(BoxProfileError, match="not valid JSON"):
        load_box(path)


def test_a_corrected_planet_is_no_longer_marked_as_example(tmp_path):
    path = edited(tmp_path, lambda d: d["planets"][0].update(example=False))
    box = load_box(path)
    assert "example" not in box.planet("Freezer").describe()
    assert box.has_examples  # the others still are
