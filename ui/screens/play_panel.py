"""The play screen's side panel: its cards (a proposal, a refusal, an action being entered,
the log), each built once, one shown at a time."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import ObjectProperty, OptionProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

CARDS = {"refusal": "RefusalCard", "proposal": "ProposalCard", "entering": "EnteringCard",
         "top_up": "TopUpCard", "develop": "ConfirmCard", "log": "LogView"}
"""What the panel can show, and the card that shows it."""


class ProposalCard(BoxLayout):
    """The camera's proposal, prominent: what it saw, the question, Confirm and Not this."""

    source = StringProperty("")
    question = StringProperty("")
    flags = StringProperty("")


class RefusalCard(BoxLayout):
    """Why the last tap was refused, in the rule's words, until the next tap or OK."""

    text = StringProperty("")
    close_action = ObjectProperty(None, allownone=True)


class EnteringCard(BoxLayout):
    title = StringProperty("")
    cancel_action = ObjectProperty(None, allownone=True)


class ConfirmCard(BoxLayout):
    title = StringProperty("")
    confirm_text = StringProperty("")
    cancel_action = ObjectProperty(None, allownone=True)
    confirm_action = ObjectProperty(None, allownone=True)


class TopUpCard(BoxLayout):
    """How many cards a top up discards: a number to tap (× cancels)."""


class LogRow(BoxLayout):
    text = StringProperty("")
    color_name = StringProperty("")
    mark = StringProperty("")


class PlayPanel(BoxLayout):
    """Shows one card at a time, the one ``shown`` names, with the camera's notices under it.
    The cards are made once and switched: making them anew on every tap made taps slow."""

    shown = OptionProperty("log", options=list(CARDS))
    flags = StringProperty("")
    """The camera's notices, under the card shown (a proposal card carries its own)."""

    def __init__(self, **kwargs: object) -> None:
        self.cards: dict[str, Widget] = {name: getattr(Factory, kind)()
                                         for name, kind in CARDS.items()}
        self._notes = Factory.FlagNote()
        super().__init__(**kwargs)
        self.bind(shown=self._switch, flags=self._switch)
        self._switch()

    def card(self, name: str) -> Widget:
        return self.cards[name]

    def _switch(self, *_args: object) -> None:
        wanted = [self.cards[self.shown]] + ([self._notes] if self.flags else [])
        self._notes.text = self.flags
        if self.children[::-1] != wanted:
            self.clear_widgets()
            for widget in wanted:
                self.add_widget(widget)
