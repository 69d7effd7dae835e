"""The menu behind the play screen's ☰ and the score sheet's Menu: the screen's language,
home, settings."""

from __future__ import annotations

from kivy.app import App
from kivy.uix.modalview import ModalView


class MenuDialog(ModalView):
    """The menu: a language, home, settings; each closes it first."""

    def choose_language(self, code: str) -> None:
        self.dismiss()  # before the screens are built anew in the language
        App.get_running_app().set_language(code)

    def go(self, screen: str) -> None:
        self.dismiss()
        App.get_running_app().show(screen)
