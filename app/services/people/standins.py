"""Bots taking seats: a bot standing in for an absent player until they come back, and a bot taking a
seat for good when its player leaves or the host removes a player who never came back."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_, Words
from app.models import Match, Room, Seat, SeatMove, SeatRequest, utcnow
from app.services import pause_rules
from app.services.alert_seats import forget_alerts
from app.services.auth import player_seat
from app.services.cache import StateCache
from app.services.lookup import bump_epoch, find_room
from app.services.matches import load_state
from app.services.people.chat import table_line
from app.services.people.clocks import deadline
from app.services.people.common import Times, playing_room, seat_row, seats_of
from app.services.people.handover import OPEN
from app.services.people.presence import gone_for
from app.services.rooms import default_bot_kind
from engines.core import get_engine


@dataclass(frozen=True)
class Absence:
    """Why others may let a bot play a seat: its clock ran out or its player is gone."""

    expired: bool
    gone_for: float | None


def _not_paused(room: Room) -> None:
    """Nobody's seat goes to a bot while the table agreed to wait (app/services/pause.py)."""
    if room.paused_at is not None:
        raise AppError("forbidden", N_("the game is paused: resume it first"))


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
    room, match = playing_room(session, room_id)
    caller = player_seat(session, room_id, token)
    target = seat_row(session, room_id, seat)
    if caller == seat:
        raise AppError("invalid_request", N_("to let a bot play for you, leave the game"))
    if target.bot or target.stand_in:
        raise AppError("invalid_request", N_("a bot already plays seat %(seat)s"), seat=seat)
    _not_paused(room)
    why = absence(session, room, match, target, cache, connected)
    if not why.expired and (why.gone_for is None or why.gone_for < times.gone_after):
        raise AppError(
            "forbidden",
            N_(
                "%(name)s is still playing: a bot may stand in once their time is up "
                "or after %(seconds)s seconds away"
            ),
            name=target.name,
            seconds=int(times.gone_after),
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
        line = Words(N_("%(name)s left the game; a bot plays their seat"), name=target.name)
    elif by is None:
        line = Words(N_("The host gave %(name)s's seat to a bot (%(name)s was gone)"), name=target.name)
    else:
        line = Words(
            N_("%(remover)s gave %(name)s's seat to a bot (%(name)s was gone)"),
            remover=seat_row(session, room.id, by).name,
            name=target.name,
        )
    table_line(session, room.id, line, cache)
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


def leave(session: Session, room_id: str, token: str | None, cache: StateCache | None = None) -> None:
    room, _match = playing_room(session, room_id)
    seat = player_seat(session, room_id, token)
    _bot_takes(session, room, seat_row(session, room_id, seat), "left", None, cache)


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
    room, match = playing_room(session, room_id)
    if player_seat(session, room_id, token) != room.host_seat:
        raise AppError("forbidden", N_("only the host may remove a player"))
    target = seat_row(session, room_id, seat)
    if target.bot:
        raise AppError("invalid_request", N_("seat %(seat)s is a bot"), seat=seat)
    if seat == room.host_seat:
        raise AppError("invalid_request", N_("to give up your own seat, leave the game"))
    _not_paused(room)
    gone = gone_for(session, match, target, connected)
    if gone is None or gone < times.gone_after:
        raise AppError(
            "forbidden",
            N_("%(name)s has not been away %(seconds)s seconds; let them come back"),
            name=target.name,
            seconds=int(times.gone_after),
        )
    _bot_takes(session, room, target, "removed", room.host_seat, cache)
