"""Real `motable serve` processes: two sharing PostgreSQL and Redis, and one killed with SIGKILL (one
room playing, and rooms playing at once on SQLite and on PostgreSQL)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from tests.rooms import add_bot, join, new_room, seated_match
from tests.servers import ServeProcess

from .conftest import auth
from .players import Player, RealSocket, play_to_the_end

pytestmark = pytest.mark.slow


def join_socket(stack: ExitStack, server: ServeProcess, room_id: str, token: str, seat: int) -> Player:
    connection = stack.enter_context(ws_connect(f"{server.ws_url}/ws/rooms/{room_id}?token={token}"))
    return Player(seat, token, RealSocket(connection))


@pytest.mark.postgres
@pytest.mark.redis
def test_two_processes_share_a_mojo_match(
    postgres_url: str, redis_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    env = {"DATABASE_URL": postgres_url, "REDIS_URL": redis_url}
    a, b = spawn(env), spawn(env)
    room = new_room(a.base_url, "mojo")
    room_id, ann_token = room.room_id, room.token
    bo_token = join(b.base_url, room)
    add_bot(b.base_url, room)
    with ExitStack() as stack:
        ann = join_socket(stack, a, room_id, ann_token, 0)
        bo = join_socket(stack, b, room_id, bo_token, 1)
        assert (
            httpx.post(f"{a.base_url}/api/rooms/{room_id}/start", headers=auth(ann_token)).status_code == 200
        )

        def public() -> dict[str, Any]:
            state: dict[str, Any] = httpx.get(f"{b.base_url}/api/rooms/{room_id}/state").json()
            return state

        acked = play_to_the_end([ann, bo], public, seed=5)
        for player, server in ((ann, b), (bo, a)):
            state = httpx.get(
                f"{server.base_url}/api/rooms/{room_id}/state", headers=auth(player.token or "")
            ).json()
            player.sync(state["version"])
            assert player.body == state
        room_body = httpx.get(f"{a.base_url}/api/rooms/{room_id}").json()
        assert room_body["status"] == "finished" and room_body["seats"][1]["connected"] is True
    log = httpx.get(f"{a.base_url}/api/rooms/{room_id}/log").json()
    humans = [(e["seat"], e["action"]) for e in log["entries"] if e["seat"] in (0, 1)]
    assert humans == acked
    assert any(e["seat"] == 2 for e in log["entries"])


def test_kill_9_loses_no_acknowledged_action(
    sqlite_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    # The players poll the state as fast as they can from one address: the request limit is lifted.
    env = {"DATABASE_URL": sqlite_url, "MOTABLE_RATE_PER_SECOND": "0"}
    first = spawn(env)
    room_id, (ann, bo) = seated_match(first.base_url, "mojo", bots=1)
    tokens = {0: ann, 1: bo}

    def play(server: ServeProcess, turns: int | None) -> list[tuple[int, Any]]:
        acked: list[tuple[int, Any]] = []
        while turns is None or len(acked) < turns:
            public = httpx.get(f"{server.base_url}/api/rooms/{room_id}/state").json()
            if public["status"] == "finished":
                break
            humans = [seat for seat in public["to_act"] if seat in tokens]
            if not humans:
                continue
            seat = humans[0]
            mine = httpx.get(
                f"{server.base_url}/api/rooms/{room_id}/state", headers=auth(tokens[seat])
            ).json()
            if not mine["legal_actions"]:
                continue
            action = mine["legal_actions"][-1]
            response = httpx.post(
                f"{server.base_url}/api/rooms/{room_id}/actions",
                headers=auth(tokens[seat]),
                json={"action": action, "version": mine["version"]},
            )
            if response.status_code == 200:
                acked.append((seat, action))
        return acked

    acked = play(first, 15)
    first.kill()
    second = spawn(env)
    acked += play(second, None)
    log = httpx.get(f"{second.base_url}/api/rooms/{room_id}/log").json()
    assert "seed" in log
    assert [(e["seat"], e["action"]) for e in log["entries"] if e["seat"] in tokens] == acked
    assert httpx.get(f"{second.base_url}/api/rooms/{room_id}").json()["status"] == "finished"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def served_database(request: pytest.FixtureRequest) -> str:
    """A database URL as an operator writes it in DATABASE_URL (the server migrates it at start)."""
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


def test_kill_9_under_load_loses_no_acknowledged_action(
    served_database: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    """Rooms playing at once, as fast as the server answers, when the process is killed: every
    action acknowledged before the kill is in the log after the restart, at the version it was
    acknowledged for (an action in flight may or may not be; it was never acknowledged)."""
    env = {"DATABASE_URL": served_database, "MOTABLE_RATE_PER_SECOND": "0"}
    first = spawn(env)
    rooms: list[tuple[str, dict[int, str]]] = []
    for _ in range(8):
        room_id, (ann, bo) = seated_match(first.base_url, "mojo")
        rooms.append((room_id, {0: ann, 1: bo}))
    acked: dict[str, list[tuple[int, int, Any]]] = {room_id: [] for room_id, _ in rooms}
    killed = threading.Event()

    def play(room_id: str, tokens: dict[int, str]) -> None:
        with httpx.Client(base_url=first.base_url, timeout=10) as http:
            while not killed.is_set():
                try:
                    public = http.get(f"/api/rooms/{room_id}/state").json()
                    if public["status"] == "finished":
                        return
                    seat = public["to_act"][0]
                    mine = http.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[seat])).json()
                    action, version = mine["legal_actions"][-1], mine["version"]
                    response = http.post(
                        f"/api/rooms/{room_id}/actions",
                        headers=auth(tokens[seat]),
                        json={"action": action, "version": version},
                    )
                except httpx.TransportError:
                    return  # the server is gone: this action was never acknowledged
                if response.status_code == 200:
                    acked[room_id].append((version, seat, action))

    players = [threading.Thread(target=play, args=room) for room in rooms]
    for player in players:
        player.start()
    deadline = time.monotonic() + 30
    while sum(map(len, acked.values())) < 150 and time.monotonic() < deadline:
        time.sleep(0.01)
    first.kill()
    killed.set()
    for player in players:
        player.join(timeout=30)
    assert sum(map(len, acked.values())) >= 150
    second = spawn(env)
    for room_id, tokens in rooms:
        log = httpx.get(f"{second.base_url}/api/rooms/{room_id}/log").json()
        logged = {e["seq"]: (e["seat"], e["action"]) for e in log["entries"]}
        for version, seat, action in acked[room_id]:
            assert logged.get(version) == (seat, action), (room_id, version)
        # The match goes on from what was committed.
        public = httpx.get(f"{second.base_url}/api/rooms/{room_id}/state").json()
        if public["status"] == "playing":
            seat = public["to_act"][0]
            mine = httpx.get(
                f"{second.base_url}/api/rooms/{room_id}/state", headers=auth(tokens[seat])
            ).json()
            moved = httpx.post(
                f"{second.base_url}/api/rooms/{room_id}/actions",
                headers=auth(tokens[seat]),
                json={"action": mine["legal_actions"][0], "version": mine["version"]},
            )
            assert moved.status_code == 200, moved.text
