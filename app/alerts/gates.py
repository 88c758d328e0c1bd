"""Gates that hold alerts back: a seat's quiet hours, and a paused game. Each reads the database once
per alert (a primary-key or unique-index lookup), off the event loop."""

from __future__ import annotations

import functools
import re
from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.alerts.core import Alert
from app.db import Database
from app.errors import AppError
from app.i18n import N_
from app.models import AlertPrefs, Room

CLOCK_TIME = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")


def parse_clock(text: str) -> time:
    found = CLOCK_TIME.fullmatch(text)
    if found is None:
        raise AppError(
            "invalid_request", N_("'%(time)s' is not a time of day as HH:MM (00:00 to 23:59)"), time=text
        )
    return time(int(found.group(1)), int(found.group(2)))


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def check_zone(name: str) -> ZoneInfo:
    """An IANA zone name as browsers give it (Intl.DateTimeFormat().resolvedOptions().timeZone)."""
    if name not in _zones() and name != "UTC":
        raise AppError(
            "invalid_request", N_("'%(zone)s' is not an IANA time zone such as Europe/Paris"), zone=name
        )
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise AppError(
            "invalid_request", N_("'%(zone)s' is not an IANA time zone such as Europe/Paris"), zone=name
        ) from None


def is_quiet(start: str, end: str, zone: str, now: float) -> bool:
    """Whether `now` (seconds since the epoch) falls in [start, end) in the zone's local time; a span
    whose end comes before its start runs over midnight (22:00 to 08:00). start == end: never quiet."""
    local = (
        datetime.fromtimestamp(now, UTC).astimezone(ZoneInfo(zone)).time().replace(second=0, microsecond=0)
    )
    begin, finish = parse_clock(start), parse_clock(end)
    if begin == finish:
        return False
    if begin < finish:
        return begin <= local < finish
    return local >= begin or local < finish


def quiet_of(session: Session, room_id: str, seat: int) -> dict[str, str] | None:
    row = session.scalar(select(AlertPrefs).where(AlertPrefs.room_id == room_id, AlertPrefs.seat == seat))
    if row is None or row.quiet_from is None or row.quiet_to is None or row.tz is None:
        return None
    return {"from": row.quiet_from, "to": row.quiet_to, "tz": row.tz}


def set_quiet(session: Session, room_id: str, seat: int, quiet: dict[str, str] | None) -> None:
    row = session.scalar(select(AlertPrefs).where(AlertPrefs.room_id == room_id, AlertPrefs.seat == seat))
    if row is None:
        row = AlertPrefs(room_id=room_id, seat=seat)
        session.add(row)
    if quiet is None:
        row.quiet_from = row.quiet_to = row.tz = None
        return
    parse_clock(quiet["from"])
    parse_clock(quiet["to"])
    check_zone(quiet["tz"])
    row.quiet_from, row.quiet_to, row.tz = quiet["from"], quiet["to"], quiet["tz"]


class QuietHoursGate:
    """Says no while the seat's quiet hours run, in the time zone its browser gave."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def _quiet(self, alert: Alert) -> dict[str, str] | None:
        with self.db.read() as session:
            return quiet_of(session, alert.room_id, alert.seat)

    async def allows(self, alert: Alert, now: float) -> bool:
        quiet = await run_in_threadpool(self._quiet, alert)
        return quiet is None or not is_quiet(quiet["from"], quiet["to"], quiet["tz"], now)


class PauseGate:
    """Says no while the room's game is paused (app/services/pause.py)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def _paused(self, room_id: str) -> bool:
        with self.db.read() as session:
            paused = session.scalar(select(Room.paused_at).where(Room.id == room_id))
            return paused is not None

    async def allows(self, alert: Alert, now: float) -> bool:
        return not await run_in_threadpool(self._paused, alert.room_id)
