"""The `companion` command as a user runs it: a real subprocess, real files, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion.journal import JOURNAL_LIMIT, read_journal
from companion.scoring import score
from companion.simulate import simulate


def companion(*args, check=False):
    return subprocess.run([sys.executable, "-m", "companion.cli", *map(str, args)],
                          capture_output=True, text=True, check=check)


@pytest.fixture
def journal(tmp_path):
    path = tmp_path / "game.jsonl"
    companion("simulate", "--seed", 11, "--players", 4, "--out", path, check=True)
    return path


def test_simulate_writes_a_legal_game_that_is_the_same_for_the_same_seed(tmp_path, journal):
    again = tmp_path / "again.jsonl"
    companion("simulate", "--seed", 11, "--players", 4, "--out", again, check=True)
    assert journal.read_bytes() == again.read_bytes()
    state = read_journal(journal).game.state
    assert state.ended and len(state.players) == 4


def test_simulate_to_stdout_matches_the_library(tmp_path):
    result = companion("simulate", "--seed", 3, "--players", 2, check=True)
    lines = result.stdout.splitlines()
    assert len(lines) == 1 + len(simulate(3, 2).events)
    assert json.loads(lines[0])["type"] == "setup"


def test_score_json_has_the_documented_fields_and_matches_the_engine(journal):
    result = companion("score", journal, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"ended", "final_round", "revealed_space", "threshold", "players",
                         "winners"}
    assert set(data["players"][0]) == {
        "name", "probes", "stations", "jump_gate", "station_points", "minerals", "aliens",
        "matter", "water", "medals", "space", "total", "tiles_known"}
    assert data == score(read_journal(journal).game.state).to_json()
    assert data["winners"] and data["ended"]


def test_score_prints_a_table_with_the_winner(journal):
    result = companion("score", journal)
    assert result.returncode == 0
    assert result.stdout.splitlines()[0].split()[:3] == ["player", "gate", "stations"]
    assert "winner" in result.stdout


def test_score_of_an_illegal_line_exits_2_naming_the_line(tmp_path, journal):
    lines = journal.read_text().splitlines()
    lines.insert(3, '{"type": "fly", "to": "Atlantis"}')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    result = companion("score", bad, "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("line 4: there is no planet 'Atlantis'")


def test_score_of_a_malformed_line_exits_2(tmp_path, journal):
    lines = journal.read_text().splitlines()
    lines[2] = '{"type": "jump", "to": "X", "card": "G2/B3"}'
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    result = companion("score", bad)
    assert result.returncode == 2 and "line 3: card code 'G2/B3' is not canonical" in result.stderr


def test_score_drops_a_cut_short_last_line_with_a_warning(tmp_path, journal):
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(journal.read_bytes()[:-7])
    result = companion("score", cut, "--json")
    assert result.returncode == 0
    assert "incomplete last line dropped" in result.stderr
    json.loads(result.stdout)


def test_score_of_a_complete_malformed_last_line_is_an_error_and_nothing_is_dropped(
        tmp_path, journal):
    lines = journal.read_text().splitlines()
    lines[-1] = lines[-1][:-1] + ",}"  # a trailing comma in the final tiles line
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    before = bad.read_bytes()
    result = companion("score", bad, "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"line {len(lines)}: not a JSON object")
    assert "cut short" not in result.stderr and bad.read_bytes() == before


def companion_ascii(*args):
    """The command on a terminal that is not UTF-8."""
    import os
    environment = dict(os.environ, PYTHONIOENCODING="ascii")
    return subprocess.run([sys.executable, "-m", "companion.cli", *map(str, args)],
                          capture_output=True, env=environment)


def setup_line(**change) -> dict:
    from tests.conftest import setup_json
    data = setup_json(2)
    data.update(change)
    return data


HUGE = "9" * 5000
DEEP = "[" * 2000 + "]" * 2000


@pytest.mark.parametrize("text, reason", [
    (json.dumps(setup_line())[:-1] + f', "ignored": {HUGE}}}', "a number with too many digits"),
    (json.dumps(setup_line())[:-1] + f', "ignored": {DEEP}}}', "nested too deeply"),
    (json.dumps(setup_line(players=[{"name": "\ud800x", "color": "red"},
                                    {"name": "Ben", "color": "blue"}])), "unpaired surrogate"),
    (json.dumps(setup_line(v=True)), "version True is not supported"),
    (json.dumps(setup_line(v=1.0)), "version 1.0 is not supported"),
    (json.dumps(setup_line(variant=False)), "the variant must be text"),
    (json.dumps(setup_line(variant="")), "variant '' is not one of"),
    (json.dumps(setup_line(variant=0)), "the variant must be text"),
    (json.dumps(setup_line(variant=[])), "the variant must be text"),
    (json.dumps(setup_line())[:-1] + ', "bad": NaN}', "NaN is not a JSON number"),
])
def test_score_of_adversarial_records_exits_2_naming_line_1(tmp_path, text, reason):
    path = tmp_path / "odd.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    result = companion_ascii("score", path, "--json")
    assert result.returncode == 2, result.stderr
    message = result.stderr.decode("ascii")
    assert message.startswith("line 1: ") and reason in message, message
    assert "Traceback" not in message


def test_a_coordinate_given_as_a_float_is_refused(tmp_path):
    data = setup_line()
    data["planets"][2]["scan"] = 1.0
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps(data) + "\n")
    result = companion("score", path)
    assert result.returncode == 2 and "line 1: Hazard's scan coordinate must be a number" in \
        result.stderr


def test_score_prints_any_name_on_a_terminal_that_is_not_utf8(tmp_path):
    from companion.journal import write_journal
    from companion.rules import Jump, PlayerSeat, Setup
    from tests.conftest import new_game
    ring = new_game(2).setup.planets
    setup = Setup((PlayerSeat("Zoë", "red"), PlayerSeat("Ben", "blue")), ring, "Zoë")
    path = tmp_path / "zoe.jsonl"
    write_journal(path, setup, [Jump("Caldera")])
    table = companion_ascii("score", path)
    assert table.returncode == 0 and b"Zo\\xeb" in table.stdout
    as_json = companion_ascii("score", path, "--json")
    assert as_json.returncode == 0
    assert json.loads(as_json.stdout.decode("ascii"))["players"][0]["name"] == "Zoë"


def test_score_of_a_missing_file_exits_2_naming_it(tmp_path):
    result = companion("score", tmp_path / "nope.jsonl")
    assert result.returncode == 2 and "nope.jsonl" in result.stderr


def test_score_of_a_game_in_progress_shows_unknown_tiles_as_question_marks(tmp_path):
    path = tmp_path / "partial.jsonl"
    companion("simulate", "--seed", 5, "--players", 3, "--out", path, check=True)
    lines = [line for line in path.read_text().splitlines() if '"type": "tiles"' not in line]
    # hide what was taken: drop the kinds, as touch-only play records them
    hidden = [json.dumps({k: v for k, v in json.loads(line).items() if k != "tile"})
              for line in lines]
    path.write_text("\n".join(hidden) + "\n")
    result = companion("score", path)
    assert result.returncode == 0 and "?" in result.stdout
    data = json.loads(companion("score", path, "--json").stdout)
    assert data["winners"] == [] and any(p["total"] is None for p in data["players"])


@pytest.mark.parametrize("sub", [[], ["score"], ["simulate"], ["box"]])
def test_help_is_complete(sub):
    result = companion(*sub, "--help")
    assert result.returncode == 0 and "usage: companion" in result.stdout
    if not sub:
        for command in ("score", "simulate", "box"):
            assert command in result.stdout


def test_box_lists_planets_and_marks_examples():
    result = companion("box")
    assert result.returncode == 0
    assert "Caldera: jump B3" in result.stdout and "(example coordinates)" in result.stdout
    assert "example deck" in result.stdout


def test_box_names_what_is_wrong_with_a_profile(tmp_path):
    bad = tmp_path / "box.json"
    bad.write_text('{"profile": 1, "planets": []}')
    result = companion("box", bad)
    assert result.returncode == 2 and "12 planets" in result.stderr


def test_simulate_refuses_a_bad_player_count():
    result = companion("simulate", "--seed", 1, "--players", 7)
    assert result.returncode == 2 and "invalid choice" in result.stderr


def test_the_installed_console_script_runs():
    from pathlib import Path
    script = Path(sys.executable).parent / "companion"
    if not script.exists():
        pytest.skip("not installed as a console script in this environment")
    result = subprocess.run([script, "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "score" in result.stdout


def test_the_version_is_the_installed_one():
    from importlib.metadata import version
    result = companion("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"companion {version('space-mission-companion')}"


@pytest.mark.parametrize("command", [("simulate", "--seed", 3, "--players", 2), ("box",),
                                     ("score", "JOURNAL")])
def test_a_full_disk_as_standard_output_is_said_plainly(journal, command):
    """Standard output on a full disk (``/dev/full``): one line on what failed, exit 2, no
    traceback."""
    arguments = [journal if part == "JOURNAL" else part for part in command]
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "companion.cli", *map(str, arguments)],
                             stdout=full, stderr=subprocess.PIPE, text=True)
    assert run.returncode == 2, run.stderr
    assert run.stderr == "companion: the output cannot be written (No space left on device)\n"


@pytest.fixture
def special_files(tmp_path):
    """What no record, profile or calibration is: a pipe with no writer (opening it the plain
    way waits for ever), an endless device, a folder, a link that leads nowhere."""
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)
    dangling = tmp_path / "gone.jsonl"
    dangling.symlink_to(tmp_path / "nowhere.jsonl")
    return {pipe: "not a regular file", Path("/dev/zero"): "not a regular file",
            tmp_path: "a folder, not a file", dangling: "No such file or directory"}


@pytest.mark.parametrize("command", [("score",), ("box",), ("simulate", "--seed", "1",
                                                            "--players", "2", "--box")])
def test_a_pipe_a_device_a_folder_or_a_dangling_link_is_refused_by_name(special_files, command):
    for path, reason in special_files.items():
        result = subprocess.run([sys.executable, "-m", "companion.cli", *command, str(path)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 2, (path, result.stderr)
        assert str(path) in result.stderr and reason in result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""


def test_a_record_larger_than_any_game_is_refused_unread(tmp_path):
    huge = tmp_path / "huge.jsonl"
    with open(huge, "wb") as out:  # sparse: the size is claimed, the disk holds nothing
        out.truncate(JOURNAL_LIMIT + 1)
    result = companion("score", huge)
    assert result.returncode == 2 and "larger than 64 MB" in result.stderr


def test_simulate_never_overwrites_a_record_unasked_and_says_why_it_cannot_write(tmp_path,
                                                                                journal):
    kept = journal.read_bytes()
    refusals = {journal: "exists; give --force to replace it",
                tmp_path: "is a folder",
                tmp_path / "no folder" / "game.jsonl": "cannot be written (No such file",
                Path("/dev/full"): "is not a regular file",
                Path("/proc/version"): "exists"}
    for path, reason in refusals.items():
        result = companion("simulate", "--seed", 2, "--players", 3, "--out", path)
        assert result.returncode == 2 and reason in result.stderr, (path, result.stderr)
        assert str(path) in result.stderr and "Traceback" not in result.stderr
    assert journal.read_bytes() == kept
    unwritable = companion("simulate", "--seed", 2, "--players", 3, "--out", "/proc/version",
                           "--force")
    assert unwritable.returncode == 2 and "cannot be written" in unwritable.stderr
    companion("simulate", "--seed", 2, "--players", 3, "--out", journal, "--force", check=True)
    assert journal.read_bytes() != kept and read_journal(journal).game.state.ended
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]  # no temporaries


def test_names_and_file_names_reach_the_terminal_escaped(tmp_path):
    game = simulate(4, 2)
    first = game.setup.players[0]
    sly = "Ann\x1b[2J\nline 1: fake\u202e"
    seats = (replace(first, name=sly),) + game.setup.players[1:]
    setup = replace(game.setup, players=seats,
                    first=sly if game.setup.first == first.name else game.setup.first)
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(setup.to_json()) + "\n")
    result = companion("score", path, check=True)
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "Ann\\x1b[2J\\x0aline 1: fake\\u202e" in result.stdout
    assert len(result.stdout.splitlines()) == 5  # header, two players, blank, status

    missing = tmp_path / "a\x1b[31m\nline 9: fake.jsonl"
    result = companion("score", missing)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "\x1b" not in result.stderr
    assert "a\\x1b[31m\\x0aline 9: fake.jsonl: No such file" in result.stderr


def test_a_record_written_whole_gets_a_plain_files_mode_and_keeps_its_own(tmp_path):
    """Written through a hidden temporary (mode 0600) and renamed: a new record is readable
    as any new file is, and a replaced one keeps the mode it had."""
    new = tmp_path / "new.jsonl"
    subprocess.run([sys.executable, "-m", "companion.cli", "simulate", "--seed", "1",
                    "--players", "2", "--out", str(new)], check=True,
                   preexec_fn=lambda: os.umask(0o022))
    assert new.stat().st_mode & 0o777 == 0o644
    new.chmod(0o600)
    companion("simulate", "--seed", 2, "--players", 2, "--out", new, "--force", check=True)
    assert new.stat().st_mode & 0o777 == 0o600
