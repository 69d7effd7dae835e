"""Space Mission rules engine.

One module, ordered top-down: constants, errors, value types (coordinates, cards, planets),
events (set-up, the six actions, undo, end, tile inventory), state, the engine
(``apply(state, event) -> new state`` or a precise error), queries the screen needs, and the
``Game`` fold that gives undo its meaning.

The rules text is in ``shared/rules/``; where it is silent, DESIGN.md §4 decides. Where both
are silent, this module decides as a careful player would, and this list is the one place
those decisions live:

- Top up with five cards and nothing discarded is legal: it is how a player passes an action.
- A card whose two coordinates share a colour may list them in either order (``O2/O1``): the
  code keeps the printed top and bottom; only the colour order blue, green, orange is canonical.
- ``only_space`` takes no ``tile`` (nothing is reserved) and implies the reveal.
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
- A tile inventory uses no action and may be entered before or after the end.
- ``end`` on a game that has already ended is refused (undo reopens a game, then it may end).

The engine deals in public information only. It knows how many cards each hand and pile holds,
how many tiles each stack holds and which of them were seen, never what a face-down stack or a
hand holds. Optional fields of an event (a card code, a tile kind) are checked when present.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Union
from collections.abc import Iterable, Mapping

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


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

class RulesError(ValueError):
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


class InventoryError(IllegalActionError):
    """A tile inventory that does not fit what the record knows of that player."""


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
                f"{text!r} is not a coordinate (B, G or O followed by 1-4 or ?)")
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
            raise MalformedEventError(f"{code!r} is not a card code like B3/G2")
        top, bottom = (Coordinate.parse(part) for part in code.split("/"))
        if COLOR_ORDER.index(top.color) > COLOR_ORDER.index(bottom.color):
            raise MalformedEventError(
                f"card code {code!r} is not canonical: blue comes before green before orange"
                f" ({bottom}/{top})")
        return cls(top, bottom)

    @property
    def code(self) -> str:
        return f"{self.top}/{self.bottom}"

    @property
    def coordinates(self) -> tuple[Coordinate, Coordinate]:
        return (self.top, self.bottom)

    def fits(self, color: str, number: int) -> bool:
        return any(c.fits(color, number) for c in self.coordinates)

    def offers(self) -> str:
        """The card's coordinates for an error message: "B1 or G2"."""
        return f"{self.top} or {self.bottom}"

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
            raise MalformedEventError(f"a planet must be an object, not {data!r}")
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise MalformedEventError(f"a planet needs a name, got {name!r}")
        numbers = {}
        for key in ("jump", "scan"):
            numbers[key] = _coordinate_number(data.get(key), f"{name}'s {key} coordinate")
        landing = data.get("landing")
        if not isinstance(landing, (list, tuple)) or len(landing) != 2:
            raise MalformedEventError(
                f"{name}'s landing must be a list of two numbers 1-4, got {landing!r}")
        pair = tuple(_coordinate_number(n, f"{name}'s landing coordinate") for n in landing)
        return cls(name, numbers["jump"], numbers["scan"], (pair[0], pair[1]))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "jump": self.jump, "scan": self.scan,
                "landing": list(self.landing)}


def _coordinate_number(value: Any, what: str) -> int:
    if isinstance(value, bool) or value not in COORDINATE_NUMBERS:
        raise MalformedEventError(f"{what} must be a number 1-4, got {value!r}")
    return int(value)


def check_tile_kind(kind: Any) -> str:
    if not isinstance(kind, str) or kind not in TILE_CATEGORY:
        raise MalformedEventError(
            f"{kind!r} is not a tile kind (one of {', '.join(TILE_KINDS)})")
    return str(kind)


# ---------------------------------------------------------------------------------------------
# Events: the lines of the journal (DESIGN.md §5.1)
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
            raise MalformedEventError(
                f"Space Mission is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {count}")
        names = [p.name for p in self.players]
        for seat in self.players:
            if not isinstance(seat.name, str) or not seat.name.strip():
                raise MalformedEventError(f"a player needs a name, got {seat.name!r}")
            if seat.color not in PLAYER_COLORS:
                raise MalformedEventError(
                    f"{seat.name}'s colour {seat.color!r} is not one of "
                    f"{', '.join(PLAYER_COLORS)}")
        _require_unique(names, "player name")
        _require_unique([p.color for p in self.players], "player colour")
        if len(self.planets) != RING_SIZE:
            raise MalformedEventError(
                f"the ring holds {RING_SIZE} planets, this set-up lists {len(self.planets)}")
        _require_unique([p.name for p in self.planets], "planet name")
        if self.first not in names:
            raise MalformedEventError(f"start player {self.first!r} is not one of the players")
        if self.variant not in VARIANTS:
            raise MalformedEventError(
                f"variant {self.variant!r} is not one of {', '.join(VARIANTS)}")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        version = data.get("v")
        if version != 1:
            raise MalformedEventError(f"journal format version {version!r} is not supported "
                                      "(this companion reads version 1)")
        players = data.get("players")
        if not isinstance(players, list):
            raise MalformedEventError("set-up needs a list of players")
        seats = []
        for p in players:
            if not isinstance(p, Mapping):
                raise MalformedEventError(f"a player must be an object, not {p!r}")
            seats.append(PlayerSeat(p.get("name"), p.get("color")))  # type: ignore[arg-type]
        planets = data.get("planets")
        if not isinstance(planets, list):
            raise MalformedEventError("set-up needs the list of 8 planets in ring order")
        first = _optional(data, "first")
        if first is None and seats:
            first = seats[0].name
        return cls(tuple(seats), tuple(Planet.from_json(p) for p in planets), first,
                   _optional(data, "variant") or "table")

    def to_json(self) -> dict[str, Any]:
        return {"v": 1, "type": "setup", "variant": self.variant,
                "players": [{"name": p.name, "color": p.color} for p in self.players],
                "planets": [p.to_json() for p in self.planets], "first": self.first}

    @property
    def threshold(self) -> int:
        return END_THRESHOLD[len(self.players)]

    def planet_index(self, name: Any) -> int:
        for i, planet in enumerate(self.planets):
            if planet.name == name:
                return i
        raise IllegalActionError(
            f"there is no planet {name!r} in this game (the ring: "
            f"{', '.join(p.name for p in self.planets)})")

    def neighbours(self, index: int) -> tuple[int, int]:
        """The two ring neighbours of a planet: counter-clockwise, then clockwise."""
        return ((index - 1) % RING_SIZE, (index + 1) % RING_SIZE)

    def player_index(self, name: Any) -> int:
        for i, seat in enumerate(self.players):
            if seat.name == name:
                return i
        raise IllegalActionError(f"{name!r} is not playing in this game")


def _require_unique(values: list[Any], what: str) -> None:
    seen = [v for v, n in Counter(values).items() if n > 1]
    if seen:
        raise MalformedEventError(f"{what} {seen[0]!r} appears twice; each must be unique")


def _optional(data: Mapping[str, Any], key: str) -> Any:
    """A field's value; JSON null counts as absent (DESIGN.md §4)."""
    return data.get(key)


@dataclass(frozen=True)
class TopUp:
    """Discard any number of cards, then draw back to five."""

    type: ClassVar[str] = "top_up"
    discard: int = 0
    cards: tuple[Card, ...] | None = None
    """The discarded cards' codes, when known."""
    player: str | None = None


@dataclass(frozen=True)
class Jump:
    """Play a card with the target's blue coordinate; a probe goes on the jump gate."""

    type: ClassVar[str] = "jump"
    to: str
    card: Card | None = None
    player: str | None = None


@dataclass(frozen=True)
class Fly:
    """Move to one of the two ring neighbours, without a card."""

    type: ClassVar[str] = "fly"
    to: str
    player: str | None = None


@dataclass(frozen=True)
class Scan:
    """Play a card with the planet's green coordinate; reserve a tile with a probe."""

    type: ClassVar[str] = "scan"
    card: Card | None = None
    tile: str | None = None
    """Kind of the reserved tile, when known."""
    reveal: bool = False
    """After the take only space tiles are left in the stack: they are turned face up."""
    only_space: bool = False
    """The special case: the first scan of an untouched stack finds only space tiles."""
    player: str | None = None


@dataclass(frozen=True)
class Develop:
    """Play two cards with the landing coordinates; build a station; hand out reservations."""

    type: ClassVar[str] = "develop"
    cards: tuple[Card, Card] | None = None
    tile: str | None = None
    reveal: bool = False
    player: str | None = None


@dataclass(frozen=True)
class Discover:
    """On a developed planet, take a tile without a card."""

    type: ClassVar[str] = "discover"
    tile: str | None = None
    reveal: bool = False
    player: str | None = None


@dataclass(frozen=True)
class Undo:
    """Cancel the latest event still in effect (an action, an inventory or an end)."""

    type: ClassVar[str] = "undo"


@dataclass(frozen=True)
class End:
    """The players agree to end the game now."""

    type: ClassVar[str] = "end"


@dataclass(frozen=True)
class Inventory:
    """A player's complete tiles, listed by kind (usually read at the end)."""

    type: ClassVar[str] = "tiles"
    player: str
    tiles: tuple[str, ...]


Action = Union[TopUp, Jump, Fly, Scan, Develop, Discover]
Event = Union[Setup, TopUp, Jump, Fly, Scan, Develop, Discover, Undo, End, Inventory]
ACTION_TYPES = ("top_up", "jump", "fly", "scan", "develop", "discover")


def parse_event(data: Any) -> Event:
    """A journal line's JSON object as an event; unknown fields are ignored."""
    if not isinstance(data, Mapping):
        raise MalformedEventError(f"an event must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    parse = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parse is None:
        raise MalformedEventError(
            f"unknown event type {kind!r} (one of setup, {', '.join(ACTION_TYPES)}, "
            "undo, end, tiles)")
    return parse(data)


def _player_field(data: Mapping[str, Any]) -> str | None:
    player = _optional(data, "player")
    if player is not None and not isinstance(player, str):
        raise MalformedEventError(f"player must be a name, got {player!r}")
    return player


def _bool_field(data: Mapping[str, Any], key: str) -> bool:
    value = _optional(data, key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise MalformedEventError(f"{key} must be true or false, got {value!r}")
    return value


def _tile_field(data: Mapping[str, Any]) -> str | None:
    tile = _optional(data, "tile")
    return None if tile is None else check_tile_kind(tile)


def _card_field(data: Mapping[str, Any]) -> Card | None:
    code = _optional(data, "card")
    return None if code is None else Card.parse(code)


def _cards_field(data: Mapping[str, Any]) -> tuple[Card, ...] | None:
    codes = _optional(data, "cards")
    if codes is None:
        return None
    if not isinstance(codes, list):
        raise MalformedEventError(f"cards must be a list of card codes, got {codes!r}")
    return tuple(Card.parse(c) for c in codes)


def _target_field(data: Mapping[str, Any]) -> str:
    target = _optional(data, "to")
    if not isinstance(target, str):
        raise MalformedEventError(f"{data.get('type')} needs 'to': a planet name")
    return target


def _parse_top_up(data: Mapping[str, Any]) -> TopUp:
    cards = _cards_field(data)
    discard = _optional(data, "discard")
    if discard is None:
        discard = 0 if cards is None else len(cards)
    if isinstance(discard, bool) or not isinstance(discard, int) or discard < 0:
        raise MalformedEventError(f"discard must be a whole number 0 or more, got {discard!r}")
    if cards is not None and len(cards) != discard:
        raise MalformedEventError(
            f"discard says {discard} but {len(cards)} card codes are listed")
    return TopUp(discard, cards, _player_field(data))


def _parse_develop(data: Mapping[str, Any]) -> Develop:
    cards = _cards_field(data)
    if cards is not None and len(cards) != 2:
        raise MalformedEventError(f"develop plays exactly 2 cards, {len(cards)} are listed")
    pair = None if cards is None else (cards[0], cards[1])
    return Develop(pair, _tile_field(data), _bool_field(data, "reveal"), _player_field(data))


def _parse_inventory(data: Mapping[str, Any]) -> Inventory:
    player = _optional(data, "player")
    if not isinstance(player, str):
        raise MalformedEventError("tiles needs 'player': whose tiles these are")
    tiles = _optional(data, "tiles")
    if not isinstance(tiles, list):
        raise MalformedEventError("tiles needs 'tiles': the list of that player's tile kinds")
    return Inventory(player, tuple(check_tile_kind(t) for t in tiles))


_PARSERS: dict[str, Any] = {
    "setup": Setup.from_json,
    "top_up": _parse_top_up,
    "jump": lambda d: Jump(_target_field(d), _card_field(d), _player_field(d)),
    "fly": lambda d: Fly(_target_field(d), _player_field(d)),
    "scan": lambda d: Scan(_card_field(d), _tile_field(d), _bool_field(d, "reveal"),
                           _bool_field(d, "only_space"), _player_field(d)),
    "develop": _parse_develop,
    "discover": lambda d: Discover(_tile_field(d), _bool_field(d, "reveal"), _player_field(d)),
    "undo": lambda d: Undo(),
    "end": lambda d: End(),
    "tiles": _parse_inventory,
}


def event_to_json(event: Event) -> dict[str, Any]:
    """The journal form of an event: defaults and unknowns left out, so lines stay short."""
    if isinstance(event, Setup):
        return event.to_json()
    out: dict[str, Any] = {"type": event.type}
    for name in ("to", "discard", "card", "cards", "tile", "reveal", "only_space", "player",
                 "tiles"):
        value = getattr(event, name, None)
        if value is None or value is False or (name == "discard" and value == 0):
            continue
        if isinstance(value, Card):
            value = value.code
        elif name == "cards":
            value = [c.code for c in value]
        elif name == "tiles":
            value = list(value)
        out[name] = value
    return out


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------

@dataclass
class Reservation:
    """A tile set aside by a scan, marked with the scanner's probe."""

    player: int
    tile: str | None
    """Its kind when known; the companion cannot see a face-down tile."""


@dataclass
class PlayerState:
    at: int | None = None
    """Index of the planet the ship is on; ``None`` while it is on the jump gate."""
    hand: int = HAND_SIZE
    probes: int = 0
    """Probes on the jump gate."""
    stations: int = 0
    tiles: list[str | None] = field(default_factory=list)
    """Tiles received, by kind where known."""

    def copy(self) -> PlayerState:
        return PlayerState(self.at, self.hand, self.probes, self.stations, list(self.tiles))


@dataclass
class StackState:
    """A planet's face-down tile stack, its station and the reservations beside it."""

    left: int = TILES_PER_STACK
    revealed: bool = False
    """Only space tiles are left and they lie face up."""
    developer: int | None = None
    """Who built the station here."""
    reservations: list[Reservation] = field(default_factory=list)

    def copy(self) -> StackState:
        return StackState(self.left, self.revealed, self.developer,
                          [Reservation(r.player, r.tile) for r in self.reservations])


@dataclass
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

    @classmethod
    def new(cls, setup: Setup) -> GameState:
        count = len(setup.players)
        return cls(setup, [PlayerState() for _ in range(count)],
                   [StackState() for _ in range(RING_SIZE)],
                   draw=DECK_SIZE - HAND_SIZE * count, discard=0)

    def copy(self) -> GameState:
        return replace(self, players=[p.copy() for p in self.players],
                       stacks=[s.copy() for s in self.stacks])

    # -- derived facts ------------------------------------------------------------------------

    @property
    def current(self) -> int:
        """Index of the player whose turn it is."""
        start = self.setup.player_index(self.setup.first)
        return (start + self.turn) % len(self.players)

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
                         "stations": p.stations, "tiles": list(p.tiles)} for p in self.players],
            "stacks": [{"left": s.left, "revealed": s.revealed, "developer": s.developer,
                        "reservations": [[r.player, r.tile] for r in s.reservations]}
                       for s in self.stacks],
            "draw": self.draw, "discard": self.discard, "turn": self.turn,
            "action": self.action, "final_round": self.final_round, "ended": self.ended,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameState:
        return cls(
            Setup.from_json(data["setup"]),
            [PlayerState(p["at"], p["hand"], p["probes"], p["stations"], list(p["tiles"]))
             for p in data["players"]],
            [StackState(s["left"], s["revealed"], s["developer"],
                        [Reservation(r[0], r[1]) for r in s["reservations"]])
             for s in data["stacks"]],
            data["draw"], data["discard"], data["turn"], data["action"],
            data["final_round"], data["ended"])


# ---------------------------------------------------------------------------------------------
# Engine
# ---------------------------------------------------------------------------------------------

def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``, or a ``RulesError`` naming the rule it breaks.

    ``state`` is never changed. Undo is not an engine move: it needs the history, see ``Game``.
    """
    if isinstance(event, (Setup, Undo)):
        raise MalformedEventError(f"{event.type} cannot be applied to a game state")
    new = state.copy()
    if isinstance(event, Inventory):
        _inventory(new, event)
    elif isinstance(event, End):
        if state.ended:
            raise GameOverError("the game has already ended")
        new.ended = True
    else:
        _check_turn(state, event)
        _ACTIONS[event.type](new, event)
        _settle_piles(new)
        _advance(new)
    if _names_tiles(event):
        _check_tile_totals(new)
    return new


def _names_tiles(event: Event) -> bool:
    """Whether an event can add to the tiles the record knows of (kinds or revealed space)."""
    return (isinstance(event, Inventory) or getattr(event, "tile", None) is not None
            or getattr(event, "reveal", False) or getattr(event, "only_space", False))


def _check_turn(state: GameState, action: Action) -> None:
    if state.ended:
        raise GameOverError("the game has ended; undo the end to play on")
    if action.player is not None and action.player != state.current_name:
        raise NotYourTurnError(
            f"it is {state.current_name}'s turn (action {state.action}), not {action.player}'s")


def _name(state: GameState, player: int) -> str:
    return state.setup.players[player].name


def _planet(state: GameState, index: int) -> Planet:
    return state.setup.planets[index]


def _need_cards(state: GameState, player: int, count: int, what: str) -> None:
    held = state.players[player].hand
    if held < count:
        raise IllegalActionError(
            f"{what} needs {count} card{'s' if count > 1 else ''}; "
            f"{_name(state, player)} holds {held}")


def _need_chip(state: GameState, player: int, what: str) -> None:
    if state.chips_in_play(player) >= CHIPS_PER_PLAYER:
        raise IllegalActionError(
            f"{_name(state, player)} has all {CHIPS_PER_PLAYER} chips in play; {what}")


def _ship_planet(state: GameState, player: int, action: str) -> int:
    at = state.players[player].at
    if at is None:
        raise IllegalActionError(
            f"{_name(state, player)}'s ship is on the jump gate; {action} happens on the "
            "planet where the ship is (jump to a planet first)")
    return at


def _play_cards(state: GameState, player: int, count: int) -> None:
    state.players[player].hand -= count
    state.discard += count


def _top_up(state: GameState, action: TopUp) -> None:
    me = state.current
    player = state.players[me]
    if action.discard > player.hand:
        raise IllegalActionError(
            f"{_name(state, me)} holds {player.hand} cards and cannot discard {action.discard}")
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
    target = state.setup.planet_index(action.to)
    planet = _planet(state, target)
    if state.players[me].at == target:
        raise IllegalActionError(
            f"{_name(state, me)}'s ship is already on {planet.name}; a jump goes to another "
            "planet")
    _need_cards(state, me, 1, "a jump")
    if action.card is not None and not action.card.fits("B", planet.jump):
        raise IllegalActionError(
            f"{planet.name}'s jump coordinate is {planet.jump}; this card offers "
            f"{action.card.offers()}")
    _need_chip(state, me, "a jump puts a probe on the jump gate")
    _play_cards(state, me, 1)
    state.players[me].at = target
    state.players[me].probes += 1


def _fly(state: GameState, action: Fly) -> None:
    me = state.current
    target = state.setup.planet_index(action.to)
    at = state.players[me].at
    if at is None:
        raise IllegalActionError(
            f"{_name(state, me)}'s ship is on the jump gate; the first move must be a jump "
            "(a flight goes from a planet to a neighbouring one)")
    left, right = state.setup.neighbours(at)
    if target not in (left, right):
        raise IllegalActionError(
            f"{_planet(state, target).name} is not next to {_planet(state, at).name}; "
            f"a flight goes to {_planet(state, left).name} or {_planet(state, right).name}")
    state.players[me].at = target


def _scan(state: GameState, action: Scan) -> None:
    me = state.current
    here = _ship_planet(state, me, "scanning")
    planet, stack = _planet(state, here), state.stacks[here]
    if stack.developer is not None:
        raise IllegalActionError(
            f"{planet.name} has {_name(state, stack.developer)}'s station; only undeveloped "
            "planets can be scanned")
    _need_cards(state, me, 1, "a scan")
    if action.card is not None and not action.card.fits("G", planet.scan):
        raise IllegalActionError(
            f"{planet.name}'s scan coordinate is {planet.scan}; this card offers "
            f"{action.card.offers()}")
    if action.only_space:
        if stack.left != TILES_PER_STACK or stack.revealed:
            raise IllegalActionError(
                f"only_space is the first scan of an untouched stack; {planet.name}'s stack "
                f"has {'been revealed' if stack.revealed else f'{stack.left} tiles left'}")
        if action.tile is not None:
            raise IllegalActionError(
                "a scan that finds only space tiles reserves nothing; leave out 'tile'")
        _play_cards(state, me, 1)
        stack.revealed = True  # no chip used, nothing reserved, the stack turned face up
        return
    _check_stack_open(state, here, "scan")
    _need_chip(state, me, "a scan marks the reserved tile with a probe")
    _check_variant(state, action.tile, "reserved")
    _play_cards(state, me, 1)
    stack.reservations.append(Reservation(me, action.tile))
    _take_from_stack(state, here, action.reveal)


def _develop(state: GameState, action: Develop) -> None:
    me = state.current
    here = _ship_planet(state, me, "developing")
    planet, stack = _planet(state, here), state.stacks[here]
    if stack.developer is not None:
        raise IllegalActionError(
            f"{planet.name} already has {_name(state, stack.developer)}'s station; "
            "each planet is developed once")
    if not any(r.player == me for r in stack.reservations):
        raise IllegalActionError(
            f"{_name(state, me)} has not scanned {planet.name}; only a player with a reserved "
            "tile there may develop it")
    _need_cards(state, me, 2, "developing")
    if action.cards is not None and not cards_fit_landing(*action.cards, planet.landing):
        first, second = action.cards
        raise IllegalActionError(
            f"{planet.name}'s landing coordinates are O{planet.landing[0]} and "
            f"O{planet.landing[1]}; these cards offer {first.offers()} and {second.offers()}")
    _need_chip(state, me, "the station needs one (it is placed before the probes come back)")
    taking = stack.left > 0 and not stack.revealed
    if not taking and (action.tile is not None or action.reveal):
        raise IllegalActionError(
            f"{planet.name}'s stack is {'revealed' if stack.revealed else 'empty'}; "
            "developing it takes no tile")
    if taking:
        _check_variant(state, action.tile, "taken")
    _play_cards(state, me, 2)
    state.players[me].stations += 1
    stack.developer = me
    for reservation in stack.reservations:
        state.players[reservation.player].tiles.append(reservation.tile)
    stack.reservations = []  # the probes go back to their owners' piles
    if taking:
        state.players[me].tiles.append(action.tile)
        _take_from_stack(state, here, action.reveal)


def _discover(state: GameState, action: Discover) -> None:
    me = state.current
    here = _ship_planet(state, me, "discovering")
    planet = _planet(state, here)
    if state.stacks[here].developer is None:
        raise IllegalActionError(
            f"{planet.name} has no station yet; discover needs a developed planet")
    _check_stack_open(state, here, "discover")
    _check_variant(state, action.tile, "taken")
    state.players[me].tiles.append(action.tile)
    _take_from_stack(state, here, action.reveal)


def _check_stack_open(state: GameState, here: int, action: str) -> None:
    stack, name = state.stacks[here], _planet(state, here).name
    if stack.revealed:
        raise IllegalActionError(
            f"{name}'s stack is revealed (only space tiles are left); {action} must take a "
            "point tile")
    if stack.left == 0:
        raise IllegalActionError(f"{name}'s stack is empty; {action} must take a tile")


def _check_variant(state: GameState, tile: str | None, how: str) -> None:
    if tile == SPACE and state.setup.variant == "yucata":
        raise IllegalActionError(f"variant yucata: a space tile cannot be {how}")


def _take_from_stack(state: GameState, here: int, reveal: bool) -> None:
    """One tile leaves the stack; ``reveal`` says only space tiles are left in it."""
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
    if len(event.tiles) != len(player.tiles):
        raise InventoryError(
            f"{event.player} holds {len(player.tiles)} tiles; this inventory lists "
            f"{len(event.tiles)}")
    listed = Counter(event.tiles)
    for kind, count in Counter(t for t in player.tiles if t is not None).items():
        if listed[kind] < count:
            raise InventoryError(
                f"the record says {event.player} has {count} × {kind} ({TILE_NAMES[kind]}); "
                f"this inventory lists {listed[kind]}")
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
        raise IllegalActionError(
            f"the box has {CATEGORY_TOTALS['space']} space tiles; this would make "
            f"{state.revealed_space} revealed and {by_category['space']} taken or reserved")
    for category, total in CATEGORY_TOTALS.items():
        if category != "space" and by_category[category] > total:
            raise IllegalActionError(
                f"the box has {total} {category} tiles; this record would name "
                f"{by_category[category]}")


_ACTIONS: dict[str, Any] = {"top_up": _top_up, "jump": _jump, "fly": _fly, "scan": _scan,
                            "develop": _develop, "discover": _discover}


# ---------------------------------------------------------------------------------------------
# Queries for the screen
# ---------------------------------------------------------------------------------------------

def is_legal(state: GameState, event: Event) -> bool:
    try:
        apply(state, event)
    except RulesError:
        return False
    return True


def legal_actions(state: GameState) -> dict[str, list[str]]:
    """The actions the player to move may take now, each with its legal targets.

    Jump and fly list planet names; scan, develop and discover list the ship's planet;
    top up lists ``[""]`` (no target). An action missing from the result is not legal now.
    Cards are assumed to fit (the engine cannot see the hand): see ``card_uses``.
    """
    if state.ended:
        return {}
    names = [p.name for p in state.setup.planets]
    at = state.players[state.current].at
    here = [] if at is None else [names[at]]
    candidates: list[tuple[str, str, Action]] = [("top_up", "", TopUp())]
    candidates += [("jump", n, Jump(n)) for n in names]
    candidates += [("fly", n, Fly(n)) for n in names]
    candidates += [("scan", n, Scan()) for n in here]
    candidates += [("scan", n, Scan(only_space=True)) for n in here]
    candidates += [("develop", n, Develop()) for n in here]
    candidates += [("discover", n, Discover()) for n in here]
    legal: dict[str, list[str]] = {}
    for kind, target, action in candidates:
        if is_legal(state, action) and target not in legal.get(kind, []):
            legal.setdefault(kind, []).append(target)
    return legal


def card_uses(state: GameState, card: Card) -> list[tuple[str, str]]:
    """What the player to move could do now with this card, as (action, planet) pairs.

    A develop needs two cards: a card is listed for develop when it shows one of the
    planet's landing numbers and develop is otherwise legal.
    """
    uses = [("jump", name) for name in legal_actions(state).get("jump", [])
            if is_legal(state, Jump(name, card))]
    at = state.players[state.current].at
    if at is None:
        return uses
    planet = state.setup.planets[at]
    if is_legal(state, Scan(card)):
        uses.append(("scan", planet.name))
    if is_legal(state, Develop()) and any(card.fits("O", n) for n in planet.landing):
        uses.append(("develop", planet.name))
    return uses


# ---------------------------------------------------------------------------------------------
# The fold: a game is its history
# ---------------------------------------------------------------------------------------------

class Game:
    """A game as the fold of its events; undo steps back through the history."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._states = [GameState.new(setup)]
        self._in_effect: list[Event] = []

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def events_in_effect(self) -> tuple[Event, ...]:
        """The events not cancelled by an undo, oldest first."""
        return tuple(self._in_effect)

    def play(self, event: Event) -> GameState:
        """Apply one journal event (undo included); the game is unchanged on error."""
        if isinstance(event, Undo):
            if not self._in_effect:
                raise NothingToUndoError("there is nothing to undo")
            self._states.pop()
            self._in_effect.pop()
        elif isinstance(event, Setup):
            raise MalformedEventError("a set-up can only be the first line of a journal")
        else:
            self._states.append(apply(self.state, event))
            self._in_effect.append(event)
        return self.state

    def checkpoint(self) -> tuple[list[GameState], list[Event]]:
        """A mark to ``restore`` to, for a caller that may fail to store what it plays next.

        States are never changed in place, so copying the two lists is enough.
        """
        return (list(self._states), list(self._in_effect))

    def restore(self, mark: tuple[list[GameState], list[Event]]) -> None:
        self._states, self._in_effect = list(mark[0]), list(mark[1])

    @classmethod
    def replay(cls, setup: Setup, events: Iterable[Event]) -> Game:
        game = cls(setup)
        for event in events:
            game.play(event)
        return game
