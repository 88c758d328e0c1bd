"""The time a background loop reads and waits on, as one object a test can move instead of sleeping."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale (only differences mean anything)."""
        ...

    async def sleep(self, seconds: float) -> None: ...

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """Waits until `event` is set or `seconds` have passed; whether it was set."""
        ...


class SystemClock:
    """The real one: the event loop's own timers."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        try:
            await asyncio.wait_for(event.wait(), seconds)
        except TimeoutError:
            return False
        return True


SYSTEM_CLOCK = SystemClock()
