"""The game in the players' words and language: action and tile names as the rulebooks say them,
a sentence per event for the log, proposals as questions, the engine's refusals and the
camera's notices. Kivy-free: it only needs the catalogues.
"""

from __future__ import annotations

import errno
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from companion.backup import Backup
from companion.journal import JournalWriteError
from companion.library import Library
from companion.observations import (DISCARD_ZONE, GATE, JUMP_GATE_ZONE, PLANET_ZONE, PLAYER_ZONE,
                                    TRAY_ZONE)
from companion.rules import (ACTION_TYPES, DEVELOP, DISCOVER, FLY, JUMP, SCAN, SPACE, TOP_UP, Card,
                             Coordinate, Develop, Discover, End, Event, Fly, Game, GameState,
                             Inventory, Jump, PLAYER_COLORS, Redo, Refusal, RulesError, Scan,
                             Setup, TopUp, Undo)
from companion.scoring import STATION_POINTS, Standings, gate_points
from companion.tracker import Notice, Proposal
from ui.i18n import _, ngettext, pgettext

if TYPE_CHECKING:  # only its shape: the words need no camera library loaded
    from calibration.table import ZoneSizing


def action_name(kind: str) -> str:
    """The six actions as the rulebooks name them (Nachschub, Rifornimento carte...)."""
    names = {TOP_UP: pgettext("action", "Top up"), JUMP: pgettext("action", "Jump"),
             FLY: pgettext("action", "Fly"), SCAN: pgettext("action", "Scan"),
             DEVELOP: pgettext("action", "Develop"),
             DISCOVER: pgettext("action", "Discover")}
    return names[kind]


def tile_name(kind: str | None) -> str:
    names = {"MIN-R": _("red mineral"), "MIN-P": _("purple mineral"),
             "MIN-G": _("green mineral"), "MIN-B": _("blue mineral"),
             "ALI-N": _("brown alien"), "ALI-B": _("blue alien"),
             "MAT-G": _("green matter"), "MAT-B": _("blue matter"), "WAT": _("water"),
             "MED": _("medal"), "SPC": _("space tile"), None: _("kind not known")}
    return names[kind]


def category_name(category: str) -> str:
    names = {"jump_gate": _("jump gate"), "station_points": _("stations"),
             "minerals": _("minerals"), "aliens": _("aliens"), "matter": _("matter"),
             "water": _("water"), "medals": _("medals"), "space": _("space"),
             "total": _("total")}
    return names[category]


def when(moment: datetime, short: bool = False) -> str:
    """A date and time the way the language writes them (numbers only: no month names from
    the system's locale, which the kiosk may not have)."""
    return moment.strftime(pgettext("short date format", "%m-%d %H:%M") if short
                           else pgettext("date format", "%Y-%m-%d %H:%M"))


def column_name(category: str) -> str:
    """A score sheet column's head: a word short enough for a tenth of the 800x480 screen."""
    names = {"jump_gate": pgettext("column", "Gate"),
             "station_points": pgettext("column", "Stations"),
             "minerals": pgettext("column", "Minerals"), "aliens": pgettext("column", "Aliens"),
             "matter": pgettext("column", "Matter"), "water": pgettext("column", "Water"),
             "medals": pgettext("column", "Medals"), "space": pgettext("column", "Space"),
             "total": pgettext("column", "Total")}
    return names[category]


def color_name(color: str) -> str:
    names = {"red": _("red"), "blue": _("blue"), "green": _("green"), "yellow": _("yellow"),
             "black": _("black")}
    return names[color]


def variant_name(variant: str) -> str:
    return {"table": _("Printed rules"), "yucata": _("Yucata rules")}[variant]


def variant_explained(variant: str) -> str:
    return {"table": _("As printed: a space tile taken by mistake costs 10 points."),
            "yucata": _("As on Yucata: a space tile can never be taken.")}[variant]


def coordinate_words(coordinate: Coordinate) -> str:
    """How a player says it: "Blue 3", "Orange joker"."""
    number = _("joker") if coordinate.number is None else str(coordinate.number)
    return {"B": _("Blue {number}"), "G": _("Green {number}"),
            "O": _("Orange {number}")}[coordinate.color].format(number=number)


def card_words(card: Card) -> str:
    return " / ".join(coordinate_words(c) for c in card.coordinates)


def cards_words(cards: Sequence[Card]) -> str:
    return _(" and ").join(card_words(c) for c in cards)


def decimal_words(value: float) -> str:
    """A number with one decimal, written as the language writes it (38.5, 38,5)."""
    return f"{value:.1f}".replace(".", pgettext("decimal separator", "."))


def percent_words(share: float) -> str:
    """A share as the language writes a percentage ("100%", "100 %"), never broken before
    its sign."""
    return _("{percent}%").format(percent=f"{share * 100:.0f}").replace(" ", "\u00a0")


def place_words(place: int | None, tied: bool = False) -> str:
    """A gate place: "1st", "2nd", "=2nd" when shared; "–" for a player with no probe on the
    gate."""
    if not place:
        return "–"
    ordinals = {1: _("1st"), 2: _("2nd"), 3: _("3rd"), 4: _("4th"), 5: _("5th")}
    return ("=" if tied else "") + ordinals.get(place, str(place))


def player_sheet(board: Standings, name: str) -> list[str]:
    """What a tap on a player's token tells: colour, gate place, stations, tiles (counted,
    never named), cards and chips; points only where they are public."""
    points = gate_points([p.probes for p in board.players])
    index = [p.name for p in board.players].index(name)
    player, gate = board.players[index], points[index]
    return [
        _("Colour: {color}.").format(color=color_name(player.color)),
        (ngettext("Jump gate: {place} place with {probes} probe: {points} points.",
                  "Jump gate: {place} place with {probes} probes: {points} points.",
                  player.probes).format(
            place=place_words(player.gate_place, player.gate_tied),
            probes=player.probes, points=gate)
         if player.probes else _("No probes on the jump gate yet.")),
        ngettext("{count} station: {points} points.", "{count} stations: {points} points.",
                 player.stations).format(count=player.stations,
                                         points=player.stations * STATION_POINTS),
        ngettext("{count} tile held", "{count} tiles held", player.tiles).format(
            count=player.tiles) + "; " + ngettext(
            "{count} more reserved.", "{count} more reserved.", player.reserved).format(
            count=player.reserved),
        ngettext("{count} card in hand.", "{count} cards in hand.", player.hand).format(
            count=player.hand),
        ngettext("{count} chip left.", "{count} chips left.", player.chips_left).format(
            count=player.chips_left),
    ]


# ---------------------------------------------------------------------------------------------
# The log: one sentence per event
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LogLine:
    text: str
    player: str | None
    """Whose action it was, for the colour beside the line (None: the table's)."""


def event_sentence(state: GameState, event: Event) -> str:
    """What an event did, said of the state it was played in: "Ann jumped to Caldera with
    Blue 3"."""
    player = state.current_name
    at = state.players[state.current].at
    planet = "" if at is None else state.setup.planets[at].name
    if isinstance(event, TopUp):
        if not event.discard:
            return _("{player} topped up without discarding").format(player=player)
        text = ngettext("{player} discarded {count} card and topped up",
                        "{player} discarded {count} cards and topped up",
                        event.discard).format(player=player, count=event.discard)
        return text + _(" ({cards})").format(cards=cards_words(event.cards)) \
            if event.cards else text
    if isinstance(event, Jump):
        if event.card is None:
            return _("{player} jumped to {planet}").format(player=player, planet=event.to)
        return _("{player} jumped to {planet} with {card}").format(
            player=player, planet=event.to, card=card_words(event.card))
    if isinstance(event, Fly):
        return _("{player} flew to {planet}").format(player=player, planet=event.to)
    if isinstance(event, Scan):
        if event.only_space:
            return _("{player} scanned {planet} and found only space tiles").format(
                player=player, planet=planet)
        text = _("{player} scanned {planet}").format(player=player, planet=planet)
        return text + _taking(event.tile is not None, event.reveal, reserved=True)
    if isinstance(event, Develop):
        text = _("{player} developed {planet}").format(player=player, planet=planet)
        return text + _taking(event.tile is not None, event.reveal, reserved=False)
    if isinstance(event, Discover):
        text = _("{player} discovered on {planet}").format(player=player, planet=planet)
        return text + _taking(event.tile is not None, event.reveal, reserved=False)
    if isinstance(event, End):
        return _("The players ended the game")
    if isinstance(event, Inventory):
        return ngettext("{player}'s tiles entered: {count} tile",
                        "{player}'s tiles entered: {count} tiles",
                        len(event.tiles)).format(player=event.player, count=len(event.tiles))
    return event.type


def move_summary(state: GameState, event: Event) -> str:
    """An action in two words, for a player's token: "Jump Caldera", "Scan Freezer"."""
    if isinstance(event, Jump | Fly):
        return f"{action_name(event.type)} {event.to}"
    at = state.players[state.current].at
    if isinstance(event, Scan | Develop | Discover) and at is not None:
        return f"{action_name(event.type)} {state.setup.planets[at].name}"
    return action_name(event.type) if event.type in ACTION_TYPES else event_sentence(state, event)


def last_moves(game: Game) -> dict[str, str]:
    """Each player's latest turn (one or two actions still in effect), as a token shows it."""
    turns: dict[str, tuple[int, list[str]]] = {}
    for state, event in game.played:
        if event.type not in ACTION_TYPES:
            continue
        player = state.current_name
        turn, moves = turns.get(player, (-1, []))
        if state.turn != turn:
            moves = []
        turns[player] = (state.turn, [*moves, move_summary(state, event)])
    return {player: " · ".join(moves) for player, (_turn, moves) in turns.items()}


def _taking(tile: bool, reveal: bool, reserved: bool) -> str:
    """The tile an action took, never its kind: tiles taken and reserved lie face down until
    the end, and the whole table reads the screen."""
    text = ""
    if tile:
        text = _(", reserving a tile") if reserved else _(", taking a tile")
    if reveal:
        text += _("; only space tiles are left there, face up")
    return text


def log_lines(setup: Setup, entries: Iterable[Any]) -> list[LogLine]:
    """Every line of the record after the set-up as sentences, oldest first; an undo or a redo
    says which action it took back or played again."""
    log = GameLog(setup)
    log.extend(entries)
    return log.said


class GameLog:
    """The record's sentences, written as lines are added: a tap on a long game words only
    the new line, not the whole record again (200,000 lines took 4 s per tap)."""

    def __init__(self, setup: Setup) -> None:
        self._game = Game(setup)
        self.said: list[LogLine] = []
        """Every line so far as a sentence, oldest first."""
        self._in_effect: list[LogLine] = []
        self._undone: list[LogLine] = []

    def __len__(self) -> int:
        return len(self.said)

    @property
    def in_effect(self) -> LogLine | None:
        """The line an undo would take back now (None: nothing to undo)."""
        return self._in_effect[-1] if self._in_effect else None

    def extend(self, entries: Iterable[Any]) -> None:
        for entry in entries:
            self._add(entry.event)

    def _add(self, event: Event) -> None:
        if isinstance(event, Undo):
            line = self._in_effect.pop()
            self._undone.append(line)
            self.said.append(LogLine(_("Undone: {what}").format(what=line.text), line.player))
        elif isinstance(event, Redo):
            line = self._undone.pop()
            self._in_effect.append(line)
            self.said.append(LogLine(_("Redone: {what}").format(what=line.text), line.player))
        else:
            state = self._game.state
            player = (event.player if isinstance(event, Inventory) else
                      None if isinstance(event, End) else state.current_name)
            line = LogLine(event_sentence(state, event), player)
            self._in_effect.append(line)
            self._undone.clear()
            self.said.append(line)
        self._game.play(event)


# ---------------------------------------------------------------------------------------------
# Camera proposals, as questions
# ---------------------------------------------------------------------------------------------

def proposal_question(state: GameState, proposal: Proposal) -> str:
    """What a proposal would do: "Jump to Caldera?", "Scan Caldera, reserving tile 17?" (a
    tile by its number, never its kind: it lies face down, and everyone reads the screen)."""
    event = proposal.event
    at = state.players[state.current].at
    planet = "" if at is None else state.setup.planets[at].name
    tile = getattr(event, "tile", None)
    if isinstance(event, Jump):
        return _("Jump to {planet}?").format(planet=event.to)
    if isinstance(event, Fly):
        return _("Fly to {planet}?").format(planet=event.to)
    if isinstance(event, Undo | Redo) and proposal.undone_or_redone is not None:
        what = event_sentence(*proposal.undone_or_redone)
        return (_("Undo: {what}?") if isinstance(event, Undo) else _("Redo: {what}?")).format(
            what=what)
    if isinstance(event, TopUp) and proposal.begun_by is not None:
        return _("{player}'s turn is over: top up without discarding?").format(
            player=state.current_name)
    if isinstance(event, TopUp):
        return ngettext("Top up, discarding {count} card?", "Top up, discarding {count} cards?",
                        event.discard).format(count=event.discard)
    if isinstance(event, Scan) and event.only_space:
        return _("Scan {planet}: only space tiles?").format(planet=planet)
    if isinstance(event, Inventory):
        return _("{player}'s tiles: {tiles}?").format(
            player=event.player, tiles=", ".join(tile_name(t) for t in event.tiles) or "–")
    question = {SCAN: _("Scan {planet}"), DEVELOP: _("Develop {planet}"),
                DISCOVER: _("Discover on {planet}")}[event.type].format(planet=planet)
    if tile is not None and proposal.tile is not None:
        question += (_(", reserving tile {number}") if event.type == SCAN else
                     _(", taking tile {number}")).format(number=f"{proposal.tile.tile_id:02d}")
    elif tile is not None:
        question += _taking(True, False, reserved=event.type == SCAN)
    return question + "?"


def proposal_source(proposal: Proposal) -> str:
    """What the camera saw: "Blue 3 / Green 2 on the pile", "tile 17 in the scan tray"."""
    parts = []
    if proposal.cards:
        parts.append(_("{cards} on the pile").format(cards=cards_words(proposal.cards)))
    if proposal.tile is not None:
        parts.append(_("tile {number} in the scan tray").format(
            number=f"{proposal.tile.tile_id:02d}"))
    if proposal.tiles_shown:
        parts.append(ngettext("{count} tile in the scan tray", "{count} tiles in the scan tray",
                              proposal.tiles_shown).format(count=proposal.tiles_shown))
    if isinstance(proposal.event, Undo):
        parts.append(_("the move taken back on the table"))
    elif isinstance(proposal.event, Redo):
        parts.append(_("the move made again on the table"))
    elif proposal.begun_by is not None:
        parts.append(_("{player}'s pieces moved on the table").format(player=proposal.begun_by))
    elif isinstance(proposal.event, Fly):
        parts.append(_("the ship moved on the table"))
    return _(" and ").join(parts)


# ---------------------------------------------------------------------------------------------
# Refusals and notices
# ---------------------------------------------------------------------------------------------

def _word_params(params: dict[str, Any]) -> dict[str, Any]:
    """Values that are words of the game, in the players' language."""
    out = dict(params)
    if "category" in out:
        out["category"] = category_name(str(out["category"]))
    if "action" in out:
        out["action"] = action_name(str(out["action"]))
    if "card" in out:
        try:
            out["card"] = card_words(Card.parse(out["card"]))
        except RulesError:
            pass
    for key in ("tile", "known", "kind"):
        if out.get(key) in ("MIN-R", "MIN-P", "MIN-G", "MIN-B", "ALI-N", "ALI-B", "MAT-G",
                            "MAT-B", "WAT", "MED", SPACE):
            out[key] = tile_name(out[key])
    for key in ("colour", "recorded", "seen"):  # the pieces: a colour, the gate, or none
        if out.get(key) in PLAYER_COLORS:
            out[key] = color_name(out[key])
        elif out.get(key) == GATE:
            out[key] = _("the jump gate")
        elif out.get(key) == "none":
            out[key] = _("none")
    return out


def error_text(error: BaseException) -> str:
    """A refusal or a failure, in the players' language."""
    if isinstance(error, Refusal):
        return _(error.template).format(**_word_params(error.params))
    if isinstance(error, JournalWriteError):
        return _("Not saved: {reason}. The last action was not recorded.").format(
            reason=disk_words(error))
    if isinstance(error, OSError):
        return _("The disk refused: {reason}").format(reason=error.strerror or str(error))
    return str(error)


def disk_words(error: OSError) -> str:
    """Why the disk refused, in a few words the players know."""
    return {errno.ENOSPC: _("the disk is full"), errno.EROFS: _("the disk is read-only"),
            errno.EACCES: _("the companion may not write there"),
            errno.EIO: _("the disk failed")}.get(error.errno or 0, str(error.strerror or error))


def unwritable_words(library: Library) -> str:
    """Why no game can be kept in ``library``, in the players' words (no path, no errno);
    empty when games can be kept."""
    if library.problem is None:
        return ""
    return disk_words(library.write_error) if library.write_error else library.problem


STICKER_MM = 25.0
"""The sticker size the sizing advice is given for (the printed default)."""


def zone_words(zone: str) -> str:
    if zone.startswith(PLANET_ZONE):
        return _("planet {number}").format(number=zone.removeprefix(PLANET_ZONE))
    if zone.startswith(PLAYER_ZONE):
        return _("player area {number}").format(number=zone.removeprefix(PLAYER_ZONE))
    return {TRAY_ZONE: _("scan tray"), DISCARD_ZONE: _("discard pile"),
            JUMP_GATE_ZONE: _("jump gate")}.get(zone, zone)


def sizing_words(sizing: list[ZoneSizing]) -> str:
    """Whether the printed stickers are large enough for the camera, in plain words: the zones
    where they are not, and the size that would read there."""
    short = [zone for zone in sizing if not zone.readable]
    if not short:
        return _("The camera reads {mm:g} mm stickers in every zone.").format(mm=STICKER_MM)
    if len(short) == len(sizing):
        zones = _("every zone")
    elif len(short) > 3:
        zones = _("{zones} and {count} more").format(
            zones=", ".join(zone_words(zone.zone) for zone in short[:2]), count=len(short) - 2)
    else:
        zones = ", ".join(zone_words(zone.zone) for zone in short)
    return _("The camera sees {mm:g} mm stickers too small in {zones}: print them at {need:.0f} "
             "mm, or bring the camera closer.").format(
        mm=STICKER_MM, zones=zones, need=max(z.min_sticker_mm for z in short))


def ring_words(first: str, colours: Sequence[str], unseen: Sequence[str]) -> str:
    """The ring as found at a game's start: what the camera will follow, and whose pieces it
    cannot."""
    words = [_("Found: the jump gate and the eight planets, named clockwise from {first}. The "
               "camera follows {colours}.").format(
        first=first, colours=", ".join(color_name(c) for c in colours))]
    if unseen:
        words.append(_("It did not find the {colours} ship on the jump gate: those pieces are "
                       "entered by touch (stand the ship in view and tap again).").format(
            colours=", ".join(color_name(c) for c in unseen)))
    words.append(_("A name on the wrong board? Tap {first} on the picture, or correct the "
                   "ring's order with Back.").format(first=first))
    return " ".join(words)


def ring_refusal(kind: str) -> str:
    """Why the ring was not found, as what to change at the table."""
    return {"boards": _("The eight planets and the jump gate were not found around that "
                        "point. Lay the boards apart, none touching another, all in the "
                        "picture, and tap the first planet's middle."),
            "ships": _("No ship was found on the jump gate. Stand every player's ship on it, "
                       "in the camera's view, and tap again."),
            "off": _("Tap the first planet on the picture."),
            "picture": _("The camera's picture could not be looked at. Tap again; if this "
                         "stays, start without the ring."),
            }.get(kind, _("The ring cannot be followed for these players and planets."))


def backup_words(backup: Backup) -> str:
    """What a copy to the stick did: how many games went where, and what was left out why."""
    words = [ngettext(
        "Done: {games} game copied to the stick, in the folder {folder}. You can take the "
        "stick out.",
        "Done: {games} games copied to the stick, in the folder {folder}. You can take the "
        "stick out.", backup.games).format(games=backup.games,
                                           folder=backup.folder.parent.name)]
    unscored = sum(not item.journal for item in backup.left_out)
    if unscored:
        words.append(ngettext(
            "{count} game has no scores yet: its record is copied, without a BG Stats play "
            "(enter its tiles first).",
            "{count} games have no scores yet: their records are copied, without BG Stats "
            "plays (enter their tiles first).", unscored).format(count=unscored))
    unreadable = [item.name for item in backup.left_out if item.journal]
    if unreadable:
        words.append(_("Not copied, as they cannot be read: {names}.").format(
            names=", ".join(unreadable[:3]) + (" …" if len(unreadable) > 3 else "")))
    return " ".join(words)


def notice_text(notice: Notice) -> str:
    return _(notice.template).format(**_word_params(dict(notice.params)))
