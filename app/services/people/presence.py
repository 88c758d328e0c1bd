"""Who is at a table: when each seat's player was last seen, and how long they have been gone.
`connected` is the set of seats with a live socket, or None when presence cannot be known just now
(Redis unreachable): then nothing that needs someone to be gone is allowed."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_
from app.models import ActionRow, Match, Seat, utcnow
from app.services.people.common import aware

PRESENCE_UNKNOWN = N_(
    "we cannot tell right now who is at the table (a part of the server is restarting); "
    "try again in a few seconds"
)
PRESENCE_RETRY = 5


def presence_unknown() -> AppError:
    return AppError("unavailable", PRESENCE_UNKNOWN, retry_after=PRESENCE_RETRY)


# A Core statement: with one parameter set per closed socket it runs as one executemany.
_SEAT_ROWS = cast(Table, Seat.__table__)
_SEEN = (
    update(_SEAT_ROWS)
    .where(_SEAT_ROWS.c.room_id == bindparam("s_room"), _SEAT_ROWS.c.seat == bindparam("s_seat"))
    .values(last_seen=bindparam("s_now"))
)


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
