"""Teaching the deck on the touchscreen: a card in the scan tray, two taps on its coordinates,
its code picked from the coordinate buttons, and the photo is kept (from the view the game
reads). The photos are kept in the companion's home, so teaching goes on where it stopped; the
screen says which codes are still missing, and after teaching, which to photograph again."""

from __future__ import annotations

import logging
import threading

import cv2
import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.factory import Factory
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from calibration.album import (Taught, TeachingError, add_photo, missing_codes, opens,
                               photographed, photos_of, remove_photo, teach_folder)
from companion.rules import Card, MalformedEventError
from ui.i18n import _, ngettext
from ui.screens.calibration_view import to_texture
from ui.screens.widgets import TouchButton
from ui.words import error_text

log = logging.getLogger(__name__)

COORDINATES = [f"{color}{number}" for color in "BGO" for number in ("1", "2", "3", "4", "?")]
"""The coordinate buttons, as printed on the cards: blue, green, orange; 1-4 and unknown."""
TAP_COLOURS = ((255, 255, 255), (40, 220, 255))
"""BGR of the first tap's mark (the top coordinate) and the second's."""


class CoordinateButton(TouchButton):
    """A coordinate to pick, outlined in its colour."""

    coordinate = StringProperty("B1")


class TeachCardsScreen(Screen):
    message = StringProperty("")
    message_kind = StringProperty("info")
    progress = StringProperty("")
    code = StringProperty("")
    """The card being photographed, as picked so far (``B3/O1``, or ``B3/`` halfway)."""
    taps = ListProperty([])
    """Image points tapped on the current card, in the order tapped."""
    picks = ListProperty([])
    """The coordinate picked for each tap (``B3``), in the same order."""
    busy = BooleanProperty(False)
    has_photos = BooleanProperty(False)
    """Photos are kept to teach from (Teach now looks unavailable before)."""
    """Teaching runs (half a minute here, a few minutes on a Pi)."""
    picture = BooleanProperty(False)
    card_ready = BooleanProperty(False)
    """Two taps, each with its coordinate, naming a card of the deck."""

    def on_kv_post(self, _base_widget: object) -> None:
        for coordinate in COORDINATES:
            button = CoordinateButton(coordinate=coordinate)
            button.bind(on_release=lambda b: self.pick(b.coordinate))
            self.ids.coordinates.add_widget(button)

    def on_pre_enter(self, *_args: object) -> None:
        self.taps, self.picks, self.code, self._frame = [], [], "", None
        self._event = Clock.schedule_interval(self.update_view, 0.5)
        self.update_view()
        self.count()
        if not self.busy:
            self.prompt()  # what to do first, not an empty instruction area

    def on_leave(self, *_args: object) -> None:
        self._event.cancel()

    @property
    def album(self):  # type: ignore[no-untyped-def]
        return App.get_running_app().session.photo_folder("deck-photos")

    # -- the picture and the taps ------------------------------------------------------------

    def update_view(self, *_args: object) -> None:
        """The live tray view, until the first tap holds the picture still."""
        if self.taps and self._frame is not None:
            return
        frame = App.get_running_app().camera_tray_frame()
        self.picture = frame is not None
        if frame is not None:
            self._frame = frame
            self.show(frame)

    def show(self, frame: np.ndarray) -> None:
        """The picture with a ring on each tap, labelled with the coordinate picked for it
        ("?" until then)."""
        picture = frame.copy()
        radius = max(8, frame.shape[0] // 24)
        thick = max(2, radius // 6)
        for k, (x, y) in enumerate(self.taps):
            label = self.picks[k] if k < len(self.picks) else "?"
            centre = (int(x), int(y))
            cv2.circle(picture, centre, radius, (0, 0, 0), thick + 2)
            cv2.circle(picture, centre, radius, TAP_COLOURS[k], thick)
            # the label on a dark box beside the ring: readable on a white card too
            scale = radius / 16
            (tw, th), _baseline = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
            x0, y0 = int(x) + radius + 2, int(y) - th // 2 - 4
            cv2.rectangle(picture, (x0, y0), (x0 + tw + 8, y0 + th + 8), (20, 20, 20), -1)
            cv2.putText(picture, label, (x0 + 4, y0 + th + 4), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        TAP_COLOURS[k], thick)
        self.ids.view.texture = to_texture(picture)

    def tapped(self, touch) -> bool:  # type: ignore[no-untyped-def]
        """A tap on the picture: where a coordinate is printed (image pixels)."""
        view = self.ids.view
        if self._frame is None or not view.collide_point(*touch.pos) or len(self.taps) >= 2 \
                or len(self.taps) > len(self.picks):
            return False  # two taps, or a tap still waiting for its coordinate
        point = view.image_point(touch.pos, self._frame.shape)
        if point is None:
            return False
        self.taps = self.taps + [point]
        self.show(self._frame)
        self.prompt()
        return True

    def clear(self) -> None:
        self.taps, self.picks, self.code = [], [], ""
        self.mark_picks()
        self.update_view()
        self.prompt()

    # -- the code ----------------------------------------------------------------------------

    def pick(self, coordinate: str) -> None:
        """A coordinate button: what was printed where the last tap was."""
        picks = self.picks if len(self.picks) < 2 else []
        if len(picks) >= len(self.taps):
            picks = picks[:max(0, len(self.taps) - 1)]  # a second pick for one tap replaces it
        self.picks = picks + [coordinate]
        self.code = " / ".join(self.picks)
        self.mark_picks()
        if self._frame is not None and self.taps:
            self.show(self._frame)
        self.prompt()

    def mark_picks(self) -> None:
        """The picked coordinates' buttons framed, so the code being entered shows."""
        for button in self.ids.coordinates.children:
            button.selected = button.coordinate in self.picks

    def card(self) -> tuple[Card, tuple[tuple[float, float], tuple[float, float]]] | None:
        """The card the two picks name (in the deck's order) with its taps in that order."""
        if len(self.picks) < 2 or len(self.taps) < 2:
            return None
        first, second = self.picks
        pairs = [(first, tuple(self.taps[0])), (second, tuple(self.taps[1]))]
        pairs.sort(key=lambda pair: "BGO".index(pair[0][0]))
        try:
            card = Card.parse(f"{pairs[0][0]}/{pairs[1][0]}")
        except MalformedEventError:
            return None
        return card, (pairs[0][1], pairs[1][1])

    def prompt(self) -> None:
        self.card_ready = self.card() is not None
        if len(self.taps) > len(self.picks):
            self.say(_("Which coordinate is printed there? Tap its button."), "info")
        elif len(self.taps) < 2:
            self.say(_("Lay one card in the scan tray. Tap one of its two coordinates on the "
                       "picture, then its button; then the other. B?, G?, O?: a coordinate "
                       "printed with a ?, the joker of its colour."), "info")
        elif self.card() is None:
            self.say(_("{code} is not a card of the deck: tap Start again.").format(
                code=self.code), "refused")
        else:
            self.say(_("Keep the photo of {code}?").format(code=self.card()[0].code), "info")

    # -- keeping and teaching ----------------------------------------------------------------

    def keep(self) -> None:
        named = self.card()
        if self._frame is None or named is None:
            self.prompt()
            return
        card, taps = named
        try:
            add_photo(self.album, self._frame, card, taps)
        except OSError as error:
            self.say(_("Not saved: {reason}").format(reason=str(error)), "refused")
            return
        self.taps, self.picks, self.code, self.card_ready = [], [], "", False
        self.mark_picks()
        self.update_view()
        self.count()
        self.say(_("Kept {code}. Lay the next card.").format(code=card.code), "done")

    def count(self) -> None:
        counts = photographed(self.album)
        self.has_photos = bool(counts)
        missing = missing_codes(set(counts))
        total = len(missing) + len(set(counts) - set(missing))
        if not missing:
            self.progress = _("All {total} codes photographed.").format(total=total)
            return
        shown = ", ".join(missing[:12]) + (" …" if len(missing) > 12 else "")
        taught = App.get_running_app().session.calibration.cards
        if taught is not None:  # the camera screen's "codes taught" is not this album's count
            self.progress = ngettext(
                "The reader knows {taught} code now. To teach the deck again, photograph each "
                "code: {done} of {total} so far. Still missing: {codes}",
                "The reader knows {taught} codes now. To teach the deck again, photograph each "
                "code: {done} of {total} so far. Still missing: {codes}", len(taught.codes)
            ).format(taught=len(taught.codes), done=total - len(missing), total=total,
                     codes=shown)
            return
        self.progress = _("{done} of {total} codes photographed. Still missing: {codes}").format(
            done=total - len(missing), total=total, codes=shown)

    def teach(self) -> None:
        if self.busy:
            return
        if not photographed(self.album):
            self.say(_("No photos yet: photograph the cards first."), "refused")
            return
        self.busy = True
        self.say(_("Teaching… this takes about a minute."), "info")
        threading.Thread(target=self._teach, daemon=True).start()

    def _teach(self) -> None:
        try:
            taught: Taught | str = teach_folder(self.album)
        except TeachingError as error:
            taught = error_text(error)
        except Exception as error:  # a fault while teaching must not end the app
            log.exception("teaching failed")
            taught = repr(error)
        Clock.schedule_once(lambda _dt: self._taught(taught), 0)

    def _taught(self, taught: Taught | str) -> None:
        self.busy = False
        if isinstance(taught, str):
            self.say(_("Not taught: {reason}").format(reason=taught), "refused")
            return
        outcome = App.get_running_app().session.teach(taught.model, taught_words(taught),
                                                      weak=taught.weak)
        self.say(outcome.said, outcome.kind)

    def say(self, text: str, kind: str) -> None:
        self.message, self.message_kind = text, kind

    def show_photos(self) -> None:
        PhotosDialog(screen=self).open()

    def removed(self, photo: str) -> None:
        """A photo was taken out of the album: the counts follow now, the deck on the next
        teaching."""
        self.count()
        self.say(_("Removed {photo}. Teach again to leave it out of the deck.").format(
            photo=photo), "done")


class PhotoRow(BoxLayout):
    """One photo of the album, with the button that removes it."""

    text = StringProperty("")


class PhotosDialog(ModalView):
    """The album's photos, newest name last, each with a button that removes it: a photo that
    cannot be read (cut short by a power cut) or that shows the wrong card goes from here."""

    def __init__(self, screen: TeachCardsScreen, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.screen = screen
        self.fill()

    def fill(self) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        album = self.screen.album
        for code, names in sorted(photos_of(album).items()):
            for number, name in enumerate(names, start=1):
                words = photo_words(code, number)
                row = PhotoRow(text=words if opens(album / name) else _(
                    "{photo}: cannot be read").format(photo=words))
                row.ids["remove"].bind(on_release=lambda _b, n=name, w=words: self.remove(n, w))
                rows.add_widget(row)
        if not rows.children:
            rows.add_widget(Factory.Caption(text=_("No photos yet."), size_hint_y=None,
                                            height=self.ids.close.height))

    def remove(self, name: str, words: str) -> None:
        try:
            remove_photo(self.screen.album, name)
        except OSError as error:
            self.screen.say(_("Not removed: {reason}").format(reason=error.strerror), "refused")
            return
        self.screen.removed(words)
        self.fill()


def photo_words(code: str, number: int) -> str:
    return _("{code}, photo {number}").format(code=code, number=number)


def taught_words(taught: Taught) -> str:
    """What teaching learned, and what the user should photograph again."""
    lines = [_("Saved. Codes taught: {count}.").format(count=taught.cards)]
    if taught.weak:
        lines.append(_("The reader is unsure of these: lay each again and keep a second "
                       "photo (another copy of the card, or other light): {codes}").format(
            codes=", ".join(taught.weak)))
    for first, second in taught.model.look_alikes:
        lines.append(_("{first} and {second} look alike to the reader.").format(
            first=first, second=second))
    if taught.skipped:
        lines.append(_("Left out, as they cannot be used: {photos}").format(
            photos=", ".join(reason.split(":", 1)[0] for reason in taught.skipped[:6])
            + (" …" if len(taught.skipped) > 6 else "")))
    missing = missing_codes(taught.model.codes)
    if missing:  # counted: the progress line under the buttons names them
        lines.append(ngettext("{count} code is not taught yet, so it is never read.",
                              "{count} codes are not taught yet, so they are never read.",
                              len(missing)).format(count=len(missing)))
    return "\n".join(lines)
