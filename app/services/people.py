"""The people at a table, in the database: presence timestamps, move clocks, bots standing in for absent
players, leaving and removal, asking for a lost seat back, and the table chat. Each function runs
inside the caller's transaction and raises AppError, having written nothing, when it refuses."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.errors import AppError
from app.models import ActionRow, ChatMessage, Match, Room, Seat, SeatRequest, utcnow
from app.names import clean_chat
from app.services.auth import hash_token, new_token, player_seat, seat_of
from app.services.cache import StateCache
from app.services.matches import current_match, load_state
from app.services.rooms import check_clock, default_bot_kind, find_room
from engines.core import get_engine

# Seconds a player must have been away before the others may let a bot play for them, or the host
# may remove them.
GONE_AFTER = float(os.environ.get("MOTABLE_GONE_AFTER", "120"))
# Chat messages kept and served per room (older ones are still stored).
CHAT_KEPT = 100
# Pending seat requests a room may hold at once (more: rate_limited).
MAX_PENDING_REQUESTS = 5
# Seconds an unanswered seat request stays open. Then it lapses ("expired"): it stops counting toward
# the cap above, so nobody can fill a room's requests for good, and the asker may ask again.
REQUEST_LIFETIME = float(os.environ.get("MOTABLE_REQUEST_LIFETIME", "900"))


@dataclass(frozen=True)
class Absence:
    """Why others may let a bot play a seat: its clock ran out or its player is gone."""

    expired: bool
    gone_for: float | None


def aware(moment: datetime) -> datetime:
    """SQLite hands timestamps back without a zone; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=utcnow().tzinfo)


def seats_of(session: Session, room_id: str) -> list[Seat]:
    return list(session.scalars(select(Seat).where(Seat.room_id == room_id).order_by(Seat.seat)))


def _seat(session: Session, room_id: str, seat: int) -> Seat:
    row = session.scalars(select(Seat).where(Seat.room_id == room_id, Seat.seat == seat)).one_or_none()
    if row is None:
        raise AppError("not_found", f"no seat {seat} in this room")
    return row


# -- presence ----------------------------------------------------------------
def seen(session: Session, room_id: str, seat: int) -> None:
    """A socket of the seat closed now (one UPDATE: it runs at every close)."""
    session.execute(update(Seat).where(Seat.room_id == room_id, Seat.seat == seat).values(last_seen=utcnow()))


def away_since(seat: Seat) -> datetime:
    return aware(seat.last_seen or seat.created_at)


# -- clocks --------------------------------------------------------------------
def deadline(session: Session, room: Room, match: Match | None) -> datetime | None:
    """When the seats to act run out of time: the match's last move (or its start) plus the clock."""
    if room.clock is None or match is None or match.status != "playing":
        return None
    last = session.scalar(
        select(ActionRow.created_at)
        .where(ActionRow.match_id == match.id)
        .order_by(ActionRow.seq.desc())
        .limit(1)
    )
    return aware(last or match.started_at) + timedelta(seconds=room.clock)


def set_clock(session: Session, room_id: str, token: str | None, seconds: int | None) -> None:
    room = find_room(session, room_id, lock=True)
    if player_seat(session, room_id, token) != room.host_seat:
        raise AppError("forbidden", "only the host may set the clock")
    if current_match(session, room_id) is not None:
        raise AppError("already_started", "the clock is set before the match starts")
    check_clock(seconds)
    room.clock = seconds


# -- bots standing in, leaving, removal ----------------------------------------
def _playing(session: Session, room_id: str) -> tuple[Room, Match]:
    room = find_room(session, room_id, lock=True)
    match = current_match(session, room_id)
    if match is None:
        raise AppError("not_started", "the match has not started yet")
    if match.status != "playing":
        raise AppError("game_over", "the match is over")
    return room, match


def absence(
    session: Session, room: Room, match: Match, target: Seat, cache: StateCache, connected: set[int]
) -> Absence:
    now = utcnow()
    due = deadline(session, room, match)
    acting = get_engine(match.game).to_act(load_state(session, match, cache))
    expired = due is not None and now >= due and target.seat in acting
    gone_for = None if target.seat in connected else (now - away_since(target)).total_seconds()
    return Absence(expired, gone_for)


def stand_in(
    session: Session,
    room_id: str,
    token: str | None,
    seat: int,
    cache: StateCache,
    connected: set[int],
    gone_after: float,
) -> None:
    """Another player lets a bot play `seat` until its player comes back: allowed once the seat's clock
    ran out on its turn, or once its player has been gone `gone_after` seconds."""
    room, match = _playing(session, room_id)
    caller = player_seat(session, room_id, token)
    target = _seat(session, room_id, seat)
    if caller == seat:
        raise AppError("invalid_request", "to let a bot play for you, leave the game")
    if target.bot or target.stand_in:
        raise AppError("invalid_request", f"a bot already plays seat {seat}")
    why = absence(session, room, match, target, cache, connected)
    if not why.expired and (why.gone_for is None or why.gone_for < gone_after):
        raise AppError(
            "forbidden",
            f"{target.name} is still playing: a bot may stand in once their time is up "
            f"or after {int(gone_after)} seconds away",
        )
    target.stand_in = True


def take_back(session: Session, room_id: str, seat: int) -> bool:
    """The player is back: the bot standing in steps aside. False when no bot was standing in."""
    row = _seat(session, room_id, seat)
    if not row.stand_in:
        return False
    row.stand_in = False
    row.last_seen = utcnow()
    return True


def _bot_takes(session: Session, room: Room, target: Seat) -> None:
    """A bot takes the seat for good: the person's token stops working; the host passes on if needed."""
    target.bot = True
    target.stand_in = False
    target.token_hash = None
    target.bot_kind = default_bot_kind(room.game)
    if room.host_seat == target.seat:
        humans = [s.seat for s in seats_of(session, room.id) if not s.bot and s.seat != target.seat]
        if humans:
            room.host_seat = humans[0]
    for request in session.scalars(
        select(SeatRequest).where(SeatRequest.room_id == room.id, SeatRequest.seat == target.seat)
    ):
        if request.status == "pending":
            request.status = "refused"


def leave(session: Session, room_id: str, token: str | None) -> int:
    room, _match = _playing(session, room_id)
    seat = player_seat(session, room_id, token)
    _bot_takes(session, room, _seat(session, room_id, seat))
    return seat


def remove(
    session: Session, room_id: str, token: str | None, seat: int, connected: set[int], gone_after: float
) -> None:
    """The host gives the seat of a player who never came back to a bot."""
    room, _match = _playing(session, room_id)
    if player_seat(session, room_id, token) != room.host_seat:
        raise AppError("forbidden", "only the host may remove a player")
    target = _seat(session, room_id, seat)
    if target.bot:
        raise AppError("invalid_request", f"seat {seat} is a bot")
    if seat == room.host_seat:
        raise AppError("invalid_request", "to give up your own seat, leave the game")
    gone_for = None if seat in connected else (utcnow() - away_since(target)).total_seconds()
    if gone_for is None or gone_for < gone_after:
        raise AppError(
            "forbidden", f"{target.name} has not been away {int(gone_after)} seconds; let them come back"
        )
    _bot_takes(session, room, target)


# -- asking for a seat back ----------------------------------------------------
def ask_for_seat(session: Session, room_id: str, seat: int) -> dict[str, Any]:
    """Anyone may ask for a seat: they get a token that works only once a player approves."""
    room = find_room(session, room_id, lock=True)
    target = _seat(session, room_id, seat)
    if target.bot:
        raise AppError("invalid_request", f"seat {seat} is a bot's")
    pending = []
    for open_request in session.scalars(
        select(SeatRequest).where(SeatRequest.room_id == room.id, SeatRequest.status == "pending")
    ):
        if _lapsed(open_request):
            open_request.status = "expired"  # written down here, under the room lock
        else:
            pending.append(open_request)
    if len(pending) >= MAX_PENDING_REQUESTS:
        raise AppError("rate_limited", "this room has too many open seat requests; try again later")
    token = new_token()
    request = SeatRequest(
        id=secrets.token_urlsafe(12), room_id=room.id, seat=seat, token_hash=hash_token(token)
    )
    session.add(request)
    return {"request_id": request.id, "seat": seat, "token": token, "status": "pending"}


def _expiry(request: SeatRequest) -> datetime:
    return aware(request.created_at) + timedelta(seconds=REQUEST_LIFETIME)


def _lapsed(request: SeatRequest) -> bool:
    return _expiry(request) <= utcnow()


def _status(request: SeatRequest) -> str:
    """pending, approved, refused or expired: a pending request past its lifetime has lapsed, whether
    or not that was written down yet."""
    return "expired" if request.status == "pending" and _lapsed(request) else request.status


def request_status(session: Session, room_id: str, request_id: str) -> dict[str, Any]:
    request = session.get(SeatRequest, request_id)
    if request is None or request.room_id != room_id:
        raise AppError("not_found", "no such seat request")
    return {"request_id": request.id, "seat": request.seat, "status": _status(request)}


def pending_requests(session: Session, room_id: str) -> list[dict[str, Any]]:
    rows = session.scalars(
        select(SeatRequest)
        .where(SeatRequest.room_id == room_id, SeatRequest.status == "pending")
        .order_by(SeatRequest.created_at)
    )
    return [
        {"id": r.id, "seat": r.seat, "at": aware(r.created_at).isoformat(), "expires": _expiry(r).isoformat()}
        for r in rows
        if not _lapsed(r)
    ]


def answer_request(
    session: Session, room_id: str, token: str | None, request_id: str, approve: bool, connected: set[int]
) -> int:
    """The host approves or refuses; when the host is away (or is the one asking), any other player.
    Approved: the asker's token becomes the seat's and the old one stops working. Returns the seat."""
    room = find_room(session, room_id, lock=True)
    caller = player_seat(session, room_id, token)
    request = session.get(SeatRequest, request_id)
    if request is None or request.room_id != room_id:
        raise AppError("not_found", "no such seat request")
    if _status(request) == "expired":
        raise AppError("invalid_request", "this request lapsed unanswered; they may ask again")
    if request.status != "pending":
        raise AppError("invalid_request", f"this request was {request.status} already")
    if caller == request.seat:
        raise AppError("forbidden", "another player must answer a request for your own seat")
    host_answers = room.host_seat in connected and room.host_seat != request.seat
    if host_answers and caller != room.host_seat:
        raise AppError("forbidden", "the host is here: the host answers seat requests")
    if not approve:
        request.status = "refused"
        return request.seat
    target = _seat(session, room_id, request.seat)
    if target.bot:
        # Not reached in practice (a bot taking a seat refuses its pending requests); the error
        # rolls the transaction back, so nothing is marked here.
        raise AppError("invalid_request", "a bot has taken this seat for good")
    target.token_hash = request.token_hash
    target.stand_in = False
    target.last_seen = utcnow()
    request.status = "approved"
    for other in session.scalars(
        select(SeatRequest).where(
            SeatRequest.room_id == room_id,
            SeatRequest.seat == request.seat,
            SeatRequest.status == "pending",
            SeatRequest.id != request.id,
        )
    ):
        other.status = "refused"
    return request.seat


# -- chat ----------------------------------------------------------------------
def message_body(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.id,
        "seat": message.seat,
        "name": message.name,
        "text": message.text,
        "at": aware(message.created_at).isoformat(),
        "after": message.after_seq,
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
        raise AppError("invalid_request", str(error)) from None
    if seat is None:
        if not room.chat_spectators:
            raise AppError("forbidden", "spectators read the chat; the host may let them write")
        shown = f"{name} (watching)" if name else "Spectator"
    else:
        shown = _seat(session, room_id, seat).name
    after = last_event_seq(session, room_id, cache)
    message = ChatMessage(room_id=room_id, seat=seat, name=shown[:40], text=cleaned, after_seq=after)
    session.add(message)
    session.flush()
    return message_body(message)


def chat_log(session: Session, room_id: str) -> dict[str, Any]:
    find_room(session, room_id)
    rows = list(
        session.scalars(
            select(ChatMessage)
            .where(ChatMessage.room_id == room_id)
            .order_by(ChatMessage.id.desc())
            .limit(CHAT_KEPT)
        )
    )
    return {"messages": [message_body(m) for m in reversed(rows)]}


def set_chat_spectators(session: Session, room_id: str, token: str | None, allowed: bool) -> None:
    room = find_room(session, room_id, lock=True)
    if player_seat(session, room_id, token) != room.host_seat:
        raise AppError("forbidden", "only the host may let spectators write")
    room.chat_spectators = allowed
