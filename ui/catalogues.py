"""Keeps the screen's gettext catalogues (``ui/locale``): finds every string the screens show,
merges them into the German and Italian catalogues, compiles those to ``.mo``.

    python -m ui.catalogues           # extract, merge, compile
    python -m ui.catalogues --check   # exit 1 when a string lacks a translation or a .mo is stale

What is shown comes from two places: ``_``, ``ngettext`` and ``pgettext`` in the screens'
Python and kv files; and the strings the core passes where a parameter is a ``Template`` (the
engine's refusals, the camera's notices; see ``companion/rules.py``). A maintainer's tool: the
app only reads the compiled catalogues.
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


TemplateSlots = dict[str, tuple[set[int], set[str]]]
"""By function or class name: the positions and keywords of its ``Template`` parameters."""


def _template_slots(trees: list[ast.Module]) -> TemplateSlots:
    """Where the core's functions take a ``Template``; a class takes them where its
    ``__init__`` does, or its base's."""
    slots: TemplateSlots = {}
    bases: dict[str, list[str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = [b.id for b in node.bases if isinstance(b, ast.Name)]
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        key = node.name if item.name == "__init__" else item.name
                        slots[key] = _template_parameters(item, method=True)
            elif isinstance(node, ast.FunctionDef) and node.name not in slots:
                slots[node.name] = _template_parameters(node, method=False)
    for name in bases:
        ancestor = name
        while ancestor not in slots and bases.get(ancestor):
            ancestor = bases[ancestor][0]
        if ancestor in slots:
            slots.setdefault(name, slots[ancestor])
    return {name: found for name, found in slots.items() if found[0] or found[1]}


def _template_parameters(function: ast.FunctionDef, method: bool) -> tuple[set[int], set[str]]:
    parameters = function.args.args[1:] if method else function.args.args
    marked = [p.arg for p in parameters
              if isinstance(p.annotation, ast.Name) and p.annotation.id == "Template"]
    return {i for i, p in enumerate(parameters) if p.arg in marked}, set(marked)


def _core_templates(tree: ast.Module, slots: TemplateSlots) -> Iterator[Message]:
    """The core's refusals and camera notices: the strings passed as a ``Template``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = (node.func.id if isinstance(node.func, ast.Name) else
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
        if name not in slots:
            continue
        positions, keywords = slots[name]
        arguments = [a for i, a in enumerate(node.args) if i in positions]
        arguments += [k.value for k in node.keywords if k.arg in keywords]
        for argument in arguments:
            branches = [argument.body, argument.orelse] if isinstance(argument, ast.IfExp) \
                else [argument]
            for branch in branches:
                if isinstance(branch, ast.Constant) and isinstance(branch.value, str):
                    yield branch.value, None


TEACHING_REFUSALS = (ROOT / "vision" / "cards" / "learning.py",
                     ROOT / "vision" / "boards" / "teaching.py")
"""Where teaching refuses a set of photos with a ``Template`` the teach screens show."""


def extract() -> Catalog:
    """Every string the screens may show, in the order first met."""
    template = Catalog(project="space-mission-companion", domain=DOMAIN)
    sources: list[tuple[Path, Iterator[Message]]] = []
    for path in sorted((ROOT / "ui").rglob("*.py")):
        sources.append((path, _python_calls(path)))
    for path in sorted((ROOT / "ui").rglob("*.kv")):
        sources.append((path, _kv_calls(path)))
    core = {path: ast.parse(path.read_text(encoding="utf-8"))
            for path in [*sorted((ROOT / "companion").glob("*.py")), *TEACHING_REFUSALS]}
    slots = _template_slots(list(core.values()))
    for path, tree in core.items():
        sources.append((path, _core_templates(tree, slots)))
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
