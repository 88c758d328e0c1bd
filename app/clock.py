"""The time a background loop reads and waits on, as one object a test can move instead of sleeping."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale (only differences mean anything)."""
        ...

    def wall(self) -> float:
        """Seconds since the Unix epoch, to compare with the times the database holds (the alert
        dispatcher's turn graces and clock quarters). Moves with `now`."""
        ...

    async def sleep(self, seconds: float) -> None: ...

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """Waits until `event` is set or `seconds` have passed; whether it was set."""
        ...


class SystemClock:
    """The real one: the event loop's own timers."""

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        try:
            async with asyncio.timeout(seconds):
                await event.wait()
        except TimeoutError:
            return False
        return True


SYSTEM_CLOCK = SystemClock()
