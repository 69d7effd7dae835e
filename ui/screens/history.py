"""Games and statistics: every kept game with its date, length, players, scores and winner
(finish, enter tiles, see the score sheet or play a rematch from there), and each player's
games, wins, win rate, average and best score."""

from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.library import GameRecord, shown_name, shown_names, statistics
from ui.i18n import _, ngettext
from ui.screens.home import record_title
from ui.words import decimal_words, percent_words

SHOWN = 30
"""The newest games listed."""
COLUMNS = (2.1, 1, 1, 1.4, 1.2, 1.3)
"""The statistics table's column widths, in parts: the name's column the widest, so a long
name ("Jean-Christophe", "Maria Antonietta") shows whole, on two lines at most."""


class GameRow(BoxLayout):
    title = StringProperty("")
    summary = StringProperty("")


class HistoryScreen(Screen):
    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        records = app.session.records()
        games = self.ids.games
        games.clear_widgets()
        for record in records[:SHOWN]:
            games.add_widget(self._row(record))
        if not records:
            games.add_widget(Factory.Caption(text=_("No games yet."), size_hint_y=None,
                                             height=40 * app.scale))
        table = self.ids.stats
        table.clear_widgets()
        rows = [(_("Player"), _("Games"), _("Wins"), _("Win %"), _("Average"), _("Best"))]
        for row in statistics(records):
            rows.append((row.name, str(row.games), str(row.wins), percent_words(row.win_rate),
                         "–" if row.average is None else decimal_words(row.average),
                         "–" if row.best is None else str(row.best)))
        for number, cells in enumerate(rows):  # the headers bold; a name may wrap in two
            for column, (text, width) in enumerate(zip(cells, COLUMNS)):
                table.add_widget(Factory.StatCell(
                    text=text, bold=number == 0, size_hint_x=width,
                    halign="left" if column == 0 else "center"))

    def _row(self, record: GameRecord):  # type: ignore[no-untyped-def]
        app = App.get_running_app()
        row = Factory.GameRow(title=record_title(record))
        if record.problem is not None:
            row.summary = _("This record cannot be read: {problem}").format(
                problem=record.problem)
            return row
        scores = ", ".join(f"{shown_name(r.name)} {'?' if r.total is None else r.total}"
                           for r in record.results)
        if not record.ended:
            state_text = _("not finished")
        elif record.tiles_missing:
            state_text = _("tiles not entered yet")
        else:
            state_text = ngettext("winner: {names}", "shared win: {names}",
                                  len(record.winners)).format(names=shown_names(record.winners))
        minutes = ngettext("{count} minute", "{count} minutes", record.minutes).format(
            count=record.minutes) if record.ended else ""
        # the outcome first: a long list of scores ends in "…" on the row's one line
        row.summary = " · ".join(filter(None, [state_text, scores, minutes]))
        open_text = (_("Play on") if not record.ended else _("Enter the tiles")
                     if record.tiles_missing else _("Score sheet"))
        row.ids.open.text = open_text
        row.ids.open.bind(on_release=lambda _w: app.open_record(record.path))
        row.ids.rematch.bind(on_release=lambda _w: self.rematch(record))
        return row

    def rematch(self, record: GameRecord) -> None:
        app = App.get_running_app()
        app.show("setup")
        app.manager.get_screen("setup").seat_players(
            [(r.name, r.color) for r in record.results], record.variant)
