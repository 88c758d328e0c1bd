"""Keeping the catalogues: find every word to translate, update each language, write the browser's copies.

`motable messages` (or `make messages`) does three things, in order (docs/translating.md):

1. extracts every translatable string into `locale/messages.pot`: `_()`, `gettext()` and `ngettext()` in
   Python (app/, engines/), `{{ _("...") }}`, `{% trans %}` and `ngettext` in templates, and `t("...")` and
   `tn("...", "...", n)` in the browser's modules (static/js/), and the words of the games' card data
   (each field in its context: "mokuru trick", "mooki family", ...);
2. merges that template into each language's `locale/<lang>/LC_MESSAGES/messages.po`, keeping what is
   translated, marking changed words fuzzy for a translator to check, and dropping words no longer used;
3. writes each language's browser catalogue, `static/i18n/<lang>.js`, served under its content hash.

`check()` says, without writing anything, whether the catalogues are in step with the code and whole:
the test suite runs it (tests/app/test_i18n.py).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from app.i18n import DOMAIN, LOCALE_DIR, NAMES, ROOT, SOURCE, catalogue_path, client_messages

TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
CLIENT_DIR = ROOT / "static" / "i18n"

# Where the words are, and how each kind of file is read.
SERVER_SOURCES = [
    ("app/**.py", "python"),
    ("engines/**.py", "python"),
    ("templates/**.html", "jinja2.ext:babel_extract"),
]
CLIENT_SOURCES = [("static/js/**.js", "javascript")]
JINJA_OPTIONS = {"templates/**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}
JS_OPTIONS = {"static/js/**.js": {"template_string": "true"}}
# The browser's words: t(message, params), tn(singular, plural, n, params), tp(context, message, params).
CLIENT_KEYWORDS = {"t": None, "tn": (1, 2), "tp": ((1, "c"), 2)}
# N_plural(singular, plural, n, **params): words in the form for n, worded where shown (engines.core.words).
SERVER_KEYWORDS = {
    **{k: DEFAULT_KEYWORDS[k] for k in ("_", "N_", "gettext", "ngettext", "pgettext")},
    "N_plural": (1, 2),
}
COMMENT_TAGS = ["Translators:"]


def _found(
    sources: list[tuple[str, str]], keywords: Mapping[str, Any], options: dict[str, dict[str, str]]
) -> Iterator[tuple[str, int, str | tuple[str, ...], list[str], str | None]]:
    yield from extract_from_dir(
        ROOT,
        method_map=sources,
        options_map=options,
        keywords=keywords,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    )


# The games' card data holds words players read (a trick's name and how to perform it, a belt, a
# family): each field, in a context that tells it apart from the same English said elsewhere ("Duel"
# the action card, "Battle" the category). Located at the data file, under engines/, so the
# browser's catalogue holds them too (app/i18n.py client_messages): the tables show the data as the
# server sends it, and the rules pages word the same fields.
MOKURU_DATA = "engines/mokuru/data/cards.json"
MOOKI_DATA = "engines/mooki_island/data/cards.json"


def _data_words(path: str) -> Iterator[tuple[str, str, str]]:
    """(context, words, translator's note) for every word of the card data file at `path`."""
    data = json.loads((ROOT / path).read_text(encoding="utf-8"))
    if path == MOKURU_DATA:
        for belt in [*data["belts"], data["grandmaster"]]:
            yield "mokuru belt", belt["name"], "A belt (or Grandmaster, past the last), named whole."
        for trick in [*data["tricks"], *data["masters"]]:
            yield "mokuru trick", trick["name"], "A trick's name, as players name the move."
            yield "mokuru category", trick["category"], "A trick card's category."
            yield "mokuru trick description", trick["description"], "How to perform the trick."
        for action in data["actions"]:
            yield "mokuru action", action["name"], "An action card's name."
            yield "mokuru action description", action["description"], "What the action card does."
    elif path == MOOKI_DATA:
        for trophy in data["trophies"]:
            yield "mooki family", trophy["name"], "A family of Mookies (and its trophy), as on the cards."


def _data_found() -> Iterator[tuple[str, int, str, list[str], str]]:
    for path in (MOKURU_DATA, MOOKI_DATA):
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
        said: set[tuple[str, str]] = set()
        for context, words, note in _data_words(path):
            if (context, words) in said:
                continue
            said.add((context, words))
            quoted = json.dumps(words, ensure_ascii=False)
            lineno = next((i for i, line in enumerate(lines, 1) if quoted in line), 0)
            yield path, lineno, words, [note], context


def extract() -> Catalog:
    """Every translatable string of the code, with where it is said."""
    catalog = Catalog(project="Motable", domain=DOMAIN, fuzzy=False, charset="utf-8")
    for sources, keywords, options in (
        (SERVER_SOURCES, SERVER_KEYWORDS, JINJA_OPTIONS),
        (CLIENT_SOURCES, CLIENT_KEYWORDS, JS_OPTIONS),
    ):
        for filename, lineno, message, comments, context in _found(sources, keywords, options):
            path = Path(filename).as_posix()
            catalog.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    for path, lineno, message, comments, context in _data_found():
        catalog.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, include_lineno=False)
    return out.getvalue()


def _write(path: Path, content: bytes) -> None:
    """Writes `content` unless the file says the same but for its dates (no churn in git)."""

    def dateless(data: bytes) -> list[bytes]:
        return [
            line
            for line in data.splitlines()
            if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision'))
        ]

    if path.is_file() and dateless(path.read_bytes()) == dateless(content):
        return
    path.write_bytes(content)


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=locale)


def _client_json(lang: str) -> str:
    """The browser's catalogue as a classic script (JSON, named): the page loads it in its head, so
    every module finds its words at once. A fetched file would make each module wait on it, and
    a button pressed before they ran would do nothing (tests/browser/test_language.py)."""
    body = json.dumps(client_messages(lang), ensure_ascii=False, indent=1, sort_keys=True)
    return f"// Made by `motable messages` from locale/{lang}/LC_MESSAGES/messages.po: edit that file.\n" + (
        f"globalThis.motableCatalogue = {body};\n"
    )


def languages() -> list[str]:
    return sorted(p.name for p in LOCALE_DIR.iterdir() if catalogue_path(p.name).is_file())


def update(new: list[str] | None = None) -> list[str]:
    """Extract, merge into every catalogue (and start one for each of `new`), write the browser copies."""
    template = extract()
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    _write(TEMPLATE, _po_bytes(template))
    CLIENT_DIR.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in sorted({*languages(), *(new or [])}):
        path = catalogue_path(lang)
        if path.is_file():
            catalog = _read(path, lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, domain=DOMAIN, project="Motable", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=False)
        catalog.obsolete.clear()
        _write(path, _po_bytes(catalog))
        (CLIENT_DIR / f"{lang}.js").write_text(_client_json(lang), encoding="utf-8")
        written.append(lang)
    return written


def _ids(catalog: Catalog) -> set[object]:
    return {m.id for m in catalog if m.id}


def _untranslated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple | list) else [message.string]
    return not all(strings)


def check() -> list[str]:
    """What keeps the catalogues from being in step and whole; nothing when all is well."""
    problems: list[str] = []
    code = _ids(extract())
    if not TEMPLATE.is_file() or _ids(_read(TEMPLATE)) != code:
        problems.append(f"{TEMPLATE.relative_to(ROOT)} is out of date: run `make messages`")
    for lang in languages():
        if lang == SOURCE:
            continue
        catalog = _read(catalogue_path(lang), lang)
        name = catalogue_path(lang).relative_to(ROOT)
        ids = _ids(catalog)
        if ids != code:
            missing, extra = len(code - ids), len(ids - code)
            problems.append(f"{name}: {missing} strings missing, {extra} no longer used: run `make messages`")
        for message in catalog:
            if not message.id:
                continue
            if message.fuzzy:
                problems.append(f"{name}: fuzzy (check and clear the flag): {message.id!r}")
            elif _untranslated(message):
                problems.append(f"{name}: not translated: {message.id!r}")
        client = CLIENT_DIR / f"{lang}.js"
        if not client.is_file() or client.read_text(encoding="utf-8") != _client_json(lang):
            problems.append(f"{client.relative_to(ROOT)} is out of date: run `make messages`")
        if lang not in NAMES:
            problems.append(f"{name}: the language switch has no name for {lang!r} (app/i18n.py NAMES)")
    return problems
