"""Looking a room up by its id (the one place an unknown room becomes the contract's `not_found`), and
its seat epoch."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, object_session

from app.errors import AppError
from app.i18n import N_
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


# session.info key: {room id: seat epoch} of the rooms whose seat epoch the transaction raised.
SEAT_EPOCHS = "seat_epochs"


def bump_epoch(room: Room) -> None:
    """Who plays a seat, or with which token, changed: the room's seat epoch goes up, which is what
    every process keys what it remembers of the room's seats by (app/services/seats.py). The command
    runner publishes the new epoch once it is committed (app/playing/commands.py). The room body
    changed too (its revision), whichever command did it."""
    room.seat_epoch = (room.seat_epoch or 0) + 1
    room.revision = (room.revision or 0) + 1
    session = object_session(room)
    if session is not None:
        session.info.setdefault(SEAT_EPOCHS, {})[room.id] = room.seat_epoch


# session.info key: the ids of the rooms the transaction deleted.
ROOMS_GONE = "rooms_gone"


def rooms_deleted(session: Session, room_ids: list[str]) -> None:
    """The rooms were deleted in this transaction: once it is committed, the command runner tells
    every process (a "gone" event: their sockets close, what they remembered of the rooms is
    dropped)."""
    session.info.setdefault(ROOMS_GONE, []).extend(room_ids)


def require_room(session: Session, room_id: str) -> None:
    """`not_found` unless the room exists (one column read, no room loaded)."""
    seat_epoch(session, room_id)


def _no_room(room_id: str) -> AppError:
    return AppError("not_found", N_("no room '%(room)s'"), room=room_id)
