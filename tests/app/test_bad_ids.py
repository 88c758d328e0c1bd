"""Every route of the app, on a real `motable serve` over SQLite and over PostgreSQL, given a path
parameter no database could hold (NUL, a lone surrogate, bytes that are not UTF-8, 3,000 characters)
while its other parameters are real: a 4xx contract answer, never a 500, and the database unchanged.

The routes are read from the app itself (`app.routes`), so a route added later is walked too."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from sqlalchemy import MetaData, create_engine, select

from app.errors import STATUS_BY_CODE
from tests.rooms import seated_match
from tests.servers import ServeProcess

from .routewalk import BODIES, PARAM, Route, app_routes, socket_closes_with

# Bad values as they go on the wire (already percent-encoded).
BAD_VALUES = {
    "nul": quote("a\x00b"),
    "nul-room-shaped": quote("abcdef\x00ghijk"),
    "only-nul": "%00",
    "lone-surrogate": "a%ED%A0%80b",  # U+D800 written as UTF-8 would be: no valid UTF-8 has it
    "not-utf8": "a%FF%FEb",
    "long": "x" * 3000,
}


@dataclass
class Table:
    """A room in play (Ann and Bo), a pending request for Bo's seat, on a real server."""

    server: ServeProcess
    database_url: str
    room_id: str
    host_token: str
    request_id: str

    def real(self, param: str) -> str:
        return {
            "room_id": self.room_id,
            "request_id": self.request_id,
            "seat": "1",
            "game": "mojo",
            "path": "js/api.js",
            "takeback_id": "AAAAAAAAAAAAAAAA",  # well formed, asked by nobody
        }[param]


@pytest.fixture
def table(database_url: str, tmp_path: Path) -> Iterator[Table]:
    server = ServeProcess(
        {"DATABASE_URL": database_url, "MOTABLE_RATE_PER_SECOND": "0"}, tmp_path / "serve.log"
    ).start()
    try:
        base = server.base_url
        room_id, (token, _bo) = seated_match(base, "mojo")
        asked = httpx.post(f"{base}/api/rooms/{room_id}/seat-requests", json={"seat": 1})
        assert asked.status_code == 201, asked.text
        yield Table(server, database_url, room_id, token, asked.json()["request_id"])
    finally:
        server.stop()
    log = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in log, log[-4000:]


def dump(database_url: str) -> dict[str, list[str]]:
    """Every row of every table, as text: what "nothing changed" is checked against."""
    engine = create_engine(database_url)
    try:
        metadata = MetaData()
        metadata.reflect(engine)
        with engine.connect() as connection:
            return {
                name: sorted(repr(tuple(row)) for row in connection.execute(select(table)))
                for name, table in metadata.tables.items()
            }
    finally:
        engine.dispose()


def contract_error(answer: httpx.Response, page: bool) -> None:
    """A 4xx in the contract's shape (a page may answer its HTML not-found page instead)."""
    assert 400 <= answer.status_code < 500, f"{answer.request.url}: {answer.status_code} {answer.text[:300]}"
    if page and answer.headers.get("content-type", "").startswith("text/html"):
        assert answer.status_code == 404
        return
    error = answer.json()["error"]
    assert set(error) == {"code", "message"}
    assert STATUS_BY_CODE[error["code"]] == answer.status_code, answer.text


def fill(route: Route, table: Table, bad: str | None, raw: str) -> str:
    """The route's path with parameter `bad` set to `raw` (already encoded) and the others real."""

    def value(match: re.Match[str]) -> str:
        return raw if match.group(1) == bad else quote(table.real(match.group(1)), safe="/")

    return PARAM.sub(value, route.path)


def test_the_walk_sees_every_kind_of_route() -> None:
    paths = {route.path for route in app_routes()}
    for expected in (
        "/api/rooms/{room_id}/seat-requests/{request_id}",
        "/api/rooms/{room_id}/seat-requests/{request_id}/approve",
        "/r/{room_id}/replay",
        "/r/{room_id}/screen",
        "/api/rooms/{room_id}/screens",
        "/api/rooms/{room_id}/screens/me",
        "/api/rooms/{room_id}/table-screen",
        "/ws/rooms/{room_id}",
        "/rules/{game}",
        "/static/{path}",
    ):
        assert expected in paths
    assert len(paths) >= 25


def test_every_route_refuses_ids_no_database_can_hold(table: Table) -> None:
    before = dump(table.database_url)
    auth = {"Authorization": f"Bearer {table.host_token}"}
    walked = 0
    with httpx.Client(base_url=table.server.base_url, timeout=20, headers=auth) as client:
        for route in app_routes():
            for param in route.params:
                for name, raw in BAD_VALUES.items():
                    path = fill(route, table, param, raw)
                    if not route.methods:
                        code = socket_closes_with(f"{table.server.ws_url}{path}")
                        assert code == 1008, f"{path} ({name}): closed with {code}"
                        walked += 1
                        continue
                    for method in route.methods:
                        body = BODIES.get(route.path) if method != "GET" else None
                        answer = client.request(method, path, json=body)
                        contract_error(answer, route.page)
                        walked += 1
    assert walked > 150
    assert dump(table.database_url) == before, "a refused request changed nothing"


def test_every_route_refuses_such_text_in_its_query_string(table: Table) -> None:
    before = dump(table.database_url)
    auth = {"Authorization": f"Bearer {table.host_token}"}
    queries = ["seat=%00", "seat=1&token=a%00b", "seat=%ED%A0%80", "x=%FF"]
    with httpx.Client(base_url=table.server.base_url, timeout=20, headers=auth) as client:
        for route in app_routes():
            path = fill(route, table, None, "")
            for query in queries:
                if not route.methods:
                    code = socket_closes_with(f"{table.server.ws_url}{path}?{query}")
                    assert code == 1008, f"{path}?{query}: closed with {code}"
                    continue
                for method in route.methods:
                    body = BODIES.get(route.path) if method != "GET" else None
                    answer = client.request(method, f"{path}?{query}", json=body)
                    assert answer.status_code == 422, f"{method} {path}?{query}: {answer.status_code}"
                    assert answer.json()["error"]["code"] == "invalid_request"
    assert dump(table.database_url) == before


def test_bodies_with_unstorable_text_change_nothing(table: Table) -> None:
    """A \\u0000 or a lone \\ud800 escape in any JSON body, on every route that takes one, by POST
    or by DELETE (a push subscription is deleted with its endpoint in the body)."""
    before = dump(table.database_url)
    auth = {"Authorization": f"Bearer {table.host_token}", "content-type": "application/json"}
    with httpx.Client(base_url=table.server.base_url, timeout=20, headers=auth) as client:
        for route in app_routes():
            if route.path not in BODIES:
                continue
            path = fill(route, table, None, "")
            for escape in ("\\u0000", "\\ud800", "\\udfff"):
                for key in BODIES[route.path]:
                    body = json.dumps(BODIES[route.path]).replace(
                        f'"{key}": ', f'"{key}": "x{escape}", "ignored{escape}": ', 1
                    )
                    for method in [m for m in route.methods if m in ("POST", "DELETE")]:
                        answer = client.request(method, path, content=body.encode())
                        said = f"{method} {path} {body}: {answer.status_code} {answer.text}"
                        assert answer.status_code == 422, said
                        assert answer.json()["error"]["code"] == "invalid_request"
    assert dump(table.database_url) == before
