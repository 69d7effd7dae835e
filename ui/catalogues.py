"""Keeps the screen's gettext catalogues (``ui/locale``): finds every string the screens show,
merges them into the German and Italian catalogues, compiles those to ``.mo``.

    python -m ui.catalogues           # extract, merge, compile
    python -m ui.catalogues --check   # exit 1 when a string lacks a translation or a .mo is stale

What is shown comes from three places: ``_``, ``ngettext`` and ``pgettext`` in the screens'
Python and kv files; the engine's refusals (the templates of ``RulesError`` and the helpers that
raise one, in ``companion/rules.py``); and the camera's notices (``Notice.of`` in
``companion/tracker.py``). A maintainer's tool: the app only reads the compiled catalogues.
"""

from __future__ import annotations

import ast
import gettext
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from ui.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [code for code in LANGUAGES if code != "en"]
ENGINE_HELPERS = {"_need_cards", "_need_chip", "_ship_planet", "_check_card",
                  "_check_stack_open", "_check_variant", "RulesError", "MalformedEventError",
                  "IllegalActionError", "NotYourTurnError", "GameOverError",
                  "NothingToUndoError", "NothingToRedoError", "InventoryError"}
"""The engine's refusals and the functions that raise one: their string arguments are
templates."""
KV_CALL = re.compile(r"""\b(_|pgettext|ngettext)\(((?:\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
                     r"""\s*,?)+)""")
KV_STRING = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")

Message = tuple[str | tuple[str, str], str | None]
"""(msgid, or (singular, plural); context)."""


def _python_calls(path: Path) -> Iterator[Message]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        strings = [a.value for a in node.args if isinstance(a, ast.Constant)
                   and isinstance(a.value, str)]
        if node.func.id == "_" and len(strings) == 1:
            yield strings[0], None
        elif node.func.id == "ngettext" and len(strings) == 2:
            yield (strings[0], strings[1]), None
        elif node.func.id == "pgettext" and len(strings) == 2:
            yield strings[1], strings[0]


def _kv_calls(path: Path) -> Iterator[Message]:
    for match in KV_CALL.finditer(path.read_text(encoding="utf-8")):
        strings = [ast.literal_eval(s) for s in KV_STRING.findall(match.group(2))]
        if match.group(1) == "_" and len(strings) == 1:
            yield strings[0], None
        elif match.group(1) == "pgettext" and len(strings) == 2:
            yield strings[1], strings[0]
        elif match.group(1) == "ngettext" and len(strings) >= 2:
            yield (strings[0], strings[1]), None


def _core_templates(path: Path) -> Iterator[Message]:
    """Refusal templates and camera notices: string arguments of the calls that carry them."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = (node.func.id if isinstance(node.func, ast.Name) else
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
        owner = (node.func.value.id if isinstance(node.func, ast.Attribute)
                 and isinstance(node.func.value, ast.Name) else "")
        if not (name in ENGINE_HELPERS or (owner == "Notice" and name == "of")):
            continue
        for argument in node.args:
            branches = [argument.body, argument.orelse] if isinstance(argument, ast.IfExp) \
                else [argument]
            for branch in branches:
                if isinstance(branch, ast.Constant) and isinstance(branch.value, str) and \
                        " " in branch.value:
                    yield branch.value, None


def extract() -> Catalog:
    """Every string the screens may show, in the order first met."""
    template = Catalog(project="space-mission-companion", domain=DOMAIN)
    sources: list[tuple[Path, Iterator[Message]]] = []
    for path in sorted((ROOT / "ui").rglob("*.py")):
        sources.append((path, _python_calls(path)))
    for path in sorted((ROOT / "ui").rglob("*.kv")):
        sources.append((path, _kv_calls(path)))
    for name in ("rules.py", "tracker.py"):
        path = ROOT / "companion" / name
        sources.append((path, _core_templates(path)))
    for path, messages in sources:
        where = str(path.relative_to(ROOT))
        for msgid, context in messages:
            if msgid not in (None, ""):
                template.add(msgid, context=context, locations=[(where, 0)])
    return template


def merged(template: Catalog, code: str) -> Catalog:
    """The template with the language's existing translations carried over."""
    po = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    catalogue = Catalog(locale=code, project="space-mission-companion", domain=DOMAIN)
    known = {}
    if po.exists():
        with open(po, "rb") as old:
            for message in read_po(old, locale=code):
                if message.id:
                    known[(message.id, message.context)] = message.string
    for message in template:
        if not message.id:
            continue
        catalogue.add(message.id, known.get((message.id, message.context)),
                      context=message.context, locations=message.locations)
    return catalogue


def compiled(catalogue: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    return buffer.getvalue()


PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def _mismatched(message_id: object, string: object) -> bool:
    """A translation that names other values than its English: it would fail to format."""
    ids = list(message_id) if isinstance(message_id, tuple | list) else [message_id]
    strings = list(string) if isinstance(string, tuple | list) else [string]
    wanted = _placeholders(str(ids[-1])) | _placeholders(str(ids[0]))
    return any(_placeholders(str(s)) - wanted or (wanted - _placeholders(str(s)) and
                                                   len(ids) == 1) for s in strings)


def _translated(string: object) -> bool:
    if isinstance(string, tuple | list):
        return all(isinstance(s, str) and s.strip() for s in string)
    return isinstance(string, str) and bool(string.strip())


def _entries(mo: bytes) -> dict[object, str]:
    """A compiled catalogue's translations, its header (which holds dates) aside."""
    entries = gettext.GNUTranslations(io.BytesIO(mo))._catalog  # type: ignore[attr-defined]
    return {key: value for key, value in entries.items() if key != ""}


def problems() -> list[str]:
    """What is wrong with the catalogues on disk: untranslated strings, stale .mo files."""
    template = extract()
    found = []
    for code in TRANSLATED:
        catalogue = merged(template, code)
        for message in catalogue:
            if message.id and not _translated(message.string):
                found.append(f"{code}: no translation for {message.id!r}")
            elif message.id and _mismatched(message.id, message.string):
                found.append(f"{code}: the translation of {message.id!r} names other values")
        mo = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if not mo.exists() or _entries(mo.read_bytes()) != _entries(compiled(catalogue)):
            found.append(f"{code}: {mo.name} is not compiled from the current strings "
                         "(run python -m ui.catalogues)")
    return found


def update() -> None:
    template = extract()
    for code in TRANSLATED:
        folder = LOCALE_DIR / code / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        catalogue = merged(template, code)
        with open(folder / f"{DOMAIN}.po", "wb") as out:
            write_po(out, catalogue, width=100, omit_header=False, include_lineno=False)
        (folder / f"{DOMAIN}.mo").write_bytes(compiled(catalogue))


def main(argv: list[str]) -> int:
    if "--check" in argv:
        found = problems()
        print("\n".join(found) or "catalogues complete")
        return 1 if found else 0
    update()
    print(f"catalogues written for {', '.join(TRANSLATED)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
