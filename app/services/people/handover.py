"""Moving a seat to another device: anyone asks, the holder answers (or, once the holder is gone, the
others by the consent rules of docs/people.md), and the asker's token becomes the seat's, in the
rematches too. Also what a token is for in a room (`seat_check`)."""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_, N_plural, Words
from app.models import Match, Room, Seat, SeatMove, SeatRequest, utcnow
from app.services import outbox
from app.services.alert_seats import forget_alerts
from app.services.auth import hash_token, new_token, player_seat
from app.services.cache import StateCache
from app.services.lookup import bump_epoch, find_room
from app.services.matches import current_match
from app.services.people.chat import table_line
from app.services.people.common import Times, aware, seat_row, seats_of
from app.services.people.presence import gone_for

# A request is pending until answered; approved by the holder it is carried out at once; approved by
# others (the holder being gone) it waits out the refusal window, then is carried out unless the holder
# refused or came back meanwhile (then it lapses: "expired"). docs/people.md draws the state machine.
OPEN = ("pending", "waiting")
_OPEN_REQUESTS = (
    select(SeatRequest)
    .where(SeatRequest.room_id == bindparam("room_id"), SeatRequest.status.in_(OPEN))
    .order_by(SeatRequest.created_at)
)
_WAITING_SEATS = select(SeatRequest.seat).where(
    SeatRequest.room_id == bindparam("room_id"), SeatRequest.status == "waiting"
)
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


def ask_for_seat(
    session: Session, room_id: str, seat: int, times: Times, asker: str | None = None
) -> dict[str, Any]:
    """Anyone may ask for a seat: they get a token that works only once the request is carried out.
    `asker`: a digest of the asking address (app/ratelimit.py `address_digest`), which holds at most
    MAX_PENDING_PER_ASKER places; a room takes requests from MAX_ASKING_ADDRESSES addresses at once."""
    room = find_room(session, room_id, lock=True)
    target = seat_row(session, room_id, seat)
    if target.bot:
        raise AppError("invalid_request", N_("seat %(seat)s is a bot's"), seat=seat)
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
            N_(
                "you have asked for seats in this room already; "
                "wait for an answer (or for the request to lapse)"
            ),
            retry_after=_first_lapse(mine, times),
        )
    # A request from before addresses were kept counts as an address of its own.
    askers = {r.asker or r.id for r in open_requests}
    if not mine and len(askers) >= MAX_ASKING_ADDRESSES:
        raise AppError(
            "rate_limited",
            N_("this room has too many open seat requests; try again later"),
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
        raise AppError("not_found", N_("no such seat request"))
    return request


def request_status(session: Session, room_id: str, request_id: str, times: Times) -> dict[str, Any]:
    return _request_body(_find_request(session, room_id, request_id), times)


@dataclass(frozen=True)
class Consent:
    """Who, besides the holder, may answer a request for a seat, and how many approvals carry it."""

    holder_gone: bool
    approvers: frozenset[int]
    needed: int
    why_not: Words


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
            Words(N_("%(name)s is at the table: only %(name)s may answer for their seat"), name=target.name),
        )
    people_here = [s for s in seats_of(session, room.id) if not s.bot and s.seat != target.seat]
    if len(people_here) == 1:
        lone = people_here[0]
        if gone < LONE_APPROVER_AFTER:
            return Consent(
                True,
                frozenset(),
                1,
                Words(
                    N_(
                        "with only two of you at the table, %(other)s may approve "
                        "once %(name)s has been gone a day"
                    ),
                    other=lone.name,
                    name=target.name,
                ),
            )
        return Consent(True, frozenset({lone.seat}), 1, Words(""))
    host = next((s for s in people_here if s.seat == room.host_seat), None)
    if host is not None:
        return Consent(
            True, frozenset({host.seat}), 1, Words(N_("the host answers requests for a gone player's seat"))
        )
    present = []
    for other in people_here:
        away = gone_for(session, match, other, connected)
        if away is None or away < times.gone_after:
            present.append(other.seat)
    if not present:
        return Consent(True, frozenset(), 1, Words(N_("nobody else is at the table to approve")))
    return Consent(
        True,
        frozenset(present),
        len(present) // 2 + 1,
        Words(N_("a majority of the players at the table answers this")),
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
        listed.append(request_body(r, status, times, answerable))
    return listed


def request_body(r: SeatRequest, status: str, times: Times, answerable: set[int]) -> dict[str, Any]:
    """One open request as the room body lists it (`status` as `_status` reads it now)."""
    return {
        "id": r.id,
        "seat": r.seat,
        "at": aware(r.created_at).isoformat(),
        "expires": _expiry(r, times).isoformat() if status == "pending" else None,
        "status": status,
        "approvals": list(r.approvals or []),
        "effective_at": aware(r.effective_at).isoformat() if r.effective_at is not None else None,
        "answerable_by": sorted(answerable),
    }


def holder_requests(requests: list[SeatRequest], seat: int, times: Times) -> list[dict[str, Any]]:
    """The open requests for `seat` among a room's `requests`, as its holder reads them away from
    the room ("Your games", another room's page): the holder may always answer for its own seat."""
    shown = []
    for r in requests:
        status = _status(r, times)
        if r.seat == seat and status in OPEN:
            shown.append(request_body(r, status, times, {seat}))
    return shown


def _minutes(seconds: float) -> Words:
    if seconds >= 2 * 3600:
        return N_plural("%(num)s hour", "%(num)s hours", int(seconds // 3600))
    if seconds >= 120:
        return N_plural("%(num)s minute", "%(num)s minutes", int(seconds // 60))
    return N_plural("%(num)s second", "%(num)s seconds", int(seconds))


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
        raise AppError("invalid_request", N_("this request lapsed unanswered; they may ask again"))
    if status not in OPEN:
        raise AppError(
            "invalid_request",
            N_("this request was approved already")
            if status == "approved"
            else N_("this request was refused already"),
        )
    target = seat_row(session, room_id, request.seat)
    if target.bot:
        # Not reached in practice (a bot taking a seat refuses its open requests); the error rolls
        # the transaction back, so nothing is marked here.
        raise AppError("invalid_request", N_("a bot has taken this seat for good"))
    if caller == request.seat:
        # The holder's word settles it, whatever the state and whoever approved before.
        if not approve:
            request.status = "refused"
            line = Words(N_("%(name)s refused to move their seat to another device"), name=target.name)
            table_line(session, room_id, line, cache)
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
        line = Words(
            N_("%(who)s refused to move %(name)s's seat to another device"), who=who, name=target.name
        )
        table_line(session, room_id, line, cache)
        return Answered(_request_body(request, times), request.seat, False, True)
    if status == "waiting":
        raise AppError("invalid_request", N_("this request is approved already and waits for its time"))
    if caller in (request.approvals or []):
        raise AppError("invalid_request", N_("you approved this request already"))
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
        Words(
            N_(
                "%(names)s approved moving %(name)s's seat to another device: it moves in %(wait)s "
                "unless %(name)s refuses or comes back"
            ),
            names=names,
            name=target.name,
            wait=_minutes(times.refusal_seconds),
        ),
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
        line = Words(N_("%(name)s's seat moved to another device, approved by %(name)s"), name=target.name)
    else:
        names = ", ".join(seat_row(session, room.id, s).name for s in (request.approvals or [approver]))
        line = Words(
            N_("%(name)s's seat moved to another device, approved by %(names)s while %(name)s was gone"),
            name=target.name,
            names=names,
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
    line = Words(N_("%(name)s is back: their seat stays on their device"), name=name)
    table_line(session, room_id, line, cache)
    bump_epoch(room)
    return True


def waiting_seats(session: Session, room_id: str) -> frozenset[int]:
    return frozenset(session.scalars(_WAITING_SEATS, {"room_id": room_id}))


def seat_check(session: Session, room_id: str, token: str | None, times: Times) -> dict[str, Any]:
    """What a token is for in this room: a seat, a seat that moved on (and why), a request, or nothing."""
    if token is None:
        raise AppError("unauthorized", N_("send the seat link's token as 'Authorization: Bearer <token>'"))
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
