"""Looking a room up by its id: the one place an unknown room becomes the contract's `not_found`."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.models import Room

# Built once: a statement built per call costs more Python than SQLite takes to run it (and a
# statement object that lives on keeps its cache key). Hot paths use these (docs/performance.md,
# "Choices the figures rest on").
_ROOM = select(Room).where(Room.id == bindparam("room_id"))
_ROOM_LOCKED = _ROOM.with_for_update()
_SEAT_EPOCH = select(Room.seat_epoch).where(Room.id == bindparam("room_id"))


def find_room(session: Session, room_id: str, *, lock: bool = False) -> Room:
    """The room `room_id` (locked for update when `lock`); `not_found` when there is none."""
    room = session.scalars(_ROOM_LOCKED if lock else _ROOM, {"room_id": room_id}).one_or_none()
    if room is None:
        raise _no_room(room_id)
    return room


def seat_epoch(session: Session, room_id: str) -> int:
    """The room's seat epoch (app/services/seats.py), read without loading the room; `not_found` when
    there is no such room."""
    epoch = session.scalar(_SEAT_EPOCH, {"room_id": room_id})
    if epoch is None:
        raise _no_room(room_id)
    return int(epoch)


def require_room(session: Session, room_id: str) -> None:
    """`not_found` unless the room exists (one column read, no room loaded)."""
    seat_epoch(session, room_id)


def _no_room(room_id: str) -> AppError:
    return AppError("not_found", f"no room {room_id!r}")
