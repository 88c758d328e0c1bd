"""Words a person reads, written in English where they are said and worded in the reader's language
where they are shown (app/i18n.py). Engines import nothing of the app, so the marker is here too: the
catalogue's extraction reads engines/ with the same `N_` keyword (app/messages.py)."""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:
    """Marks words to translate where they are written; they are worded where they are shown."""
    return message


class Words(str):
    """English words with their places filled, which remember their template and places so that
    another language can word them again (AppError.message). As a str they are the English words:
    logs, replays and bodies that read them as text are unchanged."""

    template: str
    params: dict[str, Any]
    plural: str | None
    number: int | None

    def __new__(cls, template: str, **params: Any) -> Words:
        made = super().__new__(cls, template % params if params else template)
        made.template = template
        made.params = params
        made.plural = None
        made.number = None
        return made


def N_plural(singular: str, plural: str, n: int, **params: Any) -> Words:
    """Words in the form for `n` (`%(num)s` is `n`), worded where they are shown in the reader's
    language with that language's plural rule."""
    places = {"num": n, **params}
    made = Words(singular if n == 1 else plural, **places)
    made.template, made.plural, made.number = singular, plural, n
    return made
