"""The journal: format v1, replay, a cut-short last line, bad lines, failed writes."""

from __future__ import annotations

import errno
import json
import os
from datetime import UTC, datetime, timedelta

import pytest

from companion.journal import (Journal, JournalError, JournalWriteError, encode, read_journal,
                               write_journal)
from companion.rules import (Fly, IllegalActionError, Inventory, Jump, Redo, Scan, TopUp, Undo,
                             parse_event)
from companion.simulate import simulate
from tests.conftest import setup_json


def write_lines(path, *lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


SETUP = json.dumps(setup_json(2))


def test_a_written_journal_replays_to_the_same_state(tmp_path):
    game = simulate(7, 3)
    path = tmp_path / "game.jsonl"
    write_journal(path, game.setup, game.events)
    assert read_journal(path).game.state == game.game.state


def test_journal_lines_are_the_documented_v1_form(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal.create(path, parse_event(setup_json(2))) as journal:
        journal.append(Jump("Freezer"))
        journal.append(Scan(tile="MED", reveal=False))
    first, jump, scan = (json.loads(line) for line in path.read_text().splitlines())
    assert first["v"] == 1 and first["type"] == "setup" and first["first"] == "Ann"
    # each action as v1 has it, and when it was written (an extension v1 readers ignore)
    assert {k: v for k, v in jump.items() if k != "at"} == {"type": "jump", "to": "Freezer"}
    assert {k: v for k, v in scan.items() if k != "at"} == {"type": "scan", "tile": "MED"}
    written = datetime.strptime(scan["at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert abs((datetime.now(UTC) - written).total_seconds()) < 60


def test_a_games_length_runs_to_the_end_of_play_not_to_a_later_tile_entry(tmp_path):
    from companion.library import record_of
    game = simulate(4, 2)
    lines = [encode(game.setup)]
    start = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
    for number, event in enumerate(game.events):
        at = start + timedelta(minutes=number // 4)
        if isinstance(event, Inventory):  # the tiles entered an hour after play ended
            at += timedelta(hours=1)
        lines.append(encode(event, at=at))
    path = tmp_path / "20261124-200000-g.jsonl"
    path.write_bytes(b"".join(lines))
    contents = read_journal(path)
    assert contents.game.state.ended and contents.ended_at is not None
    assert contents.ended_at < start + timedelta(hours=1)
    play = sum(1 for e in game.events if not isinstance(e, Inventory))
    assert record_of(path).minutes == max(1, (play - 1) // 4)
    # an old record (no times) still has a length: its file's last change
    path.write_bytes(b"".join(encode(e) for e in (game.setup, *game.events)))
    assert read_journal(path).ended_at is None and record_of(path).minutes >= 1


def test_appends_survive_close_and_reopen(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal.create(path, parse_event(setup_json(2))) as journal:
        journal.append(Jump("Freezer"))
        expected = journal.append(Fly("Green Heggar"))
    with Journal.open(path) as journal:
        assert journal.state == expected and journal.dropped is None


def test_create_refuses_to_overwrite_a_record(tmp_path):
    path = tmp_path / "g.jsonl"
    Journal.create(path, parse_event(setup_json(2))).close()
    with pytest.raises(JournalWriteError, match="cannot create"):
        Journal.create(path, parse_event(setup_json(2)))


def test_an_illegal_append_is_refused_and_not_written(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal.create(path, parse_event(setup_json(2))) as journal:
        with pytest.raises(IllegalActionError):
            journal.append(Fly("Freezer"))
    assert len(path.read_text().splitlines()) == 1


def test_a_truncated_last_line_is_dropped_reported_and_cut_off(tmp_path):
    path = tmp_path / "g.jsonl"
    write_lines(path, SETUP, '{"type": "jump", "to": "Freezer"}')
    with open(path, "a") as out:
        out.write('{"type": "scan", "ti')
    contents = read_journal(path)
    assert contents.dropped is not None and contents.dropped.line == 3
    assert "incomplete last line dropped" in str(contents.dropped)
    assert len(contents.events) == 1
    with Journal.open(path) as journal:
        assert "kept in g.jsonl.cut" in str(journal.dropped)
        journal.append(Scan())
    assert [json.loads(line)["type"] for line in path.read_text().splitlines()] == [
        "setup", "jump", "scan"]
    assert (tmp_path / "g.jsonl.cut").read_text() == '{"type": "scan", "ti\n'  # nothing lost


def test_a_complete_malformed_last_line_is_an_error_and_the_file_is_left_alone(tmp_path):
    path = tmp_path / "g.jsonl"
    write_lines(path, SETUP, '{"type": "jump", "to": "Freezer",}')
    before = path.read_bytes()
    with pytest.raises(JournalError, match="^line 2: not a JSON object"):
        read_journal(path)
    with pytest.raises(JournalError, match="^line 2: not a JSON object"):
        Journal.open(path)
    assert path.read_bytes() == before and not (tmp_path / "g.jsonl.cut").exists()


def test_redo_is_kept_in_the_record_and_survives_a_reopen(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal.create(path, parse_event(setup_json(2))) as journal:
        journal.append(Jump("Freezer"))
        journal.append(Fly("Green Heggar"))
        journal.append(Undo())
        journal.append(Undo())
        journal.append(Redo())
    with Journal.open(path) as journal:
        assert journal.game.undone == (Fly("Green Heggar"),)
        state = journal.append(Redo())
    assert state.players[0].at == 1
    assert [json.loads(line)["type"] for line in path.read_text().splitlines()][-3:] == [
        "undo", "redo", "redo"]


def test_a_complete_last_line_missing_only_its_newline_is_kept(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text(SETUP + "\n" + '{"type": "jump", "to": "Freezer"}')
    with Journal.open(path) as journal:
        assert journal.dropped is None and journal.state.players[0].at == 0
        journal.append(Scan())
    assert len(read_journal(path).events) == 2


def test_a_bad_line_in_the_middle_is_an_error_naming_its_line(tmp_path):
    path = tmp_path / "g.jsonl"
    write_lines(path, SETUP, '{"type": "jump", "to": "Freezer"', '{"type": "scan"}')
    with pytest.raises(JournalError, match="^line 2: not a JSON object"):
        read_journal(path)


def test_an_illegal_event_is_an_error_naming_its_line_and_rule(tmp_path):
    path = tmp_path / "g.jsonl"
    write_lines(path, SETUP, "", '{"type": "jump", "to": "Caldera", "card": "B1/G2"}')
    with pytest.raises(JournalError) as caught:
        read_journal(path)
    assert str(caught.value) == ("line 3: Caldera's jump coordinate is 3; this card offers "
                                 "B1 or G2")


def test_blank_lines_are_skipped_but_counted_and_unknown_fields_and_nulls_ignored(tmp_path):
    path = tmp_path / "g.jsonl"
    write_lines(path, SETUP, "", "   ",
                '{"type": "jump", "to": "Freezer", "card": null, "seen_by": "camera"}',
                '{"type": "bogus"}')
    with pytest.raises(JournalError, match="^line 5: unknown event type 'bogus'"):
        read_journal(path)


def test_the_first_line_must_be_the_setup(tmp_path):
    path = tmp_path / "g.jsonl"
    write_lines(path, '{"type": "jump", "to": "Freezer"}')
    with pytest.raises(JournalError, match="^line 1: the first line must be the set-up"):
        read_journal(path)


def test_a_second_setup_is_refused(tmp_path):
    path = tmp_path / "g.jsonl"
    write_lines(path, SETUP, SETUP)
    with pytest.raises(JournalError, match="^line 2: a set-up can only be the first line"):
        read_journal(path)


def test_an_empty_journal_is_reported(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text("")
    with pytest.raises(JournalError, match="no set-up line"):
        read_journal(path)


def test_a_setup_cut_short_is_reported_as_no_setup(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text(SETUP[:40])
    with pytest.raises(JournalError, match="^line 1: the journal has no set-up"):
        read_journal(path)


def test_a_failed_write_loses_nothing_and_leaves_no_partial_line(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    journal = Journal.create(path, parse_event(setup_json(2)))
    journal.append(Jump("Freezer"))
    before_state, before_bytes = journal.state, path.read_bytes()
    real_write = os.write

    def half_then_full_disk(fd, data):
        if len(data) > 4:
            real_write(fd, bytes(data[:4]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", half_then_full_disk)
    with pytest.raises(JournalWriteError, match="No space left on device; the last action was"):
        journal.append(TopUp())
    monkeypatch.undo()
    assert journal.state == before_state and path.read_bytes() == before_bytes
    journal.append(TopUp())  # the disk has room again: play goes on
    journal.close()
    assert len(read_journal(path).events) == 2


def test_encode_writes_utf8_names_as_they_are(tmp_path):
    data = setup_json(2)
    data["players"][0]["name"] = "Zoë"
    path = tmp_path / "g.jsonl"
    Journal.create(path, parse_event(data)).close()
    assert "Zoë" in path.read_text(encoding="utf-8")
    assert encode(TopUp(player="Zoë")).decode("utf-8").strip() == (
        '{"type": "top_up", "player": "Zoë"}')
