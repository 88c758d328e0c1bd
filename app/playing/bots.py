"""Bot turns, played on the server a moment after they come up."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool

from app.errors import AppError
from app.services.matches import Applied
from app.services.store import Move, Services

log = logging.getLogger(__name__)

MAX_RETRY_DELAY = 60.0
# After this many failed turns in a row the random bot plays instead: a bot with a bug must not
# stall a match the people at the table want to finish.
FALLBACK_AFTER = 2


class BotRunner:
    """At most one task per room in this process plays the room's bots until a human must act.

    Two processes may both run a room's bots: each move is applied at the version it was chosen
    for, so the slower one gets stale_version and looks again.
    """

    def __init__(
        self,
        services: Services,
        submit: Callable[[Move], Awaitable[Applied]],
        played: Callable[[str, Applied], Awaitable[None]],
        delay: float,
    ) -> None:
        self._services = services
        self._submit = submit
        self._played = played
        self._delay = delay
        # First wait after a failed turn; it doubles with each failure in a row, up to MAX_RETRY_DELAY.
        self.retry_delay = 1.0
        self._tasks: dict[str, asyncio.Task[None]] = {}
        # Rooms that changed while their task was looking: it must look once more before it ends.
        self._dirty: set[str] = set()

    def kick(self, room_id: str) -> None:
        if room_id in self._tasks:
            self._dirty.add(room_id)
        else:
            self._tasks[room_id] = asyncio.create_task(self._run(room_id))

    async def _run(self, room_id: str) -> None:
        failures = 0
        try:
            while True:
                self._dirty.discard(room_id)
                try:
                    turn = await run_in_threadpool(self._services.bot_turn, room_id)
                    if turn is None:
                        if room_id in self._dirty:
                            continue
                        return
                    if failures >= FALLBACK_AFTER and turn.kind != "random":
                        turn = dataclasses.replace(turn, kind="random")
                    await asyncio.sleep(self._delay)
                    try:
                        move = await run_in_threadpool(self._services.choose_bot, turn)
                        applied = await self._submit(move)
                    except AppError as error:
                        if error.code != "stale_version":
                            raise
                        continue
                except Exception:
                    # Retry rather than end: when a bot is to act, nothing else may ever kick this room
                    # again (the people are waiting for the bot), so a lost turn would stall the match.
                    log.exception("a bot turn in room %s failed", room_id)
                    failures += 1
                    await asyncio.sleep(min(self.retry_delay * 2 ** (failures - 1), MAX_RETRY_DELAY))
                    continue
                failures = 0
                await self._played(room_id, applied)
        finally:
            self._tasks.pop(room_id, None)

    async def stop(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
