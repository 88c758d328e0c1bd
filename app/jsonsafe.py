"""JSON from clients, decoded with bounds: every problem is a ValueError saying what is wrong.

Python's decoder raises RecursionError on deep nesting (1,000 nested arrays in 2 KB), ValueError on
integers over 4,300 digits and UnicodeDecodeError on bad bytes; and PostgreSQL refuses a NUL in any
text or JSONB value. None of those may reach a handler as anything but a refused request."""

from __future__ import annotations

import json
from typing import Any

from app.i18n import N_, Words


def loads(raw: bytes | str, max_depth: int) -> Any:
    """Decode one JSON document; ValueError when it is not valid, nested deeper than `max_depth`
    (Settings.max_json_depth) or holds a NUL character."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(Words(N_("the body is not valid UTF-8"))) from None
    try:
        value = json.loads(raw)
    except RecursionError:
        raise ValueError(Words(N_("JSON may be nested at most %(most)s deep"), most=max_depth)) from None
    except ValueError as error:  # JSONDecodeError, and integers over Python's digit limit
        raise ValueError(Words(N_("not valid JSON: %(why)s"), why=str(error))) from None
    # The walk only where it may find something: a document with no more brackets than `max_depth`
    # is nested no deeper, and a NUL can only come from a "\u0000" escape (the decoder refuses a raw
    # control character in a string). A move's message skips it: 2.1 us to decode instead of 5.4.
    if text_may_fail(raw, max_depth):
        check(value, max_depth)
    return value


def text_may_fail(text: str, max_depth: int) -> bool:
    """Whether the JSON text `text` may hold a NUL or be nested deeper than `max_depth` (`check` tells)."""
    return text.count("[") + text.count("{") > max_depth or "\\u0000" in text or "\x00" in text


def check(value: Any, max_depth: int) -> None:
    """Walk a decoded value without recursion: depth, and no NUL in any string or key."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ValueError(Words(N_("text may not contain the NUL character")))
        elif isinstance(item, dict | list):
            if depth > max_depth:
                raise ValueError(Words(N_("JSON may be nested at most %(most)s deep"), most=max_depth))
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)
