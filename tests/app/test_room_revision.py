"""Every room body carries a revision that grows with each change of it, in every process, so a client
that gets bodies by socket and by HTTP keeps the newest (CONTRACT.md "Rooms")."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from tests.rooms import join, new_room
from tests.servers import ServeProcess

from .conftest import auth
from .test_processes import join_socket


def _room(client: TestClient, room_id: str) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/api/rooms/{room_id}").json()
    return body


def test_every_change_of_the_room_body_raises_its_revision(client: TestClient) -> None:
    made = new_room(client)
    room_id, ann = made.room_id, made.token
    seen = [_room(client, room_id)["revision"]]

    def changed(why: str) -> None:
        now = _room(client, room_id)["revision"]
        assert now > seen[-1], why
        seen.append(now)

    bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()["token"]
    changed("a join")
    assert client.post(f"/api/rooms/{room_id}/bots", headers=auth(ann)).status_code == 201
    changed("a bot seated")
    assert client.post(f"/api/rooms/{room_id}/clock", json={"seconds": 600}, headers=auth(ann)).is_success
    changed("the move clock set")
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={bo}") as socket:
        assert socket.receive_json()["type"] == "snapshot"
        message = socket.receive_json()
        while message["type"] != "room" or not message["room"]["seats"][1]["connected"]:
            message = socket.receive_json()
        # The body that says Bo is here is newer than every body read before he came.
        assert message["room"]["revision"] > seen[-1]
        seen.append(message["room"]["revision"])
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(ann)).status_code == 200
    changed("the deal")
    state = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()
    while 0 not in state["to_act"]:
        state = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()
    moved = client.post(
        f"/api/rooms/{room_id}/actions",
        json={"action": state["legal_actions"][0], "version": state["version"]},
        headers=auth(ann),
    )
    assert moved.status_code == 200
    changed("a move (the deadline moved on)")
    assert client.post(f"/api/rooms/{room_id}/pause", headers=auth(ann)).is_success
    changed("a pause asked")


def test_a_refused_change_leaves_the_revision_alone(client: TestClient) -> None:
    room_id = new_room(client).room_id
    # Bo is no host: nothing is written, the body is the same.
    bo = join(client, room_id)
    before = _room(client, room_id)["revision"]
    assert client.post(f"/api/rooms/{room_id}/bots", headers=auth(bo)).status_code == 403
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(bo)).status_code == 403
    assert _room(client, room_id)["revision"] == before


@pytest.mark.postgres
@pytest.mark.redis
def test_a_body_read_after_a_change_on_another_process_is_newer(
    postgres_url: str, redis_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    """Two processes behind a round-robin balancer: whichever process answers, a body read after a
    change carries a higher revision than any read before it, and the socket's bodies agree."""
    env = {"DATABASE_URL": postgres_url, "REDIS_URL": redis_url, "MOTABLE_RATE_PER_SECOND": "0"}
    a, b = spawn(env), spawn(env)
    made = new_room(a.base_url, "mojo")
    room_id, ann = made.room_id, made.token
    with ExitStack() as stack:
        host = join_socket(stack, a, room_id, ann, 0)
        for turn, name in enumerate(["Bo", "Cy", "Di", "Ed", "Flo"]):
            server, other = (a, b) if turn % 2 else (b, a)
            before = httpx.get(f"{other.base_url}/api/rooms/{room_id}").json()
            assert httpx.post(f"{server.base_url}/api/rooms/{room_id}/join", json={"name": name}).is_success
            after = httpx.get(f"{other.base_url}/api/rooms/{room_id}").json()
            assert len(after["seats"]) == len(before["seats"]) + 1
            assert after["revision"] > before["revision"]

            seats = len(after["seats"])
            while host.room is None or len(host.room["seats"]) < seats:
                host.pump()
            assert host.room is not None and host.room["revision"] >= after["revision"]
