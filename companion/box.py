"""The box profile: what this copy of the game holds, as an editable data file.

The planets' printed coordinates, the deck's coordinate pairs and the per-colour tile split are
not published, so the shipped profile (``companion/data/box.json``) holds examples, flagged as
such: a planet keeps ``"example": true`` until someone corrects it from the real board, and
``deck_is_example`` / ``tiles_split_assumed`` say the same of the deck and the split.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.files import MEGABYTE, read_regular
from companion.jsontext import JSONTextError, parse_json
from companion.rules import (CATEGORY_TOTALS, DECK_SIZE, RING_SIZE, TILE_CATEGORY,
                             TILES_PER_STACK, TOTAL_TILES, Card, MalformedEventError, Planet,
                             is_whole_number, shown, text_value)

SHIPPED_PROFILE = Path(__file__).parent / "data" / "box.json"
PROFILE_VERSION = 1
PROFILE_LIMIT = MEGABYTE
"""Twelve planets, a deck and the tiles take a few kilobytes."""
BOX_PLANETS = 12


class BoxProfileError(ValueError):
    """The box profile file cannot be used; the message names what is wrong and where."""


@dataclass(frozen=True)
class BoxPlanet:
    planet: Planet
    example: bool
    """The coordinates are the shipped examples, not read from the real board."""

    def describe(self) -> str:
        p = self.planet
        text = f"{p.name}: jump B{p.jump}, scan G{p.scan}, landing O{p.landing[0]} O{p.landing[1]}"
        return text + (" (example coordinates)" if self.example else "")


@dataclass(frozen=True)
class BoxProfile:
    planets: tuple[BoxPlanet, ...]
    tiles: dict[str, int]
    """How many tiles of each kind the box holds."""
    deck: tuple[Card, ...]
    deck_is_example: bool
    tiles_split_assumed: bool
    about: str = ""

    def planet(self, name: str) -> BoxPlanet:
        for p in self.planets:
            if p.planet.name == name:
                return p
        raise KeyError(name)

    @property
    def example_planets(self) -> frozenset[str]:
        """The planets whose coordinates are still the shipped examples."""
        return frozenset(p.planet.name for p in self.planets if p.example)

    @property
    def has_examples(self) -> bool:
        return self.deck_is_example or any(p.example for p in self.planets)

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": PROFILE_VERSION,
            "about": self.about,
            "planets": [dict(p.planet.to_json(), example=p.example) for p in self.planets],
            "tiles": dict(self.tiles),
            "tiles_split_assumed": self.tiles_split_assumed,
            "deck": [c.code for c in self.deck],
            "deck_is_example": self.deck_is_example,
        }


def load_box(path: str | Path | None = None) -> BoxProfile:
    """Read and validate a box profile; the shipped one when ``path`` is None."""
    source = Path(path) if path is not None else SHIPPED_PROFILE
    try:
        data = parse_json(read_regular(source, PROFILE_LIMIT))
    except OSError as error:
        raise BoxProfileError(f"{source}: cannot read the box profile: {error.strerror}") from None
    except JSONTextError as error:
        raise BoxProfileError(f"{source}: not valid JSON: {error}") from None
    try:
        return parse_box(data)
    except BoxProfileError as error:
        raise BoxProfileError(f"{source}: {error}") from None


def parse_box(data: Any) -> BoxProfile:
    if not isinstance(data, dict):
        raise BoxProfileError("a box profile is a JSON object")
    version = data.get("profile")
    if not is_whole_number(version) or version != PROFILE_VERSION:
        raise BoxProfileError(f"profile version {shown(version)} is not supported "
                              f"(expected {PROFILE_VERSION})")
    about = data.get("about", "")
    try:
        about = text_value(about, "about")
    except MalformedEventError as error:
        raise BoxProfileError(str(error)) from None
    return BoxProfile(_parse_planets(data.get("planets")), _parse_tiles(data.get("tiles")),
                      _parse_deck(data.get("deck")), _flag(data, "deck_is_example"),
                      _flag(data, "tiles_split_assumed"), about)


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise BoxProfileError(f"{key} must be true or false, got {shown(value)}")
    return value


def _parse_planets(raw: Any) -> tuple[BoxPlanet, ...]:
    if not isinstance(raw, list) or len(raw) != BOX_PLANETS:
        count = len(raw) if isinstance(raw, list) else "no"
        raise BoxProfileError(f"the box holds {BOX_PLANETS} planets; the profile lists {count}")
    planets = []
    for number, entry in enumerate(raw, start=1):
        try:
            planet = Planet.from_json(entry)
        except MalformedEventError as error:
            raise BoxProfileError(f"planet {number}: {error}") from None
        example = entry.get("example", False)
        if not isinstance(example, bool):
            raise BoxProfileError(f"planet {number} ({planet.name}): example must be true/false")
        planets.append(BoxPlanet(planet, example))
    names = [p.planet.name for p in planets]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise BoxProfileError(f"planet name {twice[0]!r} appears twice")
    return tuple(planets)


def _parse_tiles(raw: Any) -> dict[str, int]:
    if not isinstance(raw, dict):
        raise BoxProfileError("'tiles' must map each tile kind to its count")
    unknown = sorted(set(raw) - set(TILE_CATEGORY))
    if unknown:
        raise BoxProfileError(f"unknown tile kind {shown(unknown[0])} "
                              f"(kinds: {', '.join(TILE_CATEGORY)})")
    tiles = {}
    for kind in TILE_CATEGORY:
        count = raw.get(kind)
        if not is_whole_number(count) or count < 0:
            raise BoxProfileError(f"tile count for {kind} must be a whole number, got "
                                  f"{shown(count)}")
        tiles[kind] = count
    for category, total in CATEGORY_TOTALS.items():
        got = sum(n for kind, n in tiles.items() if TILE_CATEGORY[kind] == category)
        if got != total:
            raise BoxProfileError(f"the box holds {total} {category} tiles; the profile "
                                  f"counts {got}")
    assert sum(tiles.values()) == TOTAL_TILES == TILES_PER_STACK * RING_SIZE
    return tiles


def _parse_deck(raw: Any) -> tuple[Card, ...]:
    if not isinstance(raw, list) or len(raw) != DECK_SIZE:
        count = len(raw) if isinstance(raw, list) else "no"
        raise BoxProfileError(f"the deck holds {DECK_SIZE} cards; the profile lists {count}")
    deck = []
    for number, code in enumerate(raw, start=1):
        try:
            deck.append(Card.parse(code))
        except MalformedEventError as error:
            raise BoxProfileError(f"deck card {number}: {error}") from None
    return tuple(deck)


def save_box(profile: BoxProfile, path: str | Path) -> None:
    """Write a profile in the shipped layout: one planet, and eight cards, per line."""
    data = profile.to_json()
    lines = ["{"]
    for key in ("profile", "about"):
        lines.append(f" {json.dumps(key)}: {json.dumps(data[key], ensure_ascii=False)},")
    lines.append(' "planets": [')
    planet_lines = [f"  {json.dumps(p, ensure_ascii=False)}" for p in data["planets"]]
    lines.append(",\n".join(planet_lines))
    lines.append(" ],")
    lines.append(f' "tiles": {json.dumps(data["tiles"])},')
    lines.append(f' "tiles_split_assumed": {json.dumps(data["tiles_split_assumed"])},')
    lines.append(' "deck": [')
    codes = [json.dumps(c) for c in data["deck"]]
    rows = [", ".join(codes[i:i + 8]) for i in range(0, len(codes), 8)]
    lines.append(",\n".join(f"  {row}" for row in rows))
    lines.append(" ],")
    lines.append(f' "deck_is_example": {json.dumps(data["deck_is_example"])}')
    lines.append("}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
