"""What the people modules share: the rules' times, timestamps read as UTC, a room's seats, the seat
epoch, and the room of a match in play."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_
from app.models import Match, Room, Seat, utcnow
from app.services.lookup import find_room
from app.services.matches import current_match


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


def aware(moment: datetime) -> datetime:
    """SQLite hands timestamps back without a zone; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=utcnow().tzinfo)


# Read by every room body, socket and close: built once (app/services/lookup.py says why).
_SEATS = select(Seat).where(Seat.room_id == bindparam("room_id")).order_by(Seat.seat)
_SEAT = select(Seat).where(Seat.room_id == bindparam("room_id"), Seat.seat == bindparam("seat"))


def seats_of(session: Session, room_id: str) -> list[Seat]:
    return list(session.scalars(_SEATS, {"room_id": room_id}))


def seat_row(session: Session, room_id: str, seat: int) -> Seat:
    """The seat's row; a seat the room does not have is `not_found`."""
    row = session.scalars(_SEAT, {"room_id": room_id, "seat": seat}).one_or_none()
    if row is None:
        raise AppError("not_found", N_("no seat %(seat)s in this room"), seat=seat)
    return row


def playing_room(session: Session, room_id: str) -> tuple[Room, Match]:
    """The room, locked, and its match, which must be in play."""
    room = find_room(session, room_id, lock=True)
    match = current_match(session, room_id)
    if match is None:
        raise AppError("not_started", N_("the match has not started yet"))
    if match.status != "playing":
        raise AppError("game_over", N_("the match is over"))
    return room, match
