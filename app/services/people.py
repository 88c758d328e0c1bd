"""The people at a table, in the database: presence timestamps, move clocks, bots standing in for absent
players, leaving and removal, moving a seat to another device with its holder's consent, and the table
chat. Each function runs inside the caller's transaction and raises AppError, having written nothing,
when it refuses. `connected` is the set of seats with a live socket, or None when presence cannot be
known just now (Redis unreachable): then nothing that needs someone to be gone is allowed."""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.orm import Session

from app.errors import AppError
from app.models import ActionRow, ChatMessage, Match, Room, Seat, SeatMove, SeatRequest, utcnow
from app.names import clean_chat
from app.services import outbox, pause_rules
from app.services.alert_seats import forget_alerts
from app.services.auth import hash_token, new_token, player_seat, seat_of
from app.services.cache import StateCache
from app.services.lookup import find_room
from app.services.matches import current_match, load_state
from app.services.rooms import check_clock, default_bot_kind
from engines.core import get_engine

# Chat messages people wrote, and lines of the table's own, served per room: each count apart, so
# one kind never pushes the other out (older ones are still stored).
CHAT_KEPT = 100
TABLE_LINES_KEPT = 100
# Open seat requests one asking address (an IPv6 client: its /64) may hold in a room at once, and how
# many addresses a room takes requests from at once (more: rate_limited). A room's places are counted
# in addresses, not requests: a dozen addresses asking twice each leave the room open to the next
# ones (issue 32 found 12 addresses filling 20 places counted in requests). A refused or lapsed
# request frees its place at once.
MAX_PENDING_PER_ASKER = 2
MAX_ASKING_ADDRESSES = 20
# With only one other person at the table, that person alone may approve moving a gone holder's seat
# once the holder has been gone this long (a day).
LONE_APPROVER_AFTER = 24 * 3600.0
PRESENCE_UNKNOWN = (
    "we cannot tell right now who is at the table (a part of the server is restarting); "
    "try again in a few seconds"
)
PRESENCE_RETRY = 5


def presence_unknown() -> AppError:
    return AppError("unavailable", PRESENCE_UNKNOWN, retry_after=PRESENCE_RETRY)


@dataclass
class Times:
    """How long the people rules wait, from the settings (MOTABLE_GONE_AFTER, MOTABLE_REQUEST_LIFETIME,
    MOTABLE_SEAT_REFUSAL_SECONDS). One object per process, shared by whoever reads the rules."""

    # Seconds a player must have been away before the others may let a bot play for them, or the host
    # may remove them.
    gone_after: float = 120.0
    # Seconds an unanswered seat request stays open. Then it lapses ("expired"): it stops counting
    # toward the caps, so nobody can fill a room's requests for good, and the asker may ask again.
    request_lifetime: float = 900.0
    # Seconds between an approval by someone other than the seat's holder and the handover, in which
    # the holder may refuse (or make it lapse by coming back).
    refusal_seconds: float = 600.0


@dataclass(frozen=True)
class Absence:
    """Why others may let a bot play a seat: its clock ran out or its player is gone."""

    expired: bool
    gone_for: float | None


def aware(moment: datetime) -> datetime:
    """SQLite hands timestamps back without a zone; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=utcnow().tzinfo)


# Read by every room body, socket and close: built once (app/services/lookup.py says why).
_SEATS = select(Seat).where(Seat.room_id == bindparam("room_id")).order_by(Seat.seat)
_SEAT = select(Seat).where(Seat.room_id == bindparam("room_id"), Seat.seat == bindparam("seat"))
# A Core statement: with one parameter set per closed socket it runs as one executemany.
_SEAT_ROWS = cast(Table, Seat.__table__)
_SEEN = (
    update(_SEAT_ROWS)
    .where(_SEAT_ROWS.c.room_id == bindparam("s_room"), _SEAT_ROWS.c.seat == bindparam("s_seat"))
    .values(last_seen=bindparam("s_now"))
)
_WAITING_SEATS = select(SeatRequest.seat).where(
    SeatRequest.room_id == bindparam("room_id"), SeatRequest.status == "waiting"
)


def seats_of(session: Session, room_id: str) -> list[Seat]:
    return list(session.scalars(_SEATS, {"room_id": room_id}))


def seat_row(session: Session, room_id: str, seat: int) -> Seat:
    """The seat's row; a seat the room does not have is `not_found`."""
    row = session.scalars(_SEAT, {"room_id": room_id, "seat": seat}).one_or_none()
    if row is None:
        raise AppError("not_found", f"no seat {seat} in this room")
    return row


# -- presence ----------------------------------------------------------------
def seen(session: Session, closed: list[tuple[str, int, datetime]]) -> None:
    """Sockets closed: (room, seat, when) each. The group-commit writer (app/playing/writer.py) calls
    it once per batch, with every close of that batch."""
    if closed:
        session.execute(_SEEN, [{"s_room": room, "s_seat": seat, "s_now": at} for room, seat, at in closed])


def away_since(seat: Seat) -> datetime:
    return aware(seat.last_seen or seat.created_at)


def last_acted(session: Session, match: Match | None, seat: int) -> datetime | None:
    if match is None:
        return None
    moment = session.scalar(
        select(func.max(ActionRow.created_at)).where(ActionRow.match_id == match.id, ActionRow.seat == seat)
    )
    return aware(moment) if moment is not None else None


def gone_for(session: Session, match: Match | None, target: Seat, connected: set[int] | None) -> float | None:
    """Seconds the seat's player has been gone: None while they have a socket open. A player who plays
    over HTTP only is here as long as they keep acting: the clock runs from their last action too."""
    if connected is None:
        raise presence_unknown()
    if target.seat in connected:
        return None
    since = away_since(target)
    acted = last_acted(session, match, target.seat)
    if acted is not None and acted > since:
        since = acted
    return max(0.0, (utcnow() - since).total_seconds())


def bump_epoch(room: Room) -> None:
    """Who plays a seat, or with which token, changed: processes that cached the room's seats see the
    new epoch within seconds and forget them (app/playing/seatwatch.py). The room body changed too
    (its revision: app/playing/commands.py), whichever command did it."""
    room.seat_epoch = (room.seat_epoch or 0) + 1
    room.revision = (room.revision or 0) + 1


# Where a transaction keeps the table lines it wrote, as (room id, message body), for the playing
# layer to publish once they are committed.
TABLE_LINES = "table_lines"


def table_line(session: Session, room_id: str, text: str, cache: StateCache | None) -> None:
    """A line of the table's own in its log (and chat), seen by every player and spectator."""
    after = last_event_seq(session, room_id, cache) if cache is not None else None
    message = ChatMessage(room_id=room_id, seat=None, name="", text=text[:400], after_seq=after, kind="seat")
    session.add(message)
    session.flush()
    session.info.setdefault(TABLE_LINES, []).append((room_id, message_body(message)))


# -- clocks --------------------------------------------------------------------
def deadline(session: Session, room: Room, match: Match | None) -> datetime | None:
    """When the seats to act run out of time: the match's last move (or its start) plus the clock."""
    if room.clock is None or match is None or match.status != "playing" or room.paused_at is not None:
        return None  # a paused game has no clock (app/services/pause.py)
    last = session.scalar(
        select(ActionRow.created_at)
        .where(ActionRow.match_id == match.id)
        .order_by(ActionRow.seq.desc())
        .limit(1)
    )
    since = aware(last or match.started_at)
    if room.resumed_at is not None and aware(room.resumed_at) > since:
        since = aware(room.resumed_at)  # resumed: the seats to act get their whole time again
    return since + timedelta(seconds=room.clock)


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


def _not_paused(room: Room) -> None:
    """Nobody's seat goes to a bot while the table agreed to wait (app/services/pause.py)."""
    if room.paused_at is not None:
        raise AppError("forbidden", "the game is paused: resume it first")


def absence(
    session: Session, room: Room, match: Match, target: Seat, cache: StateCache, connected: set[int] | None
) -> Absence:
    now = utcnow()
    due = deadline(session, room, match)
    acting = get_engine(match.game).to_act(load_state(session, match, cache))
    expired = due is not None and now >= due and target.seat in acting
    # A clock that ran out on the seat's turn is read from the database alone: presence is not needed.
    gone = None if expired else gone_for(session, match, target, connected)
    return Absence(expired, gone)


def stand_in(
    session: Session,
    room_id: str,
    token: str | None,
    seat: int,
    cache: StateCache,
    connected: set[int] | None,
    times: Times,
) -> None:
    """Another player lets a bot play `seat` until its player comes back: allowed once the seat's clock
    ran out on its turn, or once its player has been gone `times.gone_after` seconds."""
    room, match = _playing(session, room_id)
    caller = player_seat(session, room_id, token)
    target = seat_row(session, room_id, seat)
    if caller == seat:
        raise AppError("invalid_request", "to let a bot play for you, leave the game")
    if target.bot or target.stand_in:
        raise AppError("invalid_request", f"a bot already plays seat {seat}")
    _not_paused(room)
    why = absence(session, room, match, target, cache, connected)
    if not why.expired and (why.gone_for is None or why.gone_for < times.gone_after):
        raise AppError(
            "forbidden",
            f"{target.name} is still playing: a bot may stand in once their time is up "
            f"or after {int(times.gone_after)} seconds away",
        )
    target.stand_in = True
    bump_epoch(room)


def take_back(session: Session, room_id: str, seat: int) -> bool:
    """The player is back: the bot standing in steps aside. False when no bot was standing in."""
    row = seat_row(session, room_id, seat)
    if not row.stand_in:
        return False
    row.stand_in = False
    row.last_seen = utcnow()
    bump_epoch(find_room(session, room_id))
    return True


def _bot_takes(
    session: Session, room: Room, target: Seat, reason: str, by: int | None, cache: StateCache | None
) -> None:
    """A bot takes the seat for good: the person's token stops working; the host passes on if needed."""
    if target.token_hash is not None:
        session.add(
            SeatMove(
                room_id=room.id, seat=target.seat, old_token_hash=target.token_hash, reason=reason, by_seat=by
            )
        )
    if reason == "left":
        table_line(session, room.id, f"{target.name} left the game; a bot plays their seat", cache)
    else:
        remover = seat_row(session, room.id, by).name if by is not None else "The host"
        table_line(
            session, room.id, f"{remover} gave {target.name}'s seat to a bot ({target.name} was gone)", cache
        )
    bump_epoch(room)
    forget_alerts(session, room.id, target.seat)
    target.bot = True
    _pause_without(session, room, target.seat, cache)
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
        if request.status in OPEN:
            request.status = "refused"


def _pause_without(session: Session, room: Room, seat: int, cache: StateCache | None) -> None:
    """An open pause request stops waiting for a player who left, and goes with one who asked it."""
    outcome, request = pause_rules.without_seat(room, seat)
    if outcome == "dropped":
        room.pause_request = None
    elif outcome == "waits":
        room.pause_request = request
    elif outcome == "paused" and request is not None:
        room.pause_request = None
        room.paused_at = utcnow()
        asker = seat_row(session, room.id, request["by"]).name
        agreed = ", ".join(seat_row(session, room.id, s).name for s in request["approvals"])
        table_line(session, room.id, pause_rules.paused_line(asker, agreed), cache)


def leave(session: Session, room_id: str, token: str | None, cache: StateCache | None = None) -> int:
    room, _match = _playing(session, room_id)
    seat = player_seat(session, room_id, token)
    _bot_takes(session, room, seat_row(session, room_id, seat), "left", None, cache)
    return seat


def remove(
    session: Session,
    room_id: str,
    token: str | None,
    seat: int,
    connected: set[int] | None,
    times: Times,
    cache: StateCache | None = None,
) -> None:
    """The host gives the seat of a player who never came back to a bot."""
    room, match = _playing(session, room_id)
    if player_seat(session, room_id, token) != room.host_seat:
        raise AppError("forbidden", "only the host may remove a player")
    target = seat_row(session, room_id, seat)
    if target.bot:
        raise AppError("invalid_request", f"seat {seat} is a bot")
    if seat == room.host_seat:
        raise AppError("invalid_request", "to give up your own seat, leave the game")
    _not_paused(room)
    gone = gone_for(session, match, target, connected)
    if gone is None or gone < times.gone_after:
        raise AppError(
            "forbidden",
            f"{target.name} has not been away {int(times.gone_after)} seconds; let them come back",
        )
    _bot_takes(session, room, target, "removed", room.host_seat, cache)


# -- moving a seat to another device ---------------------------------------------
# A request is pending until answered; approved by the holder it is carried out at once; approved by
# others (the holder being gone) it waits out the refusal window, then is carried out unless the holder
# refused or came back meanwhile (then it lapses: "expired"). docs/people.md draws the state machine.
OPEN = ("pending", "waiting")
_OPEN_REQUESTS = (
    select(SeatRequest)
    .where(SeatRequest.room_id == bindparam("room_id"), SeatRequest.status.in_(OPEN))
    .order_by(SeatRequest.created_at)
)


def ask_for_seat(
    session: Session, room_id: str, seat: int, times: Times, asker: str | None = None
) -> dict[str, Any]:
    """Anyone may ask for a seat: they get a token that works only once the request is carried out.
    `asker`: a digest of the asking address (app/ratelimit.py `address_digest`), which holds at most
    MAX_PENDING_PER_ASKER places; a room takes requests from MAX_ASKING_ADDRESSES addresses at once."""
    room = find_room(session, room_id, lock=True)
    target = seat_row(session, room_id, seat)
    if target.bot:
        raise AppError("invalid_request", f"seat {seat} is a bot's")
    open_requests = []
    for open_request in session.scalars(
        select(SeatRequest).where(SeatRequest.room_id == room.id, SeatRequest.status.in_(OPEN))
    ):
        if _status(open_request, times) == "expired":
            open_request.status = "expired"  # written down here, under the room lock
        else:
            open_requests.append(open_request)
    mine = [r for r in open_requests if asker is not None and r.asker == asker]
    if len(mine) >= MAX_PENDING_PER_ASKER:
        raise AppError(
            "rate_limited",
            "you have asked for seats in this room already; wait for an answer (or for the request to lapse)",
            retry_after=_first_lapse(mine, times),
        )
    # A request from before addresses were kept counts as an address of its own.
    askers = {r.asker or r.id for r in open_requests}
    if not mine and len(askers) >= MAX_ASKING_ADDRESSES:
        raise AppError(
            "rate_limited",
            "this room has too many open seat requests; try again later",
            retry_after=_first_lapse(open_requests, times),
        )
    token = new_token()
    request = SeatRequest(
        id=secrets.token_urlsafe(12), room_id=room.id, seat=seat, token_hash=hash_token(token), asker=asker
    )
    session.add(request)
    outbox.record(session, room.id, "seat_request", None, seats=[seat])
    return {"request_id": request.id, "seat": seat, "token": token, "status": "pending"}


def _expiry(request: SeatRequest, times: Times) -> datetime:
    return aware(request.created_at) + timedelta(seconds=times.request_lifetime)


def _first_lapse(requests: list[SeatRequest], times: Times) -> int:
    """Whole seconds (at least 1) until the first of these pending requests lapses and frees its
    place; a waiting one holds its place until carried out, within the refusal window."""
    now = utcnow()
    ends = [_expiry(r, times) if r.status == "pending" else aware(r.effective_at or now) for r in requests]
    return max(1, math.ceil((min(ends) - now).total_seconds())) if ends else 1


def _status(request: SeatRequest, times: Times) -> str:
    """pending, waiting, approved, refused or expired: a pending request past its lifetime has lapsed,
    whether or not that was written down yet (a waiting one is carried out at its time instead)."""
    if request.status == "pending" and _expiry(request, times) <= utcnow():
        return "expired"
    return request.status


def _request_body(request: SeatRequest, times: Times) -> dict[str, Any]:
    body: dict[str, Any] = {"request_id": request.id, "seat": request.seat, "status": _status(request, times)}
    if request.status == "waiting" and request.effective_at is not None:
        body["effective_at"] = aware(request.effective_at).isoformat()
    return body


def _find_request(session: Session, room_id: str, request_id: str) -> SeatRequest:
    request = session.get(SeatRequest, request_id, populate_existing=True)
    if request is None or request.room_id != room_id:
        raise AppError("not_found", "no such seat request")
    return request


def request_status(session: Session, room_id: str, request_id: str, times: Times) -> dict[str, Any]:
    return _request_body(_find_request(session, room_id, request_id), times)


@dataclass(frozen=True)
class Consent:
    """Who, besides the holder, may answer a request for a seat, and how many approvals carry it."""

    holder_gone: bool
    approvers: frozenset[int]
    needed: int
    why_not: str


def consent(
    session: Session,
    room: Room,
    match: Match | None,
    target: Seat,
    connected: set[int] | None,
    times: Times,
) -> Consent:
    """The consent rules (docs/people.md): while the holder is at the table only they answer; once they
    are gone, the host (when the host is not the seat asked for) or else a majority of the other present
    people; a lone other person only after the holder has been gone a day. Raises `unavailable` when
    presence cannot be known."""
    gone = gone_for(session, match, target, connected)
    if gone is None or gone < times.gone_after:
        return Consent(
            False,
            frozenset(),
            1,
            f"{target.name} is at the table: only {target.name} may answer for their seat",
        )
    people_here = [s for s in seats_of(session, room.id) if not s.bot and s.seat != target.seat]
    if len(people_here) == 1:
        lone = people_here[0]
        if gone < LONE_APPROVER_AFTER:
            return Consent(
                True,
                frozenset(),
                1,
                f"with only two of you at the table, {lone.name} may approve once {target.name} has been "
                "gone a day",
            )
        return Consent(True, frozenset({lone.seat}), 1, "")
    host = next((s for s in people_here if s.seat == room.host_seat), None)
    if host is not None:
        return Consent(True, frozenset({host.seat}), 1, "the host answers requests for a gone player's seat")
    present = []
    for other in people_here:
        away = gone_for(session, match, other, connected)
        if away is None or away < times.gone_after:
            present.append(other.seat)
    if not present:
        return Consent(True, frozenset(), 1, "nobody else is at the table to approve")
    return Consent(
        True, frozenset(present), len(present) // 2 + 1, "a majority of the players at the table answers this"
    )


def open_requests(
    session: Session, room: Room, match: Match | None, connected: set[int], times: Times
) -> list[dict[str, Any]]:
    """The room body's requests: pending and waiting ones, with who may answer each now."""
    rows = session.scalars(_OPEN_REQUESTS, {"room_id": room.id})
    listed = []
    # The rule depends on the seat asked for alone: read once per seat, however many ask for it.
    rules: dict[int, Consent] = {}
    for r in rows:
        status = _status(r, times)
        if status not in OPEN:
            continue
        target = seat_row(session, room.id, r.seat)
        if r.seat not in rules:
            rules[r.seat] = consent(session, room, match, target, connected, times)
        rule = rules[r.seat]
        answerable = {target.seat} | (set(rule.approvers) - set(r.approvals or []))
        if status == "waiting":
            answerable = {target.seat} | set(rule.approvers)  # each may still refuse
        listed.append(
            {
                "id": r.id,
                "seat": r.seat,
                "at": aware(r.created_at).isoformat(),
                "expires": _expiry(r, times).isoformat() if status == "pending" else None,
                "status": status,
                "approvals": list(r.approvals or []),
                "effective_at": aware(r.effective_at).isoformat() if r.effective_at is not None else None,
                "answerable_by": sorted(answerable),
            }
        )
    return listed


def _minutes(seconds: float) -> str:
    if seconds >= 2 * 3600:
        return f"{int(seconds // 3600)} hours"
    if seconds >= 120:
        return f"{int(seconds // 60)} minutes"
    return f"{int(seconds)} seconds"


@dataclass(frozen=True)
class Answered:
    """What answering did: the request's body, and whether the seat's token changed now (and which
    seats of rematches followed it: `follow_to_rematches`)."""

    body: dict[str, Any]
    seat: int
    handed_over: bool
    changed: bool
    followed: tuple[tuple[str, int], ...] = ()


def answer_request(
    session: Session,
    room_id: str,
    token: str | None,
    request_id: str,
    approve: bool,
    connected: set[int] | None,
    times: Times,
    cache: StateCache | None = None,
) -> Answered:
    """The holder approves (carried out at once) or refuses; others only by the consent rules, and their
    approval waits out the refusal window."""
    room = find_room(session, room_id, lock=True)
    caller = player_seat(session, room_id, token)
    request = _find_request(session, room_id, request_id)
    status = _status(request, times)
    if status == "expired":
        raise AppError("invalid_request", "this request lapsed unanswered; they may ask again")
    if status not in OPEN:
        raise AppError("invalid_request", f"this request was {status} already")
    target = seat_row(session, room_id, request.seat)
    if target.bot:
        # Not reached in practice (a bot taking a seat refuses its open requests); the error rolls
        # the transaction back, so nothing is marked here.
        raise AppError("invalid_request", "a bot has taken this seat for good")
    if caller == request.seat:
        # The holder's word settles it, whatever the state and whoever approved before.
        if not approve:
            request.status = "refused"
            table_line(session, room_id, f"{target.name} refused to move their seat to another device", cache)
            return Answered(_request_body(request, times), request.seat, False, True)
        followed = _hand_over(session, room, request, target, caller, cache)
        return Answered(_request_body(request, times), request.seat, True, True, followed)
    match = current_match(session, room_id)
    rule = consent(session, room, match, target, connected, times)
    if caller not in rule.approvers:
        raise AppError("forbidden", rule.why_not)
    if not approve:
        request.status = "refused"
        who = seat_row(session, room_id, caller).name
        table_line(session, room_id, f"{who} refused to move {target.name}'s seat to another device", cache)
        return Answered(_request_body(request, times), request.seat, False, True)
    if status == "waiting":
        raise AppError("invalid_request", "this request is approved already and waits for its time")
    if caller in (request.approvals or []):
        raise AppError("invalid_request", "you approved this request already")
    request.approvals = [*(request.approvals or []), caller]
    if len(request.approvals) < rule.needed:
        return Answered(_request_body(request, times), request.seat, False, True)
    request.approved_by = caller
    if times.refusal_seconds <= 0:
        followed = _hand_over(session, room, request, target, caller, cache)
        return Answered(_request_body(request, times), request.seat, True, True, followed)
    request.status = "waiting"
    request.effective_at = utcnow() + timedelta(seconds=times.refusal_seconds)
    names = ", ".join(seat_row(session, room_id, s).name for s in request.approvals)
    table_line(
        session,
        room_id,
        f"{names} approved moving {target.name}'s seat to another device: it moves in "
        f"{_minutes(times.refusal_seconds)} unless {target.name} refuses or comes back",
        cache,
    )
    bump_epoch(room)  # the holder's processes learn of the window (RoomFacts.waiting)
    return Answered(_request_body(request, times), request.seat, False, True)


def _hand_over(
    session: Session, room: Room, request: SeatRequest, target: Seat, approver: int, cache: StateCache | None
) -> tuple[tuple[str, int], ...]:
    """The asker's token becomes the seat's; the old one stops working (a seat move records why), in
    the rematches too (`follow_to_rematches`, whose answer it returns)."""
    followed: tuple[tuple[str, int], ...] = ()
    if target.token_hash is not None:
        followed = follow_to_rematches(session, room, target.token_hash, request.token_hash)
        session.add(
            SeatMove(
                room_id=room.id,
                seat=target.seat,
                old_token_hash=target.token_hash,
                reason="moved",
                by_seat=None if approver == target.seat else approver,
            )
        )
    target.token_hash = request.token_hash
    forget_alerts(session, room.id, target.seat)
    target.stand_in = False
    target.last_seen = utcnow()
    request.status = "approved"
    request.approved_by = approver
    for other in session.scalars(
        select(SeatRequest).where(
            SeatRequest.room_id == room.id,
            SeatRequest.seat == request.seat,
            SeatRequest.status.in_(OPEN),
            SeatRequest.id != request.id,
        )
    ):
        other.status = "refused"
    if approver == target.seat:
        line = f"{target.name}'s seat moved to another device, approved by {target.name}"
    else:
        names = ", ".join(seat_row(session, room.id, s).name for s in (request.approvals or [approver]))
        line = (
            f"{target.name}'s seat moved to another device, approved by {names} while {target.name} was gone"
        )
    table_line(session, room.id, line, cache)
    bump_epoch(room)
    return followed


# How far down a chain of rematches a seat move is followed (each one a room opened from the last).
REMATCH_CHAIN = 20


def follow_to_rematches(
    session: Session, room: Room, old_hash: str, new_hash: str
) -> tuple[tuple[str, int], ...]:
    """A seat of `room` moved from the token hashed `old_hash` to `new_hash`. A rematch opened by the
    table screen keeps its host's seat waiting under the host's token hash of the finished room
    (app/services/rooms.py `rematch`): that waiting seat follows the move, in the rematch and in any
    rematch of it, so the new token holds it and the old one nothing there either. (A seat that leaves
    or is removed needs nothing: that happens only in a match in play, which has no rematch yet.)
    Returns (room id, seat) of each rematch seat that followed."""
    followed: list[tuple[str, int]] = []
    seen = {room.id}
    rematch_id = room.rematch_id
    while rematch_id is not None and rematch_id not in seen and len(seen) <= REMATCH_CHAIN:
        seen.add(rematch_id)
        rematch = session.scalars(select(Room).where(Room.id == rematch_id).with_for_update()).one_or_none()
        if rematch is None:
            break  # deleted (app/retention.py): nothing further down to follow
        waiting = session.scalars(
            select(Seat).where(Seat.room_id == rematch.id, Seat.token_hash == old_hash)
        ).one_or_none()
        if waiting is not None:
            # The old token's seat check there says the seat moved; who approved is another room's seat.
            session.add(
                SeatMove(room_id=rematch.id, seat=waiting.seat, old_token_hash=old_hash, reason="moved")
            )
            waiting.token_hash = new_hash
            forget_alerts(session, rematch.id, waiting.seat)
            bump_epoch(rematch)
            followed.append((rematch.id, waiting.seat))
        rematch_id = rematch.rematch_id
    return tuple(followed)


def due_handovers(session: Session) -> list[str]:
    """Ids of waiting requests whose refusal window is over."""
    return list(
        session.scalars(
            select(SeatRequest.id).where(
                SeatRequest.status == "waiting", SeatRequest.effective_at <= utcnow()
            )
        )
    )


@dataclass(frozen=True)
class CarriedOut:
    """A waiting request carried out: the room and seat that moved, and the rematch seats that
    followed (`follow_to_rematches`)."""

    room_id: str
    seat: int
    followed: tuple[tuple[str, int], ...]


def carry_out(session: Session, request_id: str, cache: StateCache | None) -> CarriedOut | None:
    """Carry out one waiting request whose window is over, under its room's lock; None when another
    process did, or it was refused or lapsed meanwhile."""
    found = session.get(SeatRequest, request_id)
    if found is None:
        return None
    room = find_room(session, found.room_id, lock=True)
    request = _find_request(session, room.id, request_id)
    if request.status != "waiting" or request.effective_at is None or aware(request.effective_at) > utcnow():
        return None
    target = seat_row(session, room.id, request.seat)
    if target.bot or request.approved_by is None:
        request.status = "refused"
        room.revision = (room.revision or 0) + 1  # the request leaves the room body
        return None
    followed = _hand_over(session, room, request, target, request.approved_by, cache)
    return CarriedOut(room.id, request.seat, followed)


def holder_back(session: Session, room_id: str, seat: int, cache: StateCache | None) -> bool:
    """The seat's holder acted or connected: a move of their seat still in its window lapses."""
    waiting = list(
        session.scalars(
            select(SeatRequest).where(
                SeatRequest.room_id == room_id, SeatRequest.seat == seat, SeatRequest.status == "waiting"
            )
        )
    )
    if not waiting:
        return False
    room = find_room(session, room_id, lock=True)
    for request in waiting:
        request.status = "expired"
    name = seat_row(session, room_id, seat).name
    table_line(session, room_id, f"{name} is back: their seat stays on their device", cache)
    bump_epoch(room)
    return True


def waiting_seats(session: Session, room_id: str) -> frozenset[int]:
    return frozenset(session.scalars(_WAITING_SEATS, {"room_id": room_id}))


def seat_check(session: Session, room_id: str, token: str | None, times: Times) -> dict[str, Any]:
    """What a token is for in this room: a seat, a seat that moved on (and why), a request, or nothing."""
    if token is None:
        raise AppError("unauthorized", "send the seat link's token as 'Authorization: Bearer <token>'")
    find_room(session, room_id)
    wanted = hash_token(token)
    seat = session.scalar(select(Seat).where(Seat.room_id == room_id, Seat.token_hash == wanted))
    if seat is not None:
        return {"status": "valid", "seat": seat.seat}
    moved = session.scalars(
        select(SeatMove)
        .where(SeatMove.room_id == room_id, SeatMove.old_token_hash == wanted)
        .order_by(SeatMove.id.desc())
        .limit(1)
    ).one_or_none()
    if moved is not None:
        by = seat_row(session, room_id, moved.by_seat).name if moved.by_seat is not None else None
        return {
            "status": moved.reason,
            "seat": moved.seat,
            "name": seat_row(session, room_id, moved.seat).name,
            "at": aware(moved.created_at).isoformat(),
            "by": by,
        }
    request = session.scalar(
        select(SeatRequest).where(SeatRequest.room_id == room_id, SeatRequest.token_hash == wanted)
    )
    if request is not None:
        return {"status": "asking", "seat": request.seat, "request": _request_body(request, times)}
    return {"status": "unknown"}


# -- chat ----------------------------------------------------------------------
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
        raise AppError("invalid_request", str(error)) from None
    if seat is None:
        if not room.chat_spectators:
            raise AppError("forbidden", "spectators read the chat; the host may let them write")
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
    return {"messages": [message_body(m) for m in rows]}


def set_chat_spectators(session: Session, room_id: str, token: str | None, allowed: bool) -> None:
    room = find_room(session, room_id, lock=True)
    if player_seat(session, room_id, token) != room.host_seat:
        raise AppError("forbidden", "only the host may let spectators write")
    room.chat_spectators = allowed
