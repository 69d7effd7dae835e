"""One look for every screen, kept in one place: palette, type scale, spacing, player colours.

Sizes are pixels of the official 800x480 display; the app multiplies them by ``app.scale``
(the window's size over 800x480), so every screen keeps its layout from 800x480 to 1920x1080
and a touch target is never under 48 px.
"""

from __future__ import annotations

BASE_SIZE = (800, 480)

# -- palette (RGBA) ---------------------------------------------------------------------------
BACKGROUND = (0.07, 0.08, 0.11, 1)
PANEL = (0.12, 0.14, 0.19, 1)
SCRIM = (0, 0, 0, 0.6)
"""What dims the screen behind every dialog (the same for each, so a dialog always looks like
one)."""
PANEL_HIGH = (0.18, 0.21, 0.28, 1)
PANEL_TURN = (0.24, 0.28, 0.38, 1)
"""The player whose turn it is stands out from the others."""
LINE = (0.28, 0.32, 0.42, 1)
TEXT = (0.94, 0.95, 0.97, 1)
MUTED = (0.66, 0.7, 0.77, 1)
ACCENT = (1.0, 0.74, 0.32, 1)
"""Banners and what needs the table's attention: the final round, a proposal."""
GOOD = (0.25, 0.62, 0.38, 1)
DONE = (0.56, 0.86, 0.62, 1)
"""Text saying something worked (GOOD is too dark to read as text)."""
DANGER = (0.78, 0.28, 0.28, 1)
REFUSAL = (0.3, 0.12, 0.13, 1)
"""Behind a refusal: the rule a tap broke is read, not missed."""
BUTTON = (0.23, 0.29, 0.41, 1)
BUTTON_DOWN = (0.33, 0.42, 0.58, 1)
UNAVAILABLE = (0.13, 0.15, 0.19, 1)
"""An action that cannot be taken now: flat and dim, but it still answers a tap with why."""
TEXT_UNAVAILABLE = (0.46, 0.49, 0.56, 1)
TARGET = (1.0, 1.0, 1.0, 1)
"""The outline of a planet that is a target of the action being entered: white, which no
player colour is, so a target never looks like a station."""
PICKED = ACCENT
"""The outline of a picked choice (a button, a tile picture): never white, which marks the
board's targets alone."""

#: Coordinate badges as printed: blue jump, green scan, orange landing.
COORDINATE = {"B": (0.18, 0.45, 0.9, 1), "G": (0.15, 0.6, 0.32, 1),
              "O": (0.93, 0.5, 0.1, 1)}

#: Player colours as the game's pieces are (a true red, not an orange), told apart by
#: colour-blind players too: they differ in lightness as well as hue, and are always shown
#: with the name and mark. Black chips are drawn dark with a light ring, so they show on the
#: dark screen.
PLAYER = {"red": (0.86, 0.2, 0.18, 1), "blue": (0.2, 0.5, 0.92, 1),
          "green": (0.0, 0.62, 0.45, 1), "yellow": (0.94, 0.89, 0.26, 1),
          "black": (0.1, 0.1, 0.1, 1)}
PLAYER_FRAME = {**PLAYER, "black": (0.6, 0.62, 0.68, 1)}
"""A player's colour as a frame or an outline: a black one is drawn grey, or it would vanish
on the dark screen. A thick frame (a station, the player whose turn it is) gets a core of
``FRAME_CORE`` in ``PLAYER`` over it, so black shows as black between grey rims: grey alone
looked white, and a white frame means a target."""
FRAME_CORE = 2.0
"""The width of a thick frame's core (px at 800x480)."""
PLAYER_INK = {"red": (1, 1, 1, 1), "blue": (1, 1, 1, 1), "green": (1, 1, 1, 1),
              "yellow": (0.1, 0.1, 0.1, 1), "black": (1, 1, 1, 1)}
"""Text drawn on a player's colour."""
RING = (0.85, 0.87, 0.9, 1)
"""The outline every chip gets: it keeps a black chip visible."""

#: Tile pictures: the colour of each kind (space is the dark starry back).
TILE = {"MIN-R": (0.82, 0.2, 0.2, 1), "MIN-P": (0.58, 0.3, 0.75, 1),
        "MIN-G": (0.2, 0.65, 0.3, 1), "MIN-B": (0.2, 0.45, 0.85, 1),
        "ALI-N": (0.55, 0.38, 0.22, 1), "ALI-B": (0.25, 0.55, 0.9, 1),
        "MAT-G": (0.25, 0.72, 0.45, 1), "MAT-B": (0.3, 0.5, 0.95, 1),
        "WAT": (0.3, 0.75, 0.95, 1), "MED": (0.92, 0.75, 0.2, 1),
        "SPC": (0.05, 0.06, 0.15, 1), None: (0.35, 0.37, 0.42, 1)}

TILE_FACE = (0.86, 0.82, 0.72, 1)
"""The cardboard a tile picture is drawn on."""

#: Score chart: one colour per category, from the Okabe-Ito palette (told apart by colour-blind
#: players too); space's minus points are also hatched, so they never read as a gain.
CATEGORY = {"jump_gate": (0.0, 0.45, 0.7, 1), "station_points": (0.62, 0.62, 0.62, 1),
            "minerals": (0.8, 0.47, 0.65, 1), "aliens": (0.9, 0.62, 0.0, 1),
            "matter": (0.0, 0.62, 0.45, 1), "water": (0.34, 0.71, 0.91, 1),
            "medals": (0.94, 0.89, 0.26, 1), "space": (0.84, 0.37, 0.0, 1)}
HATCH = (0.07, 0.08, 0.11, 0.8)
"""The stripes over the minus points."""

# -- type scale (px at 800x480) ---------------------------------------------------------------
READABLE = 14
"""The smallest text a player must read, from across the table on the 7-inch screen: a label
shrinks to fit no further (tests/ui_geometry.py holds every screen to it)."""
SMALL = 14
BODY = 15
LARGE = 18
TITLE = 22
HUGE = 28

# -- spacing (px at 800x480) ------------------------------------------------------------------
GAP = 4
PAD = 8
WIDE = 12
TOUCH = 48
"""The smallest touch target."""
RADIUS = 8


def scale_for(width: float, height: float) -> float:
    """How much larger than 800x480 a window is: the layout grows with it, never clips."""
    return max(0.5, min(width / BASE_SIZE[0], height / BASE_SIZE[1]))


def hex_color(rgba: tuple[float, ...]) -> str:
    """For Kivy markup: ``[color=...]``."""
    return "".join(f"{int(round(c * 255)):02x}" for c in rgba[:3])
