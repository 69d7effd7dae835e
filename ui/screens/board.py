"""The board as the table looks: the 8 planets on the ring around the jump gate.

The ring is laid out as the eight cells around a 3x3 grid's centre, clockwise from the top, so
every planet gets the room of a ninth of the board and ring neighbours stay side by side; a
line through the cells draws the ring. Each planet shows its name, its printed coordinates as
coloured badges (blue jump, green scan, two orange landing), the tiles left in its stack (the
face-up space tiles, once revealed), the station in its builder's colour, the ships there and
who has reserved tiles there. The jump gate in the middle shows each player's probes and place.

A tap on a planet makes it the target of the action being entered, or opens what is known of it.
"""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.graphics import Color, Line
from kivy.properties import (BooleanProperty, DictProperty, ListProperty, NumericProperty,
                             ObjectProperty, StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label

from companion.rules import Planet
from companion.scoring import PlanetStanding, Standings, gate_points
from ui.i18n import _
from ui.screens import theme

#: (column, row) of each ring position, clockwise from the top, in a 3x3 grid.
RING_CELLS = ((1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1), (0, 0))


class Badge(Label):
    """A printed coordinate: its number on a disc of its colour."""

    code = StringProperty("B")


class PlanetView(ButtonBehavior, BoxLayout):
    planet = ObjectProperty(None, allownone=True)
    """The printed planet (name and coordinates)."""
    standing = ObjectProperty(None, allownone=True)
    """What the table shows of it now (PlanetStanding)."""
    colors = DictProperty({})
    """Player name -> colour name."""
    marks = DictProperty({})
    """Player name -> short mark."""
    target = BooleanProperty(False)
    dimmed = BooleanProperty(False)
    developer_color = ObjectProperty(None, allownone=True)

    def on_standing(self, *_args: object) -> None:
        standing: PlanetStanding | None = self.standing
        self.developer_color = (None if standing is None or standing.developer is None
                                else self.colors.get(standing.developer))
        ships = () if standing is None else standing.ships
        self._fill(self.ids.ships, [(name, 1, "ship") for name in ships])
        # the station's builder first, then the reservations
        builder = None if standing is None else standing.developer
        reserved = () if standing is None else standing.reserved_by
        counts = {name: reserved.count(name) for name in reserved}  # seat order kept
        self._fill(self.ids.reserved, ([] if builder is None else [(builder, 1, "station")])
                   + [(name, count, "square") for name, count in counts.items()])

    def _fill(self, row: BoxLayout, marks: list[tuple[str, int, str]]) -> None:
        """One mark per player: a reservation with its count ("A1", "A2"), so that a station
        (the initial alone, framed twice) is told from it without colour."""
        row.clear_widgets()
        for name, count, shape in marks:
            text = self.marks.get(name, "?") + (str(count) if shape == "square" else "")
            row.add_widget(Factory.BoardMark(text=text, shape=shape,
                                             color_name=self.colors.get(name, "black")))


class GateRow(BoxLayout):
    place = NumericProperty(0)
    tied = BooleanProperty(False)
    name = StringProperty("")
    color_name = StringProperty("red")
    probes = NumericProperty(0)
    points = NumericProperty(0)
    mark = StringProperty("")
    counted = NumericProperty(-1)
    """The camera's count of this player's probes on the gate (-1: not counted); shown in
    place of the points when it is not the record's."""


class GateView(BoxLayout):
    """The jump gate: every player with probes on it, by place, with the points it gives, and
    the ships waiting on it. Where the camera follows the pieces, a camera beside the title
    says whether it counts the same probes (green) or not (amber, with its count on the row
    it differs on)."""

    standings = ObjectProperty(None, allownone=True)
    colors = DictProperty({})
    marks = DictProperty({})
    counted = DictProperty({})
    """Each colour's probes as the camera counts them (only colours it is sure of)."""
    camera = StringProperty("")
    """``same`` or ``differs`` when the camera counts the gate, else ''."""

    def on_counted(self, *_args: object) -> None:
        self.on_standings()

    def on_standings(self, *_args: object) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        board: Standings | None = self.standings
        if board is None:
            self.ids.ships.clear_widgets()
            self.camera = ""
            return
        counted = {p.name: self.counted[p.color] for p in board.players
                   if p.color in self.counted}
        self.camera = "" if not counted else "same" if all(
            counted[p.name] == p.probes for p in board.players if p.name in counted) \
            else "differs"
        points = gate_points([p.probes for p in board.players])
        ranked = sorted(((p, pts) for p, pts in zip(board.players, points)
                         if p.probes or counted.get(p.name)),
                        key=lambda item: item[0].gate_place or 99)
        for player, pts in ranked:
            rows.add_widget(Factory.GateRow(place=player.gate_place or 0,
                                            tied=player.gate_tied, name=player.name,
                                            color_name=player.color, probes=player.probes,
                                            points=pts, mark=self.marks.get(player.name, "?"),
                                            counted=counted.get(player.name, -1)))
        if not ranked:
            rows.add_widget(Factory.GateNote(text=_("no probes yet")))
        ships = self.ids.ships
        ships.clear_widgets()
        for player in board.players:
            if player.at is None:  # the ship waits on the gate (the start, or after a jump)
                ships.add_widget(Factory.BoardMark(text=self.marks.get(player.name, "?"),
                                                   shape="ship", color_name=player.color))


class RingBoard(FloatLayout):
    standings = ObjectProperty(None, allownone=True)
    planets = ListProperty([])
    """The printed planets, in ring order (the set-up's)."""
    targets = ListProperty([])
    """Planet names offered as targets of the action being entered."""
    colors = DictProperty({})
    marks = DictProperty({})
    counted = DictProperty({})
    """The jump gate's probes per colour as the camera counts them (empty: not followed)."""

    __events__ = ("on_planet",)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._views: list[PlanetView] = []
        self.gate = Factory.GateView(size_hint=(None, None))
        self.add_widget(self.gate)
        for index in range(len(RING_CELLS)):
            view = Factory.PlanetView(size_hint=(None, None))
            view.bind(on_release=lambda _w, i=index: self._tapped(i))
            self._views.append(view)
            self.add_widget(view)
        self._place = Clock.create_trigger(self._layout, -1)
        self._update = Clock.create_trigger(self._refresh, -1)
        self.fbind("pos", self._place)
        self.fbind("size", self._place)
        for name in ("standings", "planets", "targets", "colors", "marks", "counted"):
            self.fbind(name, self._update)

    def on_planet(self, name: str) -> None:
        """A planet was tapped (its name)."""

    def _tapped(self, index: int) -> None:
        if index < len(self.planets):
            self.dispatch("on_planet", self.planets[index].name)

    def _layout(self, *_args: object) -> None:
        scale = App.get_running_app().scale
        gap = theme.GAP * scale
        cell_w, cell_h = self.width / 3, self.height / 3
        for view, (col, row) in zip(self._views, RING_CELLS):
            view.pos = (self.x + col * cell_w + gap / 2, self.top - (row + 1) * cell_h + gap / 2)
            view.size = (cell_w - gap, cell_h - gap)
        self.gate.pos = (self.x + cell_w + gap / 2, self.y + cell_h + gap / 2)
        self.gate.size = (cell_w - gap, cell_h - gap)
        self.canvas.before.clear()
        with self.canvas.before:  # the ring through the planets' centres
            Color(*theme.LINE)
            Line(rounded_rectangle=(self.x + cell_w / 2, self.y + cell_h / 2, 2 * cell_w,
                                    2 * cell_h, cell_w / 3), width=2 * scale)

    def _refresh(self, *_args: object) -> None:
        board: Standings | None = self.standings
        entering = bool(self.targets)
        for index, view in enumerate(self._views):
            planet: Planet | None = self.planets[index] if index < len(self.planets) else None
            view.colors, view.marks = dict(self.colors), dict(self.marks)
            view.planet = planet
            view.standing = None if board is None else board.planets[index]
            view.target = planet is not None and planet.name in self.targets
            view.dimmed = entering and not view.target
        self.gate.colors, self.gate.marks = dict(self.colors), dict(self.marks)
        self.gate.counted = dict(self.counted)
        self.gate.standings = board
