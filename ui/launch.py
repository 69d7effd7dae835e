"""Starting the table app: Kivy is told how to behave before it is first imported (no argument
parsing of its own, its settings in the companion's home, the window's size or full screen, one
touch provider on the kiosk), then the app runs.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

from companion.library import default_home
from ui.system import keep_heap_compact, keyboard_attached, kiosk_touch_config


def _no_cut_buffer_notice(record: logging.LogRecord) -> bool:
    """Drops Kivy's report that it found no cut-buffer tool: none is looked for."""
    return not str(record.msg).startswith("Cutbuffer: Unable to find any valuable")


def prepare_kivy(home: Path, size: tuple[int, int] | None = None,
                 fullscreen: bool = False) -> None:
    """Must run before the first ``import kivy``. Without a size the window fills the screen:
    full screen on the kiosk, maximised on a desktop."""
    keep_heap_compact()
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_HOME", str(home / "kivy"))
    kivy_home = Path(os.environ["KIVY_HOME"])
    try:
        kivy_home.mkdir(parents=True, exist_ok=True)
        writable = os.access(kivy_home, os.W_OK)
    except OSError:
        writable = False
    if not writable:  # a read-only home: Kivy's settings go to a temporary folder, the app
        # starts, and its home screen says why no game can be saved
        os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="companion-kivy-")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # no probing for X clipboard tools
    import kivy
    from kivy.config import Config
    # nor for X cut-buffer tools (xclip, xsel: a second probe KIVY_CLIPBOARD does not reach,
    # made when a text field is first used): the kiosk has none, and each failed probe
    # wrote a stack trace to the log
    kivy.kivy_options["cutbuffer"] = ()
    logging.getLogger("kivy").addFilter(_no_cut_buffer_notice)
    kiosk = fullscreen or bool(os.environ.get("COMPANION_KIOSK"))
    if size is not None:
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
        Config.set("graphics", "window_state", "visible")
    elif not kiosk:
        Config.set("graphics", "window_state", "maximized")
    if kiosk:
        if size is None:
            Config.set("graphics", "fullscreen", "auto")
        # names typed on a keyboard when one is plugged in, else on Kivy's docked one
        Config.set("kivy", "keyboard_mode", "system" if keyboard_attached() else "dock")
        kiosk_touch_config(Config)
    else:
        Config.set("kivy", "keyboard_mode", "system")
        Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "exit_on_escape", "0")


def run(camera: str = "auto", home: Path | None = None, auto_confirm: bool = False,
        fullscreen: bool = False, size: tuple[int, int] | None = None) -> None:
    home = home or default_home()
    prepare_kivy(home, size, fullscreen)
    from ui.app import CompanionApp
    CompanionApp(camera=camera, home=home, auto_confirm=auto_confirm,
                 fill_screen=size is None).run()
