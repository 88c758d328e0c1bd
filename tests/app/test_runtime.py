"""The process runtime: fan-out and presence failures never undo or hide a committed action."""

from __future__ import annotations

import asyncio
import json
from contextlib import ExitStack
from typing import Any

import pytest
import redis
from starlette.testclient import TestClient

import app.runtime
from app.config import Settings
from app.db import upgrade
from app.runtime import Runtime
from tests.rooms import new_room, seated_match

from .conftest import auth
from .test_ws import connect


async def _broken_publish(room_id: str, event: dict[str, Any]) -> None:
    raise ConnectionError("the broker is unreachable")


def test_a_failed_fan_out_still_answers_a_committed_action(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id, (host, guest) = seated_match(client)
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    monkeypatch.setattr(runtime.broker, "publish", _broken_publish)
    legal = client.get(f"/api/rooms/{room_id}/state", headers=auth(host)).json()["legal_actions"][0]
    response = client.post(f"/api/rooms/{room_id}/actions", headers=auth(host), json={"action": legal})
    assert response.status_code == 200 and response.json()["version"] == 2
    with ExitStack() as stack:
        bo = connect(stack, client, room_id, guest, 1)
        legal = bo.body["legal_actions"][0]
        assert bo.reply(bo.send_action(legal, 2)) == {"type": "ack", "id": "1-1"}
        # The socket lives on after the failed fan-out: the next message is still answered.
        bo.socket.send(json.dumps({"type": "hello", "id": "h"}))
        assert bo.answer()["error"]["code"] == "invalid_request"
    assert len(client.get(f"/api/rooms/{room_id}/log").json()["entries"]) == 2


@pytest.mark.redis
@pytest.mark.asyncio
async def test_presence_heartbeat_survives_a_redis_error(
    sqlite_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    upgrade(sqlite_url)
    runtime = Runtime(Settings(database_url=sqlite_url, redis_url=redis_url))
    beats: list[str] = []

    async def heartbeat() -> None:
        beats.append("beat")
        if len(beats) == 1:
            raise redis.ConnectionError("Redis went away for a moment")

    monkeypatch.setattr(app.runtime, "HEARTBEAT", 0.01)
    monkeypatch.setattr(runtime.presence, "heartbeat", heartbeat)
    await runtime.start()
    try:
        for _ in range(200):
            if len(beats) >= 3:
                break
            await asyncio.sleep(0.01)
    finally:
        await runtime.stop()
    # Without further beats this process's seats would read as gone once their entries lapse.
    assert len(beats) >= 3


def test_a_socket_that_fails_to_register_leaves_nothing_behind(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = new_room(client)
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    add = runtime.presence.add

    async def unshared(room_id: str, seat: int) -> None:
        await add(room_id, seat)  # counted here, then something after it fails
        raise RuntimeError("registering the socket failed")

    monkeypatch.setattr(runtime.presence, "add", unshared)
    with (
        pytest.raises(RuntimeError),
        client.websocket_connect(f"/ws/rooms/{room.room_id}?token={room.token}") as ws,
    ):
        ws.receive_json()
        ws.receive_json()
    assert runtime.hub._rooms == {}
    assert runtime.presence.local(room.room_id) == set()
