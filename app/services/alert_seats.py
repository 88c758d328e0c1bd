"""What a seat registered for alerts away from the table (its email address, its quiet hours) lives
with the seat's token: a handover, leaving or removal forgets it in the same transaction."""

from __future__ import annotations

from sqlalchemy import delete
from sqlalchemy.orm import Session

from app.models import AlertMark, AlertOutbox, AlertPrefs, EmailAddress


def forget_alerts(session: Session, room_id: str, seat: int) -> None:
    """The seat's token changed: its address (hashed or not), its quiet hours, the record of its
    last alerts and its alerts not sent yet go (the next holder is alerted for the turn under way)."""
    session.execute(delete(EmailAddress).where(EmailAddress.room_id == room_id, EmailAddress.seat == seat))
    session.execute(delete(AlertPrefs).where(AlertPrefs.room_id == room_id, AlertPrefs.seat == seat))
    session.execute(delete(AlertMark).where(AlertMark.room_id == room_id, AlertMark.seat == seat))
    session.execute(delete(AlertOutbox).where(AlertOutbox.room_id == room_id, AlertOutbox.seat == seat))
