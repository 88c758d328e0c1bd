"""Player names: cleaned of invisible and direction-changing characters, limited like the form, unique
in a room ("Bo", then "Bo (2)"), and distinct names for bots."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from app.i18n import N_, Words

# The join form's maxlength: browsers count UTF-16 code units, so the server counts the same way.
MAX_NAME = 24
# Chat messages: long enough for a sentence, short enough for the side panel.
MAX_CHAT = 280

# Zero-width joiner: kept only between two symbols (it glues emoji sequences like 👩‍👩‍👧).
ZWJ = "\u200d"
_SPACES = re.compile(r"\s+")

BOT_NAMES = ("Ada", "Blaise", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Claude", "Hedy")


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _is_symbol(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk") or 0x1F000 <= ord(char) <= 0x1FAFF


def strip_invisible(text: str) -> str:
    """Remove control characters (NUL, escapes, newlines become spaces), format characters (direction
    overrides such as U+202E, zero-width spaces, BOM) and unassigned or private-use code points."""
    kept: list[str] = []
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if char == ZWJ:
            before = kept[-1] if kept else ""
            after = text[index + 1] if index + 1 < len(text) else ""
            if before and after and _is_symbol(before) and _is_symbol(after):
                kept.append(char)
            continue
        if category in ("Zl", "Zp") or char in "\t\n\r\v\f":
            kept.append(" ")
        elif category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        else:
            kept.append(char)
    return "".join(kept)


def _visible(raw: str, thing: str) -> str:
    """`raw` in NFC with invisible characters out and runs of spaces made one (may come out empty)."""
    if not isinstance(raw, str):
        raise ValueError(
            Words(N_("a name is a string") if thing == "a name" else N_("a message is a string"))
        )
    return _SPACES.sub(" ", strip_invisible(unicodedata.normalize("NFC", raw))).strip()


def clean_name(raw: str) -> str:
    """A name fit to show anyone: invisible characters out, spaces collapsed, 1 to 24 characters.
    Raises ValueError (answered as 422 invalid_request) otherwise."""
    name = _visible(raw, "a name")
    if not name:
        raise ValueError(Words(N_("type a name with at least one visible character")))
    if utf16_length(name) > MAX_NAME:
        raise ValueError(Words(N_("a name may be at most %(most)s characters"), most=MAX_NAME))
    return name


def clean_chat(raw: str) -> str:
    """A chat message cleaned like a name, 1 to 280 characters."""
    text = _visible(raw, "a message")
    if not text:
        raise ValueError(Words(N_("a message needs at least one visible character")))
    if len(text) > MAX_CHAT:
        raise ValueError(Words(N_("a message may be at most %(most)s characters"), most=MAX_CHAT))
    return text


def unique_name(name: str, taken: Iterable[str]) -> str:
    """`name`, or "name (2)", "name (3)"... when someone in the room already has it (case aside)."""
    used = {t.casefold() for t in taken}
    if name.casefold() not in used:
        return name
    number = 2
    while f"{name} ({number})".casefold() in used:
        number += 1
    return f"{name} ({number})"


def bot_name(taken: Iterable[str]) -> str:
    """A bot's name that nobody in the room has yet."""
    used = {t.casefold() for t in taken}
    for name in BOT_NAMES:
        if name.casefold() not in used:
            return name
    return unique_name(BOT_NAMES[0], used)
