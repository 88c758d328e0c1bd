"""Bot turns, played on the server a moment after they come up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool

from app.errors import AppError
from app.services import Services
from app.services.matches import Applied

log = logging.getLogger(__name__)


class BotRunner:
    """At most one task per room in this process plays the room's bots until a human must act.

    Two processes may both run a room's bots: each move is applied at the version it was chosen
    for, so the slower one gets stale_version and looks again.
    """

    def __init__(
        self, services: Services, played: Callable[[str, Applied], Awaitable[None]], delay: float
    ) -> None:
        self._services = services
        self._played = played
        self._delay = delay
        self._tasks: dict[str, asyncio.Task[None]] = {}
        # Rooms that changed while their task was looking: it must look once more before it ends.
        self._dirty: set[str] = set()

    def kick(self, room_id: str) -> None:
        if room_id in self._tasks:
            self._dirty.add(room_id)
        else:
            self._tasks[room_id] = asyncio.create_task(self._run(room_id))

    async def _run(self, room_id: str) -> None:
        try:
            while True:
                self._dirty.discard(room_id)
                turn = await run_in_threadpool(self._services.bot_turn, room_id)
                if turn is None:
                    if room_id in self._dirty:
                        continue
                    return
                await asyncio.sleep(self._delay)
                try:
                    applied = await run_in_threadpool(self._services.play_bot, turn)
                except AppError as error:
                    if error.code != "stale_version":
                        raise
                    continue
                await self._played(room_id, applied)
        except Exception:
            log.exception("the bots of room %s stopped", room_id)
        finally:
            self._tasks.pop(room_id, None)

    async def stop(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
