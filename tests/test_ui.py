"""The real app under an offscreen window, driven by touches (tests/ui_driver.py runs one
scenario per process: Kivy keeps one window per process). Screenshots of every screen and state,
at 800x480 in each language, at 1280x800 in English and German and at 1920x1080 in English, are
written to test-artifacts/ui/; each is checked over its widget tree for overlapping or cut text
and for touch targets under 48 px."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import cv2
import numpy as np
import pytest

from companion.journal import write_journal
from companion.rules import Redo, Undo
from companion.scoring import score
from companion.simulate import simulate
from ui.screens import theme

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "ui"
#: Every screen in every language at the smallest touchscreen, 800x480, where German's long
#: words are tightest; at the larger one, 1280x800 (the same layout 1.6 times as large, a
#: little taller), and at a monitor's size, in one language.
SIZES = [("800x480", "en,de,it"), ("1280x800", "en"), ("1920x1080", "en")]


def drive(scenario: str, size: str, home: Path, **env: str) -> dict:
    # the run's own result file (outside its home, which may be read-only): two tests driving
    # one scenario side by side share ARTIFACTS and would read each other's result there
    descriptor, name = tempfile.mkstemp(prefix=f"result-{scenario}-", suffix=".json")
    os.close(descriptor)
    result_file = Path(name)
    environment = dict(os.environ, SDL_VIDEODRIVER="offscreen", UI_RESULT=name, UI_DRAW="shots",
                       **env)
    environment.pop("KIVY_HOME", None)  # each run gets its own, inside its home
    try:
        run = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_driver.py"), scenario,
                              size, str(home), str(ARTIFACTS)], env=environment,
                             capture_output=True, text=True, timeout=900)
        text = result_file.read_text()
    finally:
        result_file.unlink()
    assert text, run.stderr[-3000:]
    result = json.loads(text)
    assert "error" not in result, result.get("traceback", result["error"])
    return result


def contrast(first: list[float], second: list[float]) -> float:
    """The WCAG contrast ratio of two RGB(A) colours (0-1): 1 to 21."""
    def luminance(colour: list[float]) -> float:
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
                  for c in colour[:3]]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def problems_of(result: dict) -> dict:
    return {state: found for state, found in result.get("problems", {}).items() if found}


@pytest.mark.parametrize(("size", "languages"), SIZES)
def test_every_screen_and_state_is_whole_and_touchable(tmp_path, size, languages):
    result = drive("screens", size, tmp_path, UI_LANG=languages)
    # five players, two with long names: every text 14 px or more at 800x480, none spilling
    assert "Jean-Christophe" in result["names"]
    assert problems_of(result) == {}
    assert result["missing"] == [], "strings without a translation"
    assert result["qr_enlarged"], "a tap on the BG Stats code shows it large"
    shots = set(result["shots"])
    for state in ("home", "settings", "setup-players", "setup-ring", "play-start",
                  "play-refused", "play-camera-moved", "play-mid", "play-jump", "play-top-up",
                  "play-tile-dialog",
                  "play-proposal", "play-proposal-turn-over", "play-proposal-undo",
                  "play-proposals",
                  "play-camera-gate", "play-end-guard",
                  "play-planet",
                  "play-player", "play-legend", "end-tiles", "end-results", "end-qr", "history",
                  "box", "calibration"):
        assert state in shots
        for language in languages.split(","):
            assert (ARTIFACTS / f"{state}-{language}-{size}.png").exists(), (state, language)
    # the shipped box's example coordinates are said at set-up, with the way to Box set-up
    assert all(text and offered for text, offered in result["ring_examples"].values())
    assert "example coordinates" in result["ring_examples"].get("en", ["example coordinates"])[0]
    # touch only (no camera): nothing to calibrate or teach, the screen says how to get one
    assert sorted(result["no_camera"]) == sorted(languages.split(","))
    assert all(offered == {"calibrate": False, "teach": False}
               for offered in result["no_camera"].values())
    assert all(says in shown for shown, says in result["no_camera_says"].values())
    assert all(shown.startswith(touch_only)
               for shown, touch_only in result["first_hint"].values())
    for language in languages.split(","):
        # what the camera's state is (a camera knocked aside too) is said on the play
        # screen's status line, whole (the layout check)
        assert all(shown for _, shown in result["camera_words_shown"][language]), \
            result["camera_words_shown"][language]
        # an undo the table shows names the move it takes back, in the players' language
        question, planet = result["undo_question"][language]
        assert planet in question and question.endswith("?"), (language, question)
        assert question.startswith("Undo: ") == (language == "en"), (language, question)
        # a camera proposal's question is the card's largest text (it was squeezed to 13 px)
        assert result["question_font"][language] >= 15, language
        # Next looks unavailable until two players are seated
        assert result["next_available"][language] == [False, True], language
        # "no probes yet" wraps inside the jump gate's inner ring, not across its lines
        note, ring = result["gate_note"][language]
        assert 0 < note <= ring, (language, note, ring)
        # the log's lower edge fades while more lies below it (a line cut there is no text
        # cut in half), and not at the start, when the log is one line
        start, mid = result["log_fade"][language]
        assert start == 0 and mid > 0, (language, start, mid)
        if size == "800x480":  # the seventh planet lies below: the list's edge says so
            assert result["box_fade"][language] > 0, language
        # the statistics show every name and header whole
        assert result["stat_cells_cut"][language] == [], language
        # each column's values stand under its header: names at the left, figures centred
        assert result["stat_aligns"][language] == [["left"]] + [["center"]] * 5, language
        # a kept game's row says who won first (the scores after it may end in "…")
        summary, winner = result["game_summary"][language]
        assert summary.startswith(winner), (language, summary)
        # a win rate as the language writes it, never broken before its sign
        rates = result["win_rates"][language]
        assert rates and all(rate.endswith("\u00a0%" if language == "de" else "%") and
                             rate[0].isdigit() for rate in rates), (language, rates)
        # the space tile's icon has a cardboard rim, seen on the dark score sheet
        picture = cv2.imread(str(ARTIFACTS / f"end-results-{language}-{size}.png"))
        left, bottom, right, top = result["space_icon"][language]
        side = min(right - left, top - bottom)  # the tile is a square in the icon's middle
        row = picture.shape[0] - round((bottom + top) / 2)
        rim = picture[row, round((left + right) / 2 - 0.45 * side)]
        assert rim.mean() > 150, (language, rim)
        # the sheet's columns are headed by their pictures (no "Stationen" fits a column at a
        # readable size); the legend under the chart shows each picture with its name
        *heads, (player,) = result["sheet_heads"][language]
        assert [category for category, _icons, _text in heads] == [
            "", "jump_gate", "station_points", "minerals", "aliens", "matter", "water",
            "medals", "space", "total"]
        assert all(icons == 1 and text == "" for _category, icons, text in heads[1:-1])
        assert heads[0][1:] == [0, player] and heads[-1][1] == 0 and heads[-1][2]
        assert result["legend_icons"][language] == [1] * 8
        # several jumps proposed at once (a joker): the question says jump, each choice is a
        # planet's name on one line (three "Jump to Planet 12?" wrapped onto two)
        choices = result["choices"][language]
        assert choices[-1][0] == "×" and len(choices) >= 3
        assert all(lines == 1 and not text.endswith("?") for text, lines in choices[:-1])
        asked, jump_question = result["choices_question"][language]
        # the camera's count of the jump gate beside the record's: a green camera by the
        # title when it counts the same, amber with its count on each row it differs on
        assert result["gate_same"][language][0] == "same"
        differs = result["gate_differs"][language]
        assert differs["camera"] == "differs"
        assert differs["shown"] == sorted(differs["expected"]), language
        # the proposed jumps' planets are outlined on the board, one or several
        (one, proposed), (several, all_proposed) = result["proposed_targets"][language]
        assert one == proposed and several == all_proposed and len(several) >= 2
        assert asked == jump_question
        # the planet picker: one look for all; one already in the ring says where ("2. Hazard")
        picker = result["picker"][language]
        assert {role for _text, role in picker} == {"plain"}
        assert sum(text[0].isdigit() for text, _role in picker) == 8
        # whose turn it is: a thick frame in the player's own colour (a white frame marks a
        # target), seen on the token's left edge
        colour, (left, bottom, right, top) = result["current_token"][language]
        picture = cv2.imread(str(ARTIFACTS / f"play-mid-{language}-{size}.png"))
        scale = picture.shape[1] / 800
        edge = picture[picture.shape[0] - round((bottom + top) / 2),
                       round(left + 2.5 * scale)][::-1] / 255
        assert np.abs(edge - np.array(theme.PLAYER_FRAME[colour][:3])).max() < 0.12, \
            (language, colour, edge)


def test_every_shown_string_went_through_a_catalogue(tmp_path):
    """In the pseudo language every translated string is marked ‹…›: what shows without the
    marks (names and figures aside) was never translatable."""
    result = drive("screens", "800x480", tmp_path, UI_LANG="pseudo")
    found = {state: [p for p in problems if "not translated" in p]
             for state, problems in result["problems"].items()}
    assert {s: p for s, p in found.items() if p} == {}


def test_only_legal_actions_are_offered_a_tap_on_another_says_why_and_undo_redo_say_what(
        tmp_path):
    result = drive("legal", "800x480", tmp_path)
    assert result["unavailable_at_start"] == ["develop", "discover", "fly", "scan"]
    assert "scanning happens on the planet where the ship is" in result["scan_refused"]
    assert len(result["jump_targets"]) == 8
    assert len(result["fly_targets"]) == 2  # the two ring neighbours only
    assert result["undo_said"].startswith("Undone: Ann jumped to ")
    assert result["after_undo"] == {"at": None, "probes": 0, "action": 1}  # the jump undone
    assert result["redo_said"].startswith("Redone: Ann jumped to ")
    assert result["after_redo_at"] == 2  # and redone: back on the third planet


def without_cards(event: dict) -> dict:
    """What touch entry records: everything but card codes (touch does not name cards)."""
    return {k: v for k, v in event.items() if k not in ("card", "cards")}


def script(players: int, seed: int, only_space: str, mistakes: float):  # type: ignore[no-untyped-def]
    import random

    from companion.simulate import Simulation
    from tests.staging import only_space_at
    order = only_space_at([int(v) for v in only_space.split(",")], random.Random(seed))
    return Simulation(seed, players, hide_rate=0.4, tile_order=order,
                      space_mistake_rate=mistakes).run()


@pytest.mark.parametrize("players, seed, only_space, mistakes", [
    # the special case, a space tile taken, a reveal, develop, discover, undo and redo
    (2, 291, "7", 0.3),
    # five players; two stacks of only space tiles make it a short game
    (5, 81, "2,6", 0.02),
])
def test_a_whole_game_entered_by_taps_gives_the_engines_record_scores_and_bg_stats_code(
        tmp_path, players, seed, only_space, mistakes):
    game = script(players, seed, only_space, mistakes)
    result = drive("touch_game", "800x480", tmp_path, UI_PLAYERS=str(players),
                   UI_SEED=str(seed), UI_ONLY_SPACE=only_space, UI_SPACE_MISTAKES=str(mistakes))
    assert "refused" not in result, result.get("refused")
    assert result["setup_seen"] == ["Ann", "Ben", "Cleo", "Dev", "Eve"][:players]
    expected = [without_cards(e.to_json()) for e in game.events if e.type != "tiles"]
    entered = [e for e in result["journal"] if e["type"] != "tiles"]
    assert entered == expected
    types = Counter(e["type"] for e in entered)
    assert types["undo"] > 0 and types["redo"] > 0  # undo and redo were tapped too
    assert any(e.get("only_space") for e in entered)  # through the special case's guard
    if mistakes > 0.1:
        assert any(e.get("tile") == "SPC" for e in entered)  # through the space tile's guard
    assert result["screen_at_end"] == "end" and result["home_offers_tiles"] == 1
    assert result["score"] == score(game.game.state).to_json()  # every tile entered right
    # the BG Stats push link: the QR code on the screen reads back as the link, and the
    # link's data is the play, every score known
    link = result["bg_stats_link"]
    assert result["qr_text"] == link
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    play = json.loads(parse_qs(urlsplit(link).query)["data"][0])
    assert play == result["bg_stats_play"]
    assert play["game"]["bggId"] == 105199 and isinstance(play["game"]["bggId"], int)
    totals = {p["name"]: p["score"] for p in play["players"]}
    assert totals == {p["name"]: p["total"] for p in result["score"]["players"]}
    assert all(isinstance(p[k], bool) for p in play["players"]
               for k in ("winner", "startPlayer"))


def test_a_restarted_app_resumes_at_the_same_turn_and_action_with_its_redo(tmp_path):
    first = drive("resume", "800x480", tmp_path, UI_PLAY="1")
    assert first["resumed"] is None and first["played"]["redo"] is True
    again = drive("resume", "800x480", tmp_path)
    assert again["resumed_screen"] == "play"
    assert again["resumed"] == first["played"]


def test_the_demo_plays_through_camera_and_tracker_and_a_touch_hands_over(tmp_path):
    result = drive("demo", "800x480", tmp_path, UI_DEMO_SECONDS="90")
    assert result["camera_frames"] > 20 and result["demo_hint_shown"]
    assert result["events"] > 0 and result["demo_counts"].get("camera", 0) > 0
    # how to take over is said all along the demo, large, across the screen
    text, shown, font = result["take_over_said"]
    assert text == "Demo: touch anywhere to take over the table"
    assert shown == 1 and font >= 18
    # the take-over touch does only that, and the take-over is confirmed in the strong status;
    # Undo and Redo are back in the banner's place
    assert result["touch_opened"] is None  # not the legend under the finger
    said, strong, banner_shown, undo_shown = result["taken_over_said"]
    assert said.startswith("Demo paused: the table is yours") and strong
    assert banner_shown == 0 and undo_shown == 1
    assert result["running_after_touch"] is False  # paused: the table is the player's
    assert result["undo_after_touch"] == 1  # and play goes on by touch, no crash
    assert result["looks_on_a_still_frame"] == 0  # ten ticks, no new frame: nothing to track
    assert "/demo/" in result["calibration_path"]
    # a game of their own: the demo's make-believe camera is gone, and proposes nothing
    assert result["own_game"] == {"screen": "play", "camera": False, "watching": False,
                                  "proposals": 0, "players": ["Ann", "Ben"]}
    assert (ARTIFACTS / "demo-en-800x480.png").exists()


@pytest.mark.parametrize(("language", "layout", "name"),
                         [("en", "qwerty", "zoe"), ("de", "de", "jürgen")])
def test_on_the_kiosk_a_name_is_typed_on_the_docked_keyboard_of_the_language(
        tmp_path, language, layout, name):
    result = drive("keyboard", "800x480", tmp_path, COMPANION_KIOSK="1", UI_LANG=language)
    assert result["keyboard"] is True  # no keyboard attached: Kivy's own, docked
    assert result["layout"] == layout
    assert result["typed"] == name and result["seated"] == [name]
    assert problems_of(result) == {}  # the name field stays above the keyboard


@pytest.mark.parametrize(("language", "banner", "gauge"), [
    ("en", "Final round: the last turn · action 2 of 2",
     "12 space tiles face up: the game ends after this round"),
    ("de", "Letzte Runde: der letzte Zug · Aktion 2 von 2",
     "12 Space-Plättchen offen: Spielende nach dieser Runde")])
def test_the_final_round_is_a_banner_and_the_gauge_says_the_end_is_reached(
        tmp_path, language, banner, gauge):
    """A game past its threshold (12 space tiles up, 10 end it), the last player's turn."""
    result = drive("final_round", "800x480", tmp_path, UI_LANG=language)
    assert result["final"] == {"banner": banner, "gauge": gauge}
    words, fill = result["gauge_colours"]
    assert contrast(words, fill) >= 4.5  # the gauge's words read on its whole fill
    assert result["final_gauge"] > 0.3  # the fill is drawn (the check sees it)
    assert result["new_gauge"] == [0.0, 0.0]  # a new game's gauge: no fill left over
    # each token shows the points already public, as the score sheet counts them
    unit = {"en": "pts", "de": "P."}[language]
    assert result["points"] == {name: f"{points} {unit}"
                                for name, points in result["public_points"].items()}
    assert problems_of(result) == {}


def test_the_language_changes_where_the_user_is_and_in_two_taps_during_play(tmp_path):
    result = drive("language", "800x480", tmp_path)
    assert result["after_settings"] == ["settings", "it"]  # not the last game's score sheet
    assert result["after_menu"] == ["play", "de", True]  # ☰, Deutsch: play goes on
    # Settings opened from play goes back to play, the language changed there or not
    assert result["back"] == ["play", "it"]
    assert result["box_back"] == "setup"  # box set-up goes back to the game's set-up
    assert result["end_menu"] == ["end", "MenuDialog"]
    assert problems_of(result) == {}


def test_tiles_entered_are_corrected_kept_when_unsaved_and_undone_only_when_confirmed(
        tmp_path):
    result = drive("tile_entry", "800x480", tmp_path)
    assert result["save_unchanged"] is True  # a player entered: nothing to save as it is
    assert result["corrected"] == [True, True, "done"]  # entering again replaces the entry
    assert result["left_unsaved"] == "Ben's counts are not saved yet; they wait on the " \
        "score sheet."
    assert result["draft_kept"] == 1
    assert result["undo_asks"].startswith("This takes back: Ann's tiles entered")
    assert result["kept"] is True  # "Keep it" takes nothing back
    assert result["undone_redo"] is True and result["redone"] is True
    assert problems_of(result) == {}


def test_a_regular_seated_stays_in_place_and_a_name_in_another_case_is_the_same_person(
        tmp_path):
    result = drive("regulars", "800x480", tmp_path)
    before, after = result["before"], result["after"]
    assert set(before) == {"Anna", "Bruno", "Carla"}
    assert {name: place[:2] for name, place in after.items()} == \
        {name: place[:2] for name, place in before.items()}  # nothing moved under a finger
    assert after["Anna"][2] is True and after["Bruno"][2] is False
    assert result["message"] == "Anna is already at the table."
    assert result["seated"] == [["Anna", "red"], ["Bruno", "blue"]]


def test_on_the_kiosk_with_a_keyboard_plugged_in_no_keyboard_covers_the_screen(tmp_path):
    from tests.test_kiosk import PI_INPUTS, USB_KEYBOARD
    devices = tmp_path / "devices"
    devices.write_text(PI_INPUTS + USB_KEYBOARD)
    result = drive("keyboard", "800x480", tmp_path / "home", COMPANION_KIOSK="1",
                   UI_INPUT_DEVICES=str(devices))
    assert result["keyboard"] is False


@pytest.mark.xdist_group("taught boards")
def test_box_set_up_reads_a_board_in_the_tray_with_the_taught_print(tmp_path):
    """A print taught (from the demo print's boards), a board in the tray: Read fills the
    first planet's four numbers and asks to check them; Save keeps them, no longer examples."""
    from tests.test_boards import taught_badges
    from vision.config import Calibration, save_calibration
    save_calibration(Calibration(boards=taught_badges().board), tmp_path / "calibration.json")
    result = drive("box_read", "800x480", tmp_path, UI_BOARD="3,1,4,2")
    assert problems_of(result) == {}
    assert result["before"] != [3, 1, 4, 2]
    assert result["read_message"].startswith("Read Freezer: check it")
    assert result["after"] == [3, 1, 4, 2]
    assert result["example_after_read"] is False  # the row says "checked" before Save too
    assert result["example_after_save"] is False


@pytest.mark.parametrize("size", ["800x480", "1280x800"])
def test_a_planet_board_is_photographed_with_four_taps_for_the_boards_print(tmp_path, size):
    """From box set-up: four taps on a board in the tray (jump, scan, landing, landing), its
    numbers set, Keep: the photo is kept named by them, with its taps in that order. Teach now
    refuses a print that has not seen every number, and box set-up's Read says to teach."""
    result = drive("teach_boards", size, tmp_path)
    assert problems_of(result) == {}
    assert result["first_instruction"].startswith("Lay one planet board alone in the scan tray")
    assert result["keep_before_numbers"]  # four taps make a photo to keep
    assert result["numbers"] == [2, 2, 1, 4]
    assert result["album"] == ["2-2-1-4.png", "taps.json"]
    taps = result["taps"]["2-2-1-4.png"]
    assert len(taps) == 4 and taps[0] != taps[1]
    assert result["progress"] == "Boards photographed: 1. No board shows a 3 yet."
    assert result["kept_message"].startswith("Kept the board 2-2-1-4.")
    assert "no taught board shows these numbers: 3" in result["taught_message"]
    assert result["boards_taught"] is False
    assert "Teach the boards" in result["read_message"]


@pytest.mark.parametrize("size", ["800x480", "1280x800"])
def test_the_deck_is_taught_on_the_touchscreen_from_the_scan_tray(tmp_path, size):
    """Two taps on a card's coordinates in the tray (the bottom one first), their buttons,
    Keep: the photo and its taps are kept in the top-first order; Teach now teaches and saves,
    and the calibration screen says what is still missing."""
    result = drive("teach", size, tmp_path)
    assert problems_of(result) == {}
    # the screen opens on what to do first, the jokers' buttons explained
    assert result["first_instruction"].startswith("Lay one card in the scan tray.")
    assert "the joker of its colour" in result["first_instruction"]
    assert result["card_ready"] and result["album"] == ["B3-O1.png", "taps.json"]
    assert not result["ready_after_keep"]  # Keep waits for the next card's taps
    top, bottom = result["taps"]["B3-O1.png"]
    assert top[1] < bottom[1]  # the top coordinate's tap first, whatever the order tapped
    assert result["progress"].startswith("1 of 60 codes photographed")
    assert result["teach_available"] == [False, True]  # Teach now, before and after a photo
    assert result["taught_message"].startswith("Saved. Codes taught: 1.")
    # the codes still missing are named once, on the progress line, and counted here
    assert "59 codes are not taught yet" in result["taught_message"]
    assert "B1/G1" not in result["taught_message"]
    assert result["codes_taught"] == ["B3/O1"]
    assert "Not taught yet: B1/G1" in result["deck_words"]
    assert result["deck_words"].startswith("The reader knows 1 code of the deck.")
    # back on the teach screen, what the reader knows apart from this album's count
    assert result["progress_taught"].startswith(
        "The reader knows 1 code now. To teach the deck again, photograph each code: 1 of 60 "
        "so far.")
    saved = json.loads((tmp_path / "calibration.json").read_text())
    assert saved["cards"]["codes"] == ["B3/O1"]


@pytest.mark.parametrize("size", ["800x480", "1280x800"])
def test_a_first_boot_with_a_camera_opens_on_calibration_with_its_guidance(tmp_path, size):
    """No calibration yet: not an empty table but the steps; with a stick in, the sheets to
    print go onto it; Calibrate now saves; the way back leads to the games."""
    result = drive("first_boot", size, tmp_path)
    assert problems_of(result) == {}
    assert result["start_screen"] == "calibration" and result["welcome"] is True
    assert result["back_text"] == "Later: go to the games"
    # where the marker sheet comes from: a stick to plug in, then the button that fills it
    assert "(plug in a USB stick to get it)" in result["steps"][0]
    assert "(tap Marker sheet to the USB stick)" in result["steps"][1]
    assert result["back_text_after"] == "Done: go to the games"
    assert result["sheets"] == ["markers.pdf", "stickers.pdf"]
    for sheet in result["sheets"]:
        assert (tmp_path / "usb-stick" / "space-mission-records" / sheet).read_bytes()[:5] \
            == b"%PDF-"
    assert result["calibrated"] and result["advice"].startswith("Calibrated and saved.")
    assert result["after"] == "home" and result["welcome_after"] is False


def test_a_plugged_in_stick_is_offered_and_takes_a_copy_of_every_record(tmp_path):
    result = drive("usb_backup", "800x480", tmp_path)
    assert problems_of(result) == {}
    assert result["offered_without_stick"] is False and result["offered"] is True
    assert result["kind"] == "done" and "1 game copied to the stick" in result["message"]
    assert "space-mission-records" in result["message"]
    journal = result["journals"][0]
    copied = [Path(name) for name in result["copied"]]
    assert sorted(p.name for p in copied) == sorted(
        [journal, journal.replace(".jsonl", ".bgstats.json")])
    original = (tmp_path / "games" / journal).read_bytes()
    assert (tmp_path / "usb-stick" / next(p for p in copied if p.suffix == ".jsonl")) \
        .read_bytes() == original


def test_a_copy_to_the_stick_with_a_game_without_scores_copies_what_it_can(tmp_path):
    result = drive("usb_backup", "800x480", tmp_path, UI_UNSCORED="1")
    assert problems_of(result) == {}
    assert result["kind"] == "done" and result["second_kind"] == "done"
    assert "2 games copied" in result["message"] and "no scores yet" in result["message"]
    names = sorted(Path(name).name for name in result["copied"])
    assert "20261101-200000.jsonl" in names and "20261101-200000.bgstats.json" not in names


def test_a_record_with_an_endless_name_resumes_and_shows_it_shortened(tmp_path):
    game = simulate(3, 2)
    first = game.setup.players[0]
    endless = "A" * 10_000
    seats = (replace(first, name=endless),) + game.setup.players[1:]
    setup = replace(game.setup, players=seats,
                    first=endless if game.setup.first == first.name else game.setup.first)
    (tmp_path / "games").mkdir()
    record = tmp_path / "games" / "20261124-100000.jsonl"
    write_journal(record, setup, game.events[:6])
    kept = record.read_bytes()
    result = drive("resume", "800x480", tmp_path)
    assert result["resumed_screen"] == "play"
    assert result["longest_word"] <= result["longest_word_allowed"] <= 100
    assert record.read_bytes() == kept  # the record keeps the name whole


def test_a_long_record_words_only_its_new_lines_on_a_tap(tmp_path):
    game = simulate(3, 2)
    (tmp_path / "games").mkdir()
    record = tmp_path / "games" / "20261124-100000.jsonl"
    events = list(game.events[:40]) + [Undo(), Redo()] * 10_000
    write_journal(record, game.setup, events)
    result = drive("long_game", "800x480", tmp_path)
    assert result["resumed_screen"] == "play" and result["lines"] == 20_040
    assert result["lines_after"] == 20_044 and result["log_top"].startswith("Redone: ")
    assert result["same_log"] and result["worded"] == 0  # an undo or redo words no action
    # the panel switches between cards made once: the log, a jump being entered, a top up
    assert result["panels_shown"] == ["log", "log", "entering", "log", "top_up", "log", "log"]
    assert result["same_cards"]


def test_a_read_only_home_starts_the_app_and_says_why_nothing_is_kept(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting needs root")
    home = tmp_path / "home"
    home.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(home)],
                      capture_output=True).returncode != 0:
        pytest.skip("tmpfs cannot be mounted here")
    try:
        subprocess.run(["mount", "-o", "remount,ro", str(home)], check=True)
        empty = drive("read_only_home", "800x480", home)
        assert empty["screen"] == "home" and empty["kind"] == "refused"
        assert "No game can be saved: the disk is read-only." in empty["message"]
        assert empty["library_problem"] and str(home) not in empty["message"]  # no path
        assert empty["new_game_available"] is False
        assert empty["new_game_said"] == "No game can be saved: the disk is read-only."
        assert empty["after_new_game"] == "home"

        subprocess.run(["mount", "-o", "remount,rw", str(home)], check=True)
        (home / "games").mkdir()
        game = simulate(3, 2)
        write_journal(home / "games" / "20261124-100000.jsonl", game.setup, game.events[:6])
        subprocess.run(["mount", "-o", "remount,ro", str(home)], check=True)
        holding = drive("read_only_home", "800x480", home)
        assert holding["screen"] == "home" and holding["kind"] == "refused"
        assert "cannot be played on: the disk is read-only" in holding["message"]
        assert holding["message"].endswith("No new game can be saved either.")
        assert holding["resume_available"] is False  # it looks so; a tap says why
    finally:
        subprocess.run(["umount", "-l", str(home)], capture_output=True)


def test_the_photos_of_the_deck_can_be_seen_and_a_broken_one_removed(tmp_path):
    album = tmp_path / "deck-photos"
    album.mkdir()
    cv2.imwrite(str(album / "B3-O1.png"), np.full((120, 90, 3), 200, np.uint8))
    (album / "B3-O1.2.png").write_bytes(b"")  # a power cut while it was written
    result = drive("teach_photos", "800x480", tmp_path)
    assert result["rows"] == ["B3/O1, photo 1", "B3/O1, photo 2: cannot be read"]
    assert result["rows_after"] == ["B3/O1, photo 1"]
    assert result["album"] == ["B3-O1.png"]
    assert "Removed B3/O1, photo 2" in result["message"]
    assert problems_of(result) == {}


def test_a_hostile_calibration_is_refused_on_screen_and_the_watchdog_fed_all_along(tmp_path):
    tmp_path.joinpath("calibration.json").write_text(json.dumps(
        {"version": 1, "layout": {"width": 1e308, "height": 675, "markers": [], "zones": {}},
         "table": {"image_to_table": [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
                   "image_size": [1280, 720]}}))
    result = drive("hostile_calibration", "800x480", tmp_path, UI_SOAK_SECONDS="6")
    assert "layout part is unusable" in result["calibration_problem"]
    assert "cannot be used" in result["advice"] and "calibrate again" in result["advice"]
    assert "1e+308" not in result["advice"]  # the file's fault is the log's, in its words
    assert result["camera_alive"] and result["frames"] > 20
    assert "fault" in result["statuses"]  # vision failed on its frames, and went on
    assert any("picture unreadable" in words for words in result["camera_words"])
    # the app's clock pings ten times a second; systemd gives up after 30 s without one
    assert result["pings"] >= result["seconds"]
    assert problems_of(result) == {}


@pytest.mark.parametrize("size", ["800x480", "1280x800"])
def test_with_a_camera_set_up_ends_on_the_table_where_one_tap_names_the_ring(tmp_path, size):
    """Game set-up with a camera over the table as laid out has a third step: a tap on a bare
    spot is refused saying what to do; a tap on the first planet names all eight on the
    picture, each name on its own board; Start game follows that ring, kept in the
    calibration. The next game set up without the tap forgets it (its planets are not that
    game's)."""
    result = drive("ring_setup", size, tmp_path)
    assert problems_of(result) == {}
    assert result["headings"] == ["players: New game: who plays? (1 of 3)",
                                  "table: New game: the table as laid out (3 of 3)"]
    assert result["go_texts"] == ["Next", "Skip and start", "Start game"]
    assert "tap the first planet, Green Heggar, on the picture" in result["table_steps"]
    assert result["before_tap"].startswith("Skipped, the ships and probes")
    assert result["bare_kind"] == "refused"
    assert result["bare_found"].startswith("The eight planets and the jump gate were not found")
    assert result["looking_said"] == "Looking for the ring…"
    assert result["found_kind"] == "done"
    assert result["found"].startswith("Found: the jump gate and the eight planets, named "
                                      "clockwise from Green Heggar.")
    planets = ["Green Heggar", "Hazard", "Planet 12", "Caldera", "Planet 6", "Planet 9",
               "Freezer", "Planet 11"]
    assert result["names_shown"] == ["Jump gate"] + [f"{k + 1}. {name}"
                                                     for k, name in enumerate(planets)]
    assert result["names_on_boards"] == result["names_shown"][1:]
    assert result["table_steps_found"].startswith("The ring is found.")
    assert result["shown_share"] < 0.8  # the ring alone, larger than the whole table
    assert result["after"] == "play"
    assert result["followed"] == planets and result["saved"] == planets
    assert result["colours"] == ["black", "green", "red", "yellow"]
    assert result["second_found"].startswith("Skipped, the ships and probes")
    assert result["second_after"] == "play" and result["second_ring"] is False
