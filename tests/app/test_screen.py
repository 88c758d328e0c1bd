"""The table screen: its page, and the room body saying a screen is open (phones show their hand)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect as ws_connect

from app.services.screens import ADDRESS_BURST, OPEN_CODES, ROOM_BURST
from tests.rooms import new_room, seated_match
from tests.servers import ServeProcess

from .conftest import auth
from .forwarded import forwarded_client, from_address
from .test_api import error_code

TINY = "tiny=tests.app.tiny_game"


def test_the_screen_page_is_html_and_an_unknown_room_a_friendly_404(client: TestClient) -> None:
    room = new_room(client)
    page = client.get(f"/r/{room.room_id}/screen")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert 'id="screen"' in page.text and "js/screen.js" in page.text
    # A QR code of the room's link is in the page, for the open seats.
    assert "<svg" in page.text and f"/r/{room.room_id}" in page.text
    for address in ("/r/nosuchroom/screen", "/r/nosuchroom12/screen"):
        missing = client.get(address)
        assert missing.status_code == 404
        assert missing.headers["content-type"].startswith("text/html")
        assert "This room does not exist" in missing.text


def _screen_shown(client: TestClient, room_id: str, wanted: bool) -> None:
    deadline = time.monotonic() + 5
    while client.get(f"/api/rooms/{room_id}").json()["screen"] is not wanted:
        assert time.monotonic() < deadline, f"the room body never said screen={wanted}"
        time.sleep(0.02)


def test_a_screen_socket_is_a_spectator_the_room_body_counts(client: TestClient) -> None:
    room_id, tokens = seated_match(client, players=2)
    assert client.get(f"/api/rooms/{room_id}").json()["screen"] is False
    # A plain spectator is no table screen.
    with client.websocket_connect(f"/ws/rooms/{room_id}") as watcher:
        assert watcher.receive_json()["type"] == "snapshot"
        assert client.get(f"/api/rooms/{room_id}").json()["screen"] is False
    with client.websocket_connect(f"/ws/rooms/{room_id}?screen=1") as screen:
        first = screen.receive_json()
        assert first["type"] == "snapshot" and first["state"]["seat"] is None
        assert first["state"]["legal_actions"] == []
        _screen_shown(client, room_id, True)
        # A seat's own state says nothing of the screen; its room body does.
        assert client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[0])).json()["seat"] == 0
    _screen_shown(client, room_id, False)


def test_a_seat_socket_asking_to_be_a_screen_is_just_its_seat(client: TestClient) -> None:
    room_id, tokens = seated_match(client, players=2)
    with client.websocket_connect(f"/ws/rooms/{room_id}?screen=1&token={tokens[0]}") as seat:
        assert seat.receive_json()["state"]["seat"] == 0
        time.sleep(0.1)
        assert client.get(f"/api/rooms/{room_id}").json()["screen"] is False


def test_a_screen_socket_that_takes_a_seat_is_no_longer_the_screen(client: TestClient) -> None:
    """A table screen that sends a seat's token becomes that seat's socket, as one that opened with
    the token would be: the room stops showing a table screen, and the seat shows connected."""
    room_id, tokens = seated_match(client, players=2)
    with client.websocket_connect(f"/ws/rooms/{room_id}?screen=1") as socket:
        assert socket.receive_json()["state"]["seat"] is None
        _screen_shown(client, room_id, True)
        socket.send_json({"type": "auth", "token": tokens[0]})
        snapshot = socket.receive_json()
        while snapshot["type"] != "snapshot":
            snapshot = socket.receive_json()
        assert snapshot["state"]["seat"] == 0
        _screen_shown(client, room_id, False)
        assert client.get(f"/api/rooms/{room_id}").json()["seats"][0]["connected"] is True
    _screen_shown(client, room_id, False)


@pytest.mark.slow
def test_a_screen_on_one_process_is_seen_by_the_others(
    postgres_url: str, redis_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    env = {"DATABASE_URL": postgres_url, "REDIS_URL": redis_url, "MOTABLE_GAMES": TINY}
    a, b = spawn(env), spawn(env)
    room_id = new_room(a.base_url).room_id
    with ws_connect(f"ws://{a.base_url.split('://')[1]}/ws/rooms/{room_id}?screen=1") as screen:
        assert json.loads(screen.recv(timeout=5))["type"] == "snapshot"
        _wait(lambda: httpx.get(f"{b.base_url}/api/rooms/{room_id}").json()["screen"] is True)
    _wait(lambda: httpx.get(f"{b.base_url}/api/rooms/{room_id}").json()["screen"] is False)


def _wait(check: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


# -- the table screen the host marks as the table ----------------------------------------------------


def _pair(client: TestClient, room_id: str) -> dict[str, str]:
    paired = client.post(f"/api/rooms/{room_id}/screens")
    assert paired.status_code == 201, paired.text
    body: dict[str, str] = paired.json()
    assert set(body) == {"code", "token"} and len(body["code"]) == 4 and body["code"].isdigit()
    return body


def _mark(client: TestClient, room_id: str, host: str, code: str) -> Any:
    return client.post(f"/api/rooms/{room_id}/table-screen", json={"code": code}, headers=auth(host))


def test_the_host_marks_a_screen_by_its_code_and_it_may_start_but_never_play(client: TestClient) -> None:
    room = new_room(client)
    room_id, host = room.room_id, room.token
    bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
    screen = _pair(client, room_id)
    assert client.get(f"/api/rooms/{room_id}/screens/me", headers=auth(screen["token"])).json() == {
        "marked": False,
        "code": screen["code"],
    }
    # Not marked yet: its token is nobody's, for starting as for anything else.
    assert (
        error_code(client.post(f"/api/rooms/{room_id}/start", headers=auth(screen["token"])))
        == "unauthorized"
    )
    assert client.get(f"/api/rooms/{room_id}").json()["table_screen"] is False

    # Only the host marks, with the code the screen shows.
    assert error_code(_mark(client, room_id, bo["token"], screen["code"])) == "forbidden"
    assert error_code(client.post(f"/api/rooms/{room_id}/table-screen", json={"code": screen["code"]})) == (
        "unauthorized"
    )
    wrong = "0000" if screen["code"] != "0000" else "1111"
    assert error_code(_mark(client, room_id, host, wrong)) == "not_found"
    for bad in ({"code": "12a4"}, {"code": "12345"}, {"code": 1234}, {}, {"code": "x" * 40}):
        answer = client.post(f"/api/rooms/{room_id}/table-screen", json=bad, headers=auth(host))
        assert answer.status_code == 422 and error_code(answer) == "invalid_request", bad
    assert client.get(f"/api/rooms/{room_id}").json()["table_screen"] is False

    marked = _mark(client, room_id, host, screen["code"])
    assert marked.status_code == 200 and marked.json()["table_screen"] is True
    assert client.get(f"/api/rooms/{room_id}/screens/me", headers=auth(screen["token"])).json() == {
        "marked": True,
        "code": None,
    }
    # The marked screen seats a bot and starts the match: the table's host things, from the sofa.
    assert (
        client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth(screen["token"])).status_code == 201
    )
    started = client.post(f"/api/rooms/{room_id}/start", headers=auth(screen["token"]))
    assert started.status_code == 200 and started.json()["status"] == "playing"
    # It holds no seat: no hand, no move, no chat as a player.
    for answer in (
        client.get(f"/api/rooms/{room_id}/state", headers=auth(screen["token"])),
        client.post(f"/api/rooms/{room_id}/actions", json={"action": {}}, headers=auth(screen["token"])),
        client.post(f"/api/rooms/{room_id}/chat", json={"text": "hi"}, headers=auth(screen["token"])),
    ):
        assert answer.status_code == 401 and error_code(answer) == "unauthorized"
    with client.websocket_connect(f"/ws/rooms/{room_id}?screen=1") as socket:
        first = socket.receive_json()
        assert first["state"]["seat"] is None and first["state"]["legal_actions"] == []
        public = client.get(f"/api/rooms/{room_id}/state").json()
        assert first["state"]["view"] == public["view"]
        socket.send_json({"type": "auth", "token": screen["token"]})
        # The bot's first moves may reach the socket before it is closed: the close comes after them.
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(100):
                frame = socket.receive_json()
                assert frame["type"] in ("patch", "room", "chat"), frame
        assert closed.value.code == 1008


def test_marking_another_screen_replaces_the_first_and_unmarking_ends_it(client: TestClient) -> None:
    room = new_room(client)
    room_id, host = room.room_id, room.token
    client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"})
    first, second = _pair(client, room_id), _pair(client, room_id)
    assert first["code"] != second["code"]
    assert _mark(client, room_id, host, first["code"]).status_code == 200
    # A code is typed once: the marked screen's is gone.
    assert error_code(_mark(client, room_id, host, first["code"])) == "not_found"
    assert _mark(client, room_id, host, second["code"]).status_code == 200
    assert error_code(client.get(f"/api/rooms/{room_id}/screens/me", headers=auth(first["token"]))) == (
        "unauthorized"
    )
    assert (
        error_code(client.post(f"/api/rooms/{room_id}/start", headers=auth(first["token"]))) == "unauthorized"
    )
    unmarked = client.delete(f"/api/rooms/{room_id}/table-screen", headers=auth(host))
    assert unmarked.status_code == 200 and unmarked.json()["table_screen"] is False
    assert (
        error_code(client.post(f"/api/rooms/{room_id}/start", headers=auth(second["token"])))
        == "unauthorized"
    )
    assert error_code(client.get(f"/api/rooms/{room_id}/screens/me")) == "unauthorized"
    assert error_code(client.post("/api/rooms/nosuchroom12/screens")) == "not_found"


def test_a_room_keeps_a_handful_of_codes_open_and_tells_its_screens_when_one_gives_way(
    database_url: str, tiny: str
) -> None:
    """Codes the room cannot keep give way, oldest first; the room's sockets hear it at once (issue 32:
    a TV showed a dead code for minutes), so a screen asks for a new code instead of showing it."""
    with forwarded_client(database_url, screen_codes_per_hour=0) as client:
        room = new_room(client)
        room_id = room.room_id
        codes = [_pair(client, room_id) for _ in range(OPEN_CODES)]
        with client.websocket_connect(f"/ws/rooms/{room_id}?screen=1") as screen:
            assert screen.receive_json()["type"] == "snapshot"
            codes += [_pair(client, room_id) for _ in range(4)]
            # Someone joins after: everything sent before that room body came in order before it.
            client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"})
            heard = []
            while not (
                (frame := screen.receive_json())["type"] == "room" and len(frame["room"]["seats"]) == 2
            ):
                heard.append(frame)
            assert {"type": "screens"} in heard, heard
        live = [
            c
            for c in codes
            if client.get(f"/api/rooms/{room_id}/screens/me", headers=auth(c["token"])).status_code == 200
        ]
        assert live == codes[-OPEN_CODES:], "the oldest codes give way"
        gone = codes[0]["code"]
        if gone not in {c["code"] for c in live}:
            assert error_code(_mark(client, room_id, room.token, gone)) == "not_found"


def test_a_flood_of_pairing_codes_is_refused_and_the_shown_code_still_works(
    database_url: str, tiny: str
) -> None:
    """Issue 32: six tokenless asks in 0.02 s pushed out the code the TV showed, and the host got 404.
    Codes are limited per room and per client address; a refused ask pushes nothing out."""
    with forwarded_client(database_url) as client:
        room = new_room(client)
        room_id = room.room_id
        tv = client.post(f"/api/rooms/{room_id}/screens", headers=from_address("198.51.100.1"))
        assert tv.status_code == 201
        shown = tv.json()
        flood = [
            client.post(f"/api/rooms/{room_id}/screens", headers=from_address(f"203.0.113.{n + 1}"))
            for n in range(OPEN_CODES)
        ]
        made = [answer for answer in flood if answer.status_code == 201]
        assert len(made) == ROOM_BURST - 1 < OPEN_CODES - 1, "fewer than would push the TV's code out"
        refused = flood[len(made) :]
        assert all(error_code(answer) == "rate_limited" for answer in refused)
        assert all(int(answer.headers["retry-after"]) > 0 for answer in refused)
        # Every code made is still good, the TV's first: the host types it and it is the table.
        for paired in [shown, *(answer.json() for answer in made)]:
            assert (
                client.get(f"/api/rooms/{room_id}/screens/me", headers=auth(paired["token"])).status_code
                == 200
            )
        marked = _mark(client, room_id, room.token, shown["code"])
        assert marked.status_code == 200 and marked.json()["table_screen"] is True

        # One address alone, in another room: a few codes, then refused, across rooms too.
        other = new_room(client).room_id
        mine = [
            client.post(f"/api/rooms/{other}/screens", headers=from_address("192.0.2.1")).status_code
            for _ in range(ADDRESS_BURST + 1)
        ]
        assert mine == [201] * ADDRESS_BURST + [429]
        third = new_room(client).room_id
        assert (
            client.post(f"/api/rooms/{third}/screens", headers=from_address("192.0.2.1")).status_code == 429
        )
        # An unknown room costs the address nothing.
        assert error_code(
            client.post("/api/rooms/nosuchroom12/screens", headers=from_address("192.0.2.2"))
        ) == ("not_found")
        assert (
            client.post(f"/api/rooms/{third}/screens", headers=from_address("192.0.2.2")).status_code == 201
        )


def test_the_mark_survives_a_restart_and_goes_to_the_rematch_the_screen_opens(
    database_url: str, tiny: str
) -> None:
    from app.config import Settings
    from app.main import create_app

    from .conftest import NO_LIMITS
    from .test_rematch import finish

    settings = Settings(database_url=database_url, bot_delay=0, **NO_LIMITS)
    with TestClient(create_app(settings)) as client:
        room = new_room(client, rounds=1)
        room_id, host = room.room_id, room.token
        bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
        screen = _pair(client, room_id)
        assert _mark(client, room_id, host, screen["code"]).status_code == 200
    with TestClient(create_app(settings)) as client:
        assert client.get(f"/api/rooms/{room_id}").json()["table_screen"] is True
        assert client.post(f"/api/rooms/{room_id}/start", headers=auth(screen["token"])).status_code == 200
        early = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(screen["token"]))
        assert early.status_code == 422 and error_code(early) == "invalid_request"
        finish(client, room_id, {0: host, 1: bo["token"]})
        # The screen opens the rematch: it gets no seat, the host's seat is kept for them.
        opened = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(screen["token"]))
        assert opened.status_code == 200 and set(opened.json()) == {"room_id", "join_url"}
        rematch = opened.json()["room_id"]
        body = client.get(f"/api/rooms/{rematch}").json()
        assert body["table_screen"] is True and body["host_seat"] == 0
        assert [(s["seat"], s["name"]) for s in body["seats"]] == [(0, "Ann")]
        # The host's ask hands them their kept seat with a fresh token; Bo joins as usual.
        mine = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(host))
        assert mine.status_code == 201 and mine.json()["seat"] == 0 and mine.json()["room_id"] == rematch
        fresh = mine.json()["token"]
        assert fresh != host
        assert client.get(f"/api/rooms/{rematch}/state", headers=auth(fresh)).json()["seat"] == 0
        assert error_code(client.get(f"/api/rooms/{rematch}/state", headers=auth(host))) == "unauthorized"
        again = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(host))
        assert again.status_code == 200 and "token" not in again.json()
        bos = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(bo["token"]))
        assert bos.status_code == 200 and "token" not in bos.json()
        assert client.post(f"/api/rooms/{rematch}/join", json={"name": "Bo"}).json()["seat"] == 1
        # The same screen is the rematch's table: it starts it.
        assert client.get(f"/api/rooms/{rematch}/screens/me", headers=auth(screen["token"])).json()["marked"]
        assert client.post(f"/api/rooms/{rematch}/start", headers=auth(screen["token"])).status_code == 200


def test_a_rematch_a_player_opens_keeps_the_table_screen(client: TestClient) -> None:
    from .test_rematch import finish

    room = new_room(client, rounds=1)
    room_id, host = room.room_id, room.token
    bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
    screen = _pair(client, room_id)
    assert _mark(client, room_id, host, screen["code"]).status_code == 200
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(host)).status_code == 200
    finish(client, room_id, {0: host, 1: bo["token"]})
    made = client.post(f"/api/rooms/{room_id}/rematch", headers=auth(bo["token"]))
    assert made.status_code == 201 and made.json()["seat"] == 0
    rematch = made.json()["room_id"]
    assert client.get(f"/api/rooms/{rematch}").json()["table_screen"] is True
    # Bo hosts it: the mark is his to take away (the screen may not).
    assert error_code(client.delete(f"/api/rooms/{rematch}/table-screen", headers=auth(screen["token"]))) == (
        "unauthorized"
    )
    assert (
        client.delete(f"/api/rooms/{rematch}/table-screen", headers=auth(made.json()["token"])).status_code
        == 200
    )
    # The first room keeps its own mark.
    assert client.get(f"/api/rooms/{room_id}").json()["table_screen"] is True
