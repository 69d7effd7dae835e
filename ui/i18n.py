"""The screen's languages: English, German and Italian, the rulebooks' languages, in their words.

Standard gettext catalogues: ``ui/locale/<lang>/LC_MESSAGES/companion.po`` (what translators
edit) compiled to ``companion.mo`` (what this module loads); ``python -m ui.catalogues``
extracts the strings and compiles the catalogues. English is the source language.

``_`` translates; ``pgettext`` when one English word means two things (an action's name and a
sentence); ``ngettext`` for counts. Every lookup a catalogue cannot answer is remembered in
``missing``, so a test can fail when a shown string lacks a translation. ``use_pseudo`` wraps
every translated string in ‹ › so a test can find text that never went through a catalogue.
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = {"en": "English", "de": "Deutsch", "it": "Italiano"}
"""Code -> the language's name in itself, as the language picker shows it."""
PSEUDO = "pseudo"
PSEUDO_OPEN, PSEUDO_CLOSE = "\u2039", "\u203a"


class _State:
    language = "en"
    catalogue: gettext.NullTranslations = gettext.NullTranslations()
    known: set[str] | None = None
    """The msgids the catalogue holds (context-qualified); None for English."""


_state = _State()
missing: set[str] = set()
"""Strings looked up in a language whose catalogue does not hold them."""


def set_language(code: str) -> str:
    """Switch every later lookup to ``code`` (an unknown code falls back to English)."""
    if code == PSEUDO:
        return use_pseudo()
    if code not in LANGUAGES or code == "en":
        _state.language, _state.catalogue, _state.known = "en", gettext.NullTranslations(), None
        return "en"
    catalogue = gettext.translation(DOMAIN, LOCALE_DIR, [code], fallback=True)
    _state.language, _state.catalogue = code, catalogue
    # plural entries are keyed (msgid, index): a msgid is known when any form is there
    _state.known = {k[0] if isinstance(k, tuple) else k
                    for k in getattr(catalogue, "_catalog", {})}
    return code


def language() -> str:
    return _state.language


def use_pseudo() -> str:
    """Every string marked as ‹text›: what is shown without the marks never passed ``_``."""
    _state.language, _state.catalogue, _state.known = PSEUDO, _PseudoTranslations(), None
    return PSEUDO


class _PseudoTranslations(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return PSEUDO_OPEN + message + PSEUDO_CLOSE

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return PSEUDO_OPEN + (msgid1 if n == 1 else msgid2) + PSEUDO_CLOSE

    def pgettext(self, context: str, message: str) -> str:
        return PSEUDO_OPEN + message + PSEUDO_CLOSE


def _check(key: str) -> None:
    if _state.known is not None and key not in _state.known:
        missing.add(key)


def _(message: str) -> str:
    _check(message)
    return _state.catalogue.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    _check(singular)
    return _state.catalogue.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    _check(f"{context}\x04{message}")
    return _state.catalogue.pgettext(context, message)
