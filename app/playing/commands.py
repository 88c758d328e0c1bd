"""The one door for a change to a room: a command runs in one transaction on a worker thread, the
room's revision is bumped in that transaction, and once it is committed the rooms whose seat epoch
it raised are told (this process's seat cache first, then every process by a "seats" event carrying
the epoch: app/services/seats.py), the rooms it deleted are told gone (retention), and the table
lines it wrote are published. (A move has its own door, the group-commit writer, app/playing/writer.py,
and what follows it, app/playing/played.py.)

Every room body carries a `revision` (app/playing/views.py `room_body`): the room row's counter plus
its match's version. A command bumps the counter at its start, which also takes the room's row lock
first on PostgreSQL, so every command locks the room before its match, in one order (a move locks
only its match: no cycle). Since a body reads the room row before anything else, a body carrying a
revision shows at least every change up to it, and a client that keeps the body with the highest
revision, whether it came by socket or by HTTP, ends on the newest (CONTRACT.md "Rooms").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from app.db import Database
from app.playing.publisher import Publisher
from app.services import lookup, people, rooms
from app.services.seats import Seats

T = TypeVar("T")

Lines = list[tuple[str, dict[str, Any]]]


class Commands:
    def __init__(self, db: Database, publisher: Publisher, seats: Seats) -> None:
        self.db = db
        self.publisher = publisher
        self.seats = seats

    def _run(
        self, room_id: str | None, work: Callable[..., T], args: tuple[Any, ...]
    ) -> tuple[T, Lines, dict[str, int], list[str]]:
        with self.db.transaction() as session:
            if room_id is not None:
                rooms.touch(session, room_id)
            done = work(session, *args)
            epochs = dict(session.info.pop(lookup.SEAT_EPOCHS, {}))
            gone = list(session.info.pop(lookup.ROOMS_GONE, []))
            return done, list(session.info.pop(people.TABLE_LINES, [])), epochs, gone

    async def run(self, room_id: str | None, work: Callable[..., T], *args: Any) -> T:
        """Run `work(session, *args)` as a change to `room_id` (None: a room the work makes or finds
        itself, which bumps it with `rooms.touch`). Once it is committed: each room whose seat epoch
        it raised is told to this process's seats (before the caller answers: an old token is
        refused here from then on) and to every process, with the room body; each room it deleted is told
        gone; then each table is told the lines of its own that the work wrote (a seat moved, a player
        left...)."""
        return (await self._told(room_id, work, args))[0]

    async def change(self, room_id: str, work: Callable[..., T], *args: Any) -> T:
        """`run`, and the room body is published whether or not the work raised the seat epoch (a
        "seats" event carries the body; without one, a "room" event)."""
        done, epochs = await self._told(room_id, work, args)
        if room_id not in epochs:
            await self.publisher.room_changed(room_id)
        return done

    async def _told(
        self, room_id: str | None, work: Callable[..., T], args: tuple[Any, ...]
    ) -> tuple[T, dict[str, int]]:
        done, lines, epochs, gone = await run_in_threadpool(self._run, room_id, work, args)
        for gone_room in gone:
            await self.publisher.gone(gone_room)
        for seats_room, epoch in epochs.items():
            self.seats.saw(seats_room, epoch)
            await self.publisher.seats_changed(seats_room, epoch)
        for line_room, line in lines:
            await self.publisher.chat(line_room, line)
        return done, epochs
