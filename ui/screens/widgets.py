"""Widgets the screens share: text that always fits, buttons that always answer, player chips
and tokens, tile pictures, guard dialogs, the score chart with its legend, and a QR code.

Behaviour only; how they look is in ``widgets.kv`` and ``theme.py``.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Sequence

import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.core.image import Image as CoreImage
from kivy.core.text import DEFAULT_FONT, Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, RoundedRectangle, Triangle
from kivy.graphics.texture import Texture
from kivy.properties import (BooleanProperty, ListProperty, NumericProperty, ObjectProperty,
                             OptionProperty, StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from ui.screens import theme


LONGEST_WORD = 80
"""Letters in the longest word a label shows whole: German's long compounds have about 30, a
folder's path (where an export went) 50 or so; a name set up here 16."""
TOO_LONG = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")


def short_words(text: str) -> str:
    """The text with any word no language has (a record's 10,000-letter name) cut short:
    wrapping such a word, at each size tried, would hold the screen for minutes. Only the
    screen shortens it; the record keeps it whole."""
    return TOO_LONG.sub(lambda word: word[0][:LONGEST_WORD - 1] + "…", text)


class FitLabel(Label):
    """A label whose text always fits its box: it wraps, and shrinks its font (down to
    ``min_font``) rather than spill over or be cut."""

    max_font = NumericProperty(theme.BODY)
    min_font = NumericProperty(theme.READABLE)
    one_line = BooleanProperty(False)
    """Shrink to stay on one line, down to ``ONE_LINE_FLOOR`` of ``max_font``, before
    wrapping (a button's words: "Partie beenden …" on two lines reads as two buttons)."""
    cut = BooleanProperty(False)
    """A one-line summary that may end in "…" once shrunk to ``min_font`` (the whole text is
    a tap away), rather than stay too small to read."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._refit = Clock.create_trigger(self._fit, -1)
        self.fbind("size", self._refit)
        self.fbind("text", self._shorten_words)
        self.fbind("text", self._refit)
        self._shorten_words()
        self.fbind("max_font", self._refit)
        self.fbind("min_font", self._refit)
        self.fbind("cut", self._refit)
        self.fbind("one_line", self._refit)
        self.fbind("padding", self._refit)
        self._refit()

    def _shorten_words(self, *_args: object) -> None:
        self.text = short_words(self.text)

    def _fit(self, *_args: object) -> None:
        if self.width <= 1 or self.height <= 1:
            return
        room = max(1.0, self.width - 2 * self.padding[0])  # Kivy wraps inside the padding
        self.text_size = (self.width, None)
        self.shorten = False
        words = self.text.split()
        size = float(self.max_font)
        while True:
            self.font_size = size
            self.texture_update()
            width, height = self.texture_size
            fits = width <= self.width + 0.5 and height <= self.height + 0.5
            if fits and words:  # a word never breaks in the middle: shrink instead
                fits = _widest(words, size, self.font_name, self.bold) <= room
            if fits and self.one_line and size > ONE_LINE_FLOOR * self.max_font:
                fits = _widest([self.text], size, self.font_name, self.bold) <= room
            if fits or size <= self.min_font:
                break
            size = max(float(self.min_font), size - max(0.5, size * 0.08))
        if not fits and self.cut:
            self.shorten = True
            self.texture_update()
        if self.valign != "middle":  # measured by its lines' height; placed in the whole box
            self.text_size = (self.width, self.height)


ONE_LINE_FLOOR = 0.8
"""How far a one-line label shrinks (a part of its largest font) before it may wrap."""


def _widest(words: list[str], size: float, font: str, bold: bool) -> float:
    measure = CoreLabel(font_size=size, font_name=font, bold=bold)
    return max(measure.get_extents(word)[0] for word in words)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn on one line at ``size`` px in the app's font."""
    return _widest([text], size, DEFAULT_FONT, bold)


class TouchButton(ButtonBehavior, FitLabel):
    """A button that looks like one. ``available`` False draws it flat and dim, but it still
    answers a tap (with why it is unavailable): players learn from a tap, not from silence."""

    role = OptionProperty("plain", options=["plain", "primary", "good", "danger", "quiet"])
    available = BooleanProperty(True)
    selected = BooleanProperty(False)
    """A choice that is currently picked (drawn with the accent outline)."""


class Chip(Label):
    """A player's colour as a round chip with their initials: colour and name go together."""

    color_name = StringProperty("red")


class PlayerMark(Label):
    """A small square in a player's colour with their initials (reservations, ships, a
    station)."""

    color_name = StringProperty("red")
    shape = OptionProperty("square", options=["square", "ship", "station"])


class DrawnWidget(Widget):
    """A widget that draws itself on its canvas (``_draw``), once per frame at most, again
    whenever its position, size or one of ``REDRAWN_BY`` changes."""

    REDRAWN_BY: tuple[str, ...] = ()

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._redraw = Clock.create_trigger(self._draw, -1)
        for name in ("pos", "size", *self.REDRAWN_BY):
            self.fbind(name, self._redraw)
        self._redraw()

    def _draw(self, *_args: object) -> None:
        raise NotImplementedError


class TileIcon(DrawnWidget):
    """A picture of a tile kind, drawn: a mineral's crystal, an alien's face, matter's atom,
    a water drop, a medal's star, the space tile's stars; a question mark when unknown."""

    kind = StringProperty("", allownone=True)
    REDRAWN_BY = ("kind",)

    def _draw(self, *_args: object) -> None:
        self.canvas.clear()
        side = min(self.width, self.height)
        if side <= 2:
            return
        x, y = self.center_x - side / 2, self.center_y - side / 2
        kind = self.kind or None
        color = theme.TILE.get(kind, theme.TILE[None])
        with self.canvas:
            Color(*theme.TILE_FACE)
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.14])
            if kind == "SPC":  # the night sky inside a cardboard rim: seen on a dark screen
                Color(*theme.TILE["SPC"])
                inset = side * 0.12
                RoundedRectangle(pos=(x + inset, y + inset), size=(side - 2 * inset,) * 2,
                                 radius=[side * 0.08])
            Color(*color)
            cx, cy, r = x + side / 2, y + side / 2, side * 0.32
            family = (kind or "?")[:3]
            if family == "MIN":
                Mesh(vertices=_flat([(cx, cy + r), (cx + r * 0.8, cy + r * 0.2),
                                     (cx + r * 0.5, cy - r), (cx - r * 0.5, cy - r),
                                     (cx - r * 0.8, cy + r * 0.2)]),
                     indices=[0, 1, 2, 0, 2, 3, 0, 3, 4], mode="triangles")
            elif family == "ALI":
                Ellipse(pos=(cx - r, cy - r * 0.9), size=(2 * r, 2 * r * 0.95))
                Color(0.05, 0.05, 0.05, 1)
                for dx in (-0.38, 0.38):
                    Ellipse(pos=(cx + dx * r - r * 0.18, cy), size=(r * 0.36, r * 0.44))
            elif family == "MAT":
                Line(ellipse=(cx - r, cy - r * 0.45, 2 * r, r * 0.9), width=max(1, side * 0.04))
                Line(ellipse=(cx - r * 0.45, cy - r, r * 0.9, 2 * r), width=max(1, side * 0.04))
                Ellipse(pos=(cx - r * 0.25, cy - r * 0.25), size=(r * 0.5, r * 0.5))
            elif family == "WAT":
                Ellipse(pos=(cx - r * 0.7, cy - r * 0.9), size=(r * 1.4, r * 1.4))
                Triangle(points=[cx - r * 0.66, cy - r * 0.05, cx + r * 0.66, cy - r * 0.05,
                                 cx, cy + r])
            elif family == "MED":
                points = []
                for k in range(10):
                    radius = r if k % 2 == 0 else r * 0.45
                    angle = math.pi / 2 + k * math.pi / 5
                    points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
                Mesh(vertices=_flat([(cx, cy), *points]),
                     indices=[i for k in range(10) for i in (0, 1 + k, 1 + (k + 1) % 10)],
                     mode="triangles")
            elif family == "SPC":
                Color(0.9, 0.9, 1, 1)
                for fx, fy, fs in ((0.24, 0.62, 0.1), (0.62, 0.7, 0.08), (0.5, 0.3, 0.12),
                                   (0.25, 0.26, 0.07), (0.7, 0.44, 0.07)):
                    Ellipse(pos=(x + fx * side, y + fy * side), size=(fs * side, fs * side))
            else:
                Color(0.2, 0.2, 0.22, 1)
                Line(circle=(cx, cy + r * 0.3, r * 0.55, -90, 180), width=max(1, side * 0.05))
                Line(points=[cx, cy + r * 0.3 - r * 0.55, cx, cy - r * 0.45],
                     width=max(1, side * 0.05))
                Ellipse(pos=(cx - side * 0.05, cy - r * 0.95), size=(side * 0.1, side * 0.1))


class StatGlyph(DrawnWidget):
    """The small icons of a player's token: the jump gate, a station, a tile, cards, a chip;
    and the camera, beside what it counts."""

    kind = StringProperty("tiles")
    ink = ListProperty(list(theme.MUTED))
    REDRAWN_BY = ("kind", "ink")

    def _draw(self, *_args: object) -> None:
        self.canvas.clear()
        side = min(self.width, self.height)
        if side <= 2:
            return
        x, y = self.center_x - side / 2, self.center_y - side / 2
        stroke = max(1.0, side * 0.08)
        with self.canvas:
            Color(*self.ink)
            if self.kind == "camera":  # a body filling the square, its lens, its finder
                Rectangle(pos=(x + side * 0.22, y + side * 0.78), size=(side * 0.3, side * 0.14))
                Line(rounded_rectangle=(x + side * 0.04, y + side * 0.16, side * 0.92,
                                        side * 0.62, side * 0.1), width=stroke)
                Ellipse(pos=(x + side * 0.3, y + side * 0.25), size=(side * 0.4, side * 0.4))
                Color(*theme.BACKGROUND)  # the lens's glass
                Ellipse(pos=(x + side * 0.4, y + side * 0.35), size=(side * 0.2, side * 0.2))
            elif self.kind == "gate":
                Line(circle=(x + side / 2, y + side / 2, side * 0.45), width=stroke)
                Line(circle=(x + side / 2, y + side / 2, side * 0.22), width=stroke)
            elif self.kind == "stations":
                Line(points=[x + side * 0.12, y + side * 0.08, x + side * 0.12, y + side * 0.55,
                             x + side * 0.5, y + side * 0.92, x + side * 0.88, y + side * 0.55,
                             x + side * 0.88, y + side * 0.08], width=stroke, close=True)
            elif self.kind == "tiles":
                Rectangle(pos=(x + side * 0.12, y + side * 0.12), size=(side * 0.76, side * 0.76))
            elif self.kind == "cards":
                Line(rectangle=(x + side * 0.1, y + side * 0.05, side * 0.5, side * 0.75),
                     width=stroke)
                Line(rectangle=(x + side * 0.38, y + side * 0.2, side * 0.5, side * 0.75),
                     width=stroke)
            else:  # chips: a little stack of them (the gate's icon is rings seen from above)
                for level in range(3):
                    Line(ellipse=(x + side * 0.1, y + side * (0.08 + level * 0.24), side * 0.8,
                                  side * 0.36), width=stroke)


class FadingScroll(ScrollView):
    """A vertical scroll view whose lower edge fades into the background while more lies
    below it: a line cut there reads as "more below", not as text cut in half."""

    fade = NumericProperty(22)
    """How tall the fade is (px)."""
    STEPS = 64

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        # one texture, opaque background at its foot to clear at its head: no bands
        ramp = np.zeros((self.STEPS, 1, 4), np.uint8)
        ramp[:, 0, :3] = [round(c * 255) for c in theme.BACKGROUND[:3]]
        ramp[:, 0, 3] = np.linspace(255, 0, self.STEPS).round()
        texture = Texture.create(size=(1, self.STEPS), colorfmt="rgba")
        texture.blit_buffer(ramp.tobytes(), colorfmt="rgba", bufferfmt="ubyte")
        with self.canvas.after:
            Color(1, 1, 1, 1)
            self._fade = Rectangle(texture=texture, size=(0, 0))
        redraw = Clock.create_trigger(self._draw, -1)
        self.fbind("pos", redraw)
        self.fbind("size", redraw)
        self.fbind("scroll_y", redraw)
        self.fbind("fade", redraw)
        self._redraw = redraw

    def add_widget(self, widget: Widget, *args: object, **kwargs: object) -> None:
        super().add_widget(widget, *args, **kwargs)
        widget.fbind("height", self._redraw)

    @property
    def fade_height(self) -> float:
        """How tall the fade is drawn now (0: none)."""
        return float(self._fade.size[1])

    def _draw(self, *_args: object) -> None:
        content = self.children[0] if self.children else None
        more_below = content is not None and content.height > self.height + 1 and \
            self.scroll_y > 0.001
        self._fade.pos = self.pos
        self._fade.size = (self.width, min(self.fade, self.height / 3) if more_below else 0)


def _flat(points: Sequence[tuple[float, float]]) -> list[float]:
    return [v for x, y in points for v in (x, y, 0, 0)]


class TileButton(ButtonBehavior, BoxLayout):
    """A tile kind to pick: its picture and name, and how many when counting."""

    kind = StringProperty("", allownone=True)
    text = StringProperty("")
    count = NumericProperty(-1)
    """-1: not counting (a choice); otherwise the count shown."""
    selected = BooleanProperty(False)


class Dialog(ModalView):
    """A question a stray tap cannot answer: two deliberate buttons, the safe one first."""

    title = StringProperty("")
    text = StringProperty("")
    confirm_text = StringProperty("")
    cancel_text = StringProperty("")
    confirm_role = StringProperty("danger")
    confirm_action = ObjectProperty(None, allownone=True)
    answered = BooleanProperty(False)
    """A dialog answers once: a second tap while it fades away does nothing."""

    def confirm(self) -> None:
        if self.answered:
            return
        self.answered = True
        self.dismiss()
        if self.confirm_action is not None:
            self.confirm_action()

    def cancel(self) -> None:
        if not self.answered:
            self.answered = True
            self.dismiss()


class InfoDialog(ModalView):
    """What is known of a planet or a player, in words, with one button to close."""

    title = StringProperty("")
    text = StringProperty("")


class ChartName(FitLabel):
    color_name = StringProperty("red")


class Swatch(DrawnWidget):
    """A category's colour as the chart draws it (hatched for minus points)."""

    category = StringProperty("minerals")
    REDRAWN_BY = ("category",)

    def _draw(self, *_args: object) -> None:
        self.canvas.clear()
        side = min(self.width, self.height)
        rect = (self.x, self.center_y - side / 2, side, side)
        with self.canvas:
            Color(*theme.CATEGORY[self.category])
            Rectangle(pos=rect[:2], size=rect[2:])
            if self.category == "space":
                hatch(rect, side / 3)


class CategoryIcon(BoxLayout):
    """A score category's picture: the tile picture of its kind (the tile picker's), or the
    gate or station icon; nothing for a category without one (the total)."""

    category = StringProperty("minerals")

    PICTURES = {"minerals": "MIN-R", "aliens": "ALI-N", "matter": "MAT-G", "water": "WAT",
                "medals": "MED", "space": "SPC"}
    GLYPHS = {"jump_gate": "gate", "station_points": "stations"}

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.fbind("category", self._build)
        self._build()

    @classmethod
    def has_picture(cls, category: str) -> bool:
        return category in cls.PICTURES or category in cls.GLYPHS

    def _build(self, *_args: object) -> None:
        self.clear_widgets()
        if self.category in self.PICTURES:
            self.add_widget(Factory.TileIcon(kind=self.PICTURES[self.category]))
        elif self.category in self.GLYPHS:
            self.add_widget(Factory.StatGlyph(kind=self.GLYPHS[self.category]))


class LegendEntry(BoxLayout):
    """A category's colour in the chart, its picture (the score sheet's column heads show
    only the picture) and its name."""

    category = StringProperty("minerals")
    text = StringProperty("")


def choice_button(text: str, role: str, action: Callable[[], object]) -> TouchButton:
    """A button that does ``action`` when tapped (the proposal cards' choices)."""
    button = Factory.TouchButton(text=text, role=role)
    button.bind(on_release=lambda _button: action())
    return button


def ask(title: str, text: str, confirm: str, cancel: str, confirm_action: Callable[[], None],
        role: str = "danger") -> Dialog:
    dialog = Factory.Dialog(title=title, text=text, confirm_text=confirm, cancel_text=cancel,
                            confirm_action=confirm_action, confirm_role=role)
    dialog.open()
    return dialog


class BarChart(DrawnWidget):
    """Each player's points by category, stacked; negative points (space tiles) go left of the
    zero line in red. The legend is a separate widget (``ChartLegend``)."""

    rows = ListProperty([])
    """(name, color name, {category: points}) per player, in seat order."""

    REDRAWN_BY = ("rows",)

    def __init__(self, **kwargs: object) -> None:
        self._labels: list[Label] = []
        super().__init__(**kwargs)

    def _draw(self, *_args: object) -> None:
        self.canvas.before.clear()
        for label in self._labels:
            self.remove_widget(label)
        self._labels = []
        if not self.rows:
            return
        scale = App.get_running_app().scale
        gained = max(1, max(sum(max(0, v) for v in parts.values()) for _, _, parts in self.rows))
        lost = max(0, max(sum(-min(0, v) for v in parts.values()) for _, _, parts in self.rows))
        band = self.height / len(self.rows)
        name_w = self.width * 0.24
        bars_w = self.width - name_w
        unit = bars_w / (gained + lost)
        zero = self.x + name_w + lost * unit
        with self.canvas.before:
            Color(*theme.LINE)
            Line(points=[zero, self.y, zero, self.top], width=1)
            for k, (_, _, parts) in enumerate(self.rows):
                y = self.top - (k + 1) * band + band * 0.18
                right, left = zero, zero
                for category, points in parts.items():
                    if not points:
                        continue
                    Color(*theme.CATEGORY.get(category, theme.MUTED))
                    w = abs(points) * unit
                    if points > 0:
                        Rectangle(pos=(right, y), size=(w, band * 0.64))
                        right += w
                    else:
                        left -= w
                        Rectangle(pos=(left, y), size=(w, band * 0.64))
                        hatch((left, y, w, band * 0.64), 6 * scale)
        for k, (name, color, _) in enumerate(self.rows):
            label = Factory.ChartName(text=name, color_name=color,
                                      pos=(self.x, self.top - (k + 1) * band),
                                      size=(name_w - 4 * scale, band))
            self._labels.append(label)
            self.add_widget(label)


def hatch(rect: tuple[float, float, float, float], step: float) -> None:
    """Diagonal stripes over ``rect`` (drawn into the current canvas): minus points."""
    x, y, w, h = rect
    Color(*theme.HATCH)
    offset = 0.0
    while offset < w + h:
        # one stripe of slope -1, from the bottom or right edge to the left or top edge
        x0, y0 = (x + offset, y) if offset <= w else (x + w, y + offset - w)
        x1, y1 = (x, y + offset) if offset <= h else (x + offset - h, y + h)
        Line(points=[x0, y0, x1, y1], width=max(1.0, step * 0.18))
        offset += step


class QRCode(ButtonBehavior, Image):
    """A QR code of ``data``, drawn with crisp modules (a phone scans it from the screen); a tap
    shows it as large as the screen allows."""

    data = StringProperty("")
    enlarged = BooleanProperty(False)
    """This one is the large view already: a tap closes it instead."""

    def on_data(self, *_args: object) -> None:
        if not self.data:
            self.texture = None
            return
        import segno
        buffer = io.BytesIO()
        # level L: the fewest modules, so each is as large as possible on the screen
        segno.make(self.data, error="l").save(buffer, kind="png", scale=4, border=4)
        buffer.seek(0)
        texture = CoreImage(buffer, ext="png").texture
        texture.mag_filter = "nearest"
        texture.min_filter = "nearest"
        self.texture = texture

    def on_release(self) -> None:
        if self.data and not self.enlarged:
            Factory.QRDialog(data=self.data).open()


class QRDialog(ModalView):
    """The QR code as large as the screen allows, on white: a phone held at arm's length reads
    it. A tap anywhere closes it."""

    data = StringProperty("")


class CameraThumb(Image):
    """What the camera sees now, small, with what it read outlined: cards green, stickers
    magenta. It follows the camera twice a second while it is on screen."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.fit_mode = "contain"
        self._event = Clock.schedule_interval(self.update, 0.5)

    def update(self, *_args: object) -> None:
        if self.get_root_window() is None:
            return
        app = App.get_running_app()
        frame = app.camera_frame()
        if frame is None:
            return
        import cv2
        import numpy as np
        small = cv2.resize(frame, (256, int(256 * frame.shape[0] / frame.shape[1])),
                           interpolation=cv2.INTER_AREA)
        factor = small.shape[1] / frame.shape[1]
        seen = app.session.camera_seen()
        for corners, color in [(c.corners, (0, 230, 0)) for c in seen.cards] + \
                [(t.corners, (255, 0, 255)) for t in seen.tiles]:
            points = (np.array(corners) * factor).astype(np.int32)
            cv2.polylines(small, [points], True, color, 2)
        rgb = cv2.cvtColor(cv2.flip(small, 0), cv2.COLOR_BGR2RGB)
        from kivy.graphics.texture import Texture
        texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.texture = texture


def player_marks(names: Sequence[str]) -> dict[str, str]:
    """Short marks that tell the players apart on the board: initials, two letters when two
    names share one."""
    marks: dict[str, str] = {}
    for name in names:
        letters = [c for c in name if c.isalnum()] or ["?"]
        first = letters[0].upper()
        clash = [n for n in names if n != name and ([c for c in n if c.isalnum()] or ["?"])[0]
                 .upper() == first]
        marks[name] = first + (letters[1].lower() if clash and len(letters) > 1 else "")
    return marks


class TapImage(Image):
    """A camera picture, shown whole; a touch on it is handed to the screen as a tap."""

    __events__ = ("on_tap",)

    def on_touch_down(self, touch):  # type: ignore[no-untyped-def]
        if self.collide_point(*touch.pos):
            self.dispatch("on_tap", touch)
            return True
        return super().on_touch_down(touch)

    def on_tap(self, touch) -> None:  # type: ignore[no-untyped-def]
        pass

    def image_point(self, pos: Sequence[float], shape: Sequence[int]
                    ) -> tuple[float, float] | None:
        """The pixel under ``pos`` (a touch's) of the picture of ``shape`` shown here; None
        off the picture (on the bars beside it)."""
        width, height = self.norm_image_size
        u = (pos[0] - (self.center_x - width / 2)) / width
        v = (pos[1] - (self.center_y - height / 2)) / height
        if not (0 <= u <= 1 and 0 <= v <= 1):
            return None
        return u * shape[1], (1 - v) * shape[0]

    def widget_point(self, point: tuple[float, float], shape: Sequence[int]
                     ) -> tuple[float, float]:
        """Where the pixel ``point`` of the picture of ``shape`` is shown here (in the
        coordinates of this widget's parent, as its ``pos``)."""
        width, height = self.norm_image_size
        return (self.center_x - width / 2 + point[0] / shape[1] * width,
                self.center_y - height / 2 + (1 - point[1] / shape[0]) * height)
