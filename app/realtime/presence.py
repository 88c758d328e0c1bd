"""Which seats have a live socket: counted per process, shared through Redis when configured.

Redis is reached with its asyncio client, so no call blocks the event loop. While Redis is away the
process answers from its own sockets (a request never fails for it), and the next heartbeat once it
is back shares every seat this process holds again.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import Counter, defaultdict
from typing import cast

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# A process refreshes its entries every HEARTBEAT seconds; a killed process's entries lapse after TTL.
HEARTBEAT = 10.0
TTL = 30.0
# The presence entry of a room's table screen (`/r/{id}/screen`): a seat number no player has, so
# counting screens rides on the same per-process counts and Redis sharing as seats.
TABLE_SCREEN = -1
# A presence read or write gives up after this long: a Redis that hangs must not hold up a request.
REDIS_TIMEOUT = 1.0
# After Redis was unreachable, or came back empty (restarted), the other processes share their seats
# again at their next heartbeat: until then nobody can tell who is gone (`known` answers None).
SETTLE = HEARTBEAT + 1.0


class Presence:
    def __init__(self, redis_url: str | None = None) -> None:
        self._sockets: defaultdict[str, Counter[int]] = defaultdict(Counter)
        self._redis = (
            aioredis.Redis.from_url(
                redis_url,
                decode_responses=True,
                socket_timeout=REDIS_TIMEOUT,
                socket_connect_timeout=REDIS_TIMEOUT,
            )
            if redis_url
            else None
        )
        self._process = uuid.uuid4().hex
        # When this process last failed to reach Redis (monotonic seconds).
        self._failed_at = float("-inf")

    # Set once per Redis lifetime (Redis keeps nothing on disk): its age says whether every process
    # has shared its seats since Redis (re)started.
    SINCE_KEY = "motable:presence:since"

    def _failed(self) -> None:
        self._failed_at = time.monotonic()

    async def start(self) -> None:
        """Note when presence started to be shared, if no process did since Redis started."""
        if self._redis is None:
            return
        try:
            await self._redis.set(self.SINCE_KEY, time.time(), nx=True)
        except RedisError:
            self._failed()

    @staticmethod
    def _key(room_id: str) -> str:
        return f"motable:presence:{room_id}"

    def local(self, room_id: str) -> set[int]:
        """The seats with a socket in this process."""
        return set(self._sockets.get(room_id, ()))

    async def add(self, room_id: str, seat: int) -> None:
        # Counted before the first await: a socket cancelled while sharing still counts, so its
        # matching remove balances it.
        self._sockets[room_id][seat] += 1
        await self._share(room_id, seat)

    async def remove(self, room_id: str, seat: int) -> None:
        seats = self._sockets[room_id]
        seats[seat] -= 1
        gone = seats[seat] <= 0
        if gone:
            del seats[seat]
        if not seats:
            del self._sockets[room_id]
        if gone and self._redis is not None:
            try:
                await self._redis.hdel(self._key(room_id), f"{seat}:{self._process}")
            except RedisError:
                self._failed()
                # The entry lapses after TTL on its own.
                log.warning("Redis is unreachable: seat %s of room %s lapses after %ss", seat, room_id, TTL)

    async def _share(self, room_id: str, seat: int) -> None:
        if self._redis is None:
            return
        key = self._key(room_id)
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.hset(key, f"{seat}:{self._process}", time.time() + TTL)
                pipe.expire(key, int(TTL) * 4)
                await pipe.execute()
        except RedisError:
            self._failed()
            # Other processes learn of this seat at the first heartbeat after Redis is back.
            log.warning(
                "Redis is unreachable: seat %s of room %s is known to this process only", seat, room_id
            )

    async def heartbeat(self) -> None:
        """Keep this process's entries alive (called every HEARTBEAT seconds)."""
        live = [(room_id, seat) for room_id, seats in self._sockets.items() for seat in seats]
        for room_id, seat in live:
            await self._share(room_id, seat)
        await self.start()

    async def connected(self, room_id: str) -> set[int]:
        """Seats with a socket in any process; this process's own only while Redis is away."""
        mine = self.local(room_id)
        if self._redis is None:
            return mine
        try:
            entries = cast(dict[str, str], await self._redis.hgetall(self._key(room_id)))
        except RedisError:
            self._failed()
            return mine
        return mine | self._live(entries)

    @staticmethod
    def _live(entries: dict[str, str]) -> set[int]:
        now = time.time()
        return {int(field.split(":")[0]) for field, expiry in entries.items() if float(expiry) > now}

    async def known(self, room_id: str) -> set[int] | None:
        """Seats with a socket in any process, or None when that cannot be known just now: Redis is
        unreachable, or was a moment ago, or restarted and not every process has shared its seats
        again. Whatever needs someone to be gone must wait then (docs/people.md)."""
        mine = self.local(room_id)
        if self._redis is None:
            return mine
        if time.monotonic() - self._failed_at < SETTLE:
            return None
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.hgetall(self._key(room_id))
                pipe.get(self.SINCE_KEY)
                entries, since = await pipe.execute()
        except RedisError:
            self._failed()
            return None
        if since is None:
            await self.start()  # Redis restarted: presence is complete a heartbeat from now
            return None
        if time.time() - float(since) < SETTLE:
            return None
        return mine | self._live(cast(dict[str, str], entries))

    async def close(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()
