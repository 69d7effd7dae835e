"""The tracker: turns what the camera steadily sees into proposals, and flags what disagrees.

Nothing it does changes the game: a proposal is an event the players may confirm with one tap
(or that the app confirms itself when the players chose auto-confirm and it is unambiguous).
It reads the debounced observation of the table view and the scan tray view together.

- A card newly on the discard pile: the actions it allows now ("Blue 3: jump to Caldera or
  Ruby Red"). Two landing cards laid one after the other propose a develop.
- A sticker in the scan tray: the tile kind of the scan, develop or discover being proposed.
- Face-up space tiles at the ship's planet: the reveal of the action being proposed.
- At the end, the stickers in the tray: a player's tile inventory.
- The pieces on the ring (when the camera follows them): the player's ship seen moved to where
  an action proposed leads keeps that proposal only; moved to a neighbour with no card laid, a
  flight. Where the table shows a ship, a station or the gate's probes otherwise than the
  record, and no proposal explains it, a flag says so ("the table shows the red ship on Caldera;
  the record says Hazard"); what the camera is not sure of says nothing.
- A top up that lays no card shows nothing, but the next player's turn does: when their piece
  is seen where an action of theirs (allowed once the turn has passed) puts it, and the player's
  own pieces show nothing unrecorded, the top up is proposed.
- A move taken back on the table (the latest action's ship, station or probe seen where it stood
  before) proposes the undo; a move undone and then seen made again proposes the redo. Both wait
  for a tap: a ship flown back is also a flight.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from companion.observations import (DISCARD_ZONE, GATE, TRAY_ZONE, CardSeen, Observation,
                                    PiecesSeen, TileSeen, planet_zone)
from companion.rules import (DEVELOP, DISCOVER, FLY, JUMP, SCAN, SPACE, TOP_UP, Card, Develop,
                             Event, Fly, Game, GameState, HAND_SIZE, Inventory, Jump,
                             MalformedEventError, Redo, RulesError, Scan, Template, TopUp, Undo,
                             apply, is_legal, legal_events, takes_tile)

KEPT_CARDS = HAND_SIZE
"""Cards laid for one action that matter: a develop plays the newest two, a top up may
discard a whole hand."""


@dataclass(frozen=True)
class Notice:
    """Something the players should know of what the camera sees: an English template and the
    values it names (a screen shows it in the players' language)."""

    template: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, template: Template, **params: Any) -> Notice:
        return cls(template, tuple(params.items()))

    def __str__(self) -> str:
        return self.template.format(**dict(self.params))


@dataclass(frozen=True)
class Proposal:
    event: Event
    cards: tuple[Card, ...] = ()
    """The cards seen laid on the pile that the event plays."""
    tile: TileSeen | None = None
    """The sticker seen in the scan tray that gave the tile's kind."""
    tiles_shown: int = 0
    """For an inventory: how many tiles the tray showed."""
    tap_only: bool = False
    """What the table shows could still become another action (a card laid, the ship not
    moved yet): it waits for the players' tap, even where they chose auto-confirm."""
    begun_by: str | None = None
    """For a top up without discards: the next player, whose pieces on the table show that
    their turn has begun."""
    undone_or_redone: tuple[GameState, Event] | None = None
    """For an undo or a redo: the action it takes back or plays again, with the state that
    action is played in (what the question names)."""

    @property
    def text(self) -> str:
        """What it does and what led to it, in English (logs and tests; screens word their
        own)."""
        if self.undone_or_redone is not None:
            shown = "taken back" if isinstance(self.event, Undo) else "made again"
            return f"{self.event.type} {_describe(self.undone_or_redone[1])} (the table shows " \
                   f"it {shown})"
        seen = " and ".join(_words(c) for c in self.cards)
        if self.tile is not None:
            seen = " and ".join(filter(None, [seen, f"tile {self.tile.tile_id:02d} "
                                                    f"({self.tile.kind})"]))
        return f"{_describe(self.event)} ({seen or 'seen in the scan tray'})"


@dataclass(frozen=True)
class TrackerView:
    proposals: tuple[Proposal, ...] = ()
    flags: tuple[Notice, ...] = ()
    """Disagreements between what is seen and what the record says."""
    gate: tuple[tuple[str, int], ...] = ()
    """Each colour's probes on the jump gate as the camera last counted them on a still
    table, (colour, count) in the players' order: only colours it was sure of; none when it
    does not follow the pieces. Shown beside the record's standing."""

    moving: bool = False
    """Something moves over the table now: a proposal waits for the hands to leave."""

    @property
    def unambiguous(self) -> Proposal | None:
        """The single proposal, when there is exactly one and it needs no tap, on a table
        nothing moves over (what auto-confirm may take)."""
        if len(self.proposals) == 1 and not self.proposals[0].tap_only and not self.moving:
            return self.proposals[0]
        return None


@dataclass
class Tracker:
    """Turns what the camera sees into (cards, tile, reveal) and asks the engine what they
    allow. It remembers the pile: the cards laid since the last action that played cards, so a
    card lying on the pile is one proposal, not one per frame, and two landing cards laid one
    after the other propose a develop."""

    _laid: list[Card] = field(default_factory=list)
    """Cards seen laid on the pile and not yet played by an action, newest last."""
    _top: str | None = None
    """The code last seen on top of the pile."""
    _accounted: set[str | None] = field(default_factory=set)
    """Pile tops that are not news: the top when an action last played cards, and the top
    last seen at that count of cards played (a redo's card, laid again); after an undo took
    cards back, that top still (the players may leave the card lying) and the top there was
    before the action undone (they may pick it up)."""
    _tops: dict[int, str | None] = field(default_factory=dict)
    """The pile's top when the record's count of cards played last reached each count."""
    _played: int | None = None
    """The record's count of cards played when the tracker last looked."""
    _tile_kinds: dict[int, str] = field(default_factory=dict)
    _dismissed: set[Event] = field(default_factory=set)
    """Proposals the players turned down; forgotten when the pile or the tray changes."""
    _tray: tuple[str, ...] = ()
    """The stickers in the scan tray when last looked."""
    _gate: tuple[tuple[str, int], ...] = ()
    """The jump gate's probes as last counted on a still table (kept while hands move)."""

    def dismiss(self, event: Event) -> None:
        """The players said "not this": stop proposing it for what is seen now."""
        self._dismissed.add(event)

    def update(self, state: GameState, seen: Observation, entering: str | None = None,
               inventory_for: str | None = None, game: Game | None = None) -> TrackerView:
        """Proposals and flags for the current state. ``entering`` is the action the player
        has started by touch, if any; ``inventory_for`` the player whose tiles are being read;
        ``game`` the record's game whose state ``state`` is, for the undo or redo the table may
        show (None: neither is proposed)."""
        view = self._look(state, seen, entering, inventory_for, game)
        return replace(view, moving=seen.moving) if seen.moving else view

    def _look(self, state: GameState, seen: Observation, entering: str | None,
              inventory_for: str | None, game: Game | None) -> TrackerView:
        flags = self._sticker_flags(seen.tiles)
        if seen.pieces is not None:
            self._gate = tuple((seat.color, seen.pieces.gate[seat.color])
                               for seat in state.setup.players
                               if seat.color in seen.pieces.gate)
        tray = [t for t in seen.tiles if t.zone == TRAY_ZONE]
        shown = tuple(sorted(t.payload for t in tray))
        if shown != self._tray:
            self._tray, self._dismissed = shown, set()
        self._follow_pile(state, seen, flags)
        if inventory_for is not None:
            return TrackerView(*self._inventory(state, inventory_for, tray, flags), self._gate)
        if state.ended:
            return TrackerView((), tuple(flags), self._gate)
        tile = tray[0] if len(tray) == 1 else None
        if len(tray) > 1:
            flags.append(Notice.of("{count} tiles in the scan tray: show one tile at a time",
                                   count=len(tray)))
        passed = None if entering is not None else self._turn_passed(state, seen, tile)
        if passed is not None and seen.pieces is not None:
            after, begun = passed
            self._follow_pieces(after, seen.pieces, begun, flags)  # flags of the turn begun
            ending = Proposal(TopUp(0), begun_by=after.current_name,
                              tap_only=any(_laid_unplayed(self._laid, p) for p in begun))
            return TrackerView((ending,), tuple(flags), self._gate)
        reveal = self._reveal_seen(state, seen)
        proposals: list[Proposal] = []
        if self._laid:
            proposals += self._card_proposals(state, tile, reveal, entering)
            if entering is not None and not any(p.event.type == entering for p in proposals):
                flags.append(Notice.of("{card} does not fit {action} now",
                                       card=self._laid[-1].code, action=entering))
        elif tile is not None:
            proposals += self._tile_proposals(state, tile, reveal, entering)
            if not proposals and not any(takes_tile(state, e) for e in legal_events(state)):
                # by its number: its kind lies face down, and the table reads the screen
                flags.append(Notice.of("tile {number} is in the scan tray, but no "
                                       "action of {player}'s can take a tile now",
                                       number=f"{tile.tile_id:02d}",
                                       player=state.current_name))
        if seen.pieces is not None:
            uses = proposals
            proposals = self._follow_pieces(state, seen.pieces, proposals, flags)
            if self._laid and tile is None and entering is None and not reveal \
                    and _ruled_out(state, seen.pieces, uses):
                proposals = _discarding(state, self._laid)
            if game is not None and entering is None:
                proposals = self._taken_back_or_again(game, seen.pieces, proposals)
        proposals = [p for p in proposals if p.event not in self._dismissed]
        return TrackerView(tuple(proposals), tuple(flags), self._gate)

    # -- cards ---------------------------------------------------------------------------------

    def _follow_pile(self, state: GameState, seen: Observation, flags: list[Notice]) -> None:
        """A card newly on top of the pile is laid for the action being taken; once the
        record says cards were played, the pile as it lies is accounted for."""
        top = _top_card(seen.cards)
        lying = top.code if top is not None else self._top
        if self._played is not None and state.cards_played > self._played:
            # a redo plays again the cards of an action undone: they may show again
            self._accounted = {lying, self._tops.get(state.cards_played)}
            self._tops[state.cards_played] = lying
        elif self._played is not None and state.cards_played < self._played:
            self._accounted = {lying, self._tops.get(state.cards_played)}
        if self._played is not None and state.cards_played != self._played:
            self._laid.clear()
            self._dismissed = set()
        self._played = state.cards_played
        if top is None:
            return
        self._top = top.code
        if top.code in self._accounted or (self._laid and self._laid[-1].code == top.code):
            return
        try:
            card = Card.parse(top.code)
        except MalformedEventError:
            flags.append(Notice.of("the camera read an impossible card code {code}",
                                   code=repr(top.code)))
            return
        self._laid = [*self._laid, card][-KEPT_CARDS:]
        self._dismissed = set()

    def _card_proposals(self, state: GameState, tile: TileSeen | None, reveal: bool,
                        entering: str | None) -> list[Proposal]:
        kind = tile.kind if tile else None
        laid = self._laid
        found = []
        for event in legal_events(state, cards=laid, tile=kind, reveal=reveal):
            if event.type == TOP_UP and entering != TOP_UP:
                continue  # any card laid could be a discard: only when a top up is entered
            played = {DEVELOP: laid[-2:], TOP_UP: laid}.get(event.type, laid[-1:])
            shown = tile if kind is not None and takes_tile(state, event) else None
            found.append(Proposal(event, tuple(played), shown))
        return found

    # -- tiles ---------------------------------------------------------------------------------

    def _tile_proposals(self, state: GameState, tile: TileSeen, reveal: bool,
                        entering: str | None) -> list[Proposal]:
        """A tile shown without a new card: a discover (no card needed) or the action being
        entered by touch, with the tile's kind filled in."""
        wanted = entering or DISCOVER  # only a discover takes a tile without a card
        return [Proposal(event, tile=tile)
                for event in legal_events(state, kind=wanted, tile=tile.kind, reveal=reveal)
                if takes_tile(state, event)]

    def _reveal_seen(self, state: GameState, seen: Observation) -> bool:
        """Face-up space tiles lying at the ship's planet: the take that is being proposed
        left only space tiles there."""
        at = state.players[state.current].at
        if at is None:
            return False
        zone = planet_zone(at)
        return any(t.kind == SPACE and t.zone == zone for t in seen.tiles)

    def _sticker_flags(self, tiles: tuple[TileSeen, ...]) -> list[Notice]:
        flags = []
        places: dict[int, set[str | None]] = {}
        for tile in tiles:
            known = self._tile_kinds.setdefault(tile.tile_id, tile.kind)
            if known != tile.kind:
                # the kinds stay unsaid: the tile may be one hidden until the end
                flags.append(Notice.of("sticker {number} was read as another kind of tile "
                                       "than before: is a sticker on the wrong tile?",
                                       number=f"{tile.tile_id:02d}"))
            places.setdefault(tile.tile_id, set()).add(tile.zone)
        for tile_id, zones in places.items():
            if len(zones) > 1:
                flags.append(Notice.of("sticker {number} is seen in two places at once",
                                       number=f"{tile_id:02d}"))
        return flags

    # -- pieces --------------------------------------------------------------------------------

    def _follow_pieces(self, state: GameState, pieces: PiecesSeen, proposals: list[Proposal],
                       flags: list[Notice]) -> list[Proposal]:
        """The proposals the pieces agree with (a flight when the ship moved with no card),
        and a flag for each piece the table shows otherwise than the record and no proposal
        explains."""
        proposals = _shown_by_pieces(state, pieces, proposals)
        kinds = {p.event.type for p in proposals}
        explained = {getattr(p.event, "to", None) for p in proposals} - {None}
        for index, seat in enumerate(state.setup.players):
            at, recorded = pieces.ships.get(seat.color), _ship_place(state, index)
            if at is not None and at != recorded and not (index == state.current
                                                           and at in explained):
                flags.append(Notice.of("the table shows the {colour} ship on {seen}; the "
                                       "record says {recorded}", colour=seat.color,
                                       seen=at, recorded=recorded))
            probes, counted = state.players[index].probes, pieces.gate.get(seat.color)
            jumping = index == state.current and Jump.type in kinds
            if counted is not None and counted != probes and not (jumping
                                                                   and counted == probes + 1):
                flags.append(Notice.of("the table shows {count} {colour} probes on the jump "
                                       "gate; the record says {recorded}", count=counted,
                                       colour=seat.color, recorded=probes))
        here = state.players[state.current].at
        flags += _station_flags(state, pieces, here if DEVELOP in kinds else None)
        flags += _reservation_flags(state, pieces, here if kinds & {SCAN, DISCOVER} else None)
        return proposals

    def _taken_back_or_again(self, game: Game, pieces: PiecesSeen, proposals: list[Proposal]
                             ) -> list[Proposal]:
        """The undo first, when the table shows the latest action's piece back where it stood
        before it; the redo in place of the same move, when it shows the action last undone
        made again and no new card lies on the pile (its own card laid again is no news)."""
        state = game.state
        if game.played:
            before, latest = game.played[-1]
            if _shown_taken_back(before, pieces, latest):
                return [Proposal(Undo(), tap_only=True, undone_or_redone=(before, latest)),
                        *proposals]
        again = game.undone[-1] if game.undone else None
        if again is None or self._laid or not is_legal(state, again) \
                or not _shown_moved(state, pieces, again):
            return proposals
        redo = Proposal(Redo(), tap_only=True, undone_or_redone=(state, again))
        return [redo, *(p for p in proposals if not _same_move(p.event, again))]

    def _turn_passed(self, state: GameState, seen: Observation, tile: TileSeen | None
                     ) -> tuple[GameState, list[Proposal]] | None:
        """The state after a top up without discards and the next player's actions their
        pieces show begun, when the table shows that turn begun and nothing unrecorded of the
        player's own; else None."""
        pieces = seen.pieces
        if pieces is None or TopUp(0) in self._dismissed or _acted(state, pieces):
            return None
        try:
            after = apply(state, TopUp(0))
        except RulesError:
            return None
        if after.ended or after.current == state.current:
            return None
        reveal = self._reveal_seen(after, seen)
        if self._laid:
            found = self._card_proposals(after, tile, reveal, None)
        elif tile is not None:
            found = self._tile_proposals(after, tile, reveal, None)
        else:
            found = []
        begun = [p for p in _shown_by_pieces(after, pieces, found)
                 if _shown_moved(after, pieces, p.event)]
        return (after, begun) if begun else None

    # -- the end -------------------------------------------------------------------------------

    def _inventory(self, state: GameState, player: str, tray: list[TileSeen],
                   flags: list[Notice]) -> tuple[tuple[Proposal, ...], tuple[Notice, ...]]:
        index = state.setup.player_index(player)
        holds = len(state.players[index].tiles)
        kinds = tuple(sorted(t.kind for t in tray))
        if len(tray) != holds:
            flags.append(Notice.of("{player} holds {held} tiles; the scan tray shows {count}",
                                   player=player, held=holds, count=len(tray)))
            return (), tuple(flags)
        event = Inventory(player, kinds)
        if not is_legal(state, event):
            flags.append(Notice.of("the tiles in the tray do not match what the record says of "
                                   "{player}", player=player))
            return (), tuple(flags)
        return (Proposal(event, tiles_shown=len(tray)),), tuple(flags)


def _shown_by_pieces(state: GameState, pieces: PiecesSeen, proposals: list[Proposal]
                     ) -> list[Proposal]:
    """The proposals that what the table shows of the player's pieces leads to
    (``_shown_moved``): the jump to where the ship now stands (or the flight there, with no
    card laid); the develop when a station of theirs stands where the record has none; the
    scan when one more of their probes lies on a tile beside the ship's planet. All of them
    where the pieces say nothing. A ship only glimpsed (``PiecesSeen.glimpsed``) away from its
    recorded place leads to the flight there, or the jumps there, for the players' tap; not
    where the record has the player's station, whose part it may be (the glimpses elsewhere
    on the bench's and dev tables were all a black station half over a badge)."""
    mover, recorded = _mover(state), _ship_place(state, state.current)
    seen_at = pieces.ships.get(mover)
    if seen_at is not None and seen_at != recorded \
            and not proposals and is_legal(state, Fly(seen_at)):
        return [Proposal(Fly(seen_at))]
    shown = [p for p in proposals if _shown_moved(state, pieces, p.event)]
    glimpse = pieces.glimpsed.get(mover) if seen_at is None else None
    if glimpse is not None and _station_on(state, glimpse) == mover:
        glimpse = None
    if shown or glimpse is None or glimpse == recorded:
        return shown or proposals
    if not proposals:
        return [Proposal(Fly(glimpse), tap_only=True)] if is_legal(state, Fly(glimpse)) else []
    there = [replace(p, tap_only=True) for p in proposals
             if isinstance(p.event, Jump) and p.event.to == glimpse]
    return there or proposals


def _mover(state: GameState) -> str:
    """The colour of the player whose turn it is."""
    return state.setup.players[state.current].color


def _shown_moved(state: GameState, pieces: PiecesSeen, event: Event) -> bool:
    """Whether the table shows for sure the piece that ``event`` of the current player's
    moves where it puts it: the ship of a jump or a flight at its planet, the station of a
    develop, the probe of a scan on a tile beside the ship's planet."""
    mover, here = _mover(state), state.players[state.current].at
    if isinstance(event, Jump | Fly):
        return pieces.ships.get(mover) == event.to
    if here is None or event.type not in (DEVELOP, SCAN):
        return False
    planet = state.setup.planets[here].name
    if event.type == DEVELOP:
        return pieces.stations.get(planet) == mover and state.stacks[here].developer is None
    seen = pieces.reserved.get(planet)
    return seen is not None and seen.get(mover, 0) == _reserved(state, here, state.current) + 1


def _shown_taken_back(before: GameState, pieces: PiecesSeen, event: Event) -> bool:
    """Whether the table shows for sure the piece ``event`` moved (played in ``before``)
    back where it stood before it: the ship of a jump or a flight on the place it left, with a
    jump's probe gone from the gate where the gate was counted; the station of a develop gone;
    the probe of a scan gone from beside its planet."""
    me = before.current
    mover = before.setup.players[me].color
    if isinstance(event, Jump | Fly):
        counted = pieces.gate.get(mover)
        probe_back = (not isinstance(event, Jump) or counted is None
                      or counted == before.players[me].probes)
        return pieces.ships.get(mover) == _ship_place(before, me) and probe_back
    here = before.players[me].at
    if here is None:
        return False
    planet = before.setup.planets[here].name
    if isinstance(event, Develop):
        return planet in pieces.stations and pieces.stations[planet] is None
    if isinstance(event, Scan) and not event.only_space:
        seen = pieces.reserved.get(planet)
        return seen is not None and seen.get(mover, 0) == _reserved(before, here, me)
    return False


def _same_move(event: Event, other: Event) -> bool:
    """Whether two actions move the same piece the same way (two flights or two jumps to one
    planet, two scans, whatever their cards): what a redo and the move it plays again have in
    common."""
    return event.type == other.type and getattr(event, "to", None) == getattr(other, "to", None)


def _acted(state: GameState, pieces: PiecesSeen) -> bool:
    """Whether the table shows a piece of the current player's otherwise than the record: an
    action of theirs not entered yet."""
    me, mover = state.current, _mover(state)
    if pieces.ships.get(mover, _ship_place(state, me)) != _ship_place(state, me):
        return True
    here = state.players[me].at
    if here is None:
        return False
    planet = state.setup.planets[here].name
    built = planet in pieces.stations and pieces.stations[planet] != _builder(state, here)
    seen = pieces.reserved.get(planet)
    return built or (seen is not None and seen.get(mover, 0) > _reserved(state, here, me))


def _laid_unplayed(laid: list[Card], proposal: Proposal) -> bool:
    """Whether a card laid on the pile is one the proposed action does not play (perhaps a
    discard of the turn before)."""
    return len(laid) > len(proposal.cards)


def _ruled_out(state: GameState, pieces: PiecesSeen, uses: list[Proposal]) -> bool:
    """Whether the table shows, for sure, that the cards laid were put to none of ``uses``
    (the actions they allow) and to no develop they may be the first card of: the pieces such
    an action moves stand as the record has them. The ship in its place rules out a jump (a
    jump's probe goes with it, so the gate's count adds nothing); the player's station at the
    ship's planet a develop; their probes on tiles there a scan. A discover plays no card."""
    me, mover = state.current, _mover(state)
    kinds = {use.event.type for use in uses}
    if any(legal_events(state, kind=DEVELOP)):
        kinds.add(DEVELOP)  # a develop's first card allows nothing yet
    if kinds & {JUMP, FLY} and pieces.ships.get(mover) != _ship_place(state, me):
        return False
    here = state.players[me].at
    if here is None:
        return not kinds & {SCAN, DEVELOP}
    planet = state.setup.planets[here].name
    if DEVELOP in kinds and (planet not in pieces.stations
                             or pieces.stations[planet] != _builder(state, here)):
        return False
    seen = pieces.reserved.get(planet)
    return SCAN not in kinds or (seen is not None
                                 and seen.get(mover, 0) == _reserved(state, here, me))


def _discarding(state: GameState, laid: list[Card]) -> list[Proposal]:
    """The cards laid as a top up's discards, when the rules allow it: proposed for a tap,
    for the player may still move a piece for them."""
    event = TopUp(len(laid), tuple(laid))
    return [Proposal(event, tuple(laid), tap_only=True)] if is_legal(state, event) else []


def _station_flags(state: GameState, pieces: PiecesSeen, developing: int | None
                   ) -> list[Notice]:
    """Each station the table shows otherwise than the record (but where a develop is
    proposed)."""
    flags = []
    for index, planet in enumerate(state.setup.planets):
        if planet.name not in pieces.stations or index == developing:
            continue
        recorded, shown = _builder(state, index), pieces.stations[planet.name]
        if shown == recorded:
            continue
        if shown is None:
            flags.append(Notice.of("the table shows no station on {planet}; the record says "
                                   "{recorded}", planet=planet.name, recorded=recorded))
        else:
            flags.append(Notice.of("the table shows a {colour} station on {planet}; the "
                                   "record says {recorded}", planet=planet.name,
                                   colour=shown, recorded=recorded or "none"))
    return flags


def _reservation_flags(state: GameState, pieces: PiecesSeen, taking: int | None
                       ) -> list[Notice]:
    """Each colour whose probes on tiles beside a planet the table counts otherwise than the
    record (but where a scan or a discover is proposed: its probe is being laid or lifted)."""
    flags = []
    for index, planet in enumerate(state.setup.planets):
        counts = pieces.reserved.get(planet.name)
        if counts is None or index == taking:
            continue  # not seen for sure
        for player, seat in enumerate(state.setup.players):
            recorded = _reserved(state, index, player)
            shown = counts.get(seat.color, 0)  # a planet seen names every colour there
            if shown != recorded:
                flags.append(Notice.of("the table shows {count} {colour} probes on tiles "
                                       "beside {planet}; the record says {recorded}",
                                       count=shown, colour=seat.color, planet=planet.name,
                                       recorded=recorded))
    return flags


def _builder(state: GameState, planet: int) -> str | None:
    """The colour of the station the record has on the planet (None: none)."""
    developer = state.stacks[planet].developer
    return None if developer is None else state.setup.players[developer].color


def _station_on(state: GameState, place: str) -> str | None:
    """The colour of the station the record has on the planet named ``place`` (None: none,
    or no planet of this game)."""
    names = [planet.name for planet in state.setup.planets]
    return _builder(state, names.index(place)) if place in names else None


def _reserved(state: GameState, planet: int, player: int) -> int:
    """The player's probes the record has on tiles reserved beside the planet."""
    return sum(1 for r in state.stacks[planet].reservations if r.player == player)


def _ship_place(state: GameState, player: int) -> str:
    """Where the record has the player's ship: a planet's name or ``gate``."""
    at = state.players[player].at
    return GATE if at is None else state.setup.planets[at].name


def _top_card(cards: tuple[CardSeen, ...]) -> CardSeen | None:
    on_pile = [c for c in cards if c.zone == DISCARD_ZONE]
    return max(on_pile, key=lambda c: c.confidence) if on_pile else None


def _words(card: Card) -> str:
    return " / ".join(c.words() for c in card.coordinates)


def _describe(event: Event) -> str:
    """What a proposed action does, in a few words: "jump to Caldera", "scan, reserving MED"."""
    tile = getattr(event, "tile", None)
    if isinstance(event, Jump | Fly):
        return f"{event.type} to {event.to}"
    if isinstance(event, TopUp):
        return f"top up, discarding {event.discard}"
    if isinstance(event, Inventory):
        return f"{event.player}'s tiles: {', '.join(event.tiles) or 'none'}"
    if tile is None:
        return event.type
    return f"{event.type}, {'reserving' if event.type == 'scan' else 'taking'} {tile}"
