"""The one door for a change to a room: a command runs in one transaction on a worker thread, the
room's revision is bumped in that transaction, and the table lines it wrote are published once it
is committed.

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
from app.services import people, rooms

T = TypeVar("T")

Lines = list[tuple[str, dict[str, Any]]]


class Commands:
    def __init__(self, db: Database, publisher: Publisher) -> None:
        self.db = db
        self.publisher = publisher

    def _run(self, room_id: str | None, work: Callable[..., T], args: tuple[Any, ...]) -> tuple[T, Lines]:
        with self.db.transaction() as session:
            if room_id is not None:
                rooms.touch(session, room_id)
            done = work(session, *args)
            return done, list(session.info.pop(people.TABLE_LINES, []))

    async def run(self, room_id: str | None, work: Callable[..., T], *args: Any) -> T:
        """Run `work(session, *args)` as a change to `room_id` (None: a room the work makes or finds
        itself, which bumps it with `rooms.touch`); then tell each table the lines of its own that
        the work wrote (a seat moved, a player left...), once they are committed."""
        done, lines = await run_in_threadpool(self._run, room_id, work, args)
        for line_room, line in lines:
            await self.publisher.chat(line_room, line)
        return done

    def run_here(self, room_id: str | None, work: Callable[..., T], *args: Any) -> T:
        """The same on the calling thread, for work that is already off the event loop; the caller
        publishes what it returns (table lines are not expected there)."""
        done, lines = self._run(room_id, work, args)
        if lines:
            raise RuntimeError("a command run off the event loop wrote table lines it cannot publish")
        return done
