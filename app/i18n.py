"""Each person in their own language: gettext catalogues, the reader's language, and its words.

The words Motable shows are written in English in the code (templates, Python, the browser's modules)
and looked up in one gettext catalogue per language, `locale/<lang>/LC_MESSAGES/messages.po`, made
and kept up to date by `motable messages` (app/messages.py; docs/translating.md says how). The
server reads the `.po` files themselves once per process: no compiled `.mo` file to keep in step.

The language is the reader's, never the room's: chosen per browser (the `motable_lang` cookie the
language switch sets, else the browser's `Accept-Language`), among the languages the server offers
(`MOTABLE_LANGUAGES`). A request's language is held in a context variable for the time of the request,
so templates (`{{ _("...") }}`) and error messages (`AppError.message`) word it without being told.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from gettext import NullTranslations
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The markers and Words are the engines' own (engines import nothing of the app): one kind of words.
from engines.core.words import N_ as N_
from engines.core.words import N_plural as N_plural
from engines.core.words import Words as Words

ROOT = Path(__file__).resolve().parents[1]
LOCALE_DIR = ROOT / "locale"
DOMAIN = "messages"
SOURCE = "en"
COOKIE = "motable_lang"

# What each language is called in the switch: in its own words, as its speakers look for it.
NAMES: Mapping[str, str] = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "nl": "Nederlands",
    "es": "Español",
    "it": "Italiano",
}

_TAG = re.compile(r"^[a-z]{2,3}$")


def catalogue_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def catalogued() -> list[str]:
    """The languages with a catalogue on disk, English (the source) first."""
    found = sorted(p.name for p in LOCALE_DIR.iterdir() if p.is_dir() and catalogue_path(p.name).is_file())
    return [SOURCE, *(lang for lang in found if lang != SOURCE)]


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The catalogue of `lang`, read once per process; English is the words as written."""
    if lang == SOURCE or not _TAG.match(lang) or not catalogue_path(lang).is_file():
        return NullTranslations()
    with catalogue_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return Translations(mo, domain=DOMAIN)


@dataclass(frozen=True)
class Languages:
    """The languages a server offers: English and those `MOTABLE_LANGUAGES` names that have a catalogue
    (unset or `all`: every catalogue on disk; `en`: English alone)."""

    offered: tuple[str, ...] = (SOURCE,)

    @classmethod
    def parse(cls, setting: str | None) -> Languages:
        on_disk = catalogued()
        wanted = [part.strip().lower() for part in (setting or "").split(",") if part.strip()]
        if not wanted or wanted == ["all"]:
            return cls(tuple(on_disk))
        unknown = [lang for lang in wanted if lang not in on_disk]
        if unknown:
            raise ValueError(f"MOTABLE_LANGUAGES names languages without a catalogue: {', '.join(unknown)}")
        return cls(tuple(dict.fromkeys([SOURCE, *wanted])))

    def choose(self, cookie: str | None, accept_language: str | None) -> str:
        """The reader's language: the one they chose in the switch, else their browser's first offered."""
        if cookie and cookie in self.offered:
            return cookie
        for tag in preferred(accept_language or ""):
            primary = tag.split("-")[0]
            if primary in self.offered:
                return primary
        return SOURCE

    def menu(self) -> list[dict[str, str]]:
        return [{"code": lang, "name": NAMES.get(lang, lang)} for lang in self.offered]


def preferred(header: str) -> list[str]:
    """An `Accept-Language` header's language tags, most wanted first (q=0 left out)."""
    weighed: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip().lower()
        if not tag or tag == "*":
            continue
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            weighed.append((-quality, index, tag))
    return [tag for _, _, tag in sorted(weighed)]


_current: ContextVar[str] = ContextVar("motable_lang", default=SOURCE)
_languages = Languages()


def configure(languages: Languages) -> None:
    """The languages this process offers (create_app, from the settings)."""
    global _languages
    _languages = languages


def offered() -> Languages:
    return _languages


def current() -> str:
    """The language of the request being answered (English outside a request)."""
    return _current.get()


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Words made inside are in `lang` (an email or push text, in the recipient's language)."""
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)


# French drops the vowel of "de" and "que" before a word that starts with one ("le tour d'Ann",
# "qu'Ann"); not before h or y, which a name's letters cannot tell (static/js/i18n-core.js: elide).
_ELIDED = re.compile(r"(^|[^\w])([dD]e|[qQ]ue) %\((\w+)\)s")
_VOWEL = re.compile(r"[aeiouàâäæéèêëîïôöœùûü]", re.IGNORECASE)


def elide(lang: str, text: str, params: Mapping[str, object]) -> str:
    if lang != "fr" or not params:
        return text

    def one(found: re.Match[str]) -> str:
        before, word, key = found.groups()
        value = params.get(key)
        if value is not None and _VOWEL.match(str(value)):
            return f"{before}{word[:-1]}\u2019%({key})s"
        return found.group(0)

    return _ELIDED.sub(one, text)


def gettext(message: str, **params: object) -> str:
    """`message` in the reader's language; `%(name)s` filled from `params`."""
    lang = current()
    text = translations(lang).gettext(message)
    return elide(lang, text, params) % params if params else text


def ngettext(singular: str, plural: str, n: int, **params: object) -> str:
    """The form for `n` in the reader's language; `%(num)s` is `n`."""
    lang = current()
    text = translations(lang).ngettext(singular, plural, n)
    filled = {"num": n, **params}
    return elide(lang, text, filled) % filled


_ = gettext


def word(text: str) -> str:
    """`text` in the reader's language when it is Words (`Words(N_("..."), **params)`, `N_plural`),
    its places worded too when they are Words themselves; other text (a name, a player's words) is
    shown as it is."""
    if not isinstance(text, Words):
        return text
    params = {name: word(value) if isinstance(value, Words) else value for name, value in text.params.items()}
    catalogue = translations(current())
    if text.plural is not None and text.number is not None:
        worded = catalogue.ngettext(text.template, text.plural, text.number)
    else:
        worded = catalogue.gettext(text.template)
    return worded % params if params else worded


def words_json(text: Words) -> dict[str, object]:
    """Words as JSON, to store or publish and word again for each reader (`words_from_json`): the
    template (the message id), its places (Words among them as JSON too) and, for a count, the plural."""
    params = {name: words_json(v) if isinstance(v, Words) else v for name, v in text.params.items()}
    made: dict[str, object] = {"id": text.template, "params": params}
    if text.plural is not None and text.number is not None:
        made["plural"], made["n"] = text.plural, text.number
    return made


def words_from_json(data: Mapping[str, object]) -> Words:
    """The Words `words_json` wrote (their English as the text, worded again by `word`)."""
    raw = data.get("params")
    places = raw if isinstance(raw, Mapping) else {}
    params = {str(name): words_from_json(v) if isinstance(v, Mapping) else v for name, v in places.items()}
    template, plural, n = str(data["id"]), data.get("plural"), data.get("n")
    if isinstance(plural, str) and isinstance(n, int):
        params.pop("num", None)
        return N_plural(template, plural, n, **params)
    return Words(template, **params)


def words(text: str) -> Words:
    """Words passed along as text (a reason read back, say): kept as they are when they are Words, else
    looked up as written when shown (a constant marked where it was made finds its translation)."""
    return text if isinstance(text, Words) else Words(text)


def install_jinja(env: object) -> None:
    """`{{ _("...") }}`, `{% trans %}` and `ngettext` in templates, in the reader's language."""
    from jinja2 import Environment

    assert isinstance(env, Environment)
    env.add_extension("jinja2.ext.i18n")
    # `{% trans %}` blocks read as one line, whatever their line breaks (as extraction reads them).
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda message: translations(current()).gettext(message),
        lambda singular, plural, n: translations(current()).ngettext(singular, plural, n),
        newstyle=True,
        # A word a context tells apart ("mokuru trick", "mooki family"): the rules pages' card tables.
        pgettext=lambda context, message: translations(current()).pgettext(context, message),
    )
    env.globals["current_language"] = current
    env.globals["languages"] = lambda: _languages.menu()


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _cookie(header: str | None, name: str) -> str | None:
    for part in (header or "").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value.strip() or None
    return None


def language_of(scope: Scope) -> str:
    """The reader's language for a request or a socket's handshake."""
    return _languages.choose(_cookie(_header(scope, b"cookie"), COOKIE), _header(scope, b"accept-language"))


class Speak:
    """Holds each request's language (from its cookie and Accept-Language) while it is answered."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or len(_languages.offered) == 1:
            await self.app(scope, receive, send)
            return
        token = _current.set(language_of(scope))

        async def varied(message: Message) -> None:
            # The same address answers in each reader's language: a cache must keep them apart. One
            # Vary header, naming what the answer varies on already (Accept-Encoding) and these.
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).add_vary_header("Accept-Language, Cookie")
            await send(message)

        # The static files (hashed, cached for a year) read the same in every language: the
        # catalogues are files of their own (static/i18n/<lang>.js).
        wording = scope["type"] == "http" and not scope.get("path", "").startswith("/static/")
        try:
            await self.app(scope, receive, varied if wording else send)
        finally:
            _current.reset(token)


def client_messages(lang: str, sources: Iterable[str] = ("static/js/", "engines/")) -> dict[str, object]:
    """The browser's catalogue of `lang`: the translations of the words its modules say, and of the
    engines' words it shows as the server sends them (action words, a game's options, card data).

    Plural entries hold every form, in the catalogue's order; the page picks one with the
    language's plural rule (static/js/i18n-core.js)."""
    with catalogue_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang)
    prefixes = tuple(sources)
    messages: dict[str, object] = {}
    for message in catalog:
        if not message.id or not any(path.startswith(prefixes) for path, _line in message.locations):
            continue
        # gettext's key for a word in a context: the context, EOT, the word.
        prefix = f"{message.context}\x04" if message.context else ""
        if isinstance(message.id, tuple | list):
            forms = [str(form) for form in message.string or ()]
            if all(forms):
                messages[prefix + message.id[0]] = forms
        elif message.string:
            messages[prefix + message.id] = message.string
    return {"lang": lang, "plurals": catalog.num_plurals, "messages": dict(sorted(messages.items()))}
