"""A database that cannot be reached: every route answers 503 unavailable with Retry-After (or, needing
no database or served from memory, answers as usual), never 500; a socket closes with 1013; the same
process recovers by itself once the database is back.

On PostgreSQL for real: a `motable serve` process on a database of its own, which then refuses new
connections (`ALLOW_CONNECTIONS false`) after its open ones are terminated. SQLite cannot be taken
away from a running process reliably (root reads any file, and an open file survives its removal),
so there the driver's own "unable to open database file" is injected at connect time."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import event, exc
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.config import Settings
from app.db import unavailable
from app.main import create_app
from tests.rooms import Room, new_room, seated_match
from tests.servers import ServeProcess

from .conftest import POSTGRES_URL, auth
from .routewalk import BODIES, Route, app_routes, socket_closes_with

# Routes that answer without the database: liveness, the lobby, rules pages, static files.
NO_DATABASE = {
    "/healthz",
    "/",
    "/rules/{game}",
    "/static/{path}",
    "/api/games",
    "/openapi.json",
    # The installable app's files, and the VAPID key (held in memory from the start).
    "/sw.js",
    "/manifest.webmanifest",
    "/offline",
    "/api/push/key",
}

# Routes whose walk body is refused before anything is read (422: no credential to check, an endpoint
# whose host does not resolve), or asks about no seat (my-games with an empty list).
REFUSED_BEFORE_READING = {
    "/api/my-games",
    "/api/passkeys/register/options",
    "/api/passkeys/register",
    "/api/passkeys/login",
    "/api/rooms/{room_id}/push",
}

# The email routes (app/routes/alerts.py) of a server without MOTABLE_SMTP_URL answer from the settings alone.
WITHOUT_SMTP = {"/api/rooms/{room_id}/email", "/email/confirm", "/email/unsubscribe"}


def check_unavailable(answer: httpx.Response) -> None:
    assert answer.status_code == 503, f"{answer.request.url}: {answer.status_code} {answer.text[:300]}"
    assert answer.json() == {"error": {"code": "unavailable", "message": answer.json()["error"]["message"]}}
    assert int(answer.headers["Retry-After"]) > 0


@pytest.fixture
def own_database(postgres_admin: psycopg.Connection[Any]) -> Iterator[tuple[str, str]]:
    """A PostgreSQL database of this test's own (it will be made to refuse connections)."""
    name = f"motable_down_{uuid.uuid4().hex[:10]}"
    postgres_admin.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = POSTGRES_URL.partition("?")
    url = base.rsplit("/", 1)[0] + f"/{name}"
    try:
        yield name, url
    finally:
        postgres_admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        postgres_admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
        postgres_admin.execute(f'DROP DATABASE "{name}"')


def refuse_connections(admin: psycopg.Connection[Any], name: str, refuse: bool) -> None:
    admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {"false" if refuse else "true"}')
    if refuse:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))


def fill(route: Route, real: dict[str, str]) -> str:
    path = route.path
    for param in route.params:
        path = path.replace(f"{{{param}}}", real[param])
    return path


@pytest.mark.postgres
def test_every_route_answers_503_while_postgres_refuses_and_recovers(
    own_database: tuple[str, str], postgres_admin: psycopg.Connection[Any], tmp_path: Path
) -> None:
    name, url = own_database
    log_path = tmp_path / "serve.log"
    server = ServeProcess({"DATABASE_URL": url, "MOTABLE_RATE_PER_SECOND": "0"}, log_path).start()
    sockets = contextlib.ExitStack()
    try:
        base = server.base_url
        room_id, (token, bo) = seated_match(base, "mojo")
        asked = httpx.post(f"{base}/api/rooms/{room_id}/seat-requests", json={"seat": 1}).json()
        real = {
            "room_id": room_id,
            "request_id": asked["request_id"],
            "seat": "1",
            "game": "mojo",
            "path": "js/api.js",
            "takeback_id": "AAAAAAAAAAAAAAAA",
        }

        # A seat's socket open before the outage, for a seat that may act now.
        acting = next(
            t
            for t in (token, bo)
            if httpx.get(f"{base}/api/rooms/{room_id}/state", headers=auth(t)).json()["legal_actions"]
        )
        open_socket = sockets.enter_context(connect(f"{server.ws_url}/ws/rooms/{room_id}", open_timeout=10))
        open_socket.send(json.dumps({"type": "auth", "token": acting}))
        snapshot = json.loads(open_socket.recv(timeout=10))
        while snapshot.get("type") != "snapshot" or snapshot["state"]["seat"] is None:
            snapshot = json.loads(open_socket.recv(timeout=10))

        refuse_connections(postgres_admin, name, refuse=True)

        # Its next action cannot be committed: the socket closes with "try again later".
        action = snapshot["state"]["legal_actions"][0]
        open_socket.send(
            json.dumps({"type": "action", "id": "a1", "action": action, "version": snapshot["version"]})
        )
        with pytest.raises(ConnectionClosed) as dropped:
            while True:
                message = json.loads(open_socket.recv(timeout=10))
                assert message.get("type") != "ack", "nothing is acknowledged without a commit"
        assert dropped.value.rcvd is not None and dropped.value.rcvd.code == 1013
        refused = 0
        served: list[str] = []
        with httpx.Client(base_url=base, timeout=20, headers=auth(token)) as client:
            for route in app_routes():
                path = fill(route, real)
                if not route.methods:
                    assert socket_closes_with(f"{server.ws_url}{path}") == 1013
                    continue
                for method in route.methods:
                    body = BODIES.get(route.path) if method != "GET" else None
                    answer = client.request(method, path, json=body)
                    if route.path == "/readyz":
                        assert answer.status_code == 503
                        assert answer.json()["checks"]["database"].startswith("unavailable")
                    elif route.path in NO_DATABASE:
                        assert answer.status_code == 200, f"{method} {path}: {answer.status_code}"
                    elif route.path in REFUSED_BEFORE_READING and answer.status_code < 500:
                        assert answer.status_code in (200, 422), f"{method} {path}: {answer.status_code}"
                    elif route.path in WITHOUT_SMTP:
                        # This server sends no email: it says so (404; 422 for a link without
                        # its token) without asking the database.
                        assert answer.status_code in (404, 422), f"{method} {path}: {answer.status_code}"
                    elif answer.status_code >= 500:
                        check_unavailable(answer)
                        refused += 1
                    else:
                        # Served from what the process holds in memory (a seat it checked lately).
                        served.append(f"{method} {route.path}")
        assert refused >= 20, served
        assert len(served) <= 5, served

        # A seat's socket: refused on authenticating, with "try again later".
        with (
            pytest.raises(ConnectionClosed) as closed,
            connect(f"{server.ws_url}/ws/rooms/{room_id}", open_timeout=10) as socket,
        ):
            socket.send(f'{{"type": "auth", "token": "{bo}"}}')
            while True:
                socket.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013

        refuse_connections(postgres_admin, name, refuse=False)
        deadline = time.monotonic() + 10
        while True:
            state = httpx.get(f"{base}/api/rooms/{room_id}/state", headers=auth(token))
            if state.status_code == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert state.status_code == 200, "the same process serves again once the database is back"
        assert httpx.get(f"{base}/readyz").status_code == 200
    finally:
        sockets.close()
        server.stop()
    log = log_path.read_text()
    assert "internal_error" not in log
    assert "Exception in ASGI application" not in log, log[-4000:]
    for method in ("GET", "POST", "DELETE"):
        assert f"{method} /api/rooms/{room_id}/state failed" not in log
    assert "database unavailable" in log, "each refused request is logged on one line"


@pytest.fixture
def broken_sqlite(sqlite_url: str, tiny: str) -> Iterator[tuple[TestClient, Room]]:
    """A SQLite server whose every new connection fails as a missing or unreadable file does."""
    from app.db import upgrade

    upgrade(sqlite_url)
    app = create_app(Settings(database_url=sqlite_url, bot_delay=0))
    with TestClient(app) as client:
        room = new_room(client)
        engine = app.state.runtime.db.engine
        engine.dispose()

        def refuse(*_args: Any) -> None:
            raise sqlite3.OperationalError("unable to open database file")

        event.listen(engine, "do_connect", refuse)
        yield client, room
        event.remove(engine, "do_connect", refuse)


def test_sqlite_that_cannot_be_opened_answers_503(broken_sqlite: tuple[TestClient, Room]) -> None:
    client, room = broken_sqlite
    for answer in (
        client.get(f"/api/rooms/{room.room_id}"),
        client.get(f"/api/rooms/{room.room_id}/state", headers=auth(room.token)),
        client.post(f"/api/rooms/{room.room_id}/join", json={"name": "Bo"}),
        client.post("/api/rooms", json={"game": "tiny", "name": "Cy"}),
        client.get(f"/r/{room.room_id}"),
    ):
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"]["code"] == "unavailable"
        assert answer.headers["Retry-After"] == "5"
    assert client.get("/healthz").status_code == 200
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/rooms/{room.room_id}") as socket,
    ):
        socket.receive_json()
    assert closed.value.code == 1013


def test_what_counts_as_unavailable() -> None:
    refused = psycopg.OperationalError("connection refused")
    wrapped = exc.OperationalError("SELECT 1", {}, refused)
    assert unavailable(wrapped)
    assert unavailable(exc.TimeoutError("QueuePool limit of size 5 overflow 10 reached"))
    assert unavailable(exc.InterfaceError("SELECT 1", {}, psycopg.InterfaceError("the connection is closed")))
    assert unavailable(ExceptionGroup("task group", [ValueError("other"), wrapped]))
    try:
        try:
            raise refused
        except psycopg.OperationalError as error:
            raise RuntimeError("while loading the room") from error
    except RuntimeError as chained:
        assert unavailable(chained)
    assert not unavailable(exc.IntegrityError("INSERT", {}, psycopg.IntegrityError("duplicate key")))
    assert not unavailable(exc.DataError("SELECT", {}, psycopg.DataError("NUL")))
    assert not unavailable(KeyError("seat"))
