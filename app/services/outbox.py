"""Alerts that must survive a crash: a match's end, a rematch, a seat request (docs/people.md "Alerts").

Turn and clock alerts are rebuilt at start from the rooms in play (app/alerts/marks.py); these three
are not visible in a room afterwards, so they are written down when they are decided: `record` runs
inside the transaction of the change that calls for them (the finishing move, the rematch, the seat
request), one row per seat to alert, and only in a room where someone asked for alerts (a push
subscription or a confirmed address). Nothing is acknowledged before that transaction commits, so an
acknowledged change never loses its alert.

The dispatcher then `take`s a row (it holds it until `taken_until`, renewed every few seconds while
the alert waits for its minute or is being delivered) and deletes it once every channel is done with
it (`done`: delivered, refused by a gate, or given up after the retries). A process that dies leaves
its rows behind: once their hold lapses (at most LEASE seconds) any process takes them, the restarted
one included, which looks for them at start and every SWEEP seconds. The alert goes out once; only a
crash in the instant between a delivery and its row's deletion would send it a second time (under
the same Topic, so a device still shows one notification).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, delete, exists, or_, select, update
from sqlalchemy.orm import Session

from app.db import Database
from app.models import AlertOutbox, EmailAddress, PushSubscription, Seat

# Seconds a process holds a row it took; it renews the hold every LEASE / 3 seconds while it has it.
LEASE = 15.0
# Seconds between looks for rows nobody holds (left by a process that died, or not taken yet).
SWEEP = 5.0
# Rows taken at once by one look.
BATCH = 200


@dataclass(frozen=True, slots=True)
class Pending:
    id: int
    room_id: str
    seat: int
    event: str
    match_id: int | None
    by_seat: int | None


# Asked at every match's end, rematch and seat request: built once (app/services/lookup.py says why).
_WANTED = select(
    or_(
        exists().where(PushSubscription.room_id == bindparam("room_id")),
        exists().where(EmailAddress.room_id == bindparam("room_id"), EmailAddress.status == "confirmed"),
    )
)


def wanted(session: Session, room_id: str) -> bool:
    """Whether anyone in the room asked for alerts away from the table."""
    return bool(session.scalar(_WANTED, {"room_id": room_id}))


def record(
    session: Session,
    room_id: str,
    event: str,
    match_id: int | None,
    seats: list[int] | None = None,
    by_seat: int | None = None,
) -> int:
    """Writes the event's alerts in the caller's transaction: to `seats`, or to every seat a person
    holds (but `by_seat`). Returns how many rows it wrote."""
    if not wanted(session, room_id):
        return 0
    people = select(Seat.seat).where(
        Seat.room_id == room_id, Seat.bot.is_(False), Seat.token_hash.is_not(None)
    )
    held = set(session.scalars(people))
    targets = sorted(seat for seat in (held if seats is None else held & set(seats)) if seat != by_seat)
    for seat in targets:
        session.add(AlertOutbox(room_id=room_id, seat=seat, event=event, match_id=match_id, by_seat=by_seat))
    return len(targets)


def take(db: Database, now: datetime, room_id: str | None = None) -> list[Pending]:
    """Takes the rows nobody holds (of one room, or of all): each goes to exactly one taker."""
    until = now + timedelta(seconds=LEASE)
    free = or_(AlertOutbox.taken_until.is_(None), AlertOutbox.taken_until < now)
    taken: list[Pending] = []
    with db.transaction() as session:
        query = select(AlertOutbox).where(free).order_by(AlertOutbox.id).limit(BATCH)
        if room_id is not None:
            query = query.where(AlertOutbox.room_id == room_id)
        for row in session.scalars(query).all():
            won = session.execute(
                update(AlertOutbox)
                .where(AlertOutbox.id == row.id, free)
                .values(taken_until=until)
                .execution_options(synchronize_session=False)
            )
            if won.rowcount:  # type: ignore[attr-defined]
                taken.append(Pending(row.id, row.room_id, row.seat, row.event, row.match_id, row.by_seat))
    return taken


def renew(db: Database, ids: list[int], now: datetime) -> None:
    """Holds the rows this process still has for another LEASE seconds."""
    if ids:
        with db.transaction() as session:
            session.execute(
                update(AlertOutbox)
                .where(AlertOutbox.id.in_(ids))
                .values(taken_until=now + timedelta(seconds=LEASE))
                .execution_options(synchronize_session=False)
            )


def done(db: Database, ids: list[int]) -> None:
    if ids:
        with db.transaction() as session:
            session.execute(delete(AlertOutbox).where(AlertOutbox.id.in_(ids)))
