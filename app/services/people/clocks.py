"""Move clocks: when the seats to act run out of time, and the host setting the clock before the
match starts."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_
from app.models import ActionRow, Match, Room
from app.services.auth import player_seat
from app.services.lookup import find_room
from app.services.matches import current_match
from app.services.people.common import aware
from app.services.rooms import check_clock


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
        raise AppError("forbidden", N_("only the host may set the clock"))
    if current_match(session, room_id) is not None:
        raise AppError("already_started", N_("the clock is set before the match starts"))
    check_clock(seconds)
    room.clock = seconds
