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
from app.clock import SYSTEM_CLOCK
from app.config import Settings
from app.db import upgrade
from app.runtime import Runtime
from app.tasks import cancel_and_wait
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


@pytest.mark.asyncio
async def test_a_wait_cancelled_in_the_tick_its_event_is_set_is_cancelled() -> None:
    # The bots' waits (app/clock.py): on Python 3.11 asyncio.wait_for returned the event's result
    # here instead (CPython gh-86296), and a bot task told to stop played on.
    event = asyncio.Event()
    waiting = asyncio.create_task(SYSTEM_CLOCK.wait(event, 10))
    await asyncio.sleep(0)
    event.set()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting


@pytest.mark.asyncio
async def test_the_server_stops_when_an_event_comes_in_the_tick_it_stops(sqlite_url: str) -> None:
    # The alerts dispatcher waits for events with a timeout; an event heard in the very tick its
    # loop is cancelled once left the cancellation lost and the stop waiting for ever (a CI run hung
    # so at a test client's shutdown).
    upgrade(sqlite_url)
    runtime = Runtime(Settings(database_url=sqlite_url))
    await runtime.start()
    try:
        for _ in range(500):
            if runtime.alerts.steps >= 1:  # it has looked once: it now waits for the next event
                break
            await asyncio.sleep(0.01)
        assert runtime.alerts.steps >= 1
        # Heard, then stopped, with no await between: the loop's wait ends with the event and is
        # cancelled in one tick.
        runtime.alerts.heard("R", {"kind": "gone"})
        stopping = asyncio.create_task(runtime.alerts.stop())
        done, _ = await asyncio.wait({stopping}, timeout=10)
        assert stopping in done, "the alerts dispatcher never stopped"
    finally:
        await runtime.stop()


@pytest.mark.asyncio
async def test_the_alerts_dispatcher_takes_the_events_of_a_busy_moment_in_one_look(sqlite_url: str) -> None:
    # Once an event comes, the dispatcher gathers those that follow within `gather` (50 ms) and looks
    # at them together: a busy server looks a few times a second, not once per move.
    upgrade(sqlite_url)
    runtime = Runtime(Settings(database_url=sqlite_url))
    await runtime.start()
    alerts = runtime.alerts
    try:
        for _ in range(500):
            if alerts.steps >= 1:  # it has looked once: it now waits for the next event
                break
            await asyncio.sleep(0.01)
        before = alerts.steps
        for n in range(5):
            alerts.heard(f"R{n}", {"kind": "gone"})
            for _ in range(3):
                await asyncio.sleep(0)  # the dispatcher runs: it has the first event, and waits
        for _ in range(500):
            if alerts.steps > before:
                break
            await asyncio.sleep(0.01)
        assert alerts.steps == before + 1, "the five events were looked at in one step"
    finally:
        await runtime.stop()


@pytest.mark.asyncio
async def test_stopping_a_task_keeps_a_cancellation_of_the_one_stopping_it() -> None:
    # `cancel(); with suppress(CancelledError): await task` took the stopper's own cancellation for
    # the task's and carried on: a shutdown cancelled while it waited went on as if not asked.
    async def slow_to_end() -> None:
        try:
            await asyncio.sleep(10)
        finally:
            await asyncio.sleep(0.05)

    task = asyncio.create_task(slow_to_end())
    await asyncio.sleep(0)
    stopper = asyncio.create_task(cancel_and_wait(task))
    await asyncio.sleep(0)
    stopper.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stopper
    await asyncio.wait({task})
    assert task.cancelled()
