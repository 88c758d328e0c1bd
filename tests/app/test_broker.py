"""The Redis broker: each event reaches every process once (its publisher at once, the others through
Redis, in order), and the listener outlives a lost connection, the rooms it serves catching up."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis

from app.realtime.broker import RedisBroker


@pytest.mark.redis
@pytest.mark.asyncio
async def test_the_listener_comes_back_after_a_lost_connection(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    broker = RedisBroker(redis_url)
    # Another server process: what it publishes reaches `broker` through Redis only.
    other = RedisBroker(redis_url)
    listen = broker._pubsub.listen
    lost = [False]

    async def drops_once() -> AsyncIterator[Any]:
        if not lost[0]:
            lost[0] = True
            raise redis.ConnectionError("Redis went away")
        async for message in listen():
            yield message

    monkeypatch.setattr(broker._pubsub, "listen", drops_once)
    heard: list[tuple[str, dict[str, Any]]] = []
    resynced = asyncio.Event()

    async def handler(room_id: str, event: dict[str, Any]) -> None:
        heard.append((room_id, event))

    async def resync() -> None:
        resynced.set()

    # The Redis may be shared with other servers: only this test's room counts.
    room = f"room-{uuid.uuid4().hex}"

    def mine() -> list[dict[str, Any]]:
        return [event for room_id, event in heard if room_id == room]

    async def elsewhere(room_id: str, event: dict[str, Any]) -> None:
        pass

    await broker.start(handler, resync)
    await other.start(elsewhere, resync)
    try:
        # Events published while the connection was down are lost: the rooms are refreshed instead.
        await asyncio.wait_for(resynced.wait(), timeout=10)
        for _ in range(100):
            await other.publish(room, {"kind": "state"})
            if mine():
                break
            await asyncio.sleep(0.05)
    finally:
        await broker.stop()
        await other.stop()
    assert mine() and mine()[0] == {"kind": "state"}


@pytest.mark.redis
@pytest.mark.asyncio
async def test_every_process_hears_each_event_once_and_in_order(redis_url: str) -> None:
    first, second = RedisBroker(redis_url), RedisBroker(redis_url)
    room = f"room-{uuid.uuid4().hex}"
    heard: dict[str, list[int]] = {"first": [], "second": []}

    def handler(name: str) -> Any:
        async def handle(room_id: str, event: dict[str, Any]) -> None:
            if room_id == room:
                heard[name].append(event["version"])

        return handle

    async def resync() -> None:
        pass

    await first.start(handler("first"), resync)
    await second.start(handler("second"), resync)
    try:
        for version in range(1, 201):
            await first.publish(room, {"kind": "state", "version": version})
        # The publisher's own sockets are told at once, before publish returns.
        assert heard["first"] == list(range(1, 201))
        for _ in range(100):
            if len(heard["second"]) >= 200:
                break
            await asyncio.sleep(0.05)
    finally:
        await first.stop()
        await second.stop()
    assert heard["second"] == list(range(1, 201))
    # Its own events coming back through Redis are not told twice.
    assert heard["first"] == list(range(1, 201))


@pytest.mark.asyncio
async def test_a_lost_subscription_is_tried_again_at_least_twice_a_second() -> None:
    """The other processes' changes reach this process's sockets only once its subscription is back
    (a resync): however long Redis was away, no wait between attempts passes half a second, so the
    sockets catch up within a second of its return."""
    waits: list[float] = []
    resynced = asyncio.Event()

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    class Away:
        """A subscription that fails while Redis is away (30 attempts), then comes back."""

        def __init__(self) -> None:
            self.failures = 0

        async def ping(self) -> None:
            if self.failures < 30:
                self.failures += 1
                raise redis.ConnectionError("Connection refused")

        async def listen(self) -> AsyncIterator[dict[str, Any]]:
            if not waits:
                raise redis.ConnectionError("Connection reset by peer")
            await asyncio.Event().wait()
            yield {}

    async def handler(_room: str, _event: dict[str, Any]) -> None:
        return None

    async def resync() -> None:
        resynced.set()

    redis_broker = RedisBroker("redis://127.0.0.1:1/0", sleep=sleep)
    redis_broker._pubsub = Away()  # type: ignore[assignment]
    task = asyncio.create_task(redis_broker._listen(handler, resync))
    await asyncio.wait_for(resynced.wait(), timeout=10)
    task.cancel()
    assert len(waits) == 31 and max(waits) <= 0.5
