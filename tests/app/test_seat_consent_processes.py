"""Your seat is yours (issue 18), with real `motable serve` processes: nobody takes a present player's
seat, a gone player's seat moves only after a refusal window the holder can use, a revoked token is
refused by every process within seconds even when Redis was down during the handover, and nothing
that needs someone to be gone is allowed while presence cannot be known."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from tests.rooms import seated_match
from tests.servers import ServeProcess

from .conftest import auth
from .players import Player, RealSocket
from .test_people_processes import TINY, once_gone, state, tiny_room, wait_for
from .test_redis_outage import PrivateRedis

pytestmark = pytest.mark.slow


def ask(base: str, room_id: str, seat: int) -> dict[str, Any]:
    asked = httpx.post(f"{base}/api/rooms/{room_id}/seat-requests", json={"seat": seat})
    assert asked.status_code == 201, asked.text
    body: dict[str, Any] = asked.json()
    return body


def answer(base: str, room_id: str, request_id: str, token: str, verb: str = "approve") -> httpx.Response:
    return httpx.post(f"{base}/api/rooms/{room_id}/seat-requests/{request_id}/{verb}", headers=auth(token))


def request_status(base: str, room_id: str, request_id: str) -> str:
    status: str = httpx.get(f"{base}/api/rooms/{room_id}/seat-requests/{request_id}").json()["status"]
    return status


def three_at_the_table(base: str) -> tuple[str, str, str, str]:
    room_id, (ann, bo, cy) = seated_match(base, players=3)
    return room_id, ann, bo, cy


def test_nobody_takes_a_present_players_seat(
    sqlite_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    server = spawn({"DATABASE_URL": sqlite_url, "MOTABLE_GAMES": TINY})
    base = server.base_url
    room_id, ann, bo, cy = three_at_the_table(base)
    with (
        ws_connect(f"{server.ws_url}/ws/rooms/{room_id}?token={ann}") as host_socket,
        ws_connect(f"{server.ws_url}/ws/rooms/{room_id}?token={bo}") as bo_socket,
    ):
        host_socket.recv(timeout=5)
        bo_socket.recv(timeout=5)
        # The takeover issue 18 reproduced: anyone asks for the host's seat, another player approves.
        for_host = ask(base, room_id, 0)
        for token in (bo, cy):
            assert answer(base, room_id, for_host["request_id"], token).status_code == 403
        # ...and any other present player's seat, by the host.
        for_bo = ask(base, room_id, 1)
        assert answer(base, room_id, for_bo["request_id"], ann).status_code == 403
        assert answer(base, room_id, for_bo["request_id"], cy).status_code == 403
    # The host's page closed: once the server sees her away (not gone), her seat is still hers alone.
    wait_for(lambda: httpx.get(f"{base}/api/rooms/{room_id}").json()["seats"][0]["away_since"] is not None)
    assert answer(base, room_id, for_host["request_id"], bo).status_code == 403
    assert state(base, room_id, ann)["seat"] == 0 and state(base, room_id, bo)["seat"] == 1
    assert httpx.get(f"{base}/api/rooms/{room_id}/state", headers=auth(for_host["token"])).status_code == 401


def test_a_gone_holder_refuses_or_comes_back_within_the_window(
    sqlite_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    server = spawn(
        {
            "DATABASE_URL": sqlite_url,
            "MOTABLE_GAMES": TINY,
            "MOTABLE_GONE_AFTER": "1",
            "MOTABLE_SEAT_REFUSAL_SECONDS": "3",
        }
    )
    base = server.base_url
    room_id, ann, bo, _cy = three_at_the_table(base)
    # The host approves once Bo is gone (no socket for more than a second); Bo refuses in the window
    # with his token.
    first = ask(base, room_id, 1)
    assert once_gone(lambda: answer(base, room_id, first["request_id"], ann)).json()["status"] == "waiting"
    assert answer(base, room_id, first["request_id"], bo, "refuse").json()["status"] == "refused"
    # Again; Bo comes back (opens the table) in the window: the move lapses.
    second = ask(base, room_id, 1)
    assert answer(base, room_id, second["request_id"], ann).json()["status"] == "waiting"
    with ws_connect(f"{server.ws_url}/ws/rooms/{room_id}?token={bo}") as socket:
        socket.recv(timeout=5)
        wait_for(lambda: request_status(base, room_id, second["request_id"]) == "expired")
    assert state(base, room_id, bo)["seat"] == 1
    # Once more and Bo stays away: after the window the seat moves, and everyone is told.
    third = ask(base, room_id, 1)
    assert once_gone(lambda: answer(base, room_id, third["request_id"], ann)).json()["status"] == "waiting"
    assert state(base, room_id, bo)["seat"] == 1  # until the window ends, the old token is the seat
    wait_for(lambda: request_status(base, room_id, third["request_id"]) == "approved", seconds=10)
    # The second move's window ended before the third's: had Bo's return not ended it for good, it
    # would have been carried out by now.
    assert request_status(base, room_id, second["request_id"]) == "expired"
    for refused in (bo, second["token"]):
        assert httpx.get(f"{base}/api/rooms/{room_id}/state", headers=auth(refused)).status_code == 401
    assert state(base, room_id, third["token"])["seat"] == 1
    check = httpx.get(f"{base}/api/rooms/{room_id}/seat-check", headers=auth(bo)).json()
    assert check["status"] == "moved" and check["by"] == "Ann"
    said = [m["text"] for m in httpx.get(f"{base}/api/rooms/{room_id}/chat").json()["messages"]]
    moved = "Bo's seat moved to another device, approved by Ann while Bo was gone"
    assert said[-1] == moved and said.count(moved) == 1
    assert "Bo refused to move their seat to another device" in said
    assert "Bo is back: their seat stays on their device" in said


@pytest.mark.postgres
@pytest.mark.redis
def test_a_revoked_token_is_refused_everywhere_though_redis_was_down(
    postgres_url: str, tmp_path: Path, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    private = PrivateRedis(tmp_path)
    private.start()
    try:
        env = {"DATABASE_URL": postgres_url, "REDIS_URL": private.url, "MOTABLE_GAMES": TINY}
        a, b = spawn(env), spawn(env)
        room_id, ann, bo = tiny_room(a.base_url)
        # Process B has seen Bo's token and holds his socket.
        assert state(b.base_url, room_id, bo)["seat"] == 1
        with ws_connect(f"{b.ws_url}/ws/rooms/{room_id}?token={bo}") as old_socket:
            assert old_socket.recv(timeout=5)
            private.stop()
            # Redis is down while Bo hands his seat over on A: B is told nothing.
            asked = ask(a.base_url, room_id, 1)
            assert answer(a.base_url, room_id, asked["request_id"], bo).json()["status"] == "approved"
            handed_over = time.monotonic()

            def refused_on_b() -> bool:
                return (
                    httpx.get(f"{b.base_url}/api/rooms/{room_id}/state", headers=auth(bo)).status_code == 401
                )

            wait_for(refused_on_b, seconds=5)
            took = time.monotonic() - handed_over
            print(f"old token refused on the other process {took:.2f} s after the handover")
            move = state(a.base_url, room_id, ann)["legal_actions"][0]
            acted = httpx.post(
                f"{b.base_url}/api/rooms/{room_id}/actions", json={"action": move}, headers=auth(bo)
            )
            assert acted.status_code == 401
            # Its socket on B is closed too.
            with pytest.raises(ConnectionClosed):
                while time.monotonic() - handed_over < 5:
                    old_socket.recv(timeout=5)
        private.start()
        # Once B hears a move made on A, it is back on Redis and has brought its rooms up to date
        # (app/realtime/broker.py: the resync comes before any event): the old token stays refused.
        with ws_connect(f"{b.ws_url}/ws/rooms/{room_id}") as watching:
            watcher = Player(None, None, RealSocket(watching))
            moved = httpx.post(
                f"{a.base_url}/api/rooms/{room_id}/actions", json={"action": move}, headers=auth(ann)
            )
            assert moved.status_code == 200, moved.text
            watcher.sync(moved.json()["version"])
        assert httpx.get(f"{b.base_url}/api/rooms/{room_id}/state", headers=auth(bo)).status_code == 401
        assert state(b.base_url, room_id, asked["token"])["seat"] == 1
    finally:
        private.stop()


@pytest.mark.redis
def test_nothing_that_needs_someone_gone_while_presence_is_unknown(
    sqlite_url: str, tmp_path: Path, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    private = PrivateRedis(tmp_path)
    private.start()
    try:
        env = {
            "DATABASE_URL": sqlite_url,
            "REDIS_URL": private.url,
            "MOTABLE_GAMES": TINY,
            "MOTABLE_GONE_AFTER": "1",
        }
        a, b = spawn(env), spawn(env)
        room_id, ann, bo, cy = three_at_the_table(a.base_url)
        with ws_connect(f"{b.ws_url}/ws/rooms/{room_id}?token={bo}") as socket:
            socket.recv(timeout=5)
            wait_for(lambda: httpx.get(f"{a.base_url}/api/rooms/{room_id}").json()["seats"][1]["connected"])
            private.stop()
            asked = ask(a.base_url, room_id, 1)
            # A sees only its own sockets now: Bo, connected on B, would look gone (never seen on A,
            # he is away since his seat was made). Until A notices Redis is away it still knows Bo is
            # here (403); from then on it must say it cannot tell, whatever time passes.
            approved = once_gone(lambda: answer(a.base_url, room_id, asked["request_id"], ann))
            for response in (
                approved,
                httpx.post(f"{a.base_url}/api/rooms/{room_id}/seats/1/remove", headers=auth(ann)),
                httpx.post(f"{a.base_url}/api/rooms/{room_id}/seats/1/bot", headers=auth(cy)),
            ):
                assert response.status_code == 503, response.text
                assert response.json()["error"]["code"] == "unavailable"
                assert int(response.headers["retry-after"]) > 0
            # Redis comes back empty: until every process has shared its seats again, still unknown.
            private.start()
            assert (
                httpx.post(f"{a.base_url}/api/rooms/{room_id}/seats/1/remove", headers=auth(ann)).status_code
                == 503
            )

            def known_again() -> bool:
                return (
                    httpx.post(
                        f"{a.base_url}/api/rooms/{room_id}/seats/1/remove", headers=auth(ann)
                    ).status_code
                    != 503
                )

            wait_for(known_again, seconds=25)
            # Known again: Bo is connected (on B), so he may not be removed.
            removed = httpx.post(f"{a.base_url}/api/rooms/{room_id}/seats/1/remove", headers=auth(ann))
            assert removed.status_code == 403
        room = httpx.get(f"{a.base_url}/api/rooms/{room_id}").json()
        assert room["seats"][1]["bot"] is False and room["seats"][1]["stand_in"] is False
    finally:
        private.stop()
