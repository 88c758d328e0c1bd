"""The live room socket: snapshot, patches that rebuild GET /state, room changes, acks and errors."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .conftest import auth
from .players import InProcessSocket, Player, play_to_the_end
from .test_api import new_room


def connect(
    stack: ExitStack, client: TestClient, room_id: str, token: str | None, seat: int | None
) -> Player:
    query = f"?token={token}" if token else ""
    session = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}{query}"))
    return Player(seat, token, InProcessSocket(session))


def test_bad_token_closes_1008(client: TestClient) -> None:
    room = new_room(client)
    for url in (f"/ws/rooms/{room['room_id']}?token=forged", "/ws/rooms/nope"):
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(url) as ws:
            ws.receive_json()
        assert closed.value.code == 1008


def test_a_match_over_sockets(client: TestClient) -> None:
    room = new_room(client, rounds=2)
    room_id, host = room["room_id"], room["token"]
    stack = ExitStack()
    with stack:
        check_match(client, stack, room_id, host)
    assert client.get(f"/api/rooms/{room_id}").json()["seats"][0]["connected"] is False


def check_match(client: TestClient, stack: ExitStack, room_id: str, host: str) -> None:
    ann = connect(stack, client, room_id, host, 0)
    assert ann.body["status"] == "waiting" and ann.body["version"] == 0
    guest = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()["token"]
    bo = connect(stack, client, room_id, guest, 1)
    watcher = connect(stack, client, room_id, None, None)
    client.post(f"/api/rooms/{room_id}/bots", headers=auth(host))
    client.post(f"/api/rooms/{room_id}/start", headers=auth(host))

    def public() -> dict[str, Any]:
        state: dict[str, Any] = client.get(f"/api/rooms/{room_id}/state").json()
        return state

    acked = play_to_the_end([ann, bo], public, seed=3)
    assert acked
    for player in (ann, bo, watcher):
        player.sync(public()["version"])
        headers = auth(player.token) if player.token else {}
        assert player.body == client.get(f"/api/rooms/{room_id}/state", headers=headers).json()
        kinds = [m["type"] for m in player.messages]
        assert kinds[0] == "snapshot" and kinds.count("snapshot") == 1
    while ann.room is None or ann.room["status"] != "finished":
        ann.pump()
    assert ann.room == client.get(f"/api/rooms/{room_id}").json()
    seats_seen = [m["room"]["seats"] for m in ann.messages if m["type"] == "room"]
    assert [s["name"] for s in seats_seen[-1]] == ["Ann", "Bo", "Ada"]
    assert any(len(seats) > 1 and seats[1]["connected"] for seats in seats_seen)


def test_socket_errors_and_reconnect(client: TestClient) -> None:
    room = new_room(client)
    room_id, host = room["room_id"], room["token"]
    guest = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()["token"]
    client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
    with ExitStack() as stack:
        check_errors(client, stack, room_id, host, guest)


def check_errors(client: TestClient, stack: ExitStack, room_id: str, host: str, guest: str) -> None:
    ann_stack = stack.enter_context(ExitStack())
    ann = connect(ann_stack, client, room_id, host, 0)
    legal = ann.body["legal_actions"][0]
    ann.socket.send("not json")
    assert ann.answer() == {
        "type": "error",
        "id": None,
        "error": {"code": "invalid_request", "message": "a message is one JSON object"},
    }
    ann.socket.send(json.dumps({"type": "action", "id": "big", "action": {"pad": "x" * 70_000}}))
    assert ann.answer()["error"]["code"] == "too_large"
    ann.socket.send(json.dumps({"type": "hello", "id": "h"}))
    assert ann.answer()["error"]["code"] == "invalid_request"
    assert ann.reply(ann.send_action(legal, 99))["error"]["code"] == "stale_version"
    assert ann.reply(ann.send_action({"type": "play", "card": 99}, None))["error"]["code"] == "illegal_action"
    assert ann.reply(ann.send_action(legal, 1)) == {"type": "ack", "id": "0-3"}
    ann.sync(2)
    spectator = connect(ann_stack, client, room_id, None, None)
    refused = spectator.reply(spectator.send_action(legal, None))
    assert refused["error"]["code"] == "unauthorized"
    ann_stack.close()
    client.post(
        f"/api/rooms/{room_id}/actions",
        headers=auth(guest),
        json={
            "action": client.get(f"/api/rooms/{room_id}/state", headers=auth(guest)).json()["legal_actions"][
                0
            ]
        },
    )
    again = connect(stack, client, room_id, host, 0)
    assert again.messages[0]["type"] == "snapshot" and again.body["version"] == 3
    assert again.body == client.get(f"/api/rooms/{room_id}/state", headers=auth(host)).json()
