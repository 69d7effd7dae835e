"""Widgets shared by the screens: the ring of planets, the score chart, colour helpers."""

from __future__ import annotations

import math
from collections.abc import Callable

from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.properties import ListProperty, ObjectProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.rules import Event
from companion.scoring import Standings
from companion.tracker import TrackerView

PLAYER_RGBA = {"red": (0.86, 0.2, 0.2, 1), "blue": (0.2, 0.45, 0.9, 1),
               "green": (0.2, 0.7, 0.3, 1), "yellow": (0.95, 0.8, 0.15, 1),
               "black": (0.55, 0.55, 0.55, 1)}
"""Black chips are drawn grey so they show on the dark screen; names always go with colours."""

CATEGORY_RGBA = {"jump_gate": (0.3, 0.6, 0.95, 1), "station_points": (0.7, 0.7, 0.75, 1),
                 "minerals": (0.8, 0.35, 0.35, 1), "aliens": (0.6, 0.45, 0.3, 1),
                 "matter": (0.3, 0.75, 0.5, 1), "water": (0.35, 0.7, 0.95, 1),
                 "medals": (0.95, 0.8, 0.3, 1)}


def fill_proposals(box: Widget, view: TrackerView, confirm: Callable[[Event], None],
                   prefix: str = "Confirm") -> None:
    """The camera's proposals as one-tap confirm buttons, then its flags, into ``box``."""
    from kivy.factory import Factory
    box.clear_widgets()
    for proposal in view.proposals:
        button = Factory.BigButton(text=f"{prefix}: {proposal.text}\n({proposal.source})",
                                   background_color=(0.3, 0.7, 0.4, 1))
        button.bind(on_release=lambda _, p=proposal: confirm(p.event))
        box.add_widget(button)
    for flag in view.flags:
        box.add_widget(Factory.Caption(text=f"[color=ffb74d]{flag}[/color]"))


class RingView(Widget):
    """The 8 planets around the jump gate, with what the table shows of each."""

    standings: Standings | None = ObjectProperty(None, allownone=True)
    highlight = ListProperty([])
    """Planet names offered as targets right now."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._labels: list[Label] = []
        self.bind(pos=self._redraw, size=self._redraw, standings=self._redraw,
                  highlight=self._redraw)

    def _redraw(self, *_: object) -> None:
        self.canvas.before.clear()
        for label in self._labels:
            self.remove_widget(label)
        self._labels = []
        board = self.standings
        if board is None:
            return
        cx, cy = self.center
        rx, ry = self.width * 0.36, self.height * 0.36
        cell = min(self.width, self.height) * 0.25
        colors = {p.name: PLAYER_RGBA[p.color] for p in board.players}
        with self.canvas.before:
            Color(0.12, 0.14, 0.2, 1)
            Ellipse(pos=(cx - cell * 0.55, cy - cell * 0.55), size=(cell * 1.1, cell * 1.1))
            for i, planet in enumerate(board.planets):
                angle = math.pi / 2 - i * 2 * math.pi / 8  # clockwise from the top
                x, y = cx + rx * math.cos(angle), cy + ry * math.sin(angle)
                targeted = planet.name in self.highlight
                Color(*((0.25, 0.45, 0.3, 1) if targeted else (0.18, 0.2, 0.28, 1)))
                RoundedRectangle(pos=(x - cell / 2, y - cell / 2), size=(cell, cell), radius=[8])
                if planet.developer:
                    Color(*colors[planet.developer])
                    Line(rounded_rectangle=(x - cell / 2, y - cell / 2, cell, cell, 8), width=2.5)
                for k, name in enumerate(planet.ships):
                    Color(*colors[name])
                    Ellipse(pos=(x - cell / 2 + 6 + k * 14, y + cell / 2 - 18), size=(12, 12))
        for i, planet in enumerate(board.planets):
            angle = math.pi / 2 - i * 2 * math.pi / 8
            x, y = cx + rx * math.cos(angle), cy + ry * math.sin(angle)
            lines = [f"[b]{planet.name}[/b]", f"{planet.tiles_left} tiles"]
            if planet.revealed:
                lines.append(f"[color=ffd54f]{planet.revealed_space} space up[/color]")
            if planet.developer:
                lines.append(f"station: {planet.developer}")
            if planet.reserved_by:
                lines.append("scanned: " + ", ".join(sorted(set(planet.reserved_by))))
            if planet.ships:
                lines.append("ships: " + ", ".join(planet.ships))
            self._add_label("\n".join(lines), (x - cell / 2, y - cell / 2), (cell, cell))
        ranked = sorted((p for p in board.players if p.probes), key=lambda p: p.gate_place)
        gate = [f"{p.gate_place}{'=' if p.gate_tied else '.'} {p.name} {p.probes}"
                for p in ranked]
        self._add_label("[b]jump gate[/b]\n" + ("\n".join(gate) or "no probes"),
                        (cx - cell / 2, cy - cell / 2), (cell, cell))

    def _add_label(self, text: str, pos: tuple[float, float], size: tuple[float, float]) -> None:
        label = Label(text=text, markup=True, pos=pos, size=size, halign="center",
                      valign="middle", font_size="11sp", text_size=size)
        self._labels.append(label)
        self.add_widget(label)


class BarChart(Widget):
    """Stacked bars: each player's points by category."""

    rows = ListProperty([])
    """(name, {category: points}) per player."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._labels: list[Label] = []
        self.bind(pos=self._redraw, size=self._redraw, rows=self._redraw)

    def _redraw(self, *_: object) -> None:
        self.canvas.before.clear()
        for label in self._labels:
            self.remove_widget(label)
        self._labels = []
        if not self.rows:
            return
        top = max(1, max(sum(max(0, v) for v in parts.values()) for _, parts in self.rows))
        band = self.height / len(self.rows)
        name_w = self.width * 0.22
        with self.canvas.before:
            for k, (_, parts) in enumerate(self.rows):
                y = self.top - (k + 1) * band + band * 0.15
                x = self.x + name_w
                for category, points in parts.items():
                    if points <= 0:
                        continue
                    w = (self.width - name_w) * points / top
                    Color(*CATEGORY_RGBA.get(category, (0.8, 0.8, 0.8, 1)))
                    Rectangle(pos=(x, y), size=(w, band * 0.7))
                    x += w
        for k, (name, _) in enumerate(self.rows):
            y = self.top - (k + 1) * band
            label = Label(text=name, pos=(self.x, y), size=(name_w, band), font_size="14sp",
                          text_size=(name_w, band), halign="left", valign="middle")
            self._labels.append(label)
            self.add_widget(label)
