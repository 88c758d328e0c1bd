"""What survives a restart of the alert dispatcher (docs/people.md "Alerts").

The dispatcher waits in memory (a due seat's grace, a quarter-clock). A restart forgets that, so on
start it looks again at the rooms in play where someone asked for alerts (a push subscription or a
confirmed address: two indexed reads) and schedules what is due. Each turn and clock alert is claimed
in `alert_marks` before it is sent: one row per room, seat and event naming the turn it was for (the
seat's last action before the turn, or the match version the clock ran on). A claim for a turn already
claimed fails, so neither a restart nor a second process sends the same turn's alert twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db import Database
from app.models import ActionRow, AlertMark, EmailAddress, Match, PushSubscription
from app.services import people


@dataclass(frozen=True, slots=True)
class Mark:
    match_id: int
    turn: int
    sent_at: float


@dataclass(frozen=True, slots=True)
class Claim:
    room_id: str
    seat: int
    event: str  # "turn" or "clock"
    match_id: int
    version: int  # the match version the alert was decided on (the clock's turn)


def rooms_in_play(db: Database) -> list[str]:
    """Rooms with a match being played where a device subscribed or an address was confirmed."""
    asked = (
        select(PushSubscription.room_id)
        .union(select(EmailAddress.room_id).where(EmailAddress.status == "confirmed"))
        .subquery()
    )
    with db.read() as session:
        rows = session.scalars(
            select(Match.room_id).where(Match.status == "playing", Match.room_id.in_(select(asked.c[0])))
        ).all()
    return sorted(set(rows))


def seat_turns(session: Session, match_id: int, seats: list[int]) -> dict[int, int]:
    """Per seat, the seq of its last action in the match (0 when it has not acted): a seat's turn is
    the same turn for as long as this does not change."""
    if not seats:
        return {}
    rows = session.execute(
        select(ActionRow.seat, func.max(ActionRow.seq))
        .where(ActionRow.match_id == match_id, ActionRow.seat.in_(seats))
        .group_by(ActionRow.seat)
    ).all()
    found = {int(seat): int(seq) for seat, seq in rows}
    return {seat: found.get(seat, 0) for seat in seats}


def resume_facts(
    db: Database, room_id: str, match_id: int, seats: list[int]
) -> tuple[dict[tuple[int, str], Mark], dict[int, int]]:
    """The room's marks by (seat, event), and the current turn of each seat in `seats`."""
    with db.read() as session:
        rows = session.scalars(select(AlertMark).where(AlertMark.room_id == room_id)).all()
        marks = {
            (row.seat, row.event): Mark(row.match_id, row.turn, people.aware(row.sent_at).timestamp())
            for row in rows
        }
        return marks, seat_turns(session, match_id, seats)


def already(marks: dict[tuple[int, str], Mark], seat: int, event: str, match_id: int, turn: int) -> bool:
    mark = marks.get((seat, event))
    return mark is not None and mark.match_id == match_id and mark.turn == turn


def claim(db: Database, claims: list[Claim], now: datetime) -> list[bool]:
    """Claims every alert in one transaction; False for one whose turn was claimed already."""
    won: list[bool] = []
    with db.transaction() as session:
        turns: dict[tuple[int, int], int] = {}
        for item in claims:
            if item.event == "turn" and (item.match_id, item.seat) not in turns:
                turns.update(
                    {
                        (item.match_id, s): t
                        for s, t in seat_turns(session, item.match_id, [item.seat]).items()
                    }
                )
        for item in claims:
            turn = turns[(item.match_id, item.seat)] if item.event == "turn" else item.version
            where = (
                AlertMark.room_id == item.room_id,
                AlertMark.seat == item.seat,
                AlertMark.event == item.event,
            )
            changed = session.execute(
                update(AlertMark)
                .where(*where, or_(AlertMark.match_id != item.match_id, AlertMark.turn != turn))
                .values(match_id=item.match_id, turn=turn, sent_at=now)
                .execution_options(synchronize_session=False)
            )
            if changed.rowcount:  # type: ignore[attr-defined]
                won.append(True)
                continue
            if session.scalar(select(AlertMark.id).where(*where)) is not None:
                won.append(False)  # this very turn was claimed already
                continue
            try:
                with session.begin_nested():
                    session.add(
                        AlertMark(
                            room_id=item.room_id,
                            seat=item.seat,
                            event=item.event,
                            match_id=item.match_id,
                            turn=turn,
                            sent_at=now,
                        )
                    )
            except IntegrityError:
                won.append(False)  # another process claimed it meanwhile
            else:
                won.append(True)
    return won
