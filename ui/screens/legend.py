"""What the board's and the tokens' marks mean, each drawn as the screen draws it."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from ui.i18n import _
from ui.screens import theme


class LegendRow(BoxLayout):
    text = StringProperty("")


class FrameSample(Widget):
    """A planet's frame as the board draws it: a station's colour, or white for a target."""

    frame_color = ListProperty(list(theme.TARGET))
    core_color = ListProperty([0, 0, 0, 0])
    """A station's frame is drawn with a core of the player's colour (see theme.FRAME_CORE)."""


class LegendDialog(ModalView):
    """Every mark of the board and the tokens, drawn as the screen draws it, with its meaning."""

    def __init__(self, color: str, **kwargs: object) -> None:
        super().__init__(**kwargs)
        glyph = Factory.StatGlyph
        rows: list[tuple[list[Widget], str]] = [
            ([Factory.Badge(code="B", text="4"), Factory.Badge(code="G", text="2"),
              Factory.Badge(code="O", text="1")],
             _("A planet's coordinates: blue jump, green scan, two orange landing.")),
            ([Factory.TileCount(text="8")],
             _("Tiles left in its stack; dark once only space tiles lie face up.")),
            ([Factory.FrameSample(frame_color=theme.PLAYER_FRAME[color],
                                 core_color=theme.PLAYER[color]),
              Factory.BoardMark(text="A", shape="station", color_name=color)],
             _("A frame in a player's colour and their mark framed twice: their station.")),
            ([Factory.FrameSample()],
             _("A white frame: where the action being entered can go.")),
            ([Factory.BoardMark(text="A", shape="ship", color_name=color)],
             _("A round mark: a player's ship (on the jump gate at the start).")),
            ([Factory.BoardMark(text="A2", color_name=color)],
             _("A square mark: tiles reserved there (A2: two of A's).")),
            ([glyph(kind="gate"), glyph(kind="camera", ink=theme.ACCENT)],
             _("Jump gate: place, probes and the points they give at the end. The camera "
               "counts them as recorded (green) or not (amber, its count).")),
            ([glyph(kind="stations")], _("Stations built.")),
            ([glyph(kind="tiles")], _("Tiles held (their kinds stay hidden).")),
            ([glyph(kind="cards")], _("Cards in hand.")),
            ([Factory.Note(text=_("{points} pts").format(points=9), bold=True)],
             _("Points already won: the jump gate's place and the stations (the tiles "
               "count at the end). Chips left: tap the player's panel.")),
            ([], _("Tap a player's panel or a planet for all that is known of it.")),
        ]
        for icons, text in rows:
            row = Factory.LegendRow(text=text)
            for icon in icons:
                row.ids.icon.add_widget(icon)
            self.ids.rows.add_widget(row)
