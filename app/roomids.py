"""Room ids: 12 URL-safe characters, never starting with `-` (a command line would take it for an option)."""

from __future__ import annotations

import re
import secrets

# secrets.token_urlsafe(9): 9 random bytes, 12 characters of [A-Za-z0-9_-].
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{12}")


def is_room_id(text: str) -> bool:
    """Whether `text` could be a room id at all: anything else is answered not_found before any work."""
    return ROOM_ID.fullmatch(text) is not None


def new_room_id() -> str:
    while True:
        room_id = secrets.token_urlsafe(9)
        if not room_id.startswith("-"):
            return room_id
