"""Space Mission rules engine.

One module, ordered top-down: constants, errors, value types (coordinates, cards, planets),
events (set-up, the six actions, undo, redo, end, tile inventory), state, the engine
(``apply(state, event) -> new state`` or a precise error), the move generator
(``legal_events``: every action the player to move may take, as complete events ``apply``
accepts) with ``why_not`` for the actions it cannot offer, and the ``Game`` fold that gives undo
and redo their meaning.

The rules text is in ``shared/rules/``; where it is silent, DESIGN.md §4 decides. Where both
are silent, this module decides as a careful player would, and this list is the one place
those decisions live:

- Top up with five cards and nothing discarded is legal: it is how a player passes an action.
- A card whose two coordinates share a colour may list them in either order (``O2/O1``): the
  code keeps the printed top and bottom; only the colour order blue, green, orange is canonical.
- ``only_space`` takes no ``tile`` (nothing is reserved) and implies the reveal.
- The special case counts as having scanned the planet: the player who made the only-space scan
  may develop that planet later (its stack is revealed, so the develop takes no tile). The
  rulebook's "if a player develops a planet where the Space tile is already facing up, he
  cannot take a tile" right after the special case only makes sense so.
- A stack with no tiles left is treated like a revealed one: scan and discover are refused
  there, develop builds the station and takes nothing; ``tile`` and ``reveal`` on such a develop
  are refused rather than ignored, so a wrong entry is caught.
- A reveal is part of the action that took the tile (its ``reveal`` flag); there is no separate
  reveal event, as the rules turn the tiles up right after the take.
- The rules text gives only category totals (16 minerals, 10 aliens, 8 matter, 8 water,
  6 medals, 16 space): a record may never name more of a category than that. The per-colour
  split is not known, so it is not enforced.
- An empty draw pile is replaced by the shuffled discard pile as soon as there is one, after
  any action, not only during a top up.
- A tile inventory uses no action and may be entered before or after the end. A player's
  later inventory replaces the earlier one: it is checked against the tiles play recorded, not
  against the earlier inventory, so a count entered wrong can be corrected.
- ``end`` on a game that has already ended is refused (undo reopens a game, then it may end).
- Redo is a journal event (``{"type": "redo"}``, an extension of format v1 that older records
  never hold, so they replay unchanged): it plays again the event the latest undo cancelled.
  Several redos go forward again; any other event clears what could be redone. So undo and redo
  both live in the record, and both survive a restart.
- Only JSON ``null`` stands for an absent field. A field of the wrong type is malformed, never
  read as its default: ``true`` or ``1.0`` is not the number 1, ``false``, ``""``, ``0`` or
  ``[]`` is not a missing variant. Text holding an unpaired surrogate is not text.

The engine deals in public information only. It knows how many cards each hand and pile holds,
how many tiles each stack holds and which of them were seen, never what a face-down stack or a
hand holds. Optional fields of an event (a card code, a tile kind) are checked when present.

Every refusal is a ``RulesError`` whose message is a template and its values, so a screen can
show it in the players' language (``error.template``, ``error.params``).
"""

from __future__ import annotations

import reprlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, TypeGuard, Union

# ---------------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------------

PLAYER_COLORS = ("red", "blue", "green", "yellow", "black")
VARIANTS = ("table", "yucata")
MIN_PLAYERS, MAX_PLAYERS = 2, 5
RING_SIZE = 8
HAND_SIZE = 5
DECK_SIZE = 60
TILES_PER_STACK = 8
CHIPS_PER_PLAYER = 20
COORDINATE_NUMBERS = (1, 2, 3, 4)

#: Revealed space tiles that start the final round, by player count.
END_THRESHOLD = {2: 6, 3: 8, 4: 10, 5: 12}

#: Coordinate colours: blue jumps, green scans, orange lands (develops).
COLOR_NAMES = {"B": "Blue", "G": "Green", "O": "Orange"}
COLOR_ORDER = "BGO"

#: Tile kinds as written in the journal, and the scoring category each belongs to.
TILE_CATEGORY = {
    "MIN-R": "minerals", "MIN-P": "minerals", "MIN-G": "minerals", "MIN-B": "minerals",
    "ALI-N": "aliens", "ALI-B": "aliens",
    "MAT-G": "matter", "MAT-B": "matter",
    "WAT": "water",
    "MED": "medals",
    "SPC": "space",
}
TILE_KINDS = tuple(TILE_CATEGORY)
SPACE = "SPC"
TILE_NAMES = {
    "MIN-R": "red mineral", "MIN-P": "purple mineral", "MIN-G": "green mineral",
    "MIN-B": "blue mineral", "ALI-N": "brown alien", "ALI-B": "blue alien",
    "MAT-G": "green matter", "MAT-B": "blue matter", "WAT": "water", "MED": "medal",
    "SPC": "space",
}
#: How many tiles of each category the box holds (the rules text gives these totals).
CATEGORY_TOTALS = {"minerals": 16, "aliens": 10, "matter": 8, "water": 8, "medals": 6,
                   "space": 16}
TOTAL_TILES = sum(CATEGORY_TOTALS.values())
#: The six actions, by the names the journal gives them (a turn is two of them).
TOP_UP, JUMP, FLY, SCAN, DEVELOP, DISCOVER = "top_up", "jump", "fly", "scan", "develop", "discover"
ACTION_TYPES = (TOP_UP, JUMP, FLY, SCAN, DEVELOP, DISCOVER)


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

Template = str
"""Words the players read, with ``{name}`` placeholders: a refusal, a camera notice. The core
never translates them. ``ui/catalogues.py`` collects every string passed where a parameter is a
``Template``, and the screen translates the template where it shows it."""


class Refusal(ValueError):
    """A refusal the players read: an English template and the values it names (the
    engine's, and teaching's of a set of photos)."""

    def __init__(self, template: Template, **params: Any) -> None:
        super().__init__(template)
        self.template = template
        """The message with ``{name}`` placeholders: what a translation translates."""
        self.params = params

    def __str__(self) -> str:
        # formatted when shown, not when raised: the move generator refuses many candidates
        return self.template.format(**self.params) if self.params else self.template


class RulesError(Refusal):
    """Base of every refusal by the engine."""


class MalformedEventError(RulesError):
    """The event is not well-formed: unknown type, missing field, bad card code or tile kind."""


class IllegalActionError(RulesError):
    """The event is well-formed, but the rules forbid it in the current state."""


class NotYourTurnError(IllegalActionError):
    """An event names a player other than the one whose turn it is."""


class GameOverError(IllegalActionError):
    """An action or end after the game has ended."""


class NothingToUndoError(IllegalActionError):
    """An undo with no event left in effect."""


class NothingToRedoError(IllegalActionError):
    """A redo with no undone event to play again."""


class InventoryError(IllegalActionError):
    """A tile inventory that does not fit what the record knows of that player."""


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 40
_REPR.maxlevel = 2


def shown(value: Any) -> str:
    """A value from a record, quoted for an error message: short, and never nested deep."""
    return _REPR.repr(value)


# ---------------------------------------------------------------------------------------------
# Field readers: strict JSON types, null for absent (see the decisions above)
# ---------------------------------------------------------------------------------------------

def is_whole_number(value: Any) -> TypeGuard[int]:
    """A JSON integer: not a boolean, not a float that happens to be whole."""
    return isinstance(value, int) and not isinstance(value, bool)


def text_value(value: Any, what: str) -> str:
    """A JSON string that is valid Unicode text."""
    if not isinstance(value, str):
        raise MalformedEventError("{what} must be text, got {value}", what=what,
                                  value=shown(value))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedEventError("{what} {value} is not valid text (it holds an unpaired "
                                  "surrogate)", what=what, value=shown(value)) from None
    return value


def _name_value(value: Any, what: str) -> str:
    name = text_value(value, what)
    if not name.strip():
        raise MalformedEventError("{what} cannot be blank", what=what)
    return name


def _optional_text(data: Mapping[str, Any], key: str, what: str) -> str | None:
    value = data.get(key)
    return None if value is None else text_value(value, what)


def _bool_field(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise MalformedEventError("{key} must be true or false, got {value}", key=key,
                                  value=shown(value))
    return value


def _list_field(data: Mapping[str, Any], key: str, template: str) -> list[Any] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, list):
        raise MalformedEventError(template, value=shown(value))
    return value


def _player_field(data: Mapping[str, Any]) -> str | None:
    player = data.get("player")
    if player is not None and not isinstance(player, str):
        raise MalformedEventError("player must be a name, got {value}", value=shown(player))
    return _optional_text(data, "player", "player")


def _put_player(out: dict[str, Any], player: str | None) -> dict[str, Any]:
    if player is not None:
        out["player"] = player
    return out


# ---------------------------------------------------------------------------------------------
# Value types
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Coordinate:
    """One coordinate printed on a card: a colour and a number, or a joker (``?``)."""

    color: str
    """``B`` (blue, jump), ``G`` (green, scan) or ``O`` (orange, landing)."""
    number: int | None
    """1–4, or ``None`` for the joker ``?`` that stands for any number of its colour."""

    @classmethod
    def parse(cls, text: str) -> Coordinate:
        if (len(text) != 2 or text[0] not in COLOR_NAMES
                or text[1] not in "1234?"):
            raise MalformedEventError(
                "{value} is not a coordinate (B, G or O followed by 1-4 or ?)",
                value=shown(text))
        return cls(text[0], None if text[1] == "?" else int(text[1]))

    def fits(self, color: str, number: int) -> bool:
        return self.color == color and (self.number is None or self.number == number)

    def __str__(self) -> str:
        return self.color + ("?" if self.number is None else str(self.number))

    def words(self) -> str:
        """How a player says it: "Blue 3", "Orange joker"."""
        return f"{COLOR_NAMES[self.color]} {'joker' if self.number is None else self.number}"


@dataclass(frozen=True)
class Card:
    """A card: two coordinates, the top one first. Its code is canonical (see ``parse``)."""

    top: Coordinate
    bottom: Coordinate

    @classmethod
    def parse(cls, code: Any) -> Card:
        """Read ``B3/G2``. Blue comes before green before orange; two of one colour are allowed."""
        if not isinstance(code, str) or code.count("/") != 1:
            raise MalformedEventError("{value} is not a card code like B3/G2", value=shown(code))
        top, bottom = (Coordinate.parse(part) for part in code.split("/"))
        if COLOR_ORDER.index(top.color) > COLOR_ORDER.index(bottom.color):
            raise MalformedEventError(
                "card code {value} is not canonical: blue comes before green before orange "
                "({canonical})", value=shown(code), canonical=f"{bottom}/{top}")
        return cls(top, bottom)

    @property
    def code(self) -> str:
        return f"{self.top}/{self.bottom}"

    @property
    def coordinates(self) -> tuple[Coordinate, Coordinate]:
        return (self.top, self.bottom)

    def fits(self, color: str, number: int) -> bool:
        return any(c.fits(color, number) for c in self.coordinates)

    def __str__(self) -> str:
        return self.code


def cards_fit_landing(first: Card, second: Card, landing: tuple[int, int]) -> bool:
    """Whether two cards show a planet's two landing numbers, one each, in either order."""
    a, b = landing
    return ((first.fits("O", a) and second.fits("O", b))
            or (first.fits("O", b) and second.fits("O", a)))


@dataclass(frozen=True)
class Planet:
    """A planet board: its name and printed coordinates."""

    name: str
    jump: int
    """Blue coordinate a card must show to jump here."""
    scan: int
    """Green coordinate a card must show to scan here."""
    landing: tuple[int, int]
    """The two orange coordinates two cards must show to develop here."""

    @classmethod
    def from_json(cls, data: Any) -> Planet:
        if not isinstance(data, Mapping):
            raise MalformedEventError("a planet must be an object, not {value}",
                                      value=shown(data))
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise MalformedEventError("a planet needs a name, got {value}", value=shown(name))
        name = text_value(name, "a planet's name")
        jump = _coordinate_number(data.get("jump"), name, "jump")
        scan = _coordinate_number(data.get("scan"), name, "scan")
        landing = data.get("landing")
        if not isinstance(landing, (list, tuple)) or len(landing) != 2:
            raise MalformedEventError(
                "{planet}'s landing must be a list of two numbers 1-4, got {value}",
                planet=name, value=shown(landing))
        pair = tuple(_coordinate_number(n, name, "landing") for n in landing)
        return cls(name, jump, scan, (pair[0], pair[1]))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "jump": self.jump, "scan": self.scan,
                "landing": list(self.landing)}


def _coordinate_number(value: Any, planet: str, which: str) -> int:
    if not is_whole_number(value) or value not in COORDINATE_NUMBERS:
        raise MalformedEventError("{planet}'s {which} coordinate must be a number 1-4, got "
                                  "{value}", planet=planet, which=which, value=shown(value))
    return int(value)


def check_tile_kind(kind: Any) -> str:
    if not isinstance(kind, str) or kind not in TILE_CATEGORY:
        raise MalformedEventError("{value} is not a tile kind (one of {kinds})",
                                  value=shown(kind), kinds=", ".join(TILE_KINDS))
    return str(kind)


def _tile_field(data: Mapping[str, Any]) -> str | None:
    tile = data.get("tile")
    return None if tile is None else check_tile_kind(tile)


def _card_field(data: Mapping[str, Any]) -> Card | None:
    code = data.get("card")
    return None if code is None else Card.parse(code)


def _cards_field(data: Mapping[str, Any]) -> tuple[Card, ...] | None:
    codes = _list_field(data, "cards", "cards must be a list of card codes, got {value}")
    return None if codes is None else tuple(Card.parse(c) for c in codes)


def _target_field(data: Mapping[str, Any]) -> str:
    target = data.get("to")
    if target is None:
        raise MalformedEventError("{type} needs 'to': a planet name", type=data.get("type"))
    return text_value(target, "'to'")


# ---------------------------------------------------------------------------------------------
# Events: the lines of the journal (DESIGN.md §5.1), each reading and writing its own form
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerSeat:
    name: str
    color: str


@dataclass(frozen=True)
class Setup:
    """The first journal line: who plays, the ring of planets, the start player, the variant."""

    type: ClassVar[str] = "setup"
    players: tuple[PlayerSeat, ...]
    """In clockwise seating order."""
    planets: tuple[Planet, ...]
    """The 8 planets in clockwise ring order; each neighbours the next, the last the first."""
    first: str
    """Name of the start player."""
    variant: str = "table"

    def __post_init__(self) -> None:
        count = len(self.players)
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise MalformedEventError("Space Mission is for {low}-{high} players, not {count}",
                                      low=MIN_PLAYERS, high=MAX_PLAYERS, count=count)
        for seat in self.players:
            _name_value(seat.name, "a player's name")
            if not isinstance(seat.color, str) or seat.color not in PLAYER_COLORS:
                raise MalformedEventError("{player}'s colour {value} is not one of {colors}",
                                          player=seat.name, value=shown(seat.color),
                                          colors=", ".join(PLAYER_COLORS))
        names = [p.name for p in self.players]
        _require_unique(names, "player name")
        _require_unique([p.color for p in self.players], "player colour")
        if len(self.planets) != RING_SIZE:
            raise MalformedEventError("the ring holds {size} planets, this set-up lists {count}",
                                      size=RING_SIZE, count=len(self.planets))
        _require_unique([p.name for p in self.planets], "planet name")
        if self.first not in names:
            raise MalformedEventError("start player {value} is not one of the players",
                                      value=shown(self.first))
        if self.variant not in VARIANTS:
            raise MalformedEventError("variant {value} is not one of {variants}",
                                      value=shown(self.variant), variants=", ".join(VARIANTS))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        version = data.get("v")
        if not is_whole_number(version) or version != 1:
            raise MalformedEventError("journal format version {value} is not supported (this "
                                      "companion reads version 1)", value=shown(version))
        players = data.get("players")
        if not isinstance(players, list):
            raise MalformedEventError("set-up needs a list of players")
        seats = []
        for p in players:
            if not isinstance(p, Mapping):
                raise MalformedEventError("a player must be an object, not {value}",
                                          value=shown(p))
            seats.append(PlayerSeat(_name_value(p.get("name"), "a player's name"),
                                    text_value(p.get("color"), "a player's colour")))
        planets = data.get("planets")
        if not isinstance(planets, list):
            raise MalformedEventError("set-up needs the list of 8 planets in ring order")
        first = _optional_text(data, "first", "the start player")
        if first is None and seats:
            first = seats[0].name
        variant = _optional_text(data, "variant", "the variant")
        return cls(tuple(seats), tuple(Planet.from_json(p) for p in planets), first or "",
                   "table" if variant is None else variant)

    def to_json(self) -> dict[str, Any]:
        return {"v": 1, "type": "setup", "variant": self.variant,
                "players": [{"name": p.name, "color": p.color} for p in self.players],
                "planets": [p.to_json() for p in self.planets], "first": self.first}

    @property
    def threshold(self) -> int:
        return END_THRESHOLD[len(self.players)]

    @cached_property
    def first_index(self) -> int:
        """Seat of the start player."""
        return self.player_index(self.first)

    def planet_index(self, name: Any) -> int:
        for i, planet in enumerate(self.planets):
            if planet.name == name:
                return i
        raise IllegalActionError("there is no planet {value} in this game (the ring: {ring})",
                                 value=shown(name),
                                 ring=", ".join(p.name for p in self.planets))

    def neighbours(self, index: int) -> tuple[int, int]:
        """The two ring neighbours of a planet: counter-clockwise, then clockwise."""
        return ((index - 1) % RING_SIZE, (index + 1) % RING_SIZE)

    def player_index(self, name: Any) -> int:
        for i, seat in enumerate(self.players):
            if seat.name == name:
                return i
        raise IllegalActionError("{value} is not playing in this game", value=shown(name))


def _require_unique(values: list[str], what: str) -> None:
    seen = [v for v, n in Counter(values).items() if n > 1]
    if seen:
        raise MalformedEventError("{what} {value} appears twice; each must be unique",
                                  what=what, value=shown(seen[0]))


@dataclass(frozen=True)
class TopUp:
    """Discard any number of cards, then draw back to five."""

    type: ClassVar[str] = TOP_UP
    discard: int = 0
    cards: tuple[Card, ...] | None = None
    """The discarded cards' codes, when known."""
    player: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TopUp:
        cards = _cards_field(data)
        discard = data.get("discard")
        if discard is None:
            discard = 0 if cards is None else len(cards)
        if not is_whole_number(discard) or discard < 0:
            raise MalformedEventError("discard must be a whole number 0 or more, got {value}",
                                      value=shown(discard))
        if cards is not None and len(cards) != discard:
            raise MalformedEventError("discard says {discard} but {count} card codes are listed",
                                      discard=discard, count=len(cards))
        return cls(discard, cards, _player_field(data))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.discard:
            out["discard"] = self.discard
        if self.cards is not None:
            out["cards"] = [c.code for c in self.cards]
        return _put_player(out, self.player)


@dataclass(frozen=True)
class Jump:
    """Play a card with the target's blue coordinate; a probe goes on the jump gate."""

    type: ClassVar[str] = JUMP
    to: str
    card: Card | None = None
    player: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Jump:
        return cls(_target_field(data), _card_field(data), _player_field(data))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "to": self.to}
        if self.card is not None:
            out["card"] = self.card.code
        return _put_player(out, self.player)


@dataclass(frozen=True)
class Fly:
    """Move to one of the two ring neighbours, without a card."""

    type: ClassVar[str] = FLY
    to: str
    player: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Fly:
        return cls(_target_field(data), _player_field(data))

    def to_json(self) -> dict[str, Any]:
        return _put_player({"type": self.type, "to": self.to}, self.player)


def _tile_fields_json(out: dict[str, Any], tile: str | None, reveal: bool) -> dict[str, Any]:
    if tile is not None:
        out["tile"] = tile
    if reveal:
        out["reveal"] = True
    return out


@dataclass(frozen=True)
class Scan:
    """Play a card with the planet's green coordinate; reserve a tile with a probe."""

    type: ClassVar[str] = SCAN
    card: Card | None = None
    tile: str | None = None
    """Kind of the reserved tile, when known."""
    reveal: bool = False
    """After the take only space tiles are left in the stack: they are turned face up."""
    only_space: bool = False
    """The special case: the first scan of an untouched stack finds only space tiles."""
    player: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Scan:
        return cls(_card_field(data), _tile_field(data), _bool_field(data, "reveal"),
                   _bool_field(data, "only_space"), _player_field(data))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.card is not None:
            out["card"] = self.card.code
        _tile_fields_json(out, self.tile, self.reveal)
        if self.only_space:
            out["only_space"] = True
        return _put_player(out, self.player)


@dataclass(frozen=True)
class Develop:
    """Play two cards with the landing coordinates; build a station; hand out reservations."""

    type: ClassVar[str] = DEVELOP
    cards: tuple[Card, Card] | None = None
    tile: str | None = None
    reveal: bool = False
    player: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Develop:
        cards = _cards_field(data)
        if cards is not None and len(cards) != 2:
            raise MalformedEventError("develop plays exactly 2 cards, {count} are listed",
                                      count=len(cards))
        pair = None if cards is None else (cards[0], cards[1])
        return cls(pair, _tile_field(data), _bool_field(data, "reveal"), _player_field(data))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.cards is not None:
            out["cards"] = [c.code for c in self.cards]
        _tile_fields_json(out, self.tile, self.reveal)
        return _put_player(out, self.player)


@dataclass(frozen=True)
class Discover:
    """On a developed planet, take a tile without a card."""

    type: ClassVar[str] = DISCOVER
    tile: str | None = None
    reveal: bool = False
    player: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Discover:
        return cls(_tile_field(data), _bool_field(data, "reveal"), _player_field(data))

    def to_json(self) -> dict[str, Any]:
        out = _tile_fields_json({"type": self.type}, self.tile, self.reveal)
        return _put_player(out, self.player)


@dataclass(frozen=True)
class Undo:
    """Cancel the latest event still in effect (an action, an inventory or an end)."""

    type: ClassVar[str] = "undo"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Undo:
        return cls()

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True)
class Redo:
    """Play again the event the latest undo cancelled (nothing new played since)."""

    type: ClassVar[str] = "redo"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Redo:
        return cls()

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True)
class End:
    """The players agree to end the game now."""

    type: ClassVar[str] = "end"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> End:
        return cls()

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True)
class Inventory:
    """A player's complete tiles, listed by kind (usually read at the end)."""

    type: ClassVar[str] = "tiles"
    player: str
    tiles: tuple[str, ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Inventory:
        player = data.get("player")
        if not isinstance(player, str):
            raise MalformedEventError("tiles needs 'player': whose tiles these are")
        tiles = data.get("tiles")
        if not isinstance(tiles, list):
            raise MalformedEventError("tiles needs 'tiles': the list of that player's tile kinds")
        return cls(text_value(player, "player"), tuple(check_tile_kind(t) for t in tiles))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player, "tiles": list(self.tiles)}


Action = Union[TopUp, Jump, Fly, Scan, Develop, Discover]
Event = Union[Setup, TopUp, Jump, Fly, Scan, Develop, Discover, Undo, Redo, End, Inventory]
EVENT_TYPES: dict[str, Any] = {cls.type: cls for cls in (
    Setup, TopUp, Jump, Fly, Scan, Develop, Discover, Undo, Redo, End, Inventory)}
"""Journal ``type`` -> the event class that reads and writes that line."""


def parse_event(data: Any) -> Event:
    """A journal line's JSON object as an event; unknown fields are ignored."""
    if not isinstance(data, Mapping):
        raise MalformedEventError("an event must be a JSON object, not {kind}",
                                  kind=type(data).__name__)
    kind = data.get("type")
    event_class = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if event_class is None:
        raise MalformedEventError("unknown event type {value} (one of {types})",
                                  value=shown(kind), types=", ".join(EVENT_TYPES))
    event: Event = event_class.from_json(data)
    return event


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Reservation:
    """A tile set aside by a scan, marked with the scanner's probe."""

    player: int
    tile: str | None
    """Its kind when known; the companion cannot see a face-down tile."""


@dataclass(slots=True)
class PlayerState:
    at: int | None = None
    """Index of the planet the ship is on; ``None`` while it is on the jump gate."""
    hand: int = HAND_SIZE
    probes: int = 0
    """Probes on the jump gate."""
    stations: int = 0
    tiles: list[str | None] = field(default_factory=list)
    """Tiles received, by kind where known: as play recorded them, or as the player's latest
    tile inventory lists them."""
    played: list[str | None] = field(default_factory=list)
    """Tiles received as play recorded them, whatever an inventory said since: what a later
    inventory, correcting an earlier one, is checked against."""

    def receive(self, tile: str | None) -> None:
        self.tiles.append(tile)
        self.played.append(tile)

    def copy(self) -> PlayerState:
        return PlayerState(self.at, self.hand, self.probes, self.stations, list(self.tiles),
                           list(self.played))


@dataclass(slots=True)
class StackState:
    """A planet's face-down tile stack, its station and the reservations beside it."""

    left: int = TILES_PER_STACK
    revealed: bool = False
    """Only space tiles are left and they lie face up."""
    developer: int | None = None
    """Who built the station here."""
    reservations: list[Reservation] = field(default_factory=list)
    only_space_scan: int | None = None
    """Who made the special-case scan here (it counts as having scanned the planet)."""

    def copy(self) -> StackState:
        return StackState(self.left, self.revealed, self.developer, list(self.reservations),
                          self.only_space_scan)

    @property
    def open(self) -> bool:
        """A tile can be taken: some are left and they are not the revealed space tiles."""
        return self.left > 0 and not self.revealed

    def scanned_by(self, player: int) -> bool:
        return self.only_space_scan == player or any(r.player == player
                                                      for r in self.reservations)


@dataclass(slots=True)
class GameState:
    """Everything public about a game in progress: a fold of the journal's events."""

    setup: Setup
    players: list[PlayerState]
    stacks: list[StackState]
    """Parallel to ``setup.planets``."""
    draw: int
    discard: int
    turn: int = 0
    """Completed turns; the player to move is ``(start + turn) mod players``."""
    action: int = 1
    """1 or 2: which action of the turn comes next."""
    final_round: bool = False
    ended: bool = False
    cards_played: int = 0
    """Cards laid on the discard pile so far: every player sees the pile grow."""

    @classmethod
    def new(cls, setup: Setup) -> GameState:
        count = len(setup.players)
        return cls(setup, [PlayerState() for _ in range(count)],
                   [StackState() for _ in range(RING_SIZE)],
                   draw=DECK_SIZE - HAND_SIZE * count, discard=0)

    def copy(self) -> GameState:
        """A copy to change. Stacks stay shared until an action changes one (it takes its own
        copy first, see ``_stack_to_change``): most actions change none, and the move generator
        copies states by the thousand."""
        return GameState(self.setup, [p.copy() for p in self.players], list(self.stacks),
                         self.draw, self.discard, self.turn, self.action, self.final_round,
                         self.ended, self.cards_played)

    # -- derived facts ------------------------------------------------------------------------

    @property
    def current(self) -> int:
        """Index of the player whose turn it is."""
        return (self.setup.first_index + self.turn) % len(self.players)

    @property
    def current_name(self) -> str:
        return self.setup.players[self.current].name

    @property
    def revealed_space(self) -> int:
        return sum(s.left for s in self.stacks if s.revealed)

    def reserved_by(self, player: int) -> list[tuple[int, Reservation]]:
        return [(i, r) for i, s in enumerate(self.stacks) for r in s.reservations
                if r.player == player]

    def chips_in_play(self, player: int) -> int:
        """Probes on the gate, probes on reserved tiles and stations."""
        p = self.players[player]
        return p.probes + p.stations + len(self.reserved_by(player))

    def known_tiles(self) -> Counter[str]:
        """Every tile kind the record names, in players' hands and in reservations."""
        kinds: Counter[str] = Counter()
        for p in self.players:
            kinds.update(t for t in p.tiles if t is not None)
        for s in self.stacks:
            kinds.update(r.tile for r in s.reservations if r.tile is not None)
        return kinds

    # -- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "setup": self.setup.to_json(),
            "players": [{"at": p.at, "hand": p.hand, "probes": p.probes,
                         "stations": p.stations, "tiles": list(p.tiles),
                         "played": list(p.played)} for p in self.players],
            "stacks": [{"left": s.left, "revealed": s.revealed, "developer": s.developer,
                        "reservations": [[r.player, r.tile] for r in s.reservations],
                        "only_space_scan": s.only_space_scan}
                       for s in self.stacks],
            "draw": self.draw, "discard": self.discard, "turn": self.turn,
            "action": self.action, "final_round": self.final_round, "ended": self.ended,
            "cards_played": self.cards_played,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameState:
        return cls(
            Setup.from_json(data["setup"]),
            [PlayerState(p["at"], p["hand"], p["probes"], p["stations"], list(p["tiles"]),
                         list(p.get("played", p["tiles"])))
             for p in data["players"]],
            [StackState(s["left"], s["revealed"], s["developer"],
                        [Reservation(r[0], r[1]) for r in s["reservations"]],
                        s.get("only_space_scan"))
             for s in data["stacks"]],
            data["draw"], data["discard"], data["turn"], data["action"],
            data["final_round"], data["ended"], data.get("cards_played", 0))


# ---------------------------------------------------------------------------------------------
# Engine: each action is a check (reads the state, raises the rule it breaks) and a change
# (applied to a copy); the move generator runs the checks alone.
# ---------------------------------------------------------------------------------------------

def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``, or a ``RulesError`` naming the rule it breaks.

    ``state`` is never changed. Undo and redo are not engine moves: they need the history, see
    ``Game``.
    """
    if isinstance(event, (Setup, Undo, Redo)):
        raise MalformedEventError("{type} cannot be applied to a game state", type=event.type)
    if isinstance(event, Inventory):
        new = state.copy()
        _inventory(new, event)
    elif isinstance(event, End):
        if state.ended:
            raise GameOverError("the game has already ended")
        new = state.copy()
        new.ended = True
    else:
        _check_action(state, event)
        new = state.copy()
        _CHANGES[event.type](new, event)
        _settle_piles(new)
        _advance(new)
    if _names_tiles(event):
        _check_tile_totals(new)
    return new


def is_legal(state: GameState, event: Event) -> bool:
    try:
        apply(state, event)
    except RulesError:
        return False
    return True


def takes_tile(state: GameState, action: Action) -> bool:
    """Whether the action takes a tile from the stack at the ship's planet, so that a tile
    kind and a reveal belong to it."""
    if isinstance(action, Scan):
        return not action.only_space
    if isinstance(action, Discover):
        return True
    if isinstance(action, Develop):
        at = state.players[state.current].at
        return at is not None and state.stacks[at].open
    return False


def _names_tiles(event: Event) -> bool:
    """Whether an event can add to the tiles the record knows of (kinds or revealed space)."""
    return (isinstance(event, Inventory) or getattr(event, "tile", None) is not None
            or getattr(event, "reveal", False) or getattr(event, "only_space", False))


def _check_action(state: GameState, action: Action) -> None:
    if state.ended:
        raise GameOverError("the game has ended; undo the end to play on")
    if action.player is not None and action.player != state.current_name:
        raise NotYourTurnError("it is {current}'s turn (action {action}), not {player}'s",
                               current=state.current_name, action=state.action,
                               player=action.player)
    _CHECKS[action.type](state, action)


def _name(state: GameState, player: int) -> str:
    return state.setup.players[player].name


def _planet(state: GameState, index: int) -> Planet:
    return state.setup.planets[index]


def _need_cards(state: GameState, player: int, count: int, template: Template) -> None:
    held = state.players[player].hand
    if held < count:
        raise IllegalActionError(template, player=_name(state, player), held=held)


def _need_chip(state: GameState, player: int, template: Template) -> None:
    if state.chips_in_play(player) >= CHIPS_PER_PLAYER:
        raise IllegalActionError(template, player=_name(state, player), chips=CHIPS_PER_PLAYER)


def _ship_planet(state: GameState, player: int, template: Template) -> int:
    at = state.players[player].at
    if at is None:
        raise IllegalActionError(template, player=_name(state, player))
    return at


def _check_card(card: Card | None, color: str, planet: Planet, template: Template) -> None:
    number = planet.jump if color == "B" else planet.scan
    if card is not None and not card.fits(color, number):
        raise IllegalActionError(template, planet=planet.name, number=number,
                                 top=str(card.top), bottom=str(card.bottom))


def _check_top_up(state: GameState, action: TopUp) -> None:
    me = state.current
    held = state.players[me].hand
    if action.discard > held:
        raise IllegalActionError("{player} holds {held} cards and cannot discard {count}",
                                 player=_name(state, me), held=held, count=action.discard)


def _check_jump(state: GameState, action: Jump) -> None:
    me = state.current
    target = state.setup.planet_index(action.to)
    planet = _planet(state, target)
    if state.players[me].at == target:
        raise IllegalActionError("{player}'s ship is already on {planet}; a jump goes to "
                                 "another planet", player=_name(state, me), planet=planet.name)
    _need_cards(state, me, 1, "a jump needs 1 card; {player} holds {held}")
    _check_card(action.card, "B", planet,
                "{planet}'s jump coordinate is {number}; this card offers {top} or {bottom}")
    _need_chip(state, me, "{player} has all {chips} chips in play; a jump puts a probe on the "
                          "jump gate")


def _check_fly(state: GameState, action: Fly) -> None:
    me = state.current
    target = state.setup.planet_index(action.to)
    at = _ship_planet(state, me, "{player}'s ship is on the jump gate; the first move must be "
                                 "a jump (a flight goes from a planet to a neighbouring one)")
    left, right = state.setup.neighbours(at)
    if target not in (left, right):
        raise IllegalActionError("{target} is not next to {here}; a flight goes to {left} or "
                                 "{right}", target=_planet(state, target).name,
                                 here=_planet(state, at).name, left=_planet(state, left).name,
                                 right=_planet(state, right).name)


def _check_scan(state: GameState, action: Scan) -> None:
    me = state.current
    here = _ship_planet(state, me, "{player}'s ship is on the jump gate; scanning happens on "
                                   "the planet where the ship is (jump to a planet first)")
    planet, stack = _planet(state, here), state.stacks[here]
    if stack.developer is not None:
        raise IllegalActionError("{planet} has {developer}'s station; only undeveloped planets "
                                 "can be scanned", planet=planet.name,
                                 developer=_name(state, stack.developer))
    _need_cards(state, me, 1, "a scan needs 1 card; {player} holds {held}")
    _check_card(action.card, "G", planet,
                "{planet}'s scan coordinate is {number}; this card offers {top} or {bottom}")
    if action.only_space:
        if stack.revealed:
            raise IllegalActionError("only_space is the first scan of an untouched stack; "
                                     "{planet}'s stack has been revealed", planet=planet.name)
        if stack.left != TILES_PER_STACK:
            raise IllegalActionError("only_space is the first scan of an untouched stack; "
                                     "{planet}'s stack has {left} tiles left",
                                     planet=planet.name, left=stack.left)
        if action.tile is not None:
            raise IllegalActionError("a scan that finds only space tiles reserves nothing; "
                                     "leave out 'tile'")
        return
    _check_stack_open(state, here, "{planet}'s stack is revealed (only space tiles are left); "
                                   "a scan must take a point tile",
                      "{planet}'s stack is empty; a scan must take a tile")
    _need_chip(state, me, "{player} has all {chips} chips in play; a scan marks the reserved "
                          "tile with a probe")
    _check_variant(state, action.tile, "variant yucata: a space tile cannot be reserved")


def _check_develop(state: GameState, action: Develop) -> None:
    me = state.current
    here = _ship_planet(state, me, "{player}'s ship is on the jump gate; developing happens on "
                                   "the planet where the ship is (jump to a planet first)")
    planet, stack = _planet(state, here), state.stacks[here]
    if stack.developer is not None:
        raise IllegalActionError("{planet} already has {developer}'s station; each planet is "
                                 "developed once", planet=planet.name,
                                 developer=_name(state, stack.developer))
    if not stack.scanned_by(me):
        raise IllegalActionError("{player} has not scanned {planet}; only a player who scanned "
                                 "it may develop it", player=_name(state, me),
                                 planet=planet.name)
    _need_cards(state, me, 2, "developing needs 2 cards; {player} holds {held}")
    if action.cards is not None and not cards_fit_landing(*action.cards, planet.landing):
        first, second = action.cards
        raise IllegalActionError("{planet}'s landing coordinates are O{a} and O{b}; these cards "
                                 "offer {first_top} or {first_bottom}, and {second_top} or "
                                 "{second_bottom}", planet=planet.name, a=planet.landing[0],
                                 b=planet.landing[1], first_top=str(first.top),
                                 first_bottom=str(first.bottom), second_top=str(second.top),
                                 second_bottom=str(second.bottom))
    _need_chip(state, me, "{player} has all {chips} chips in play; the station needs one (it "
                          "is placed before the probes come back)")
    if stack.open:
        _check_variant(state, action.tile, "variant yucata: a space tile cannot be taken")
    elif action.tile is not None or action.reveal:
        raise IllegalActionError(
            "{planet}'s stack is revealed; developing it takes no tile" if stack.revealed
            else "{planet}'s stack is empty; developing it takes no tile", planet=planet.name)


def _check_discover(state: GameState, action: Discover) -> None:
    me = state.current
    here = _ship_planet(state, me, "{player}'s ship is on the jump gate; discovering happens "
                                   "on the planet where the ship is (jump to a planet first)")
    if state.stacks[here].developer is None:
        raise IllegalActionError("{planet} has no station yet; discover needs a developed "
                                 "planet", planet=_planet(state, here).name)
    _check_stack_open(state, here, "{planet}'s stack is revealed (only space tiles are left); "
                                   "discover must take a point tile",
                      "{planet}'s stack is empty; discover must take a tile")
    _check_variant(state, action.tile, "variant yucata: a space tile cannot be taken")


def _check_stack_open(state: GameState, here: int, revealed: Template,
                      empty: Template) -> None:
    stack, name = state.stacks[here], _planet(state, here).name
    if stack.revealed:
        raise IllegalActionError(revealed, planet=name)
    if stack.left == 0:
        raise IllegalActionError(empty, planet=name)


def _check_variant(state: GameState, tile: str | None, template: Template) -> None:
    if tile == SPACE and state.setup.variant == "yucata":
        raise IllegalActionError(template)


def _play_cards(state: GameState, player: int, count: int) -> None:
    state.players[player].hand -= count
    state.discard += count
    state.cards_played += count


def _top_up(state: GameState, action: TopUp) -> None:
    me = state.current
    player = state.players[me]
    _play_cards(state, me, action.discard)
    need = HAND_SIZE - player.hand
    while need > 0:
        if state.draw == 0:
            if state.discard == 0:
                break  # both piles empty: fewer cards are drawn
            state.draw, state.discard = state.discard, 0
        drawn = min(need, state.draw)
        state.draw -= drawn
        player.hand += drawn
        need -= drawn


def _jump(state: GameState, action: Jump) -> None:
    me = state.current
    _play_cards(state, me, 1)
    state.players[me].at = state.setup.planet_index(action.to)
    state.players[me].probes += 1


def _fly(state: GameState, action: Fly) -> None:
    state.players[state.current].at = state.setup.planet_index(action.to)


def _stack_to_change(state: GameState, here: int) -> StackState:
    """The stack at ``here``, copied for this state alone (see ``GameState.copy``)."""
    stack = state.stacks[here] = state.stacks[here].copy()
    return stack


def _scan(state: GameState, action: Scan) -> None:
    me = state.current
    here = state.players[me].at
    assert here is not None
    stack = _stack_to_change(state, here)
    _play_cards(state, me, 1)
    if action.only_space:  # no chip used, nothing reserved, the stack turned face up
        stack.revealed = True
        stack.only_space_scan = me
        return
    stack.reservations.append(Reservation(me, action.tile))
    _take_from_stack(state, here, action.reveal)


def _develop(state: GameState, action: Develop) -> None:
    me = state.current
    here = state.players[me].at
    assert here is not None
    stack = _stack_to_change(state, here)
    taking = stack.open
    _play_cards(state, me, 2)
    state.players[me].stations += 1
    stack.developer = me
    for reservation in stack.reservations:
        state.players[reservation.player].receive(reservation.tile)
    stack.reservations = []  # the probes go back to their owners' piles
    if taking:
        state.players[me].receive(action.tile)
        _take_from_stack(state, here, action.reveal)


def _discover(state: GameState, action: Discover) -> None:
    me = state.current
    here = state.players[me].at
    assert here is not None
    _stack_to_change(state, here)
    state.players[me].receive(action.tile)
    _take_from_stack(state, here, action.reveal)


def _take_from_stack(state: GameState, here: int, reveal: bool) -> None:
    """One tile leaves the stack (already this state's own); ``reveal`` says only space tiles
    are left in it."""
    stack = state.stacks[here]
    stack.left -= 1
    if reveal:
        stack.revealed = True


def _settle_piles(state: GameState) -> None:
    """An empty draw pile is replaced at once by the shuffled discard pile."""
    if state.draw == 0 and state.discard > 0:
        state.draw, state.discard = state.discard, 0


def _advance(state: GameState) -> None:
    """Next action or next turn; the final round and the end follow from the count."""
    if state.revealed_space >= state.setup.threshold:
        state.final_round = True
    if state.action == 1:
        state.action = 2
        return
    state.action = 1
    state.turn += 1
    if state.final_round and state.turn % len(state.players) == 0:
        state.ended = True  # the player before the start player has finished the round


def _inventory(state: GameState, event: Inventory) -> None:
    who = state.setup.player_index(event.player)
    player = state.players[who]
    if len(event.tiles) != len(player.played):
        raise InventoryError("{player} holds {held} tiles; this inventory lists {count}",
                             player=event.player, held=len(player.played),
                             count=len(event.tiles))
    listed = Counter(event.tiles)
    # checked against play, not an earlier inventory: a later one corrects it
    for kind, count in Counter(t for t in player.played if t is not None).items():
        if listed[kind] < count:
            raise InventoryError("the record says {player} has {count} × {kind}; this "
                                 "inventory lists {listed}", player=event.player,
                                 count=count, kind=kind, listed=listed[kind])
    if SPACE in listed and state.setup.variant == "yucata":
        raise InventoryError("variant yucata: no player can hold a space tile")
    player.tiles = list(event.tiles)


def _check_tile_totals(state: GameState) -> None:
    """No record may name more tiles of a category than the box holds."""
    known = state.known_tiles()
    by_category: Counter[str] = Counter()
    for kind, count in known.items():
        by_category[TILE_CATEGORY[kind]] += count
    space_seen = by_category["space"] + state.revealed_space
    if space_seen > CATEGORY_TOTALS["space"]:
        raise IllegalActionError("the box has {total} space tiles; this would make {revealed} "
                                 "revealed and {taken} taken or reserved",
                                 total=CATEGORY_TOTALS["space"],
                                 revealed=state.revealed_space, taken=by_category["space"])
    for category, total in CATEGORY_TOTALS.items():
        if category != "space" and by_category[category] > total:
            raise IllegalActionError("the box has {total} {category} tiles; this record would "
                                     "name {count}", total=total, category=category,
                                     count=by_category[category])


_CHECKS: dict[str, Any] = {TOP_UP: _check_top_up, JUMP: _check_jump, FLY: _check_fly,
                           SCAN: _check_scan, DEVELOP: _check_develop,
                           DISCOVER: _check_discover}
_CHANGES: dict[str, Any] = {TOP_UP: _top_up, JUMP: _jump, FLY: _fly, SCAN: _scan,
                            DEVELOP: _develop, DISCOVER: _discover}


# ---------------------------------------------------------------------------------------------
# The move generator: what may be played now
# ---------------------------------------------------------------------------------------------

def legal_events(state: GameState, kind: str | None = None,
                 cards: Iterable[Card] | None = None, tile: str | None = None,
                 reveal: bool | None = None) -> Iterator[Action]:
    """Every action the player to move may take now, as complete events ``apply`` accepts.

    - ``kind``: only actions of this type (the same as filtering the result, only quicker).
    - ``cards``: the cards laid on the discard pile for this action, the newest last. A jump or
      scan plays the newest, a develop the newest two, a top up discards them all; actions
      that play no card are left out. Without cards, events name none (touch entry).
    - ``tile``: the kind of the tile the action takes, when known. Actions that take a tile
      carry it; actions that take none come as they are.
    - ``reveal``: whether only space tiles lie face up at the ship's planet after the action,
      when that was seen. True: the events that take a tile carry the reveal (on a stack
      revealed before it is no news, and none does). False: the only-space scan, which turns
      the stack up, is left out. None (not seen, as in touch entry): events carry no reveal.

    Events come in a fixed order: top ups, jumps and flights in ring order, scans (the
    only-space scan last), develop, discover.
    """
    for event in _candidates(state, kind, cards, tile, reveal):
        try:
            if _names_tiles(event):
                apply(state, event)  # a tile named may break the box's totals
            else:
                _check_action(state, event)
        except RulesError:
            continue
        yield event


def _candidates(state: GameState, kind: str | None, cards: Iterable[Card] | None,
                tile: str | None, reveal: bool | None) -> Iterator[Action]:
    """Events of the right shape for the filters; the checks decide which are legal."""
    if state.ended:
        return
    me = state.players[state.current]
    named = tuple(cards) if cards else None
    last = named[-1] if named else None
    pair = (named[-2], named[-1]) if named and len(named) >= 2 else None
    open_here = me.at is not None and state.stacks[me.at].open
    face_up = bool(reveal) and not (me.at is not None and state.stacks[me.at].revealed)
    planets = [p.name for p in state.setup.planets]
    if kind in (None, TOP_UP):
        if named is None:
            yield from (TopUp(n) for n in range(me.hand + 1))
        else:
            yield TopUp(len(named), named)
    if kind in (None, JUMP):
        yield from (Jump(name, last) for name in planets)
    if kind in (None, FLY) and named is None:
        yield from (Fly(name) for name in planets)
    if kind in (None, SCAN):
        yield Scan(last, tile, face_up)
        if tile is None and reveal is not False:
            yield Scan(last, only_space=True)
    if kind in (None, DEVELOP) and (named is None or pair is not None):
        yield Develop(pair, tile, face_up) if open_here else Develop(pair)
    if kind in (None, DISCOVER) and named is None:
        yield Discover(tile, face_up)


def why_not(state: GameState, kind: str) -> RulesError | None:
    """Why the player to move cannot take action ``kind`` now, in the rules' words; None when
    some event of that kind is legal. The most common refusal among the candidates is the
    telling one (a jump refused for want of a card everywhere, not for the ship's own planet)."""
    if kind not in ACTION_TYPES:
        raise ValueError(f"{kind!r} is not an action")
    refusals: list[RulesError] = []
    for event in _candidates(state, kind, None, None, None):
        try:
            apply(state, event)
        except RulesError as error:
            refusals.append(error)
        else:
            return None
    if state.ended or not refusals:
        return GameOverError("the game has ended; undo the end to play on")
    counts = Counter(r.template for r in refusals)
    telling = counts.most_common(1)[0][0]
    return next(r for r in refusals if r.template == telling)


# ---------------------------------------------------------------------------------------------
# The fold: a game is its history
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LogEntry:
    """One journal event after the set-up, and the event it changed the game by."""

    event: Event
    affected: Event
    """The event itself; for an undo, the event it cancelled; for a redo, the one played
    again."""


class Game:
    """A game as the fold of its events; undo steps back through the history, redo forward."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._states = [GameState.new(setup)]
        self._in_effect: list[Event] = []
        self._undone: list[Event] = []
        self._log: list[LogEntry] = []

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def events_in_effect(self) -> tuple[Event, ...]:
        """The events not cancelled by an undo, oldest first."""
        return tuple(self._in_effect)

    @property
    def played(self) -> tuple[tuple[GameState, Event], ...]:
        """Each event in effect with the state it was played in, oldest first."""
        return tuple(zip(self._states, self._in_effect))

    @property
    def undone(self) -> tuple[Event, ...]:
        """The events a redo can play again, the next one last."""
        return tuple(self._undone)

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every event after the set-up as written, undos and redos included, oldest first."""
        return tuple(self._log)

    def play(self, event: Event) -> GameState:
        """Apply one journal event (undo and redo included); the game is unchanged on error."""
        if isinstance(event, Undo):
            if not self._in_effect:
                raise NothingToUndoError("there is nothing to undo")
            self._states.pop()
            affected = self._in_effect.pop()
            self._undone.append(affected)
        elif isinstance(event, Redo):
            if not self._undone:
                raise NothingToRedoError("there is nothing to redo")
            affected = self._undone[-1]
            self._states.append(apply(self.state, affected))
            self._in_effect.append(self._undone.pop())
        elif isinstance(event, Setup):
            raise MalformedEventError("a set-up can only be the first line of a journal")
        else:
            self._states.append(apply(self.state, event))
            self._in_effect.append(event)
            self._undone.clear()
            affected = event
        self._log.append(LogEntry(event, affected))
        return self.state

    def checkpoint(self) -> tuple[list[GameState], list[Event], list[Event], list[LogEntry]]:
        """A mark to ``restore`` to, for a caller that may fail to store what it plays next.

        States are never changed in place, so copying the lists is enough.
        """
        return (list(self._states), list(self._in_effect), list(self._undone), list(self._log))

    def restore(self, mark: tuple[list[GameState], list[Event], list[Event],
                                  list[LogEntry]]) -> None:
        states, in_effect, undone, log = mark
        self._states, self._in_effect = list(states), list(in_effect)
        self._undone, self._log = list(undone), list(log)

    @classmethod
    def replay(cls, setup: Setup, events: Iterable[Event]) -> Game:
        game = cls(setup)
        for event in events:
            game.play(event)
        return game
