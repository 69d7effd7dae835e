"""Home: new game, resume, box set-up, calibration, and the finished games with exports."""

from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen


class HomeScreen(Screen):
    status = StringProperty("")

    def on_pre_enter(self, *_: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        games = self.ids.games
        games.clear_widgets()
        records = [r for r in app.library.records() if r.ended]
        for record in records[:20]:
            who = ", ".join(f"{n} {app.total_text(record.totals.get(n))}" for n in record.players)
            won = ", ".join(record.winners) or "winner unknown"
            row = Factory.BigButton(text=f"{record.started:%Y-%m-%d %H:%M}  {who}  - {won}  "
                                         "[export]")
            row.bind(on_release=lambda _, r=record: self.export(r))
            games.add_widget(row)
        if not records:
            games.add_widget(Factory.Caption(text="No finished games yet."))
        self.ids.resume.disabled = app.library.in_progress() is None

    def export(self, record: object) -> None:
        journal, play = App.get_running_app().library.export(record)  # type: ignore[arg-type]
        self.status = f"exported {journal.name} and {play.name} to {journal.parent}"

    def resume(self) -> None:
        app = App.get_running_app()
        if app.session.resume():
            app.show("play")
