"""Room change notices between server processes: in-process by default, Redis pub/sub when configured."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import orjson
import redis.asyncio as aioredis

from app.tasks import cancel_and_wait

log = logging.getLogger(__name__)

Handler = Callable[[str, dict[str, Any]], Awaitable[None]]
"""Called with (room_id, event) for every event published, by any process."""

Resync = Callable[[], Awaitable[None]]
"""Called when events may have been missed: every room this process serves must be brought up to date."""

# Waits between attempts to win back a lost Redis connection: doubling from the first to the last.
# The last is short: the other processes' changes reach this one's sockets only once it is back (a
# resync), so it must notice Redis's return within a second; an attempt on a Redis that is away costs
# one refused connection.
RECONNECT_FIRST = 0.1
RECONNECT_MAX = 0.5

CHANNEL_PREFIX = "motable:room:"
# Seconds a publish may take before Redis counts as away.
PUBLISH_TIMEOUT = 1.0


class Broker(Protocol):
    async def start(self, handler: Handler, resync: Resync) -> None: ...

    async def publish(self, room_id: str, event: dict[str, Any]) -> None: ...

    async def stop(self) -> None: ...


class LocalBroker:
    """One process: publishing is calling the handler."""

    def __init__(self) -> None:
        self._handler: Handler | None = None

    async def start(self, handler: Handler, resync: Resync) -> None:
        # In one process no event is ever missed, so there is never anything to resync.
        self._handler = handler

    async def publish(self, room_id: str, event: dict[str, Any]) -> None:
        if self._handler is not None:
            await self._handler(room_id, event)

    async def stop(self) -> None:
        self._handler = None


class RedisBroker:
    """Several processes: the publisher tells its own sockets at once, the other processes hear each
    event through Redis. Events leave in the order they were published, in batches: one pipeline
    (one round trip) carries every event queued while the previous batch was on its way."""

    def __init__(self, url: str, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self._sleep = sleep
        self._redis = aioredis.from_url(url)
        # Publishing has a client of its own with timeouts: a Redis that hangs must not hold up a move.
        self._publisher = aioredis.from_url(
            url, socket_timeout=PUBLISH_TIMEOUT, socket_connect_timeout=PUBLISH_TIMEOUT
        )
        self._pubsub = self._redis.pubsub()
        self._listener: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._handler: Handler | None = None
        # Each message starts with the publishing process's id, so it skips its own without parsing.
        self._origin = uuid.uuid4().hex.encode() + b" "
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()

    async def start(self, handler: Handler, resync: Resync) -> None:
        self._handler = handler
        await self._pubsub.psubscribe(CHANNEL_PREFIX + "*")
        self._listener = asyncio.create_task(self._listen(handler, resync))
        self._sender = asyncio.create_task(self._send())

    async def _listen(self, handler: Handler, resync: Resync) -> None:
        # A reconnect loop, so kept by hand rather than given to tenacity (which retries the pushes in
        # app/alerts/push.py): it never gives up, every reconnection ends in a resync and starts the
        # waits over (losing Redis after an hour of relaying is no Nth failed attempt), and it waits
        # before its first try. tenacity would need a loop around it and a wait of its own.
        wait = RECONNECT_FIRST
        lost = False
        while True:
            try:
                if lost:
                    # Reconnects and resubscribes (redis-py replays the subscriptions on connect) before
                    # the rooms are refreshed, so no event falls between the refresh and the listening.
                    await self._pubsub.ping()
                    log.info("the Redis subscription is back; bringing every room up to date")
                    await resync()
                    lost, wait = False, RECONNECT_FIRST
                await self._relay(handler)
                return
            except aioredis.RedisError:
                # Once redis-py's own retries are spent the error lands here; ending the task would end
                # this process's fan-out for good, and the events missed meanwhile are gone.
                if not lost:
                    log.exception(
                        "lost the Redis subscription; trying again every %.1fs at most", RECONNECT_MAX
                    )
                lost = True
                await self._sleep(wait)
                wait = min(wait * 2, RECONNECT_MAX)

    async def _relay(self, handler: Handler) -> None:
        origin = self._origin
        async for message in self._pubsub.listen():
            if message["type"] != "pmessage":
                continue
            data: bytes = message["data"]
            if data.startswith(origin):
                continue  # told here when it was published
            room_id = message["channel"].decode()[len(CHANNEL_PREFIX) :]
            try:
                await handler(room_id, orjson.loads(data[len(origin) :]))
            except Exception:
                # One room's failure must not stop the fan-out for every other room.
                log.exception("handling an event for room %s failed", room_id)

    async def publish(self, room_id: str, event: dict[str, Any]) -> None:
        self._outbox.put_nowait((CHANNEL_PREFIX + room_id, self._origin + orjson.dumps(event)))
        if self._handler is not None:
            await self._handler(room_id, event)

    async def _send(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self._publisher.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except aioredis.RedisError:
                # Redis is away: this process's sockets were told; the other processes bring their rooms
                # up to date when their subscription comes back (resync).
                log.warning("Redis is unreachable: %d event(s) were told in this process only", len(batch))
            except Exception:
                # Ending this task would end publishing for good.
                log.exception("publishing %d event(s) failed", len(batch))
            finally:
                for _ in batch:
                    self._outbox.task_done()

    async def stop(self) -> None:
        # What was published before stopping still reaches the other processes, unless Redis is away.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(PUBLISH_TIMEOUT):
                await self._outbox.join()
        await cancel_and_wait(self._sender, self._listener)
        await self._pubsub.aclose()
        await self._redis.aclose()
        await self._publisher.aclose()
