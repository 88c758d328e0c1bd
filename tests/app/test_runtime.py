"""The process runtime: fan-out and presence failures never undo or hide a committed action."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient

from .conftest import auth
from .test_api import started_room
from .test_ws import connect


async def _broken_publish(room_id: str, event: dict[str, Any]) -> None:
    raise ConnectionError("the broker is unreachable")


def test_a_failed_fan_out_still_answers_a_committed_action(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id, (host, guest) = started_room(client)
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
