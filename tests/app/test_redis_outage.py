"""Redis going away: two real server processes keep answering over HTTP and sockets, each telling its
own sockets, and the sockets of the other process catch up once Redis is back."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from tests.rooms import join, new_room
from tests.servers import ServeProcess, free_port
from tests.services import service_missing

from .conftest import auth
from .test_processes import join_socket

pytestmark = pytest.mark.slow


class PrivateRedis:
    """A redis-server of this test's own, to stop and start again (never the shared one)."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            service_missing("redis-server is not installed")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                redis.Redis.from_url(self.url, socket_connect_timeout=0.2).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def test_play_goes_on_while_redis_is_away(
    sqlite_url: str, tmp_path: Path, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    private = PrivateRedis(tmp_path)
    private.start()
    try:
        env = {"DATABASE_URL": sqlite_url, "REDIS_URL": private.url}
        a, b = spawn(env), spawn(env)
        room = new_room(a.base_url, "mojo")
        room_id, ann_token = room.room_id, room.token
        bo_token = join(b.base_url, room)
        tokens = {0: ann_token, 1: bo_token}
        with ExitStack() as stack:
            players = {
                0: join_socket(stack, a, room_id, ann_token, 0),
                1: join_socket(stack, b, room_id, bo_token, 1),
            }
            private.stop()
            # Nothing fails while Redis is away: reads, start (which happens exactly once), moves.
            assert httpx.get(f"{a.base_url}/api/rooms/{room_id}").status_code == 200
            started = httpx.post(f"{a.base_url}/api/rooms/{room_id}/start", headers=auth(ann_token))
            assert started.status_code == 200, started.text
            for turn in range(6):
                public = httpx.get(f"{b.base_url}/api/rooms/{room_id}/state").json()
                seat = public["to_act"][0]
                server = a if seat == 0 else b
                mine: dict[str, Any] = httpx.get(
                    f"{server.base_url}/api/rooms/{room_id}/state", headers=auth(tokens[seat])
                ).json()
                player = players[seat]
                reply = player.reply(player.send_action(mine["legal_actions"][0], mine["version"]))
                assert reply["type"] == "ack", (turn, reply)
                # The mover's own process told its socket.
                player.sync(mine["version"] + 1)
            version = httpx.get(f"{a.base_url}/api/rooms/{room_id}/state").json()["version"]
            assert version == 7
            private.start()
            # Back: each process resubscribes and brings its sockets up to date.
            for player in players.values():
                player.sync(version)
                seat = player.seat
                server = a if seat == 0 else b
                assert (
                    player.body
                    == httpx.get(
                        f"{server.base_url}/api/rooms/{room_id}/state", headers=auth(tokens[seat or 0])
                    ).json()
                )
        log = httpx.get(f"{a.base_url}/api/rooms/{room_id}/log").json()
        assert len(log["entries"]) == 6
    finally:
        private.stop()


def test_changes_made_while_redis_is_away_reach_the_other_process_once_it_is_back(
    sqlite_url: str, tmp_path: Path, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    """Joins and seat requests made on one process while Redis is away reach the host's socket on the
    other process when Redis returns (its resync), not at some later change."""
    private = PrivateRedis(tmp_path)
    private.start()
    try:
        env = {"DATABASE_URL": sqlite_url, "REDIS_URL": private.url, "MOTABLE_RATE_PER_SECOND": "0"}
        a, b = spawn(env), spawn(env)
        rooms = []
        for _ in range(3):
            made = new_room(a.base_url, "mojo")
            rooms.append((made.room_id, made.token))
        with ExitStack() as stack:
            hosts = [join_socket(stack, b, room_id, token, 0) for room_id, token in rooms]
            private.stop()
            for room_id, _token in rooms:
                joined = httpx.post(f"{a.base_url}/api/rooms/{room_id}/join", json={"name": "Bo"})
                assert joined.status_code == 201, joined.text
            private.start()
            for host, (room_id, _token) in zip(hosts, rooms, strict=True):
                while host.room is None or len(host.room["seats"]) < 2:
                    host.pump()
                assert host.room == httpx.get(f"{b.base_url}/api/rooms/{room_id}").json()
    finally:
        private.stop()
