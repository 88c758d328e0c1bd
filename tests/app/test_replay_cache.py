"""Replays built once: stored compressed per viewpoint, served with an ETag and 304s, gzip or plain, one
build for concurrent requests, refused (and nothing stored) before the end. On SQLite and PostgreSQL."""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

import app.replay
import app.routes.replay
from app.config import Settings
from app.db import Database
from app.main import create_app
from app.models import Match, Replay
from app.replay import StoredReplay, build_replay, inflate
from app.retention import prune
from app.routes.replay import accepts_gzip, matches_etag
from tests.rooms import new_room, seated_match

from .conftest import auth
from .test_cli import finished_match
from .test_retention import DAY, age

VIEWPOINTS = ["0", "1", "spectator", "all"]
GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


@pytest.fixture
def db(client: TestClient) -> Database:
    database: Database = client.app.state.runtime.db  # type: ignore[attr-defined]
    return database


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts the replay builds: each call appends the viewpoint built."""
    made: list[str] = []
    build = app.replay.compress_replay

    def counted(source: app.replay.Source) -> StoredReplay:
        made.append(str(source.viewpoint))
        return build(source)

    monkeypatch.setattr(app.replay, "compress_replay", counted)
    return made


def replay_body(session: Session, room_id: str, viewpoint: str) -> dict[str, Any]:
    """The whole replay as one dict, built in memory on every call: what the route answered before
    replays were stored, and what a stored body must decode to."""
    match = app.replay.finished_match(session, room_id)
    source = app.replay._source(session, match, app.replay.parse_viewpoint(viewpoint, match.players))
    first, *steps = app.replay._tables_and_steps(source)
    return {**source.header(), "first": first, "steps": steps}


def stored_rows(db: Database) -> list[tuple[str, str, int]]:
    with db.read() as session:
        rows = session.execute(select(Replay.viewpoint, Replay.etag, Replay.size).order_by(Replay.viewpoint))
        return [(viewpoint, etag, size) for viewpoint, etag, size in rows]


def today(db: Database, room_id: str, viewpoint: str) -> bytes:
    """The body as the route sent it before replays were stored: the dict, rendered by FastAPI."""
    with db.read() as session:
        return bytes(JSONResponse(jsonable_encoder(replay_body(session, room_id, viewpoint))).body)


def raw_body(client: TestClient, url: str, headers: dict[str, str]) -> tuple[Any, bytes]:
    """The answer and its bytes exactly as sent (the test client would otherwise decode gzip)."""
    with client.stream("GET", url, headers=headers) as answer:
        return answer, b"".join(answer.iter_raw())


def test_the_second_request_is_served_from_the_stored_body(
    client: TestClient, db: Database, builds: list[str]
) -> None:
    room_id = finished_match(client)
    url = f"/api/rooms/{room_id}/replay?seat=all"
    first = client.get(url)
    assert first.status_code == 200, first.text
    assert builds == ["all"]
    again = client.get(url)
    assert again.status_code == 200 and again.content == first.content
    assert builds == ["all"], "served from the database, not built again"

    [(viewpoint, etag, size)] = stored_rows(db)
    assert viewpoint == "all"
    assert etag == hashlib.sha256(first.content).hexdigest() and size == len(first.content)
    assert first.headers["etag"] == f'"{etag}-gzip"'  # the test client accepts gzip
    assert first.headers["cache-control"] == "public, max-age=86400, immutable"
    # Each viewpoint is its own body; a seat written differently is the same viewpoint.
    assert client.get(f"/api/rooms/{room_id}/replay?seat=01").status_code == 200
    assert client.get(f"/api/rooms/{room_id}/replay?seat=1").status_code == 200
    assert client.get(f"/api/rooms/{room_id}/replay").status_code == 200
    assert builds == ["all", "1", "spectator"]
    assert [row[0] for row in stored_rows(db)] == ["1", "all", "spectator"]


def test_a_current_copy_is_answered_304_without_a_body(client: TestClient, builds: list[str]) -> None:
    room_id = finished_match(client)
    url = f"/api/rooms/{room_id}/replay?seat=0"
    plain = client.get(url, headers=PLAIN)
    zipped = client.get(url, headers=GZIP)
    etag = plain.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"') and not etag.startswith("W/")
    assert zipped.headers["etag"] == etag[:-1] + '-gzip"', "each coding has its own strong tag"

    for sent, headers in [
        (etag, PLAIN),
        (zipped.headers["etag"], GZIP),
        (zipped.headers["etag"], PLAIN),  # either tag names the same stored body
        (f"W/{etag}", PLAIN),  # If-None-Match compares weakly
        (f'"nope", {etag}', PLAIN),
        ("*", PLAIN),
    ]:
        answer = client.get(url, headers={**headers, "If-None-Match": sent})
        assert answer.status_code == 304, sent
        assert answer.content == b""
        assert answer.headers["etag"] == (etag if headers is PLAIN else zipped.headers["etag"])
        assert "immutable" in answer.headers["cache-control"]
        assert "content-encoding" not in answer.headers
    for sent in ['"nope"', etag[:-2] + '"', ""]:
        answer = client.get(url, headers={**PLAIN, "If-None-Match": sent})
        assert answer.status_code == 200 and answer.content == plain.content, sent
    assert builds == ["0"]


def test_a_client_holding_the_tag_gets_304_on_the_first_request_of_a_process(
    client: TestClient, db: Database
) -> None:
    # The tag is the sha256 of the body, so it also holds after the stored row is built again.
    room_id = finished_match(client)
    url = f"/api/rooms/{room_id}/replay?seat=spectator"
    etag = client.get(url, headers=PLAIN).headers["etag"]
    with db.transaction() as session:
        session.execute(delete(Replay))
    answer = client.get(url, headers={**PLAIN, "If-None-Match": etag})
    assert answer.status_code == 304 and answer.headers["etag"] == etag


def test_gzip_and_plain_bodies_decode_to_the_body_built_today(client: TestClient, db: Database) -> None:
    room_id = finished_match(client)
    for viewpoint in VIEWPOINTS:
        url = f"/api/rooms/{room_id}/replay?seat={viewpoint}"
        zipped, zipped_bytes = raw_body(client, url, GZIP)
        assert zipped.status_code == 200
        assert zipped.headers["content-encoding"] == "gzip"
        assert zipped.headers["content-type"] == "application/json"
        assert "accept-encoding" in zipped.headers["vary"].lower()
        plain, plain_bytes = raw_body(client, url, PLAIN)
        assert plain.status_code == 200
        assert "content-encoding" not in plain.headers
        assert plain.headers["content-type"] == "application/json"
        assert int(plain.headers["content-length"]) == len(plain_bytes)

        # Compressed once, not again by the GZip middleware; the same bytes as today's answer.
        assert gzip.decompress(zipped_bytes) == plain_bytes == today(db, room_id, viewpoint)
        with db.read() as session:
            fresh = replay_body(session, room_id, viewpoint)
        assert json.loads(plain_bytes) == json.loads(json.dumps(fresh))
        assert hashlib.sha256(plain_bytes).hexdigest() == plain.headers["etag"].strip('"')


def test_the_stored_body_is_sent_as_stored(client: TestClient, db: Database) -> None:
    room_id = finished_match(client)
    _answer, sent = raw_body(client, f"/api/rooms/{room_id}/replay?seat=all", GZIP)
    with db.read() as session:
        assert session.scalar(select(Replay.body)) == sent


def test_a_mojo_match_streams_the_same_bytes_as_today(database_url: str) -> None:
    """A real game's views and patches (Mojo with two humans), stored and read back in small pieces."""
    # Without the request limit: a whole match played over HTTP takes more requests than its burst.
    settings = Settings(database_url=database_url, bot_delay=0, rate_per_second=0, seat_rate_per_second=0)
    with TestClient(create_app(settings)) as client:
        db: Database = client.app.state.runtime.db  # type: ignore[attr-defined]
        room_id, tokens = seated_match(client, "mojo", target=10)
        while (state := client.get(f"/api/rooms/{room_id}/state").json())["status"] == "playing":
            seat = state["to_act"][0]
            mine = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[seat])).json()
            body = {"action": mine["legal_actions"][-1], "version": mine["version"]}
            played = client.post(f"/api/rooms/{room_id}/actions", json=body, headers=auth(tokens[seat]))
            assert played.status_code == 200, played.text
        answer, sent = raw_body(client, f"/api/rooms/{room_id}/replay?seat=all", PLAIN)
        assert answer.status_code == 200
        assert sent == today(db, room_id, "all")
        with db.read() as session:
            stored = session.scalar(select(Replay.body))
    assert stored is not None
    pieces = list(inflate(stored, chunk=4096))
    assert len(pieces) > 2 and all(len(piece) <= 4096 for piece in pieces)
    assert b"".join(pieces) == sent


def test_concurrent_requests_wait_for_one_build(
    client: TestClient, builds: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id = finished_match(client)
    requests = 4
    missing = threading.Semaphore(0)
    find = app.routes.replay.find_replay

    def counted(*args: Any) -> app.replay.Found:
        found = find(*args)
        if found.etag is None:
            missing.release()
        return found

    build = app.replay.compress_replay

    def held(source: app.replay.Source) -> StoredReplay:
        # Holds the build until every request has found no stored body: each one would build its own
        # if it did not wait for this one.
        for _ in range(requests):
            assert missing.acquire(timeout=10), "the other requests never arrived"
        return build(source)

    monkeypatch.setattr(app.routes.replay, "find_replay", counted)
    monkeypatch.setattr(app.replay, "compress_replay", held)
    url = f"/api/rooms/{room_id}/replay?seat=all"
    with ThreadPoolExecutor(requests) as pool:
        answers = list(pool.map(lambda _: client.get(url, headers=PLAIN), range(requests)))
    assert [a.status_code for a in answers] == [200] * requests
    assert len({a.content for a in answers}) == 1
    assert builds == ["all"], "one build for every request"
    assert app.replay._building == {}, "a finished build leaves nothing behind"


def test_a_failed_build_is_answered_and_forgotten(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, builds: list[str]
) -> None:
    room_id = finished_match(client)
    build = app.replay.compress_replay

    def broken(source: app.replay.Source) -> StoredReplay:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(app.replay, "compress_replay", broken)
    assert client.get(f"/api/rooms/{room_id}/replay").status_code == 500
    assert app.replay._building == {}
    monkeypatch.setattr(app.replay, "compress_replay", build)
    assert client.get(f"/api/rooms/{room_id}/replay").status_code == 200


def test_builders_racing_on_the_insert_keep_one_row(client: TestClient, db: Database) -> None:
    room_id = finished_match(client)
    with db.read() as session:
        match_id = session.scalars(select(Match.id).where(Match.room_id == room_id)).one()
    # Two processes, each with its own connections, reach the insert together.
    other = Database(db.url)
    together = threading.Barrier(2)
    build = app.replay.compress_replay

    def in_step(source: app.replay.Source) -> StoredReplay:
        built = build(source)
        together.wait(timeout=10)
        return built

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(app.replay, "compress_replay", in_step)
        with ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda database: build_replay(database, match_id, "all"), [db, other]))
    other.dispose()
    assert results[0] == results[1]
    assert [row[0] for row in stored_rows(db)] == ["all"]

    # A body another process stored first is the one served, whatever this process built.
    foreign = StoredReplay("0" * 64, 2, gzip.compress(b"{}"))
    with db.transaction() as session:
        session.add(
            Replay(match_id=match_id, viewpoint="spectator", etag=foreign.etag, body=foreign.body, size=2)
        )
    assert build_replay(db, match_id, "spectator") == foreign


def test_an_unfinished_match_is_refused_and_nothing_is_stored(
    client: TestClient, db: Database, builds: list[str]
) -> None:
    waiting = new_room(client).room_id
    answer = client.get(f"/api/rooms/{waiting}/replay?seat=all")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "not_started"
    playing, _tokens = seated_match(client)
    for viewpoint in VIEWPOINTS:
        answer = client.get(f"/api/rooms/{playing}/replay?seat={viewpoint}", headers={"If-None-Match": "*"})
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"
    answer = client.get("/api/rooms/nosuchroom/replay")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    finished = finished_match(client)
    answer = client.get(f"/api/rooms/{finished}/replay?seat=2")
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_request"
    assert builds == [] and stored_rows(db) == []


def test_a_stored_replay_is_deleted_with_its_match(client: TestClient, db: Database) -> None:
    room_id = finished_match(client)
    kept = finished_match(client)
    for room in (room_id, kept):
        for viewpoint in VIEWPOINTS:
            assert client.get(f"/api/rooms/{room}/replay?seat={viewpoint}").status_code == 200
    age(db, room_id, 31 * DAY)
    assert prune(db, Settings(database_url=db.url, finished_match_hours=24 * 30)).finished_matches == 1
    with db.read() as session:
        left = session.scalars(select(Replay.match_id).distinct()).all()
        assert left == [session.scalars(select(Match.id).where(Match.room_id == kept)).one()]
        assert session.scalar(select(func.count()).select_from(Replay)) == len(VIEWPOINTS)
    assert client.get(f"/api/rooms/{room_id}/replay").status_code == 404


@pytest.mark.parametrize(
    ("header", "gzip_ok"),
    [("", False), ("identity", False), ("gzip", True), ("deflate, gzip;q=0.5", True), ("gzip;q=0", True)],
)
def test_the_route_sends_gzip_exactly_when_the_middleware_would_compress(
    header: str, gzip_ok: bool, client: TestClient
) -> None:
    # Even `gzip;q=0` gets gzip: the GZip middleware would compress a plain answer for it regardless.
    assert accepts_gzip(header) is gzip_ok
    room_id = finished_match(client)
    answer, body = raw_body(client, f"/api/rooms/{room_id}/replay?seat=all", {"Accept-Encoding": header})
    assert answer.headers.get("content-encoding") == ("gzip" if gzip_ok else None)
    assert answer.headers["etag"].endswith('-gzip"') is gzip_ok
    assert int(answer.headers["content-length"]) == len(body)
    # One Vary, from the route (gzip) or from the middleware (plain), never both; the reader's
    # language joins it (an error would be worded in it).
    assert answer.headers.get_list("vary") == ["Accept-Encoding, Accept-Language, Cookie"]


@pytest.mark.parametrize(
    ("header", "fresh"),
    [
        (None, False),
        ('"abc"', True),
        ('"abc-gzip"', True),
        ('W/"abc"', True),
        (' "x" , "abc" ', True),
        ("*", True),
        ('"abcd"', False),
        ('"ab"', False),
        ("abc-gzip-gzip", False),
    ],
)
def test_if_none_match(header: str | None, fresh: bool) -> None:
    assert matches_etag(header, "abc") is fresh


def test_a_truncated_body_is_an_error_not_a_hang() -> None:
    body = gzip.compress(b"[" + b"1," * 50_000 + b"1]")
    assert b"".join(inflate(body, chunk=1024)) == b"[" + b"1," * 50_000 + b"1]"
    with pytest.raises(ValueError, match="truncated"):
        b"".join(inflate(body[: len(body) // 2], chunk=1024))
