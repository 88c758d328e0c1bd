"""A pause the table agrees on (docs/people.md "Pause"), in the database. Any seated player asks; every
other person who is here (docs/people.md "Consent") must agree, bots agree, one refusal ends it. While
paused no move clock runs (people.deadline reads `paused_at`) and no alert goes out (PauseGate); moves
are still accepted. Any player resumes; the clock then counts from the resume. Each function runs in
the caller's transaction and raises AppError, having written nothing, when it refuses."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_, Words
from app.models import Room, utcnow
from app.services import people
from app.services.auth import player_seat
from app.services.cache import StateCache
from app.services.pause_rules import open_request, paused_line


def _names(session: Session, room_id: str, seats: list[int]) -> str:
    return ", ".join(people.seat_row(session, room_id, s).name for s in seats)


def body(room: Room, times: people.Times) -> dict[str, Any]:
    """The room body's part: `paused`, since when and the open request with whom it waits for."""
    request = open_request(room)
    shown = None
    if request is not None:
        approvals = list(request.get("approvals") or [])
        shown = {
            "by": request["by"],
            "at": request["at"],
            "expires": request["expires"],
            "approvals": approvals,
            "waiting_for": [s for s in request["needed"] if s not in approvals],
        }
    return {
        "paused": room.paused_at is not None,
        "paused_at": people.aware(room.paused_at).isoformat() if room.paused_at is not None else None,
        "pause_request": shown,
    }


def _pause_now(session: Session, room: Room, line: Words, cache: StateCache | None) -> None:
    room.paused_at = utcnow()
    room.pause_request = None
    people.table_line(session, room.id, line, cache)


def ask(
    session: Session,
    room_id: str,
    token: str | None,
    connected: set[int] | None,
    times: people.Times,
    cache: StateCache | None,
) -> None:
    room, match = people.playing_room(session, room_id)
    caller = player_seat(session, room_id, token)
    if room.paused_at is not None:
        raise AppError("invalid_request", N_("the game is paused already"))
    if open_request(room) is not None:
        raise AppError("invalid_request", N_("a pause was asked already; answer it"))
    needed = []
    for other in people.seats_of(session, room_id):
        if other.bot or other.seat == caller:
            continue  # bots agree; the asker agrees by asking
        away = people.gone_for(session, match, other, connected)  # unknown presence: 503
        if away is None or away < times.gone_after:
            needed.append(other.seat)
    name = people.seat_row(session, room_id, caller).name
    if not needed:
        line = Words(N_("%(name)s paused the game: no clocks and no alerts until someone resumes"), name=name)
        _pause_now(session, room, line, cache)
        return
    now = utcnow()
    expires = now + timedelta(seconds=times.request_lifetime)
    room.pause_request = {
        "by": caller,
        "at": now.isoformat(),
        "expires": expires.isoformat(),
        "needed": needed,
        "approvals": [],
    }
    people.table_line(
        session,
        room_id,
        Words(
            N_("%(name)s asked to pause the game; waiting for %(names)s"),
            name=name,
            names=_names(session, room_id, needed),
        ),
        cache,
    )


def answer(
    session: Session,
    room_id: str,
    token: str | None,
    agree: bool,
    times: people.Times,
    cache: StateCache | None,
) -> None:
    room, _match = people.playing_room(session, room_id)
    caller = player_seat(session, room_id, token)
    request = open_request(room)
    if request is None:
        raise AppError("invalid_request", N_("nobody is asking to pause the game"))
    approvals = list(request.get("approvals") or [])
    if caller not in request["needed"]:
        raise AppError(
            "forbidden", N_("only the players who were at the table when the pause was asked answer it")
        )
    if caller in approvals:
        raise AppError("invalid_request", N_("you agreed already"))
    name = people.seat_row(session, room_id, caller).name
    if not agree:
        room.pause_request = None
        people.table_line(
            session, room_id, Words(N_("%(name)s refused to pause the game; it goes on"), name=name), cache
        )
        return
    approvals.append(caller)
    if set(approvals) >= set(request["needed"]):
        asker = people.seat_row(session, room_id, request["by"]).name
        _pause_now(session, room, paused_line(asker, _names(session, room_id, approvals)), cache)
        return
    room.pause_request = {**request, "approvals": approvals}
    people.table_line(session, room_id, Words(N_("%(name)s agreed to pause the game"), name=name), cache)


def resume(session: Session, room_id: str, token: str | None, cache: StateCache | None) -> None:
    room, _match = people.playing_room(session, room_id)
    caller = player_seat(session, room_id, token)
    if room.paused_at is None:
        raise AppError("invalid_request", N_("the game is not paused"))
    room.paused_at = None
    room.resumed_at = utcnow()
    name = people.seat_row(session, room_id, caller).name
    line = Words(N_("%(name)s resumed the game: the clocks run again"), name=name)
    people.table_line(session, room_id, line, cache)
