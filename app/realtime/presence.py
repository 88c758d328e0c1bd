"""Which seats have a live socket: counted per process, shared through Redis when configured."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter, defaultdict
from typing import cast

import redis

# A process refreshes its entries every HEARTBEAT seconds; a killed process's entries lapse after TTL.
HEARTBEAT = 10.0
TTL = 30.0


class Presence:
    def __init__(self, redis_url: str | None = None) -> None:
        self._sockets: defaultdict[str, Counter[int]] = defaultdict(Counter)
        self._lock = threading.Lock()
        self._redis = redis.Redis.from_url(redis_url, decode_responses=True) if redis_url else None
        self._process = uuid.uuid4().hex

    @staticmethod
    def _key(room_id: str) -> str:
        return f"motable:presence:{room_id}"

    def add(self, room_id: str, seat: int) -> None:
        with self._lock:
            self._sockets[room_id][seat] += 1
        self._share(room_id, seat)

    def remove(self, room_id: str, seat: int) -> None:
        with self._lock:
            seats = self._sockets[room_id]
            seats[seat] -= 1
            gone = seats[seat] <= 0
            if gone:
                del seats[seat]
            if not seats:
                del self._sockets[room_id]
        if gone and self._redis is not None:
            self._redis.hdel(self._key(room_id), f"{seat}:{self._process}")

    def _share(self, room_id: str, seat: int) -> None:
        if self._redis is not None:
            key = self._key(room_id)
            self._redis.hset(key, f"{seat}:{self._process}", time.time() + TTL)
            self._redis.expire(key, int(TTL) * 4)

    def heartbeat(self) -> None:
        """Keep this process's entries alive (called every HEARTBEAT seconds)."""
        with self._lock:
            live = [(room_id, seat) for room_id, seats in self._sockets.items() for seat in seats]
        for room_id, seat in live:
            self._share(room_id, seat)

    def connected(self, room_id: str) -> set[int]:
        if self._redis is None:
            with self._lock:
                return set(self._sockets.get(room_id, ()))
        now = time.time()
        entries = cast(dict[str, str], self._redis.hgetall(self._key(room_id)))
        return {int(field.split(":")[0]) for field, expiry in entries.items() if float(expiry) > now}

    def close(self) -> None:
        if self._redis is not None:
            self._redis.close()
