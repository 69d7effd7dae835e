"""The tracker: turns what the camera steadily sees into proposals, and flags what disagrees.

Nothing it does changes the game: a proposal is an event the players may confirm with one tap
(or that the app confirms itself when the players chose auto-confirm and it is unambiguous).
It reads the debounced observation of the table view and the scan tray view together.

- A card newly on the discard pile: the actions it allows now ("Blue 3: jump to Caldera or
  Ruby Red"). Two landing cards laid one after the other propose a develop.
- A sticker in the scan tray: the tile kind of the scan, develop or discover being proposed.
- Face-up space tiles at the ship's planet: the reveal of the action being proposed.
- At the end, the stickers in the tray: a player's tile inventory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.observations import CardSeen, Observation, TileSeen
from companion.rules import (SPACE, Card, Develop, Discover, Event, GameState, Inventory, Jump,
                             MalformedEventError, Scan, is_legal, legal_actions)

DISCARD_ZONE = "discard"
TRAY_ZONE = "scan-tray"


@dataclass(frozen=True)
class Proposal:
    event: Event
    text: str
    """What it does, in a player's words."""
    source: str
    """What the camera saw that led to it."""


@dataclass(frozen=True)
class TrackerView:
    proposals: tuple[Proposal, ...] = ()
    flags: tuple[str, ...] = ()
    """Disagreements between what is seen and what the record says, in words."""

    @property
    def unambiguous(self) -> Proposal | None:
        """The single proposal, when there is exactly one (what auto-confirm may take)."""
        return self.proposals[0] if len(self.proposals) == 1 else None


@dataclass
class Tracker:
    """Remembers what it has already proposed from, so a card lying on the pile is one
    proposal, not one per frame."""

    _handled_card: str | None = None
    _first_landing: Card | None = None
    _tile_kinds: dict[int, str] = field(default_factory=dict)

    def card_used(self, code: str | None) -> None:
        """The card on top of the pile is accounted for (its action was confirmed)."""
        self._handled_card = code
        self._first_landing = None

    def update(self, state: GameState, seen: Observation, entering: str | None = None,
               inventory_for: str | None = None) -> TrackerView:
        """Proposals and flags for the current state. ``entering`` is the action the player
        has started by touch, if any; ``inventory_for`` the player whose tiles are being read."""
        flags = self._sticker_flags(seen.tiles)
        tray = [t for t in seen.tiles if t.zone == TRAY_ZONE]
        if inventory_for is not None:
            return TrackerView(*self._inventory(state, inventory_for, tray, flags))
        if state.ended:
            return TrackerView((), tuple(flags))
        proposals: list[Proposal] = []
        top = _top_card(seen.cards)
        card = None
        if top is not None and top.code != self._handled_card:
            try:
                card = Card.parse(top.code)
            except MalformedEventError:
                flags.append(f"the camera read an impossible card code {top.code!r}")
        tile = tray[0] if len(tray) == 1 else None
        if len(tray) > 1:
            flags.append(f"{len(tray)} tiles in the scan tray: show one tile at a time")
        reveal = self._reveal_seen(state, seen)
        if card is not None:
            proposals += self._card_proposals(state, card, tile, reveal)
            if entering is not None and not any(p.event.type == entering for p in proposals):
                flags.append(f"{_words(card)} does not fit a {entering.replace('_', ' ')} now")
        elif tile is not None:
            proposals += self._tile_proposals(state, tile, reveal, entering)
            if not proposals and not any(k in legal_actions(state)
                                         for k in ("scan", "develop", "discover")):
                flags.append(f"tile {tile.tile_id:02d} ({tile.kind}) is in the scan tray, but "
                             f"no action of {state.current_name}'s can take a tile now")
        return TrackerView(tuple(proposals), tuple(flags))

    # -- cards ---------------------------------------------------------------------------------

    def _card_proposals(self, state: GameState, card: Card, tile: TileSeen | None,
                        reveal: bool) -> list[Proposal]:
        source = f"{_words(card)} on the discard pile"
        kind = tile.kind if tile else None
        found: list[Proposal] = []
        for planet in legal_actions(state).get("jump", []):
            event = Jump(planet, card)
            if is_legal(state, event):
                found.append(Proposal(event, f"jump to {planet}", source))
        scan = Scan(card, kind, reveal)
        if is_legal(state, scan):
            found.append(Proposal(scan, "scan" + (f", reserving {kind}" if kind else ""), source))
        first = self._first_landing
        if first is not None and first != card:
            develop = Develop((first, card), kind, reveal and kind is not None)
            if is_legal(state, develop):
                found.append(Proposal(develop, "develop" + (f", taking {kind}" if kind else ""),
                                      f"{_words(first)} and {_words(card)} on the discard pile"))
        elif is_legal(state, Develop()) and _lands_here(state, card):
            self._first_landing = card  # wait for the second landing card
        return found

    # -- tiles ---------------------------------------------------------------------------------

    def _tile_proposals(self, state: GameState, tile: TileSeen, reveal: bool,
                        entering: str | None) -> list[Proposal]:
        """A tile shown without a new card: a discover (no card needed) or the action being
        entered by touch, with the tile's kind filled in."""
        source = f"tile {tile.tile_id:02d} ({tile.kind}) in the scan tray"
        wanted = entering or "discover"  # only a discover takes a tile without a card
        events: dict[str, Event] = {"discover": Discover(tile.kind, reveal),
                                    "scan": Scan(None, tile.kind, reveal),
                                    "develop": Develop(None, tile.kind, reveal)}
        event = events.get(wanted)
        if event is None or not is_legal(state, event):
            return []
        return [Proposal(event, f"{wanted}, taking {tile.kind}", source)]

    def _reveal_seen(self, state: GameState, seen: Observation) -> bool:
        """Face-up space tiles lying at the ship's planet: the take that is being proposed
        left only space tiles there."""
        at = state.players[state.current].at
        if at is None:
            return False
        zone = f"planet-{at + 1}"
        return any(t.kind == SPACE and t.zone == zone for t in seen.tiles)

    def _sticker_flags(self, tiles: tuple[TileSeen, ...]) -> list[str]:
        flags = []
        places: dict[int, set[str | None]] = {}
        for tile in tiles:
            known = self._tile_kinds.setdefault(tile.tile_id, tile.kind)
            if known != tile.kind:
                flags.append(f"sticker {tile.tile_id:02d} was read as {known} and now as "
                             f"{tile.kind}: is a sticker on the wrong tile?")
            places.setdefault(tile.tile_id, set()).add(tile.zone)
        for tile_id, zones in places.items():
            if len(zones) > 1:
                flags.append(f"sticker {tile_id:02d} is seen in two places at once")
        return flags

    # -- the end -------------------------------------------------------------------------------

    def _inventory(self, state: GameState, player: str, tray: list[TileSeen],
                   flags: list[str]) -> tuple[tuple[Proposal, ...], tuple[str, ...]]:
        index = state.setup.player_index(player)
        holds = len(state.players[index].tiles)
        kinds = tuple(sorted(t.kind for t in tray))
        if len(tray) != holds:
            flags.append(f"{player} holds {holds} tiles; the scan tray shows {len(tray)}")
            return (), tuple(flags)
        event = Inventory(player, kinds)
        if not is_legal(state, event):
            flags.append(f"the tiles in the tray do not match what the record says of {player}")
            return (), tuple(flags)
        return (Proposal(event, f"{player}'s tiles: {', '.join(kinds) or 'none'}",
                         f"{len(tray)} tiles in the scan tray"),), tuple(flags)


def pile_top(seen: Observation) -> str | None:
    """The code of the card on top of the discard pile, if one is seen."""
    top = _top_card(seen.cards)
    return None if top is None else top.code


def _top_card(cards: tuple[CardSeen, ...]) -> CardSeen | None:
    on_pile = [c for c in cards if c.zone == DISCARD_ZONE]
    return max(on_pile, key=lambda c: c.confidence) if on_pile else None


def _lands_here(state: GameState, card: Card) -> bool:
    at = state.players[state.current].at
    return at is not None and any(card.fits("O", n) for n in state.setup.planets[at].landing)


def _words(card: Card) -> str:
    return " / ".join(c.words() for c in card.coordinates)
