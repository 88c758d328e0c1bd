"""The playing layer's promises: who starts is chosen at start, an impossible option is refused with
nothing changed, a socket may authenticate by its first message, and a round's end reaches the room."""

from __future__ import annotations

import json
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.rooms import seated_match

from .conftest import auth
from .players import InProcessSocket, Player
from .test_ws import connect


def test_an_option_naming_an_empty_seat_is_refused_and_changes_nothing(client: TestClient) -> None:
    room_id, (host, _guest) = seated_match(client, "mojo", first_seat=3, start=False)
    response = client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"
    body = client.get(f"/api/rooms/{room_id}").json()
    assert body["status"] == "waiting" and body["version"] == 0
    # Still waiting, so a third player may still join and make the option valid... up to seat 2 only.
    assert client.post(f"/api/rooms/{room_id}/join", json={"name": "Cy"}).status_code == 201


def test_start_refuses_a_starter_for_a_game_without_that_choice(client: TestClient) -> None:
    room_id, (host, _guest) = seated_match(client, start=False)
    response = client.post(f"/api/rooms/{room_id}/start", headers=auth(host), json={"starter": 1})
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"
    for bad in ({"starter": "first"}, {"starter": True}, {"starter": 1.5}):
        response = client.post(f"/api/rooms/{room_id}/start", headers=auth(host), json=bad)
        assert response.status_code == 422, bad
    assert client.get(f"/api/rooms/{room_id}").json()["status"] == "waiting"
    # An empty body (old clients) still starts.
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(host)).status_code == 200


def _spectator(stack: ExitStack, client: TestClient, room_id: str) -> tuple[Player, InProcessSocket]:
    session = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}"))
    socket = InProcessSocket(session)
    return Player(None, None, socket), socket


def test_a_spectator_socket_takes_its_seat_with_an_auth_message(client: TestClient) -> None:
    room_id, (host, guest) = seated_match(client, start=False)
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(host)).status_code == 200
    with ExitStack() as stack:
        player, socket = _spectator(stack, client, room_id)
        assert player.body["seat"] is None and player.body["legal_actions"] == []
        assert client.get(f"/api/rooms/{room_id}").json()["seats"][0]["connected"] is False
        socket.send(json.dumps({"type": "auth", "token": host}))
        while player.messages[-1]["type"] != "snapshot" or len(player.messages) < 2:
            player.pump()
        mine = client.get(f"/api/rooms/{room_id}/state", headers=auth(host)).json()
        assert player.body == mine and player.body["seat"] == 0
        player.seat, player.token = 0, host
        assert client.get(f"/api/rooms/{room_id}").json()["seats"][0]["connected"] is True
        # Seated now: its actions are its seat's.
        reply = player.reply(player.send_action(mine["legal_actions"][0], mine["version"]))
        assert reply["type"] == "ack"
        # A socket holds one seat: a second auth is refused and the socket stays.
        socket.send(json.dumps({"type": "auth", "token": guest, "id": "again"}))
        assert player.reply("again")["error"]["code"] == "invalid_request"
    assert client.get(f"/api/rooms/{room_id}").json()["seats"][0]["connected"] is False


@pytest.mark.parametrize("token", ["forged", 12, None])
def test_an_auth_message_with_a_bad_token_closes_1008(client: TestClient, token: object) -> None:
    room_id, _tokens = seated_match(client, start=False)
    with ExitStack() as stack:
        player, socket = _spectator(stack, client, room_id)
        socket.send(json.dumps({"type": "auth", "token": token}))
        with pytest.raises(WebSocketDisconnect) as closed:
            player.pump()
        assert closed.value.code == 1008


def test_the_end_of_a_round_pushes_the_room_body(client: TestClient) -> None:
    room_id, (host, guest) = seated_match(client, rounds=2, start=False)
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(host)).status_code == 200
    tokens = {0: host, 1: guest}
    with ExitStack() as stack:
        watcher = connect(stack, client, room_id, None, None)
        while True:
            state = client.get(f"/api/rooms/{room_id}/state").json()
            if state["view"]["round"] > 1:
                break
            seat = state["to_act"][0]
            legal = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[seat])).json()
            action = legal["legal_actions"][0]
            client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json={"action": action})
        watcher.sync(state["version"])
        while watcher.room is None or not watcher.room["scorepad"]["rounds"]:
            watcher.pump()
        assert watcher.room == client.get(f"/api/rooms/{room_id}").json()
        assert len(watcher.room["scorepad"]["rounds"]) == 1 and watcher.room["status"] == "playing"


@pytest.mark.parametrize("starter", [0, 1])
def test_the_host_chooses_who_starts_from_the_seated_players(client: TestClient, starter: int) -> None:
    room_id, (host, _guest) = seated_match(client, "mojo", start=False)
    refused = client.post(f"/api/rooms/{room_id}/start", headers=auth(host), json={"starter": 2})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_request"
    assert client.get(f"/api/rooms/{room_id}").json()["status"] == "waiting"
    started = client.post(f"/api/rooms/{room_id}/start", headers=auth(host), json={"starter": starter})
    assert started.status_code == 200, started.text
    assert started.json()["options"]["first_seat"] == starter
    assert client.get(f"/api/rooms/{room_id}/state").json()["to_act"] == [starter]


def test_a_random_starter_is_left_to_the_seed(client: TestClient) -> None:
    room_id, (host, _guest) = seated_match(client, "mojo", first_seat=1, start=False)
    started = client.post(f"/api/rooms/{room_id}/start", headers=auth(host), json={"starter": "random"})
    assert started.status_code == 200 and started.json()["options"]["first_seat"] is None
    assert client.get(f"/api/rooms/{room_id}/state").json()["to_act"] in ([0], [1])
