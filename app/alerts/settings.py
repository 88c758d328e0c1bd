"""A seat's alert settings as its page reads and changes them: whether it gets email (never the
address) and its quiet hours. The route parses; this reads or writes in one transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.alerts import gates
from app.alerts.mail import MailChannel
from app.db import Database
from app.services.auth import player_seat
from app.services.lookup import find_room


class AlertSettings:
    def __init__(self, db: Database, mail: MailChannel) -> None:
        self.db = db
        self.mail = mail

    def _body(self, session: Session, room_id: str, seat: int) -> dict[str, Any]:
        return {
            "email": self.mail.status(session, room_id, seat),
            "quiet": gates.quiet_of(session, room_id, seat),
        }

    def _read(self, room_id: str, token: str | None) -> dict[str, Any]:
        with self.db.read() as session:
            find_room(session, room_id)
            return self._body(session, room_id, player_seat(session, room_id, token))

    def _set_quiet(self, room_id: str, token: str | None, quiet: dict[str, str] | None) -> dict[str, Any]:
        with self.db.transaction() as session:
            find_room(session, room_id, lock=True)
            seat = player_seat(session, room_id, token)
            gates.set_quiet(session, room_id, seat, quiet)
            session.flush()
            return self._body(session, room_id, seat)

    async def read(self, room_id: str, token: str | None) -> dict[str, Any]:
        return await run_in_threadpool(self._read, room_id, token)

    async def set_quiet(
        self, room_id: str, token: str | None, quiet: dict[str, str] | None
    ) -> dict[str, Any]:
        """`quiet`: {"from", "to", "tz"}, or None for none."""
        return await run_in_threadpool(self._set_quiet, room_id, token, quiet)
