"""Real `motable serve` processes: two sharing PostgreSQL and Redis, and one killed with SIGKILL."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

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
    room = httpx.post(f"{a.base_url}/api/rooms", json={"game": "mojo", "name": "Ann"}).json()
    room_id, ann_token = room["room_id"], room["token"]
    bo_token = httpx.post(f"{b.base_url}/api/rooms/{room_id}/join", json={"name": "Bo"}).json()["token"]
    assert httpx.post(f"{b.base_url}/api/rooms/{room_id}/bots", headers=auth(ann_token)).status_code == 201
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
    env = {"DATABASE_URL": sqlite_url}
    first = spawn(env)
    room = httpx.post(f"{first.base_url}/api/rooms", json={"game": "mojo", "name": "Ann"}).json()
    room_id, ann = room["room_id"], room["token"]
    bo = httpx.post(f"{first.base_url}/api/rooms/{room_id}/join", json={"name": "Bo"}).json()["token"]
    httpx.post(f"{first.base_url}/api/rooms/{room_id}/bots", headers=auth(ann))
    httpx.post(f"{first.base_url}/api/rooms/{room_id}/start", headers=auth(ann))
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
