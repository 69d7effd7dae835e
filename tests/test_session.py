"""Session, library and records: resume, finished games, exports, and the demo end to end."""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from companion.library import Library, bg_stats_play, default_home
from companion.observations import Observation
from companion.observations import CardSeen
from companion.rules import End, Fly, Game, Jump, Redo, Scan, TopUp, Undo, parse_event
from companion.scoring import score
from companion.simulate import simulate
from synthetic.pieces import ring_shoot
from tests.conftest import setup_json
from ui.camera import TableEyes
from ui.demo import DemoMove, DemoTable, play_demo
from ui.preferences import Regular, load_preferences
from companion.tracker import Proposal
from ui.session import Session, same_action


def started(tmp_path, **options) -> Session:
    session = Session(Library(tmp_path), **options)
    session.start(parse_event(setup_json(2)))
    return session


def test_a_refused_action_keeps_the_game_and_says_why(tmp_path):
    session = started(tmp_path)
    refused = session.play(Fly("Freezer"))
    assert not refused and refused.kind == "refused"
    assert "first move must be a jump" in refused.message
    assert "first move must be a jump" in refused.said  # the players' words, English here
    assert session.state.action == 1


def test_undo_and_redo_step_back_and_forth_and_a_new_action_clears_redo(tmp_path):
    session = started(tmp_path)
    session.play(Jump("Freezer"))
    session.play(Fly("Green Heggar"))
    assert session.undo() and session.undo()
    assert session.state.players[0].at is None
    assert session.redo() and session.state.players[0].at == 0
    assert session.can_redo
    session.play(TopUp())
    assert not session.can_redo and not session.redo()


def test_an_undo_or_redo_the_camera_proposed_is_played_only_while_it_names_the_latest(
        tmp_path):
    """The camera proposes to take back the flight; a tap on Undo takes it back first: the
    proposal, confirmed then, would take back the jump before it. It is refused instead."""
    session = started(tmp_path)
    session.play(Jump("Freezer"))
    session.play(Fly("Green Heggar"))
    before, flight = session.game.played[-1]
    take_back = Proposal(Undo(), tap_only=True, undone_or_redone=(before, flight))
    again = Proposal(Redo(), tap_only=True, undone_or_redone=(before, flight))
    assert not session.confirm(again)  # nothing undone yet: no redo of it
    assert session.undo()
    stale = session.confirm(take_back)
    assert not stale and "nothing was done" in stale.said
    assert session.state.players[0].at == before.setup.planet_index("Freezer")  # jump kept
    assert session.confirm(again) and session.state.players[0].at == before.setup.planet_index(
        "Green Heggar")
    assert session.confirm(take_back) and session.state.players[0].at == before.setup.planet_index(
        "Freezer")


def test_the_newest_unfinished_game_is_resumed_and_finished_ones_are_listed(tmp_path):
    session = started(tmp_path)
    session.play(Jump("Freezer"))
    session.play(End())
    finished = session.journal.path
    session.start(parse_event(setup_json(3)))
    session.play(Jump("Caldera"))
    unfinished = session.journal.path
    session.close()
    again = Session(Library(tmp_path))
    assert again.resume() and again.journal.path == unfinished
    assert again.state.players[0].at == 4 and again.state.action == 2
    records = Library(tmp_path).records()
    assert [r.path for r in records if r.ended] == [finished]


def test_a_whole_game_is_played_by_taps_on_the_controller_alone(tmp_path):
    """No Kivy: each tap is one of the controller's actions. Cards the camera would read are
    confirmed from its proposal; a mistaken action is undone and redone on the way."""
    game = simulate(11, 3)
    session = Session(Library(tmp_path))
    assert session.start(game.setup).said == f"New game: {game.setup.first} begins."
    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    confirmed = 0
    for event in game.events:
        card = getattr(event, "card", None)
        if isinstance(event, Undo):
            outcome = session.undo()
        elif isinstance(event, Redo):
            outcome = session.redo()
        elif isinstance(event, End):
            outcome = session.end()
        elif isinstance(event, Jump | Scan) and card is not None:
            session.look_and_auto_confirm(Observation())  # the pile cleared between cards
            view, _ = session.look_and_auto_confirm(
                Observation(cards=(CardSeen(card.code, 0.9, "discard", corners),)))
            matching = [p for p in view.proposals if same_action(p.event, event)]
            if matching:
                outcome = session.confirm(matching[0])
                confirmed += 1
            else:  # the card reaches more than one place: the players tap where
                outcome = session.play(event)
        else:
            outcome = session.play(event)
        assert outcome.done and outcome.kind == "done", (event, outcome.message)
        assert outcome.said  # the record's sentence for what was done
    assert confirmed >= 10
    assert session.state.ended
    assert score(session.state).to_json() == score(game.game.state).to_json()
    exported = session.export()
    assert exported and "bgstats" in exported.said
    assert not session.redo() and session.redo().said == "There is nothing to redo."


def test_a_finished_game_exports_as_its_journal_and_a_bg_stats_play(tmp_path):
    library = Library(tmp_path)
    game = simulate(5, 3)
    session = Session(library)
    session.start(game.setup)
    for event in game.events:
        session.play(event) if event.type != "undo" else session.undo()
    record = next(r for r in library.records() if r.ended)
    journal, play = library.export(record)
    assert journal.read_bytes() == record.path.read_bytes()
    data = json.loads(play.read_text())
    sheet = score(game.game.state)
    assert data["game"]["bggId"] == 105199 and data["game"]["highestWins"] is True
    assert data["game"]["noPoints"] is False and data["board"] == game.setup.variant
    assert [p["rank"] for p in data["players"] if p["winner"]] == [1] * len(sheet.winners)
    assert [p["score"] for p in data["players"]] == [p.total for p in sheet.players]
    assert [p["name"] for p in data["players"] if p["winner"]] == list(sheet.winners)
    assert [p["name"] for p in data["players"] if p["startPlayer"]] == [game.setup.first]
    assert data == bg_stats_play(record)


def test_an_export_to_a_full_or_read_only_disk_says_so_and_leaves_no_half_file(
        tmp_path, monkeypatch):
    import errno
    import os

    from companion.library import ExportError
    library = Library(tmp_path)
    game = simulate(5, 2)
    session = Session(library)
    session.start(game.setup)
    for event in game.events:
        session.play(event)
    record = next(r for r in library.records() if r.ended)
    real_replace = os.replace

    def disk_full(*args):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "replace", disk_full)
    try:
        library.export(record)
    except ExportError as error:
        assert error.errno == errno.ENOSPC and "could not export" in str(error)
    else:
        raise AssertionError("the export did not fail")
    monkeypatch.setattr(os, "replace", real_replace)
    assert list(library.exports.iterdir()) == []  # no temporary file left behind


def test_statistics_count_games_wins_and_scores_and_skip_games_without_scores(tmp_path):
    from companion.library import statistics
    library = Library(tmp_path)
    for seed in (3, 4, 5):
        session = Session(library)
        session.start(simulate(seed, 2).setup)
        for event in simulate(seed, 2).events:
            session.play(event)
        session.close()
    rows = {row.name: row for row in statistics(library.records())}
    assert rows["Ann"].games == 3 and rows["Ben"].games == 3
    assert rows["Ann"].wins + rows["Ben"].wins >= 3  # a shared win counts for both
    totals = [r.totals["Ann"] for r in library.records()]
    assert rows["Ann"].best == max(totals) and rows["Ann"].average == sum(totals) / 3


def test_auto_confirm_takes_an_unambiguous_proposal_and_only_then(tmp_path):
    session = started(tmp_path, auto_confirm=True)
    session.play(Jump("Caldera"))
    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    view, played = session.look_and_auto_confirm(
        Observation(cards=(CardSeen("B3/G2", 0.9, "discard", corners),)))
    # Blue 3 reaches only Ruby Red from Caldera, and Green 2 scans Caldera: two proposals
    assert len(view.proposals) == 2 and session.state.action == 2 and not played
    session.look_and_auto_confirm(Observation())
    view, played = session.look_and_auto_confirm(
        Observation(cards=(CardSeen("G2/O1", 0.9, "discard", corners),)))
    assert view.proposals == () and session.state.stacks[4].left == 7  # scanned, by itself
    assert played and "scan" in played.said.lower()


def test_the_demo_plays_a_whole_game_through_the_pipeline_to_the_engines_scores(tmp_path):
    lengths = sorted((len(simulate(seed, 2).events), seed) for seed in range(30))
    seed = lengths[0][1]
    demo = DemoTable.simulated(seed, 2)
    session = Session(Library(tmp_path))
    session.start(demo.setup)
    play_demo(demo, session)
    expected = simulate(seed, 2).game.state
    assert score(session.state).to_json() == score(expected).to_json()
    assert session.state.ended
    counts = Counter(demo.counts)
    assert counts["camera"] >= 0.4 * len(demo.script)  # most card and tile events by camera
    assert counts["camera under a hand"] == 0


def demo_moves(demo: DemoTable, folder) -> list[DemoMove]:  # type: ignore[no-untyped-def]
    """The demo played through in a new session, and each move its player made."""
    session = Session(Library(folder))
    session.start(demo.setup)
    moves: list[DemoMove] = []
    moved = demo.moved

    def noted(move: DemoMove, ok: bool) -> None:
        moves.append(move)
        moved(move, ok)
    demo.moved = noted  # type: ignore[method-assign]
    play_demo(demo, session)
    return moves


def test_the_demo_table_goes_on_to_the_next_turn_and_the_camera_sees_the_top_up_in_it(
        tmp_path):
    """A jump, a top up that lays no card, and the next player's jump: the table shows the
    jump while the top up waits, and the camera proposes the top up from it."""
    game = simulate(98, 2)
    assert [e.type for e in game.events[:3]] == ["jump", "top_up", "jump"]
    demo = DemoTable(game.setup, list(game.events[:3]), 98)
    moves = demo_moves(demo, tmp_path)
    assert [(m.how, m.event) for m in moves] == [("camera", e) for e in game.events[:3]]
    second = game.setup.players[1 - game.setup.first_index].name
    assert moves[1].proposal is not None and moves[1].proposal.begun_by == second


def test_the_demo_table_goes_on_past_two_top_ups_that_lay_no_card(tmp_path):
    """A jump and a top up, then the next player tops up too before jumping: the table goes
    on to that jump while both top ups wait. The first is the camera's (the next player's
    turn shows begun); the second no camera can tell from a jump before it, and is touched."""
    game = simulate(98, 2)
    events = list(game.events[:2]) + [TopUp(0), game.events[2]]
    demo = DemoTable(game.setup, events, 98)
    moves = demo_moves(demo, tmp_path)
    assert [(m.how, m.event) for m in moves] == [
        ("camera", events[0]), ("camera", events[1]), ("touch", events[2]),
        ("camera", events[3])]


def test_the_demo_table_takes_a_jump_back_and_makes_it_again_and_the_camera_sees_both(
        tmp_path):
    """A jump, its undo (the table takes the ship back off the planet and the probe off the
    gate) and its redo: the camera proposes all three, each confirmed by the player's tap."""
    game = simulate(98, 2)
    events = [game.events[0], Undo(), Redo()]
    demo = DemoTable(game.setup, events, 98)
    moves = demo_moves(demo, tmp_path)
    assert [(m.how, m.event) for m in moves] == [("camera", e) for e in events]
    assert moves[1].proposal is not None and moves[1].proposal.tap_only
    assert moves[1].proposal.undone_or_redone == (Game(game.setup).state, events[0])


class _WorkedEyes(TableEyes):
    """The app's eyes, noting for each frame whether each view did heavy work (read a card
    area, or stepped the pieces' read) and whether the tray was left waiting with some."""

    def __init__(self, demo: DemoTable, frames: int) -> None:
        super().__init__(demo.calibration)
        self.demo, self.frames = demo, frames
        self.worked: list[tuple[bool, bool, bool]] = []

    def see(self, frame, tray_frame):
        did: list[bool] = []
        for view in (self.table, self.tray):
            process = view.process

            def noted(bgr, heavy=True, process=process):
                result = process(bgr, heavy)
                did.append(result.card_area_read or result.pieces_step)
                return result
            view.process = noted  # type: ignore[method-assign]
        try:
            seen = super().see(frame, tray_frame)
        finally:
            del self.table.process, self.tray.process
        self.worked.append((did[0], did[1], self.tray.heavy_waiting))
        if len(self.worked) >= self.frames:
            self.demo.pause()
        return seen


def test_the_table_and_tray_views_share_a_frames_work_and_neither_is_starved(tmp_path):
    """Heavy work of both views in one frame made the slowest frames: now one view does it
    in a frame, the table first; a tray left waiting reads in the frame after, and the
    table's pieces and pile are still read."""
    demo = DemoTable.simulated(3, 2)
    session = Session(Library(tmp_path))
    session.start(demo.setup)
    eyes = _WorkedEyes(demo, frames=160)
    play_demo(demo, session, eyes)
    worked = eyes.worked
    assert len(worked) == 160
    assert not any(table and tray for table, tray, _ in worked)
    for (table, _, waiting), (_, tray_next, _) in zip(worked, worked[1:]):
        if table and waiting:
            assert tray_next  # left to wait once, never twice in a row
    assert sum(table for table, _, _ in worked) >= 20
    assert sum(tray for _, tray, _ in worked) >= 5
    assert any(table and waiting for table, _, waiting in worked)  # the rule was put to use
    assert demo.counts["camera"] >= 3  # the game went on through the camera


def test_a_dangling_link_a_pipe_and_a_folder_among_the_games_are_listed_with_a_problem(tmp_path):
    library = Library(tmp_path)
    session = started(tmp_path)
    session.play(Jump("Freezer"))
    session.close()
    (library.games / "20260101-100000.jsonl").symlink_to(tmp_path / "gone.jsonl")
    (library.games / "link to nowhere.jsonl").symlink_to(tmp_path / "gone too.jsonl")
    os.mkfifo(library.games / "20260102-100000.jsonl")  # would hang a plain read for ever
    (library.games / "20260103-100000.jsonl").mkdir()
    records = library.records()
    assert len(records) == 5
    problems = {r.path.name: r.problem for r in records if r.problem is not None}
    assert set(problems) == {"20260101-100000.jsonl", "link to nowhere.jsonl",
                             "20260102-100000.jsonl", "20260103-100000.jsonl"}
    assert "not a regular file" in problems["20260102-100000.jsonl"]
    assert "folder" in problems["20260103-100000.jsonl"]
    again = Session(library)
    assert again.resume() and again.state.players[0].at == 0  # the good game resumes


def test_the_home_is_the_whole_path_given(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "x:y"))
    assert default_home() == tmp_path / "x:y"
    monkeypatch.delenv("COMPANION_HOME")
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path / 'state'}:{tmp_path / 'other'}")
    assert default_home() == tmp_path / "state"  # systemd's list of directories


def test_a_home_that_cannot_be_written_says_why_no_game_can_be_kept(tmp_path, monkeypatch):
    def refused(*_args, **_kwargs):  # type: ignore[no-untyped-def]
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(Path, "mkdir", refused)
    library = Library(tmp_path / "home")
    assert library.problem is not None and "Read-only file system" in library.problem
    assert library.records() == [] and library.in_progress() is None


def test_a_preference_that_cannot_be_used_falls_back_to_its_default_and_keeps_the_rest(
        tmp_path, caplog):
    path = tmp_path / "preferences.json"
    regular = {"name": "Anna", "color": "blue"}
    for damaged in ({"language": ["en"]}, {"language": {"de": 1}}, {"language": 7},
                    {"auto_confirm": "yes"}, {"roster": "Anna"},
                    {"roster": [regular, {"name": ["x"], "color": "red"},
                                {"name": "Bo", "color": ["red"]}, 5]}):
        path.write_text(json.dumps({"version": 1, "language": "it", "auto_confirm": True,
                                    "roster": [regular], **damaged}))
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="ui.preferences"):
            preferences = load_preferences(path)
        assert preferences.problem == ""
        assert caplog.records, damaged
        assert preferences.language == ("en" if "language" in damaged else "it")
        assert preferences.auto_confirm is ("auto_confirm" not in damaged)
        assert preferences.roster == (() if damaged.get("roster") == "Anna" else
                                      (Regular("Anna", "blue"),))
    for hostile in (tmp_path, Path("/dev/zero")):
        assert load_preferences(hostile).problem  # said, and the defaults used


def test_names_that_differ_only_in_case_and_spaces_are_one_person_in_the_statistics(tmp_path):
    from companion.library import person, shown_name, statistics
    library = Library(tmp_path)
    for seed in (3, 4):
        session = Session(library)
        session.start(simulate(seed, 2).setup)
        for event in simulate(seed, 2).events:
            session.play(event)
        session.close()
    second = sorted(library.games.glob("*.jsonl"))[1]
    second.write_text(second.read_text().replace('"Ann"', '" ann "'))
    assert {name for r in library.records() for name in r.players} == {"Ann", " ann ", "Ben"}
    rows = statistics(library.records())
    assert sorted(row.name for row in rows) == ["Ann", "Ben"]
    assert next(row for row in rows if row.name == "Ann").games == 2
    assert person("  Anna  Maria ") == person("anna maria")
    # a name only ever recorded with stray spaces is shown without them
    first = sorted(library.games.glob("*.jsonl"))[0]
    first.write_text(first.read_text().replace('"Ann"', '" ann "'))
    assert sorted(row.name for row in statistics(library.records())) == ["Ben", "ann"]
    assert shown_name("  Anna  Maria ") == "Anna Maria"


def test_the_regulars_keep_one_line_per_person_the_latest_spelling_first():
    from ui.preferences import Preferences, Regular
    before = Preferences().with_players([("anna", "red"), ("Bruno", "blue")])
    after = before.with_players([("Anna", "green")])
    assert after.roster == (Regular("Anna", "green"), Regular("Bruno", "blue"))


def test_the_controller_and_what_it_imports_need_no_kivy():
    """The controller is the screens' model, not a screen: importing it loads no Kivy (a
    whole game is played on it above, here it is seen that nothing of Kivy came along)."""
    probe = ("import sys, ui.session; "
             "sys.exit(sorted(m for m in sys.modules if m.split('.')[0] == 'kivy')[:3] or 0)")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert run.returncode == 0, run.stderr


def test_calibrating_from_the_cameras_picture_is_an_action_of_the_controller(tmp_path):
    """The screen hands over a picture; the controller measures the table, keeps the result
    and says how it went. A picture without markers changes nothing and says what to do."""
    from synthetic.scene import Degradation, Scene, View, render
    from vision.config import load_calibration
    scene = Scene.table()
    frame = render(scene, View.whole_table(scene.layout),
                   Degradation(perspective=0.05, noise=3), 0).image
    session = Session(Library(tmp_path), calibration_path=tmp_path / "calibration.json")
    blank = session.calibrate(np.full_like(frame, 128))
    assert not blank and "corner markers" in blank.said
    assert session.calibration.image_to_table is None
    assert not (tmp_path / "calibration.json").exists()
    done = session.calibrate(frame)
    assert done.done and done.said.startswith("Calibrated and saved.")
    assert "stickers" in done.said  # how the stickers read, in every case
    assert session.calibration.image_to_table is not None
    kept = load_calibration(tmp_path / "calibration.json")
    assert np.allclose(kept.image_to_table, session.calibration.image_to_table)


def test_a_copy_to_the_stick_says_what_went_where_and_what_could_not_be_read(tmp_path):
    session = started(tmp_path / "home")
    session.play(Jump("Freezer"))
    (session.library.games / "20261103-200000.jsonl").symlink_to(tmp_path / "gone.jsonl")
    stick = tmp_path / "stick"
    stick.mkdir()
    copied = session.back_up(stick)
    assert copied.done and copied.weak and copied.kind == "refused"  # one record is unreadable
    assert copied.said.startswith("Done: 1 game copied to the stick")
    assert "cannot be read: 20261103-200000.jsonl" in copied.said
    gone = session.back_up(tmp_path / "no-stick-here" / "x")
    assert gone.done  # a folder that can be made is a stick folder like any other
    blocked = tmp_path / "a-file"
    blocked.write_text("not a stick")
    refused = session.back_up(blocked)
    assert not refused and "untouched" in refused.said


def test_the_sheets_to_print_go_on_the_stick_whole_or_not_at_all(tmp_path):
    from companion.backup import FOLDER
    session = Session(Library(tmp_path / "home"))
    stick = tmp_path / "stick"
    stick.mkdir()
    done = session.copy_sheets(stick)
    assert done and "markers.pdf" in done.said
    sheets = sorted((stick / FOLDER).iterdir())
    assert [p.name for p in sheets] == ["markers.pdf", "stickers.pdf"]
    assert all(p.read_bytes().startswith(b"%PDF") for p in sheets)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a stick")
    refused = session.copy_sheets(blocked)
    assert not refused and refused.said.startswith("Not copied:")


def test_the_screens_reach_the_game_library_and_camera_only_through_the_controller():
    """One controller under the screens: a screen that opened the record, the library or the
    camera itself would hold a second way in, with its own errors and its own stale copy."""
    screens = Path(__file__).resolve().parents[1] / "ui" / "screens"
    reaching = [f"{path.name}:{number}" for path in sorted(screens.glob("*.py"))
                for number, line in enumerate(path.read_text().splitlines(), 1)
                if re.search(r"session\.(journal|library|camera|tracker)\b", line)
                or re.search(r"^(?!\s*def ).*(?<![.\w])(back_up|calibrate_table|print_markers|"
                             r"print_stickers|Journal\.open|Library)\(", line)]
    assert reaching == []


def test_the_ring_is_found_on_the_camera_picture_and_any_other_picture_is_refused_in_words():
    """The set-up step's look for the ring: found on the table as laid out; refused, saying
    what to do, on a bare spot, and on pictures vision cannot take (never a hang: the screen
    waits for the outcome)."""
    shoot = ring_shoot(202, 0)
    planets, colours = list(shoot.planets), list(shoot.players)
    found, ring = Session.find_ring(shoot.start.image, planets, shoot.first, colours)
    assert found and ring is not None and [n for n, _c in ring.planets] == planets
    assert found.said.startswith(f"Found: the jump gate and the eight planets, named "
                                 f"clockwise from {planets[0]}.")
    bare, none = Session.find_ring(shoot.start.image, planets, (30.0, 30.0), colours)
    assert not bare and none is None and bare.said.startswith("The eight planets and")
    for picture in (np.zeros((0, 0, 3), np.uint8), np.zeros((720, 1280), np.uint8),
                    np.full((720, 1280, 3), np.nan, np.float32)):
        refused, none = Session.find_ring(picture, planets, (10.0, 10.0), colours)
        assert not refused and none is None and refused.said, picture.shape
