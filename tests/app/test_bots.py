"""Server-side bots: they keep playing through failures."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.services import BotTurn
from app.services.matches import Applied

from .conftest import auth
from .test_api import new_room


def test_a_bot_plays_on_after_a_failed_turn(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    room = new_room(client)
    room_id, host = room["room_id"], auth(room["token"])
    client.post(f"/api/rooms/{room_id}/bots", headers=host)
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    monkeypatch.setattr(runtime.bots, "retry_delay", 0.01)
    play_bot = runtime.services.play_bot
    calls: list[int] = []

    def flaky(turn: BotTurn) -> Applied:
        calls.append(turn.version)
        if len(calls) == 1:
            raise RuntimeError("the database dropped the connection")
        applied: Applied = play_bot(turn)
        return applied

    monkeypatch.setattr(runtime.services, "play_bot", flaky)
    client.post(f"/api/rooms/{room_id}/start", headers=host)
    legal = client.get(f"/api/rooms/{room_id}/state", headers=host).json()["legal_actions"][0]
    client.post(f"/api/rooms/{room_id}/actions", headers=host, json={"action": legal})
    # Nobody else acts or connects: only the runner itself can bring the bot back.
    state: dict[str, Any] = {}
    for _ in range(300):
        state = client.get(f"/api/rooms/{room_id}/state").json()
        if state["version"] >= 3:
            break
        time.sleep(0.01)
    assert calls[:2] == [2, 2] and state["version"] == 3 and state["to_act"] == [0]
