"""The real app under an offscreen window, driven by touches (tests/ui_driver.py runs one
scenario per process: Kivy keeps one window per process). Screenshots of every screen, at the
official Pi display's 800x480 and at 1280x800, are written to test-artifacts/ui/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.rules import Inventory
from companion.scoring import score
from companion.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "ui"
SIZES = ("800x480", "1280x800")


def drive(scenario: str, size: str, home: Path, **env: str) -> dict:
    environment = dict(os.environ, SDL_VIDEODRIVER="offscreen", **env)
    environment.pop("KIVY_HOME", None)  # each run gets its own, inside its home
    run = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_driver.py"), scenario, size,
                          str(home), str(ARTIFACTS)], env=environment, capture_output=True,
                         text=True, timeout=600)
    result_file = ARTIFACTS / f"result-{scenario}-{size}.json"
    assert result_file.exists(), run.stderr[-3000:]
    result = json.loads(result_file.read_text())
    assert "error" not in result, result["error"]
    return result


@pytest.mark.parametrize("size", SIZES)
def test_every_screen_builds_with_touch_sized_targets(tmp_path, size):
    result = drive("screens", size, tmp_path)
    assert result["current"] == "end"  # ending the game leads to the score sheet
    for screen, small in result["small_targets"].items():
        assert small == [], f"{screen}: buttons smaller than 48 px: {small}"
    for name in ("home", "setup", "box", "calibration", "play", "play-jump", "end"):
        assert list(ARTIFACTS.glob(f"{name}-{size}*.png")), name


def test_only_legal_choices_are_offered_and_undo_redo_work_from_the_screen(tmp_path):
    result = drive("legal", "800x480", tmp_path)
    assert result["disabled_at_start"] == ["develop", "discover", "fly", "scan"]
    assert len(result["jump_targets"]) == 8
    assert len(result["fly_targets"]) == 2  # the two ring neighbours only
    assert result["after_undo"] == {"at": None, "probes": 0, "action": 1}  # the jump undone
    assert result["after_redo_at"] == 2  # and redone: back on the third planet


def without_cards(event: dict) -> dict:
    """What touch entry records: everything but card codes (touch does not name cards)."""
    return {k: v for k, v in event.items() if k not in ("card", "cards")}


def test_a_game_entered_by_touch_gives_the_engines_journal_and_scores(tmp_path):
    game = simulate(11, 2)
    result = drive("touch_game", "800x480", tmp_path, UI_SEED="11")
    assert "refused" not in result, result.get("refused")
    expected = [without_cards(e.to_json()) for e in game.events
                if not isinstance(e, Inventory)]
    entered = [e for e in result["journal"] if e["type"] != "tiles"]
    assert entered == expected
    inventories = {e["player"]: Counter(e["tiles"]) for e in result["journal"]
                   if e["type"] == "tiles"}
    assert inventories == {e.player: Counter(e.tiles) for e in game.events
                           if isinstance(e, Inventory)}
    assert result["score"] == score(game.game.state).to_json()


def test_a_restarted_app_resumes_at_the_same_turn_and_action(tmp_path):
    first = drive("resume", "800x480", tmp_path, UI_PLAY="1")
    assert first["resumed"] is None
    again = drive("resume", "800x480", tmp_path)
    assert again["resumed_screen"] == "play"
    assert again["resumed"] == first["played"]


def test_the_demo_table_plays_through_camera_and_tracker(tmp_path):
    result = drive("demo", "800x480", tmp_path, UI_DEMO_TICKS="900")
    assert result["camera_frames"] > 20
    assert result["events"] > 0 and result["demo_counts"].get("camera", 0) > 0
    assert list(ARTIFACTS.glob("demo-800x480*.png"))
