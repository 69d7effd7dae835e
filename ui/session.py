"""The controller under the screens: the game, the library, the box, the calibration and the
camera, with the actions the players can take.

Every action returns an ``Outcome``: whether it was done, and what to tell the players, in their
language. The screens show outcomes and bind to the app's copies of the state; they never hold a
second copy of the calibration or read a refusal back from a side field. Undo and redo are
journal events (the core keeps both), so they survive a restart. Kivy-free, so a whole game can
be driven and tested without a window.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from calibration.printables import print_markers, print_stickers
from calibration.table import CalibrationFailed, calibrate_table
from companion.backup import FOLDER, BackupError, back_up
from companion.box import BoxProfile, load_box, save_box
from companion.journal import Journal, JournalError, JournalWriteError
from companion.library import (ExportError, GameRecord, Library, bg_stats_link, record_of,
                               shown_names)
from companion.observations import Observation
from companion.rules import End, Event, Game, GameState, Redo, RulesError, Setup, Undo
from companion.tracker import Proposal, Tracker, TrackerView
from ui.camera import CameraWorker
from ui.i18n import _, language
from ui.words import (GameLog, LogLine, backup_words, disk_words, error_text, ring_refusal,
                      ring_words, sizing_words, unwritable_words)
from vision.boards import BoardPrint
from vision.cards import CardModel
from vision.config import Calibration, save_calibration
from vision.pieces import Ring, RingNotFound, find_ring

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """What an action did: done or not, and what to tell the players, in their language."""

    done: bool
    said: str = ""
    """What was done (the record's sentence for it), or why not."""
    error: BaseException | None = None
    """The refusal or failure itself, when there was one (for logs and tests)."""
    weak: bool = False
    """Done, but with something the players should fix (a small sticker, a thin deck)."""

    def __bool__(self) -> bool:
        return self.done

    @property
    def kind(self) -> str:
        """How the screen shows it: as done, or as refused (also a done-but-weak one)."""
        return "done" if self.done and not self.weak else "refused"

    @property
    def message(self) -> str:
        """The refusal or failure in English (logs and tests)."""
        return "" if self.error is None else str(self.error)


def refused(error: BaseException) -> Outcome:
    return Outcome(False, error_text(error), error)


@dataclass
class Session:
    library: Library
    auto_confirm: bool = False
    """Confirm an unambiguous camera proposal without a tap (off unless the players choose)."""
    box: BoxProfile = field(default_factory=load_box)
    box_path: Path | None = None
    """Where a box set up by the players is kept (None: not kept)."""
    calibration: Calibration = field(default_factory=Calibration)
    """The one calibration: the camera worker is handed each new one as it is made."""
    calibration_path: Path | None = None
    calibration_problem: str = ""
    """Why the saved calibration file was not used, when it was not."""
    camera: CameraWorker | None = None
    journal: Journal | None = None
    tracker: Tracker = field(default_factory=Tracker)
    notice: str = ""
    """Something the players should know on opening a record (a line cut short)."""
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _log: GameLog | None = None
    _log_key: tuple[Journal, str] | None = None

    @property
    def state(self) -> GameState | None:
        return None if self.journal is None else self.journal.state

    @property
    def game(self) -> Game | None:
        """The open game with its whole log (None when none is open)."""
        return None if self.journal is None else self.journal.game

    @property
    def record_version(self) -> tuple[Journal | None, int]:
        """Which record is open and how many lines it has: changes exactly when what the
        screens show of the game may have changed. The record itself, not its id(): a closed
        one's id may be reused."""
        return self.journal, 0 if self.journal is None else len(self.journal.game.log)

    # -- records -------------------------------------------------------------------------------

    def start(self, setup: Setup, ring: Ring | None = None) -> Outcome:
        """A new game; with ``ring`` (found on the table as it starts) the camera follows its
        pieces. Without one, a ring of an earlier game is forgotten: its planets and colours
        are not this game's."""
        with self._lock:
            self.close()
            try:
                self.journal = self.library.new_game(setup)
            except (JournalWriteError, OSError) as error:
                return refused(error)
            self._fresh()
            said = _("New game: {player} begins.").format(player=setup.first)
            if ring is not None or self.calibration.ring is not None:
                unsaved = self._keep(replace(self.calibration, ring=ring, ring_problem=None),
                                     _("The ring is followed, but not saved: {reason}"))
                if unsaved is not None:
                    return Outcome(True, f"{said} {unsaved.said}", unsaved.error, weak=True)
            return Outcome(True, said)

    def resume(self) -> Outcome | None:
        """Open the newest unfinished game, at the same turn and action (None if there is
        none). When it cannot be opened, its record is kept as it is, and the outcome says
        why."""
        record = self.library.in_progress()
        if record is None:
            return None
        opened = self.open(record.path)
        if opened:
            return opened
        error = opened.error
        reason = disk_words(error) if isinstance(error, OSError) else str(error)
        return Outcome(False, _("The unfinished game ({players}) cannot be played on: {reason}. "
                                "Its record is kept as it is.").format(
            players=shown_names(record.players), reason=reason), error)

    def open(self, path: Path) -> Outcome:
        """Open a kept record to play on, or to enter the tiles of a finished game."""
        with self._lock:
            try:
                journal = Journal.open(path)
            except (JournalError, JournalWriteError, OSError) as error:
                return refused(error)
            self.close()
            self.journal = journal
            self._fresh()
            self.notice = "" if journal.dropped is None else str(journal.dropped)
            return Outcome(True, self.notice)

    def _fresh(self) -> None:
        self.tracker = Tracker()
        self.notice = ""

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    # -- the game ------------------------------------------------------------------------------

    def play(self, event: Event) -> Outcome:
        """Apply and store an event; on refusal the game is kept and the outcome says why."""
        with self._lock:
            if self.journal is None:
                return refused(RulesError("no game is open"))
            try:
                self.journal.append(event)
            except (RulesError, JournalWriteError) as error:
                return refused(error)
            lines = self.log_lines()
            return Outcome(True, lines[-1].text if lines else "")

    def undo(self) -> Outcome:
        if not self.can_undo:
            return Outcome(False, _("There is nothing to undo."))
        return self.play(Undo())

    def redo(self) -> Outcome:
        if not self.can_redo:
            return Outcome(False, _("There is nothing to redo."))
        return self.play(Redo())

    def confirm(self, proposal: Proposal) -> Outcome:
        """The players said "yes" to what the camera proposed. An undo or a redo is played
        only while it still takes back or plays again the action it names: a tap on Undo just
        before would make it take back another."""
        with self._lock:
            named = proposal.undone_or_redone
            game = self.game
            if named is not None and game is not None:
                if isinstance(proposal.event, Undo):
                    now = game.played[-1] if game.played else None
                else:
                    now = (game.state, game.undone[-1]) if game.undone else None
                if now != named:
                    return Outcome(False, _("The record has changed since the camera proposed "
                                            "this; nothing was done."))
            return self.play(proposal.event)

    def end(self) -> Outcome:
        """The players end the game (at the end of the round, or early)."""
        return self.play(End())

    @property
    def can_undo(self) -> bool:
        return self.journal is not None and bool(self.journal.game.events_in_effect)

    @property
    def can_redo(self) -> bool:
        return self.journal is not None and bool(self.journal.game.undone)

    def look_and_auto_confirm(self, seen: Observation, entering: str | None = None,
                              inventory_for: str | None = None) -> tuple[TrackerView, Outcome]:
        """What the camera proposes now; with auto-confirm, an unambiguous proposal is played
        (written to the record), hence the name, and the outcome says so."""
        with self._lock:
            state = self.state
            if state is None:
                return TrackerView(), Outcome(False)
            view = self.tracker.update(state, seen, entering, inventory_for, self.game)
            if self.auto_confirm and view.unambiguous is not None:
                played = self.play(view.unambiguous.event)
                if played:
                    return TrackerView((), view.flags, view.gate), played
            return view, Outcome(False)

    def dismiss(self, proposals: list[Proposal]) -> None:
        """The players said "not this": the camera stops proposing it for what it sees now."""
        with self._lock:
            for proposal in proposals:
                self.tracker.dismiss(proposal.event)

    def export(self) -> Outcome:
        """The open game's record and its BG Stats play, written to the library's exports."""
        if self.journal is None:
            return refused(RulesError("no game is open"))
        try:
            journal, play = self.library.export(record_of(self.journal.path))
        except (ExportError, ValueError) as error:
            return Outcome(False, error_text(error) if isinstance(error, OSError) else str(error),
                           error)
        return Outcome(True, _("Saved {journal} and {play} in {folder}.").format(
            journal=journal.name, play=play.name, folder=journal.parent))

    def bg_stats_link(self) -> str:
        """The open game's BG Stats play as a link ("" while it cannot be scored)."""
        if self.journal is None:
            return ""
        try:
            return bg_stats_link(record_of(self.journal.path))
        except (ValueError, OSError):
            return ""

    # -- the kept games ------------------------------------------------------------------------

    def records(self) -> list[GameRecord]:
        """Every kept game, newest first."""
        return self.library.records()

    def in_progress(self) -> GameRecord | None:
        return self.library.in_progress()

    def finished(self) -> list[GameRecord]:
        return self.library.finished()

    @property
    def unwritable(self) -> str:
        """Why no game can be kept on this disk, in the players' words ("" when one can)."""
        return unwritable_words(self.library)

    def photo_folder(self, album: str) -> Path:
        """Where an album of photos is kept ("deck-photos", "board-photos")."""
        return self.library.home / album

    def back_up(self, stick: Path) -> Outcome:
        """Copy the records to the stick mounted at ``stick``; done but weak when some
        could not be read."""
        try:
            backup = back_up(self.library, stick)
        except BackupError as error:
            return Outcome(False, _("Not copied: {reason}. The records on the companion are "
                                    "untouched; plug the stick in again and retry.").format(
                reason=error.strerror or _("the stick was taken out")), error)
        unreadable = any(item.journal for item in backup.left_out)
        return Outcome(True, backup_words(backup), weak=unreadable)

    # -- the record in words -------------------------------------------------------------------

    def log_lines(self) -> list[LogLine]:
        """The record as sentences: each line worded once, when it is added (again only when
        another record is opened or the language changes)."""
        journal = self.journal
        if journal is None:
            return []
        entries = journal.game.log
        key = (journal, language())  # the object itself: a closed one's id may be reused
        if self._log is None or self._log_key != key or len(self._log) > len(entries):
            self._log_key, self._log = key, GameLog(journal.game.setup)
        self._log.extend(entries[len(self._log):])
        return self._log.said

    def undoable(self) -> str:
        """What an undo would take back now, in words ("" when nothing)."""
        self.log_lines()
        line = None if self._log is None else self._log.in_effect
        return "" if line is None else line.text

    # -- the box and the camera ----------------------------------------------------------------

    def set_box(self, box: BoxProfile) -> Outcome:
        """The box as the players set it up: kept, and used from the next game on."""
        if self.box_path is not None:
            try:
                save_box(box, self.box_path)
            except OSError as error:
                return Outcome(False, _("Not saved: {reason}").format(
                    reason=disk_words(error)), error)
        self.box = box
        return Outcome(True, _("Saved."))

    def calibrate(self, frame: np.ndarray) -> Outcome:
        """Calibrate the table from the camera's picture: kept and used from the next frame;
        done but weak when the stickers are too small for some zone."""
        try:
            result = calibrate_table(frame, self.calibration.layout, base=self.calibration)
        except CalibrationFailed as error:
            return Outcome(False, _(
                "The camera does not see two of the table's corner markers. Lay the printed "
                "markers at the table's corners, in the camera's view, and try again."), error)
        too_small = any(not zone.readable for zone in result.sizing)
        return self.recalibrate(result.calibration, _("Calibrated and saved.") + " "
                                + sizing_words(result.sizing), weak=too_small)

    @staticmethod
    def find_ring(frame: np.ndarray, planets: list[str], first: tuple[float, float],
                  colours: list[str]) -> tuple[Outcome, Ring | None]:
        """The ring on the table as a game starts, its planets named clockwise from the one at
        ``first`` (the user's tap on the camera's picture), and the players' colours learned
        from their ships on the gate. Slow (a second on a Pi): not on the UI thread."""
        try:
            ring = find_ring(frame, planets, first, colours)
        except RingNotFound as error:
            return Outcome(False, ring_refusal(error.kind), error), None
        except Exception as error:  # a picture vision cannot take: said, never a hang
            log.exception("the ring could not be looked for")
            return Outcome(False, ring_refusal("picture"), error), None
        return Outcome(True, ring_words(planets[0], list(ring.colours), ring.unseen),
                       weak=bool(ring.unseen)), ring

    def copy_sheets(self, stick: Path) -> Outcome:
        """The marker sheet and the box's sticker sheet as PDFs on the stick, each whole or
        not at all."""
        folder = stick / FOLDER
        sheets: list[tuple[str, Callable[[Path], object]]] = [
            ("markers.pdf", lambda out: print_markers(self.calibration.layout, out)),
            ("stickers.pdf", lambda out: print_stickers(self.box, out))]
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for name, write in sheets:
                partial = folder / f".{name}.partial"
                write(partial)
                with open(partial, "rb") as written:
                    os.fsync(written.fileno())
                os.replace(partial, folder / name)
        except OSError as error:
            return Outcome(False, _("Not copied: {reason}").format(reason=disk_words(error)),
                           error)
        return Outcome(True, _("Done: the marker sheet (markers.pdf) and the tile stickers "
                               "(stickers.pdf) are on the stick, in the folder {folder}. Print "
                               "them at 100 %, not fitted to the page.").format(
            folder=Path(FOLDER).name))

    def recalibrate(self, calibration: Calibration, said: str = "",
                    weak: bool = False) -> Outcome:
        """A new calibration of the table: kept, and the camera looks with it from its next
        frame, its exposure locked (the colours measured now must hold all evening)."""
        saved = self._keep(calibration, _("Not saved: {reason}"))
        if saved is not None:
            return saved
        if self.camera is not None:
            self.camera.lock_exposure()
        return Outcome(True, said or _("Calibrated and saved."), weak=weak)

    def teach(self, model: CardModel, said: str = "", weak: bool = False) -> Outcome:
        """The deck as taught from the album: kept with the calibration, read from the camera's
        next frame on."""
        taught = replace(self.calibration, cards=model, cards_problem=None)
        saved = self._keep(taught, _("Taught, but not saved: {reason}"))
        return saved if saved is not None else Outcome(True, said, weak=weak)

    def teach_boards(self, board: BoardPrint, said: str = "") -> Outcome:
        """The boards' print as taught from their album: kept with the calibration, read by
        box set-up from now on."""
        taught = replace(self.calibration, boards=board, boards_problem=None)
        saved = self._keep(taught, _("Taught, but not saved: {reason}"))
        return saved if saved is not None else Outcome(True, said)

    def _keep(self, calibration: Calibration, not_saved: str) -> Outcome | None:
        """Use a calibration from now on and save it; None when saved, else why not. Used
        even when not saved: it is right, only not kept past a restart."""
        self.calibration, self.calibration_problem = calibration, ""
        if self.camera is not None:
            self.camera.recalibrate(calibration)
        if self.calibration_path is None:
            return None
        try:
            save_calibration(calibration, self.calibration_path)
        except OSError as error:
            return Outcome(False, not_saved.format(reason=disk_words(error)), error)
        return None

    @property
    def has_camera(self) -> bool:
        """A camera was opened at start (False: touch-only play)."""
        return self.camera is not None

    def camera_seen(self) -> Observation:
        return Observation() if self.camera is None else self.camera.latest.seen


def same_action(a: Event, b: Event) -> bool:
    """Whether two events are the same action up to what a camera cannot see (the reveal)."""
    left, right = a.to_json(), b.to_json()
    left.pop("reveal", None)
    right.pop("reveal", None)
    return left == right
