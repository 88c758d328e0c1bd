"""After a finished match any player opens a rematch; everyone else is pointed to the same room."""

from __future__ import annotations

from starlette.testclient import TestClient

from .conftest import auth
from .test_api import error_code, new_room


def finish(client: TestClient, room_id: str, tokens: dict[int, str]) -> None:
    while (state := client.get(f"/api/rooms/{room_id}/state").json())["status"] == "playing":
        seat = state["to_act"][0]
        if seat not in tokens:  # a bot's turn: it plays on its own
            continue
        mine = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[seat])).json()
        if mine["legal_actions"]:
            client.post(
                f"/api/rooms/{room_id}/actions",
                headers=auth(tokens[seat]),
                json={"action": mine["legal_actions"][0]},
            )


def test_rematch_same_game_options_and_bots_for_everyone(client: TestClient) -> None:
    room = new_room(client, rounds=1)
    room_id = room["room_id"]
    bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
    assert client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth(room["token"])).status_code == 201
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(room["token"])).status_code == 200

    early = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(bo["token"]))
    assert early.status_code == 422 and error_code(early) == "invalid_request"
    assert client.get(f"/api/rooms/{room_id}").json()["rematch"] is None

    finish(client, room_id, {0: room["token"], bo["seat"]: bo["token"]})
    assert error_code(client.post(f"/api/rooms/{room_id}/rematch")) == "unauthorized"

    first = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(bo["token"]))
    assert first.status_code == 201
    made = first.json()
    assert made["seat"] == 0 and made["join_url"].endswith(f"/r/{made['room_id']}")
    new = client.get(f"/api/rooms/{made['room_id']}").json()
    assert new["status"] == "waiting" and new["game"] == "tiny"
    assert new["options"] == client.get(f"/api/rooms/{room_id}").json()["options"]
    assert [(s["name"], s["bot"]) for s in new["seats"]] == [("Bo", False), ("Ada", True)]
    assert client.post(f"/api/rooms/{made['room_id']}/start", headers=auth(made["token"])).status_code == 200

    assert client.get(f"/api/rooms/{room_id}").json()["rematch"] == made["room_id"]
    second = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(room["token"]))
    assert second.status_code == 200
    assert second.json() == {"room_id": made["room_id"], "join_url": made["join_url"]}


def test_a_rematch_keeps_the_seat_order_so_no_bot_moves_ahead_of_a_player(client: TestClient) -> None:
    room = new_room(client, rounds=1)
    room_id = room["room_id"]
    bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
    assert client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth(room["token"])).status_code == 201
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(room["token"])).status_code == 200
    finish(client, room_id, {0: room["token"], bo["seat"]: bo["token"]})

    made = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(room["token"])).json()
    rematch = made["room_id"]

    def seats() -> list[tuple[int, str, bool]]:
        return [(s["seat"], s["name"], s["bot"]) for s in client.get(f"/api/rooms/{rematch}").json()["seats"]]

    assert seats() == [(0, "Ann", False), (1, "Ada", True)]
    back = client.post(f"/api/rooms/{rematch}/join", json={"name": "Bo"}).json()
    # Bo sat before the bot last time, and does again; the bot moves up one place.
    assert back["seat"] == 1
    assert seats() == [(0, "Ann", False), (1, "Bo", False), (2, "Ada", True)]
    start = client.post(f"/api/rooms/{rematch}/start", headers=auth(made["token"]))
    assert start.status_code == 200
    state = client.get(f"/api/rooms/{rematch}/state", headers=auth(back["token"])).json()
    assert state["seat"] == 1
