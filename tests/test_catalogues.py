"""The screen's languages: every string the screens can show has a German and an Italian
translation naming the same values, the compiled catalogues are current, and the words of the
game are the rulebooks' own."""

from __future__ import annotations

import ast

import pytest

from companion.rules import (SPACE, TILE_KINDS, Develop, Discover, Fly, Game, Jump, Redo, Scan,
                             TopUp, Undo)
from companion.observations import TileSeen
from companion.simulate import simulate
from companion.tracker import Proposal
from tests.conftest import new_game
from ui import i18n
from ui import catalogues
from ui.catalogues import _core_templates, _template_slots, problems
from ui.words import (action_name, error_text, last_moves, log_lines, proposal_question,
                      proposal_source, tile_name)


@pytest.fixture(autouse=True)
def english_again():
    yield
    i18n.set_language("en")


def test_every_shown_string_has_a_current_translation_in_each_language():
    assert problems() == []


@pytest.mark.parametrize("language, names", [
    ("de", ["Nachschub", "Jump", "Flug", "Scannen", "Erschließen", "Entdecken"]),
    ("it", ["Rifornimento carte", "Jump", "Volo", "Scansione", "Esplorare", "Scoprire"]),
])
def test_the_actions_have_the_rulebooks_names(language, names):
    i18n.set_language(language)
    assert [action_name(k) for k in ("top_up", "jump", "fly", "scan", "develop",
                                     "discover")] == names
    assert i18n.missing == set()


def test_tiles_and_refusals_speak_the_chosen_language():
    i18n.set_language("de")
    assert tile_name("MIN-P") == "lila Erz" and tile_name("MED") == "Orden"
    game = new_game(2)
    play_refusal = None
    try:
        game.play(Scan())
    except Exception as error:  # noqa: BLE001 - the refusal is what is looked at
        play_refusal = error
    assert error_text(play_refusal).startswith("das Raumschiff von Ann steht auf dem Jump Gate")


def test_a_teaching_refusal_speaks_the_chosen_language():
    """Teaching refuses with a template, as the engine does: the teach screens show it in the
    players' language (it was shown in English inside the German screen)."""
    from vision.boards import BoardTeachingError, teach_boards
    from vision.cards import TeachingError, teach
    with pytest.raises(TeachingError) as cards:
        teach([])
    with pytest.raises(BoardTeachingError) as boards:
        teach_boards([])
    i18n.set_language("de")
    assert error_text(cards.value) == "keine Fotos zum Anlernen"
    assert error_text(boards.value).startswith("an den angetippten Stellen")
    assert i18n.missing == set()
    i18n.set_language("en")
    assert error_text(cards.value) == str(cards.value) == "no photos to teach from"


def test_the_log_says_each_event_and_what_an_undo_took_back_in_italian():
    i18n.set_language("it")
    game: Game = new_game(2)
    for event in (Jump("Caldera"), TopUp(2), Undo()):
        game.play(event)
    lines = [line.text for line in log_lines(game.setup, game.log)]
    assert lines == ["Ann: jump su Caldera", "Ann: scarta 2 carte e pesca",
                     "Annullato (Ann: scarta 2 carte e pesca)"]


def test_a_string_no_catalogue_holds_is_noticed():
    i18n.set_language("de")
    i18n.missing.clear()
    assert i18n._("a string nobody translated") == "a string nobody translated"
    assert i18n.missing == {"a string nobody translated"}
    i18n.missing.clear()


def test_the_pseudo_language_marks_everything_that_went_through_a_catalogue():
    i18n.set_language("pseudo")
    assert i18n._("Undo") == "\u2039Undo\u203a"
    assert i18n.pgettext("action", "Fly") == "\u2039Fly\u203a"


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_the_log_and_the_tokens_never_name_a_tile_taken_or_reserved(language):
    """Tiles taken and reserved lie face down until the end, and the whole table reads the
    screen: the log says a tile was taken, never which."""
    i18n.set_language(language)
    game = simulate(5, 4).game
    played = game.played
    taking = [event for _state, event in played
              if getattr(event, "tile", None) not in (None, SPACE)]
    assert len(taking) > 10  # the game took tiles: the test looks at something
    names = {tile_name(kind) for kind in TILE_KINDS if kind != SPACE}
    lines = [line.text for line in log_lines(game.setup, game.log)]
    shown = lines + list(last_moves(game).values())
    assert not [text for text in shown if any(name in text for name in names)]
    assert any(_taken_words(language) in text for text in lines)


def _taken_words(language: str) -> str:
    return {"en": "taking a tile", "de": "ein Plättchen genommen",
            "it": "prendendo una tessera"}[language]


def test_a_proposal_names_the_tile_seen_by_its_number_not_its_kind():
    game = new_game(2)
    game.play(Jump("Caldera"))
    sticker = TileSeen("SM1:T17:WAT", 17, "WAT", "scan-tray", ((0, 0), (1, 0), (1, 1), (0, 1)))
    proposal = Proposal(Scan(tile="WAT"), tile=sticker)
    assert proposal_question(game.state, proposal) == "Scan Caldera, reserving tile 17?"
    assert proposal_source(proposal) == "tile 17 in the scan tray"


def test_every_action_the_camera_can_propose_is_asked_in_words():
    """Each kind the tracker proposes has its question (a flight seen from the ship's move
    had none, and took the demo down)."""
    game = new_game(2)
    game.play(Jump("Caldera"))
    asked = {kind: proposal_question(game.state, Proposal(event)) for kind, event in {
        "fly": Fly("Ruby Red"), "jump": Jump("Hazard"), "top_up": TopUp(1),
        "scan": Scan(), "develop": Develop(), "discover": Discover()}.items()}
    assert asked["fly"] == "Fly to Ruby Red?"
    assert all(question.endswith("?") for question in asked.values()), asked
    assert proposal_source(Proposal(Fly("Ruby Red"))) == "the ship moved on the table"


def test_a_top_up_seen_in_the_next_players_turn_is_asked_of_the_player_whose_turn_ended():
    game = new_game(2)
    game.play(Jump("Caldera"))
    ann, ben = (seat.name for seat in game.state.setup.players)
    proposal = Proposal(TopUp(0), begun_by=ben)
    assert proposal_question(game.state, proposal) == \
        f"{ann}'s turn is over: top up without discarding?"
    assert proposal_source(proposal) == f"{ben}'s pieces moved on the table"
    i18n.set_language("de")
    assert proposal_source(proposal) == f"Figuren von {ben} bewegt"


def test_an_undo_or_redo_the_table_shows_names_the_move_in_the_players_language():
    game = new_game(2)
    before = game.state
    game.play(Jump("Caldera"))
    ann = before.current_name
    undo = Proposal(Undo(), tap_only=True, undone_or_redone=(before, Jump("Caldera")))
    redo = Proposal(Redo(), tap_only=True, undone_or_redone=(before, Jump("Caldera")))
    asked = {}
    for language in ("en", "de", "it"):
        i18n.set_language(language)
        asked[language] = [proposal_question(game.state, p) for p in (undo, redo)] + [
            proposal_source(p) for p in (undo, redo)]
    assert asked["en"] == [f"Undo: {ann} jumped to Caldera?", f"Redo: {ann} jumped to Caldera?",
                           "the move taken back on the table", "the move made again on the table"]
    assert asked["de"][0].startswith("Rückgängig: ") and "Caldera" in asked["de"][0]
    assert asked["it"][1].startswith("Ripetere (") and "Caldera" in asked["it"][1]
    assert all(len(set(words)) == 4 for words in asked.values())
    assert asked["de"] != asked["en"] != asked["it"]


def test_the_core_marks_what_players_read_by_a_template_parameter_not_by_a_list_of_names():
    """A new refusal helper or error class is collected because it takes a ``Template``;
    the catalogue keeps no list of the core's private names."""
    source = ast.parse('''
Template = str
class Refusal(ValueError):
    def __init__(self, template: Template, **values): ...
class Worse(Refusal): ...
def _helper(state, template: Template, other: str): ...
def _plain(text: str): ...
Worse("words of a subclass")
_helper(1, "one branch" if state else "the other branch", "not for players")
_helper(1, other="not for players either", template="by keyword")
_plain("never shown")
''')
    found = [text for text, _context in _core_templates(source, _template_slots([source]))]
    assert sorted(found) == sorted(["words of a subclass", "one branch", "the other branch",
                                    "by keyword"])
    assert not hasattr(catalogues, "ENGINE_HELPERS")


@pytest.mark.parametrize("language, words", [
    ("en", ["Jump gate: =1st place with 1 probe:", "1 station: 3 points.",
            "1 tile held; 1 more reserved.", "1 card in hand.", "1 chip left."]),
    ("de", ["=1. Platz mit 1 Sonde:", "1 Raumstation:", "1 Karte auf"]),
    ("it", ["=1", "1 sonda", "1 stazione"]),
])
def test_a_player_s_sheet_counts_one_in_the_singular_and_a_shared_place_as_shared(language,
                                                                                 words):
    """"1st place with 1 probes", "mit 1 Sonden", and "1st" for a place the token shows as
    "=1st" were read on the screen."""
    from companion.scoring import PlayerStanding, Standings
    from ui.words import player_sheet
    one = dict(at=None, probes=1, gate_place=1, gate_tied=True, stations=1, hand=1, tiles=1,
               reserved=1, chips_left=1)
    board = Standings(players=(PlayerStanding("Ann", "red", **one),
                               PlayerStanding("Bea", "blue", **one)),
                      planets=(), current="Ann", action=1, turn=1, round=1, draw_pile=20,
                      discard_pile=0, revealed_space=0, threshold=6, final_round=False,
                      ended=False)
    i18n.set_language(language)
    sheet = " ".join(player_sheet(board, "Ann"))
    assert all(word in sheet for word in words), sheet
    assert i18n.missing == set()
