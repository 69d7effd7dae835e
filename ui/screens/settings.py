"""Settings: the screen's language (remembered), and whether the camera's unambiguous proposals
confirm themselves."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty
from kivy.uix.screenmanager import Screen


class SettingsScreen(Screen):
    auto_confirm = BooleanProperty(False)

    def on_pre_enter(self, *_args: object) -> None:
        self.auto_confirm = App.get_running_app().session.auto_confirm

    def choose_language(self, code: str) -> None:
        App.get_running_app().set_language(code)

    def choose_auto_confirm(self, on: bool) -> None:
        App.get_running_app().set_auto_confirm(on)
        self.auto_confirm = on
