"""Looking a room up by its id: the one place an unknown room becomes the contract's `not_found`."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.models import Room


def find_room(session: Session, room_id: str, *, lock: bool = False) -> Room:
    """The room `room_id` (locked for update when `lock`); `not_found` when there is none."""
    query = select(Room).where(Room.id == room_id)
    if lock:
        query = query.with_for_update()
    room = session.scalars(query).one_or_none()
    if room is None:
        raise AppError("not_found", f"no room {room_id!r}")
    return room
