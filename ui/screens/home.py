"""Home: start a new game (asking once when one is unfinished), resume the game in progress,
enter the tiles of a finished game that lacks them, the records and statistics, settings, and
the table's set-up (box profile, camera and calibration), and a backup of the records when a USB
stick is plugged in."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.backup import stick_mount, stick_ready
from companion.library import GameRecord, shown_name, shown_names
from ui.i18n import _
from ui.screens import theme
from ui.screens.widgets import ask
from ui.words import when


def record_title(record: GameRecord) -> str:
    """A kept game in one line: when, and who played."""
    players = shown_names(record.players)
    return _("{date} · {players}").format(date=when(record.started), players=players)


ROWS = 2
"""Kept games the home screen lists (more are under Games and statistics)."""


class HomeScreen(Screen):
    resume_text = StringProperty("")
    can_resume = BooleanProperty(False)
    can_save = BooleanProperty(True)
    """A new game can be kept here (not on a read-only disk)."""
    has_games = BooleanProperty(False)
    stick = BooleanProperty(False)
    """A USB stick is mounted and writable (looked for every second while home is shown)."""
    stick_words = StringProperty("")
    """How the last copy to the stick went ('' before one)."""
    stick_kind = StringProperty("")

    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()
        self.look_for_stick()
        self._stick_event = Clock.schedule_interval(self.look_for_stick, 1.0)

    def on_leave(self, *_args: object) -> None:
        self._stick_event.cancel()

    def look_for_stick(self, *_args: object) -> None:
        stick = stick_ready(stick_mount())
        if stick != self.stick:
            self.stick = stick
            self.refresh()  # the stick's row takes the room of a kept game's
        if not self.stick:
            self.stick_words = self.stick_kind = ""  # the next stick starts afresh

    def back_up(self) -> None:
        """Copy the records to the stick; say where they went, or why nothing was copied."""
        outcome = App.get_running_app().session.back_up(stick_mount())
        self.stick_words, self.stick_kind = outcome.said, outcome.kind
        if not outcome.done:
            self.look_for_stick()

    def refresh(self) -> None:
        app = App.get_running_app()
        app.entering = app.inventory_for = ""
        current = app.session.in_progress()
        # on a disk nothing can be written to, no game is played (a tap says why)
        self.can_save = not app.session.unwritable
        self.can_resume = current is not None and self.can_save
        self.resume_text = (_("Resume: {game}").format(
            game=shown_names(current.players)) if current else _("Resume game"))
        waiting = self.ids.waiting
        waiting.clear_widgets()
        finished = app.session.finished()
        rows = ROWS - 1 if self.stick else ROWS  # 800x480 holds the stick's row or a game's
        lacking = [r for r in finished if r.tiles_missing][:rows]
        for record in lacking:
            waiting.add_widget(self._row(_("Enter the tiles: {game}").format(
                game=record_title(record)), record))
        recent = self.ids.recent
        recent.clear_widgets()
        shown = [r for r in finished if not r.tiles_missing][:rows - len(lacking)]
        for record in shown:
            scores = ", ".join(f"{shown_name(r.name)} {r.total}" for r in record.results)
            recent.add_widget(self._row(_("{date}: {winners} won ({scores})").format(
                date=when(record.started, short=True),
                winners=shown_names(record.winners, " & "), scores=scores), record))
        self.has_games = bool(lacking or shown)

    def _row(self, text: str, record: GameRecord) -> Widget:
        """A kept game as a button: a tap opens its score sheet (or its tiles to enter)."""
        app = App.get_running_app()
        button = Factory.TouchButton(text=text, role="quiet", halign="left", size_hint_y=None,
                                     height=theme.TOUCH * app.scale,
                                     max_font=theme.BODY * app.scale)
        button.bind(on_release=lambda _button: app.open_record(record.path))
        return button

    def new_game(self) -> None:
        """A new game over an unfinished one asks once (the unfinished one stays saved)."""
        app = App.get_running_app()
        reason = app.session.unwritable
        if reason:
            app.say(_("No game can be saved: {reason}.").format(reason=reason), "refused")
            return
        current = app.session.in_progress()
        if current is None:
            app.show("setup")
            return
        ask(_("Start a new game?"),
            _("The game of {players} is not finished. It stays saved: resume it any time from "
              "Games and statistics.").format(players=", ".join(current.players)),
            _("New game"), _("Back"), lambda: app.show("setup"), role="primary")

    def resume(self) -> None:
        app = App.get_running_app()
        current = app.session.in_progress()
        if current is None:
            app.say(_("There is no unfinished game."), "refused")
            return
        app.open_record(current.path)
