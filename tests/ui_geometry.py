"""A geometric check of what a player sees: over the visible widget tree, no two labels or
buttons overlap, none is cut by its parent or the window, no text spills out of its widget, and
every touch target is at least 48 px. Used by the UI driver on every screen and state."""

from __future__ import annotations

import re

from kivy.core.text import Label as CoreLabel
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

TOUCH = 48
READABLE = 14
"""The smallest text, in px at 800x480 (the layout's scale times this at larger windows): a
label shrunk under it to fit is too small to read at arm's length on the 7-inch screen."""
SLACK = 1.0
"""Pixels of rounding a layout may leave."""


def window_rect(widget: Widget) -> tuple[float, float, float, float]:
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _shown(widget: Widget) -> bool:
    node: Widget | None = widget
    while node is not None and isinstance(node, Widget):
        if node.opacity <= 0.01:
            return False
        node = node.parent
    return widget.width > 0.5 and widget.height > 0.5


def _visible_parts(root: Widget) -> list[Widget]:
    """Labels, buttons and text fields a player can see (empty labels hold no text)."""
    found = []
    for widget in root.walk(restrict=True):
        if not _shown(widget):
            continue
        if isinstance(widget, ButtonBehavior | TextInput):
            found.append(widget)
        elif isinstance(widget, Label) and widget.text.strip():
            found.append(widget)
    return found


def _inside(inner: tuple, outer: tuple) -> bool:
    return (inner[0] >= outer[0] - SLACK and inner[1] >= outer[1] - SLACK
            and inner[2] <= outer[2] + SLACK and inner[3] <= outer[3] + SLACK)


def _overlap(a: tuple, b: tuple) -> bool:
    return (min(a[2], b[2]) - max(a[0], b[0]) > SLACK
            and min(a[3], b[3]) - max(a[1], b[1]) > SLACK)


def _clip(rect: tuple, frame: tuple) -> tuple | None:
    clipped = (max(rect[0], frame[0]), max(rect[1], frame[1]), min(rect[2], frame[2]),
               min(rect[3], frame[3]))
    if clipped[2] - clipped[0] <= SLACK or clipped[3] - clipped[1] <= SLACK:
        return None  # scrolled out of sight
    return clipped


def _box(rect: tuple) -> str:
    return f"[{rect[0]:.0f},{rect[1]:.0f} {rect[2] - rect[0]:.0f}x{rect[3] - rect[1]:.0f}]"


def _ancestors(widget: Widget) -> list[Widget]:
    chain = []
    node = widget.parent
    while node is not None and isinstance(node, Widget):
        chain.append(node)
        node = node.parent
    return chain


def _name(widget: Widget) -> str:
    text = getattr(widget, "text", "")
    holder = widget.parent.parent if widget.parent is not None else None
    return f"{type(widget).__name__}({text[:24]!r}) in {type(holder).__name__}"


def _broken_word(label: Label) -> str:
    """A word wider than the line a wrapping label gives it (Kivy breaks it mid-word), if
    any. A shortened label ("…") does not wrap."""
    width = label.text_size[0] if label.text_size else None
    if width is None or label.shorten or label.markup:
        return ""
    room = width - 2 * label.padding[0]  # Kivy breaks a word wider by a fraction of a px
    for word in label.text.split():
        measure = CoreLabel(font_size=label.font_size, font_name=label.font_name,
                            bold=label.bold)
        if measure.get_extents(word)[0] > room:
            return word
    return ""


def _lines_dropped(label: Label) -> bool:
    """A label whose text box has a height (asked for the top) shows only the lines that fit
    it: Kivy drops the rest, and its texture still "fits"."""
    if not label.text_size or label.text_size[1] is None or label.shorten or label.markup:
        return False
    shown = sum(len(word.text.replace(" ", "")) for line in label._label._cached_lines
                for word in line.words)
    return shown < len("".join(label.text.split()))


def _wraps(label: Label) -> bool:
    """A button whose one-line words Kivy wrapped onto more lines ("End game…" at 1280x800)."""
    if not isinstance(label, ButtonBehavior) or "\n" in label.text or label.markup:
        return False
    lines = [line for line in label._label._cached_lines if line.words]
    return len(lines) > 1


def layout_problems(window: Widget, scale: float = 1.0) -> list[str]:
    """Everything wrong with what the window shows now, in words (empty when all is well)."""
    roots = [w for w in window.children if isinstance(w, ModalView)] or list(window.children)
    top = roots[0]  # a modal view covers what lies under it
    width, height = window.size
    screen = (0.0, 0.0, float(width), float(height))
    problems = []
    rects = {}
    parts = []
    lineages = {}
    for widget in _visible_parts(top):
        rect = window_rect(widget)
        chain = _ancestors(widget)
        for scroller in (a for a in chain if isinstance(a, ScrollView)):
            rect = _clip(rect, window_rect(scroller))  # what a scroll view holds shows inside it
        if rect is not None:
            rects[id(widget)] = rect
            lineages[id(widget)] = chain
            parts.append(widget)
    for widget in parts:
        rect = rects[id(widget)]
        chain = lineages[id(widget)]
        if not _inside(rect, screen):
            problems.append(f"{_name(widget)} is cut by the window")
        for ancestor in chain:
            if isinstance(ancestor, ScrollView):
                break  # what a scroll view holds may lie beyond it: it scrolls there
            if ancestor.width > 0 and not _inside(rect, window_rect(ancestor)):
                problems.append(f"{_name(widget)} {_box(rect)} is cut by its parent "
                                f"{_name(ancestor)} {_box(window_rect(ancestor))}")
                break
        if isinstance(widget, Label) and widget.text.strip():
            tw, th = widget.texture_size
            if tw > widget.width + SLACK or th > widget.height + SLACK:
                problems.append(f"{_name(widget)}: its text ({tw}x{th}) does not fit "
                                f"{widget.width:.0f}x{widget.height:.0f}")
            # (Kivy's own default is "bottom", unset: only "top" is asked for here)
            unsized = not widget.text_size or widget.text_size[1] is None
            if widget.valign == "top" and unsized and th < widget.height - SLACK:
                problems.append(f"{_name(widget)}: its text floats in the middle of its box, "
                                "not at its top")
            if _lines_dropped(widget):
                problems.append(f"{_name(widget)}: its last lines are cut off")
            if _wraps(widget):
                problems.append(f"{_name(widget)}: a button's words wrap onto two lines")
            broken = _broken_word(widget)
            if broken:
                problems.append(f"{_name(widget)}: the word {broken!r} breaks across lines")
            if widget.font_size < READABLE * scale - 0.5:
                problems.append(f"{_name(widget)}: its text is {widget.font_size:.1f} px, "
                                f"under {READABLE * scale:.1f} px")
        if isinstance(widget, ButtonBehavior | TextInput) and not widget.disabled:
            if min(widget.width, widget.height) < TOUCH - SLACK:
                problems.append(f"{_name(widget)} is a touch target of "
                                f"{widget.width:.0f}x{widget.height:.0f}, under {TOUCH} px")
    kin = {key: set(map(id, chain)) for key, chain in lineages.items()}
    for i, a in enumerate(parts):
        for b in parts[i + 1:]:
            if id(b) in kin[id(a)] or id(a) in kin[id(b)]:
                continue
            if _overlap(rects[id(a)], rects[id(b)]):
                problems.append(f"{_name(a)} overlaps {_name(b)}")
    return problems


MARKED = re.compile("\u2039[^\u2039\u203a]*\u203a")
"""A string that went through a catalogue, in the pseudo language: ‹text›."""


def untranslated(window: Widget, data: set[str]) -> list[str]:
    """Visible text that never went through a catalogue (run in the pseudo language): what is
    left of each label once the marked parts, the data (names) and figures are taken out."""
    roots = [w for w in window.children if isinstance(w, ModalView)] or list(window.children)
    found = []
    for widget in _visible_parts(roots[0]):
        text = getattr(widget, "text", "")
        if not isinstance(text, str) or len(text.strip()) <= 2:
            continue  # a mark or a figure: "A", "B2", "7", "?"
        rest = text
        while MARKED.search(rest):  # translations hold translations: innermost first
            rest = MARKED.sub(" ", rest)
        for word in sorted(data, key=len, reverse=True):
            rest = rest.replace(word, " ")
        if any(c.isalpha() for c in rest):
            found.append(f"{_name(widget)} is not translated: {rest.strip()[:40]!r}")
    return found
