"""Data that expires: what `motable prune` and each server's hourly schedule delete or archive.

- A waiting room no one joined (only its host, bots aside) is deleted `waiting_room_hours` after it
  was made; a waiting room others joined but that never started, `idle_room_hours` after the last
  person sat down.
- A finished match is kept for replays and `motable verify` for `finished_match_hours` after it
  ended, then deleted with its room.
- A match in play that nobody moved in for `archive_after_hours` is archived: its snapshots but the
  latest are dropped (the seed and the action log replay it; the latest snapshot resumes it). After
  `abandoned_match_hours` without a move it is deleted with its room.
- A match of bots alone (nobody seated: every person left or was removed) is deleted with its room
  `all_bot_room_hours` after its last move, or after it ended. The bot runner stops playing such a
  match after `all_bot_match_minutes` (app/playing/bots.py), so a table everyone left is gone within
  hours, not kept for the month a finished match is.
An hours setting of 0 keeps that kind of data for ever. Deleting a room deletes its seats, match,
actions, snapshots and score pad (ON DELETE CASCADE). Each server's schedule runs it through the command
runner (app/playing/commands.py), which tells every process of each deleted room once it is committed,
so the sockets still open on those rooms are closed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.clock import SYSTEM_CLOCK, Clock
from app.config import Settings
from app.db import Database
from app.models import ActionRow, Match, Room, Seat, Snapshot, utcnow
from app.services.lookup import rooms_deleted
from app.services.rooms import nobody_seated

log = logging.getLogger(__name__)

BATCH = 500


@dataclass
class Pruned:
    waiting_rooms: int = 0
    idle_rooms: int = 0
    finished_matches: int = 0
    abandoned_matches: int = 0
    archived_snapshots: int = 0
    all_bot_matches: int = 0
    # The rooms deleted (none on a dry run): the command runner closes their sockets (prune_on_schedule).
    room_ids: list[str] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict[str, int]:
        counts = asdict(self)
        del counts["room_ids"]
        return counts

    def __str__(self) -> str:
        return ", ".join(f"{name.replace('_', ' ')}: {count}" for name, count in self.as_dict().items())


def _cutoff(now: datetime, hours: float) -> datetime | None:
    return None if hours <= 0 else now - timedelta(hours=hours)


def _delete_rooms(session: Session, room_ids: list[str], dry_run: bool, done: Pruned) -> int:
    if not dry_run:
        for start in range(0, len(room_ids), BATCH):
            session.execute(delete(Room).where(Room.id.in_(room_ids[start : start + BATCH])))
        done.room_ids.extend(room_ids)
        rooms_deleted(session, room_ids)
    return len(room_ids)


def _last_move(session: Session) -> Any:
    """Per match: when it last moved (its latest action, else its start)."""
    latest = (
        select(ActionRow.match_id, func.max(ActionRow.created_at).label("at"))
        .group_by(ActionRow.match_id)
        .subquery()
    )
    return (
        select(Match.id, Match.room_id, func.coalesce(latest.c.at, Match.started_at).label("moved"))
        .outerjoin(latest, latest.c.match_id == Match.id)
        .where(Match.status == "playing")
        .subquery()
    )


def prune(db: Database, settings: Settings, now: datetime | None = None, dry_run: bool = False) -> Pruned:
    """Apply the retention policy once, in a transaction of its own (`motable prune`, with no server
    to tell); returns what it deleted or archived (or would, with dry_run)."""
    with db.transaction() as session:
        return expire(session, settings, now, dry_run)


def expire(
    session: Session, settings: Settings, now: datetime | None = None, dry_run: bool = False
) -> Pruned:
    """The retention policy, applied in the caller's transaction."""
    now = now or utcnow()
    done = Pruned()
    humans = (
        select(Seat.room_id, func.count().label("people"), func.max(Seat.created_at).label("joined"))
        .where(Seat.bot.is_(False))
        .group_by(Seat.room_id)
        .subquery()
    )
    # A room without a match is waiting (whatever else the schema records about its status).
    started = select(Match.id).where(Match.room_id == Room.id).exists()
    waiting = select(Room.id).outerjoin(humans, humans.c.room_id == Room.id).where(~started)
    if (cutoff := _cutoff(now, settings.waiting_room_hours)) is not None:
        ids = session.scalars(
            waiting.where(func.coalesce(humans.c.people, 0) <= 1, Room.created_at < cutoff)
        ).all()
        done.waiting_rooms = _delete_rooms(session, list(ids), dry_run, done)
    if (cutoff := _cutoff(now, settings.idle_room_hours)) is not None:
        ids = session.scalars(waiting.where(humans.c.people > 1, humans.c.joined < cutoff)).all()
        done.idle_rooms = _delete_rooms(session, list(ids), dry_run, done)
    if (cutoff := _cutoff(now, settings.finished_match_hours)) is not None:
        ids = session.scalars(
            select(Match.room_id).where(Match.status == "finished", Match.finished_at < cutoff)
        ).all()
        done.finished_matches = _delete_rooms(session, list(ids), dry_run, done)
    moved = _last_move(session)
    if (cutoff := _cutoff(now, settings.abandoned_match_hours)) is not None:
        ids = session.scalars(select(moved.c.room_id).where(moved.c.moved < cutoff)).all()
        done.abandoned_matches = _delete_rooms(session, list(ids), dry_run, done)
    if (cutoff := _cutoff(now, settings.all_bot_room_hours)) is not None:
        # Rooms already deleted above are gone from this query: each room is counted once.
        alone = select(Room.id).join(Match, Match.room_id == Room.id).where(nobody_seated())
        ids = session.scalars(
            alone.where(Match.status == "finished", Match.finished_at < cutoff).union(
                select(moved.c.room_id)
                .join(Room, Room.id == moved.c.room_id)
                .where(nobody_seated(), moved.c.moved < cutoff)
            )
        ).all()
        done.all_bot_matches = _delete_rooms(session, list(ids), dry_run, done)
    done.archived_snapshots = _archive(session, now, settings, dry_run)
    return done


def _archive(session: Session, now: datetime, settings: Settings, dry_run: bool) -> int:
    """Drop every snapshot but each match's latest, for finished matches and idle ones."""
    moved = _last_move(session)
    finished = select(Match.id).where(Match.status == "finished")
    matches = finished
    if (cutoff := _cutoff(now, settings.archive_after_hours)) is not None:
        matches = finished.union(select(moved.c.id).where(moved.c.moved < cutoff))  # type: ignore[assignment]
    latest = (
        select(Snapshot.match_id, func.max(Snapshot.version).label("version"))
        .group_by(Snapshot.match_id)
        .subquery()
    )
    stale = (
        select(Snapshot.id)
        .join(latest, latest.c.match_id == Snapshot.match_id)
        .where(Snapshot.match_id.in_(matches), Snapshot.version < latest.c.version)
    )
    ids = list(session.scalars(stale))
    if not dry_run:
        for start in range(0, len(ids), BATCH):
            session.execute(delete(Snapshot).where(Snapshot.id.in_(ids[start : start + BATCH])))
    return len(ids)


Run = Callable[..., Awaitable[Any]]
"""The command runner's `run` (app/playing/commands.py): (room id, work, *args) once committed and told."""


async def prune_on_schedule(run: Run, settings: Settings, clock: Clock = SYSTEM_CLOCK) -> None:
    """Runs in every server process: first a minute after start (or sooner on a short period), then
    every `prune_every_hours`, through the command runner, which tells every process which rooms were
    deleted so their sockets close. Several processes pruning at once is harmless: deletes are
    idempotent."""
    period = settings.prune_every_hours * 3600
    if period <= 0:
        return
    await clock.sleep(min(period, 60.0))
    while True:
        try:
            done = await run(None, expire, settings)
            if any(done.as_dict().values()):
                log.info("pruned expired data: %s", done)
        except Exception:
            log.exception("pruning expired data failed; trying again next period")
        await clock.sleep(period)
