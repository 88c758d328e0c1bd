"""The table chat: what players (and spectators, when the host lets them) write, and the table's own
lines (a seat moved, a player left, the game paused), each marked with the match event it follows."""

from __future__ import annotations

import contextlib
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_, Words, word, words, words_from_json, words_json
from app.models import ChatMessage
from app.names import clean_chat
from app.services.auth import player_seat, seat_of
from app.services.cache import StateCache
from app.services.lookup import find_room
from app.services.matches import current_match, load_state
from app.services.people.common import aware, seat_row
from engines.core import get_engine

# Chat messages people wrote, and lines of the table's own, served per room: each count apart, so
# one kind never pushes the other out (older ones are still stored).
CHAT_KEPT = 100
TABLE_LINES_KEPT = 100

# Where a transaction keeps the table lines it wrote, as (room id, message body), for the playing
# layer to publish once they are committed.
TABLE_LINES = "table_lines"


def table_line(session: Session, room_id: str, text: Words, cache: StateCache | None) -> None:
    """A line of the table's own in its log (and chat), seen by every player and spectator: stored as
    its message id and places, and worded for each reader in their language (`worded`)."""
    after = last_event_seq(session, room_id, cache) if cache is not None else None
    message = ChatMessage(
        room_id=room_id,
        seat=None,
        name="",
        text=text[:400],
        after_seq=after,
        kind="seat",
        words=words_json(text),
    )
    session.add(message)
    session.flush()
    session.info.setdefault(TABLE_LINES, []).append((room_id, stored_body(message)))


def stored_body(message: ChatMessage) -> dict[str, Any]:
    """The message as it is published between processes: with a table line's words (`WORDS`), which
    each socket's copy is worded from (`worded`) and which no client is sent."""
    body = message_body(message)
    if message.words is not None:
        body[WORDS] = message.words
    return body


# Where a published message keeps a table line's message id and places.
WORDS = "words"


def worded(body: dict[str, Any]) -> dict[str, Any]:
    """A message as its reader reads it: a table line's `text` in the reader's language (app/i18n.py
    `current`); a person's words, and a line stored before its words were (plain English), as they are."""
    stored = body.get(WORDS)
    shown = {key: value for key, value in body.items() if key != WORDS}
    if isinstance(stored, dict):
        # A line whose words do not fill its template keeps its English, as stored.
        with contextlib.suppress(KeyError, TypeError, ValueError):
            shown["text"] = word(words_from_json(stored))
    return shown


def message_body(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.id,
        "seat": message.seat,
        "name": message.name,
        "text": message.text,
        "at": aware(message.created_at).isoformat(),
        "after": message.after_seq,
        "kind": message.kind or "chat",
    }


def last_event_seq(session: Session, room_id: str, cache: StateCache) -> int | None:
    """The seq of the newest event of the room's match (0 before any), None without a match."""
    match = current_match(session, room_id)
    if match is None:
        return None
    engine = get_engine(match.game)
    events = engine.view(load_state(session, match, cache), None).get("events") or []
    return int(events[-1]["seq"]) if events else 0


def say(
    session: Session, room_id: str, token: str | None, text: str, name: str | None, cache: StateCache
) -> dict[str, Any]:
    room = find_room(session, room_id)
    seat = seat_of(session, room_id, token)
    try:
        cleaned = clean_chat(text)
    except ValueError as error:
        raise AppError("invalid_request", words(error.args[0])) from None  # clean_chat's Words
    if seat is None:
        if not room.chat_spectators:
            raise AppError("forbidden", N_("spectators read the chat; the host may let them write"))
        shown = f"{name} (watching)" if name else "Spectator"
    else:
        shown = seat_row(session, room_id, seat).name
    after = last_event_seq(session, room_id, cache)
    message = ChatMessage(room_id=room_id, seat=seat, name=shown[:40], text=cleaned, after_seq=after)
    session.add(message)
    session.flush()
    return message_body(message)


def chat_log(session: Session, room_id: str) -> dict[str, Any]:
    """The newest CHAT_KEPT messages people wrote and the newest TABLE_LINES_KEPT of the table's own
    lines, together, oldest first. Kept apart so that a player who makes table lines fast (pausing
    and resuming) never pushes the others' messages out."""
    find_room(session, room_id)
    newest = select(ChatMessage).where(ChatMessage.room_id == room_id).order_by(ChatMessage.id.desc())
    people_said = list(session.scalars(newest.where(ChatMessage.kind != "seat").limit(CHAT_KEPT)))
    table_said = list(session.scalars(newest.where(ChatMessage.kind == "seat").limit(TABLE_LINES_KEPT)))
    rows = sorted(people_said + table_said, key=lambda m: m.id)
    return {"messages": [worded(stored_body(m)) for m in rows]}


def set_chat_spectators(session: Session, room_id: str, token: str | None, allowed: bool) -> None:
    room = find_room(session, room_id, lock=True)
    if player_seat(session, room_id, token) != room.host_seat:
        raise AppError("forbidden", N_("only the host may let spectators write"))
    room.chat_spectators = allowed
