"""Which rooms a channel could alert in, as one process knows it.

The dispatcher asks after every move whether anyone in the room wants alerts at all, so that a room
nobody asked alerts for costs nothing more. Asking the database room by room (one read per room every
`known_for` seconds) cost about 5% of a move's CPU with 1,250 rooms in play (commit d7118b6); so
the channel reads every room with a subscription or a confirmed address in one query instead, at most
every `known_for` seconds. Past `most` such rooms, that list would cost more memory than the reads it
saves: each room is then asked on its own, as before.

What another process records is seen within `known_for` seconds; what this process records
(`add`) at once. A room that stopped wanting alerts may be answered "yes" until the next read: that costs
the dispatcher one read of the room's table, never an alert (the channel finds no device to send to).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from cachetools import TTLCache
from starlette.concurrency import run_in_threadpool

# Seconds a read of the rooms (or of one room) is trusted.
KNOWN_FOR = 30.0
# Rooms kept in memory at most; past it each room is read on its own (one small set either way).
MOST = 100_000


class Interest:
    def __init__(
        self,
        read_rooms: Callable[[int], set[str] | None],
        read_room: Callable[[str], bool],
        known_for: float = KNOWN_FOR,
        most: int = MOST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        # `read_rooms(limit)`: every room wanted, or None when there are more than `limit`.
        self._read_rooms = read_rooms
        self._read_room = read_room
        self.known_for = known_for
        self.most = most
        # Monotonic seconds; a test passes its own to see a read expire without waiting for it.
        self.clock = clock
        self._rooms: set[str] | None = None
        self._until = 0.0
        # Per room, when the whole list is too long: the answer, for `known_for` seconds (read on
        # `clock`, so a test's clock expires it too), at most `most` rooms (the least recently asked
        # go first). The lock: `add` also runs in worker threads (mail confirms in one), and
        # cachetools' caches are not thread-safe.
        self._each: TTLCache[str, bool] = TTLCache(most, known_for, timer=lambda: self.clock())
        self._lock = threading.Lock()

    async def wanted(self, room_id: str) -> bool:
        now = self.clock()
        if now >= self._until:
            self._rooms = await run_in_threadpool(self._read_rooms, self.most)
            self._until = now + self.known_for
            with self._lock:
                self._each.clear()
        if self._rooms is not None:
            return room_id in self._rooms
        with self._lock:
            known = self._each.get(room_id)
        if known is not None:
            return known
        found = await run_in_threadpool(self._read_room, room_id)
        with self._lock:
            self._each[room_id] = found
        return found

    def add(self, room_id: str) -> None:
        """Someone in the room asked for alerts through this process: known at once."""
        if self._rooms is not None:
            self._rooms.add(room_id)
        with self._lock:
            self._each[room_id] = True

    def forget(self) -> None:
        """Read again at the next question."""
        self._until = 0.0
