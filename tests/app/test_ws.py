"""The live room socket: snapshot, patches that rebuild GET /state, room changes, acks and errors."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.rooms import new_room

from .conftest import auth
from .players import InProcessSocket, Player, play_to_the_end


def connect(
    stack: ExitStack, client: TestClient, room_id: str, token: str | None, seat: int | None
) -> Player:
    query = f"?token={token}" if token else ""
    session = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}{query}"))
    return Player(seat, token, InProcessSocket(session))


def test_bad_token_closes_1008(client: TestClient) -> None:
    room = new_room(client)
    for url in (f"/ws/rooms/{room.room_id}?token=forged", "/ws/rooms/nope"):
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(url) as ws:
            ws.receive_json()
        assert closed.value.code == 1008


def test_a_match_over_sockets(client: TestClient) -> None:
    room = new_room(client, rounds=2)
    room_id, host = room.room_id, room.token
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
    room_id, host = room.room_id, room.token
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


SEND_AN_ACTION = 'send {"type": "action", "id", "action", "version"}'

# A frame that is no message of either kind, the id its answer echoes, and the words it is told.
REFUSALS = [
    ("[1]", None, "a message is one JSON object"),
    ('"action"', None, "a message is one JSON object"),
    ('{"id": "none"}', "none", SEND_AN_ACTION),
    ('{"type": "hello", "id": 7}', 7, SEND_AN_ACTION),
    ('{"type": ["action"], "id": "listed"}', "listed", SEND_AN_ACTION),
    ('{"type": "action", "id": "bare"}', "bare", SEND_AN_ACTION),
    ('{"type": "action", "id": "both", "version": true}', "both", SEND_AN_ACTION),
    ('{"type": "action", "id": "bool", "action": {}, "version": true}', "bool", "version is an integer"),
    (
        '{"type": "action", "id": {"k": [1]}, "action": {}, "version": 1.0}',
        {"k": [1]},
        "version is an integer",
    ),
    ('{"type": "action", "action": {}, "version": "1"}', None, "version is an integer"),
    ('{"type": "auth", "id": "again", "token": 12}', "again", "this socket already has a seat"),
]


def test_each_refused_message_is_told_why_with_its_id(client: TestClient) -> None:
    room = new_room(client)
    room_id, host = room.room_id, room.token
    client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"})
    client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
    with ExitStack() as stack:
        ann = connect(stack, client, room_id, host, 0)
        for frame, message_id, words in REFUSALS:
            ann.socket.send(frame)
            assert ann.answer() == {
                "type": "error",
                "id": message_id,
                "error": {"code": "invalid_request", "message": words},
            }, frame
        # Nothing refused closed the socket or changed the match.
        assert ann.reply(ann.send_action(ann.body["legal_actions"][0], 1)) == {"type": "ack", "id": "0-1"}
