"""Live match states kept in memory per process, keyed by match and always tagged with their version."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

# Live matches a process keeps in memory. A miss costs a snapshot read and a replay on every move of
# that match, so this is sized for every match a busy process plays at once (1,250 rooms measured in
# docs/performance.md), not for the few a test plays.
STATES = 8192


class StateCache:
    """A small LRU of (version, state). A state is only trusted when its version equals the one just
    read from the database, so a cache that another process got ahead of is never wrong, just stale."""

    def __init__(self, size: int = STATES) -> None:
        self._size = size
        self._states: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: int) -> tuple[int, Any] | None:
        with self._lock:
            entry = self._states.get(match_id)
            if entry is not None:
                self._states.move_to_end(match_id)
            return entry

    def put(self, match_id: int, version: int, state: Any) -> None:
        with self._lock:
            current = self._states.get(match_id)
            if current is not None and current[0] > version:
                return
            self._states[match_id] = (version, state)
            self._states.move_to_end(match_id)
            while len(self._states) > self._size:
                self._states.popitem(last=False)
