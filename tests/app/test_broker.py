"""The Redis broker outlives a lost connection, and the rooms it serves catch up afterwards."""

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

    await broker.start(handler, resync)
    try:
        # Events published while the connection was down are lost: the rooms are refreshed instead.
        await asyncio.wait_for(resynced.wait(), timeout=10)
        for _ in range(100):
            await broker.publish(room, {"kind": "state"})
            if mine():
                break
            await asyncio.sleep(0.05)
    finally:
        await broker.stop()
    assert mine() and mine()[0] == {"kind": "state"}
