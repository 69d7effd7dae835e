"""Runs the real app in an offscreen window and drives it by touches, one scenario per run.

Usage: python tests/ui_driver.py SCENARIO WIDTHxHEIGHT HOME OUT. Writes OUT/result-*.json and
screenshots into OUT, and the result also to $UI_RESULT when set (a run's own file: tests that
drive one scenario side by side share OUT). The UI tests start it in a fresh process for each
scenario: Kivy keeps one window per process (a scenario may resize it). UI_LANG picks the
language (``pseudo`` marks every translated string, to find text that never went through a
catalogue); UI_DRAW=shots draws the window only for its screenshots (see ``drawn_screenshot``
in ``ui_scenarios.py``, where the scenarios are).
"""

import runpy
from pathlib import Path

if __name__ == "__main__":
    # the scenarios run from a file of their own: the app's worker processes (teaching's)
    # import the main module as they start, and this one then starts nothing (were the
    # scenarios here, each worker would run the app and its scenario again)
    runpy.run_path(str(Path(__file__).with_name("ui_scenarios.py")), run_name="ui_scenarios")
