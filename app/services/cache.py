"""The in-memory caches of a process: one small thread-safe LRU, and the live match states kept in one."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

# Live matches a process keeps in memory. A miss costs a snapshot read and a replay on every move of
# that match, so this is sized for every match a busy process plays at once (1,250 rooms measured:
# docs/performance.md, "Choices the figures rest on"), not for the few a test plays.
STATES = 8192


class Lru(Generic[K, V]):
    """At most `size` entries; the least recently used goes first. Safe to share between the event loop
    and the worker threads."""

    # Kept hand-written rather than a cachetools LRUCache under this lock (as the weighed and timed
    # caches are: app/playing/actionlog.py, app/alerts/): the match states (every move reads and stores
    # one), seat tokens and rate-limit buckets go through it on every request, and cachetools' layers
    # (Cache.__getitem__, then its own OrderedDict for the order) cost more than the 0.5 µs a call we
    # allow: timeit, StateCache on 8,192 matches, best of 7 (hand-written / cachetools): get 0.33 /
    # 0.58 µs, put 0.67 / 1.2 µs, put of a new match past the size 0.78 / 1.7 µs.

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V, keep: Callable[[V], bool] | None = None) -> None:
        """Store `value`, unless `keep(current)` says the entry held now is to stay (checked under the
        same lock, so no other thread's put falls in between)."""
        with self._lock:
            current = self._items.get(key)
            if current is not None and keep is not None and keep(current):
                return
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def discard(self, key: K) -> None:
        with self._lock:
            self._items.pop(key, None)

    def items(self) -> list[tuple[K, V]]:
        with self._lock:
            return list(self._items.items())

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


class StateCache:
    """(version, state) by match id. A state is only trusted when its version equals the one just read
    from the database, so a cache that another process got ahead of is never wrong, just stale."""

    def __init__(self, size: int = STATES) -> None:
        self._states: Lru[int, tuple[int, Any]] = Lru(size)

    def get(self, match_id: int) -> tuple[int, Any] | None:
        return self._states.get(match_id)

    def put(self, match_id: int, version: int, state: Any) -> None:
        # Never back: a slower thread must not replace a newer state with the one it started from.
        self._states.put(match_id, (version, state), keep=lambda current: current[0] > version)
