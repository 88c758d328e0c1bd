"""After a finished match any player opens a rematch; everyone else is pointed to the same room."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.rooms import new_room

from .conftest import auth
from .softkey import SoftKey
from .test_api import error_code


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
    room_id = room.room_id
    bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
    assert client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth(room.token)).status_code == 201
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(room.token)).status_code == 200

    early = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(bo["token"]))
    assert early.status_code == 422 and error_code(early) == "invalid_request"
    assert client.get(f"/api/rooms/{room_id}").json()["rematch"] is None

    finish(client, room_id, {0: room.token, bo["seat"]: bo["token"]})
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
    second = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(room.token))
    assert second.status_code == 200
    assert second.json() == {"room_id": made["room_id"], "join_url": made["join_url"]}


def test_a_rematch_keeps_the_seat_order_so_no_bot_moves_ahead_of_a_player(client: TestClient) -> None:
    room = new_room(client, rounds=1)
    room_id = room.room_id
    bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
    assert client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth(room.token)).status_code == 201
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(room.token)).status_code == 200
    finish(client, room_id, {0: room.token, bo["seat"]: bo["token"]})

    made = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(room.token)).json()
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


def _screen_rematch(client: TestClient, room_id: str, host: str, tokens: dict[int, str]) -> tuple[str, str]:
    """The host marks a table screen, the match is played out, the screen opens the rematch: the host's
    seat there waits for them under their token. Returns the screen's token and the rematch's id."""
    screen = client.post(f"/api/rooms/{room_id}/screens").json()
    marked = client.post(
        f"/api/rooms/{room_id}/table-screen", json={"code": screen["code"]}, headers=auth(host)
    )
    assert marked.status_code == 200
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(screen["token"])).status_code == 200
    finish(client, room_id, tokens)
    opened = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(screen["token"]))
    assert opened.status_code == 200, opened.text
    return screen["token"], opened.json()["room_id"]


def _move_seat(client: TestClient, room_id: str, seat: int, holder: str) -> str:
    """The seat's holder moves it to a new device (a seat request they approve): the new token."""
    asked = client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": seat}).json()
    approved = client.post(
        f"/api/rooms/{room_id}/seat-requests/{asked['request_id']}/approve", headers=auth(holder)
    )
    assert approved.status_code == 200 and approved.json()["status"] == "approved", approved.text
    token: str = asked["token"]
    return token


def test_the_hosts_seat_kept_in_a_screens_rematch_follows_her_to_a_new_device(client: TestClient) -> None:
    """Issue 32: the old token, revoked in the finished room, held the host's seat in the rematch the
    table screen opened (and could start it), while the new token could not claim it."""
    room = new_room(client, rounds=1)
    room_id, old = room.room_id, room.token
    bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
    _screen, rematch = _screen_rematch(client, room_id, old, {0: old, 1: bo["token"]})
    # The old token holds the kept seat (this process remembers it), until the seat moves.
    assert client.get(f"/api/rooms/{rematch}/state", headers=auth(old)).json()["seat"] == 0

    new = _move_seat(client, room_id, 0, old)
    assert error_code(client.get(f"/api/rooms/{room_id}/state", headers=auth(old))) == "unauthorized"
    # In the rematch too, at once: no state, no start as host, and its seat check says why.
    assert error_code(client.get(f"/api/rooms/{rematch}/state", headers=auth(old))) == "unauthorized"
    client.post(f"/api/rooms/{rematch}/join", json={"name": "Cy"})
    assert error_code(client.post(f"/api/rooms/{rematch}/start", headers=auth(old))) == "unauthorized"
    check = client.get(f"/api/rooms/{rematch}/seat-check", headers=auth(old)).json()
    assert check["status"] == "moved" and check["seat"] == 0 and check["name"] == "Ann"
    assert error_code(client.post(f"/api/rooms/{room_id}/rematch", headers=auth(old))) == "unauthorized"
    # The new token holds it, and claims it as the old one did: a fresh token of its own there.
    assert client.get(f"/api/rooms/{rematch}/state", headers=auth(new)).json()["seat"] == 0
    mine = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(new))
    assert mine.status_code == 201, mine.text
    assert mine.json()["room_id"] == rematch and mine.json()["seat"] == 0
    fresh = mine.json()["token"]
    assert client.get(f"/api/rooms/{rematch}/state", headers=auth(fresh)).json()["seat"] == 0
    assert error_code(client.get(f"/api/rooms/{rematch}/state", headers=auth(new))) == "unauthorized"
    assert client.post(f"/api/rooms/{rematch}/start", headers=auth(fresh)).status_code == 200


def test_a_seat_move_follows_down_a_chain_of_screen_rematches(client: TestClient) -> None:
    """The host played the screen's rematch on her kept seat and the screen opened another: a move of
    her seat in the first room reaches both kept seats."""
    room = new_room(client, rounds=1)
    room_id, old = room.room_id, room.token
    bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
    screen, second = _screen_rematch(client, room_id, old, {0: old, 1: bo["token"]})
    bo2 = client.post(f"/api/rooms/{second}/join", json={"name": "Bo"}).json()
    started = client.post(f"/api/rooms/{second}/start", headers=auth(old))
    assert started.status_code == 200
    finish(client, second, {0: old, 1: bo2["token"]})
    third = client.post(f"/api/rooms/{second}/rematch", headers=auth(screen)).json()["room_id"]
    assert client.get(f"/api/rooms/{third}/state", headers=auth(old)).json()["seat"] == 0

    new = _move_seat(client, room_id, 0, old)
    for rematch in (second, third):
        assert error_code(client.get(f"/api/rooms/{rematch}/state", headers=auth(old))) == "unauthorized"
        assert client.get(f"/api/rooms/{rematch}/state", headers=auth(new)).json()["seat"] == 0


def test_a_passkey_sign_in_moves_the_seat_kept_in_a_screens_rematch(client: TestClient) -> None:
    """Signing in with a passkey elsewhere is a seat move like any other: the rematch's kept seat follows
    the new token, and the old one holds nothing there."""
    from .test_passkeys import ORIGIN, RP_ID, attach, sign_in

    room = new_room(client, rounds=1)
    room_id, old = room.room_id, room.token
    bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
    key = SoftKey(ORIGIN, RP_ID)
    assert attach(client, key, [{"room_id": room_id, "token": old}]).status_code == 201
    _screen, rematch = _screen_rematch(client, room_id, old, {0: old, 1: bo["token"]})
    assert client.get(f"/api/rooms/{rematch}/state", headers=auth(old)).json()["seat"] == 0

    signed = sign_in(client, key)
    assert signed.status_code == 200, signed.text
    new = next(s["token"] for s in signed.json()["seats"] if s["room_id"] == room_id)
    assert error_code(client.get(f"/api/rooms/{rematch}/state", headers=auth(old))) == "unauthorized"
    assert client.get(f"/api/rooms/{rematch}/state", headers=auth(new)).json()["seat"] == 0
