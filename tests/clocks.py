"""A clock that moves only when the test says (app/clock.py's Clock): waits on it end when the test
advances it past their end, never on their own, so "nothing happened yet" can be checked at a known
moment instead of after a sleep."""

from __future__ import annotations

import asyncio
import threading
import time


class FakeClock:
    """Safe to advance from the test's thread while the app's event loop (a TestClient's portal) waits
    on it."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        # The wall clock starts at the real time and moves with `now` from there (the database's
        # times are real ones).
        self._wall_offset = time.time() - start
        self._lock = threading.Lock()
        # Each wait under way: when it ends, and the future that ends it on its own loop.
        self._sleepers: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._now + self._wall_offset

    async def sleep(self, seconds: float) -> None:
        await self.wait(asyncio.Event(), seconds)

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        if event.is_set():
            return True
        if seconds <= 0:
            await asyncio.sleep(0)
            return event.is_set()
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()
        setting = asyncio.ensure_future(event.wait())
        setting.add_done_callback(lambda _: _wake(woken))
        sleeper = (self._now + seconds, loop, woken)
        with self._lock:
            self._sleepers.append(sleeper)
        try:
            await woken
        finally:
            # Gone from `pending` as soon as the wait is over, whatever ended it.
            with self._lock:
                self._sleepers.remove(sleeper)
            setting.cancel()
        return event.is_set()

    def pending(self) -> list[float]:
        """Seconds left of each wait under way, soonest first: what the code is waiting for now."""
        with self._lock:
            return sorted(round(end - self._now, 6) for end, _loop, _woken in self._sleepers)

    def advance(self, seconds: float) -> None:
        """Moves time on; every wait that ends by then is woken (on its own loop)."""
        with self._lock:
            self._now += seconds
            due = [(loop, woken) for end, loop, woken in self._sleepers if end <= self._now]
        for loop, woken in due:
            loop.call_soon_threadsafe(_wake, woken)


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)
