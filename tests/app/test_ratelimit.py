"""Clients far faster than any player get 429 rate_limited; everyone else is untouched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.main import create_app
from app.ratelimit import Buckets

from .conftest import auth


def test_bucket_allows_a_burst_then_refills() -> None:
    buckets = Buckets(per_second=2, burst=3)
    assert [buckets.allow("k", now=0.0) for _ in range(4)] == [True, True, True, False]
    assert buckets.allow("other", now=0.0), "each client has its own bucket"
    assert buckets.allow("k", now=0.5)  # half a second refills one request
    assert not buckets.allow("k", now=0.5)


def test_zero_rate_turns_limiting_off() -> None:
    buckets = Buckets(per_second=0, burst=1)
    assert all(buckets.allow("k", now=0.0) for _ in range(100))


@pytest.fixture
def slow_client(tmp_path: Path, tiny: str) -> Iterator[TestClient]:
    url = sqlalchemy_url(f"sqlite:///{tmp_path / 'limit.db'}")
    upgrade(url)
    app = create_app(Settings(database_url=url, bot_delay=0, rate_per_second=0.01, rate_burst=2))
    with TestClient(app) as client:
        yield client


def test_flooding_posts_answer_429_and_change_nothing(slow_client: TestClient) -> None:
    created = slow_client.post("/api/rooms", json={"game": "tiny", "name": "Ann"})
    assert created.status_code == 201
    room_id, token = created.json()["room_id"], created.json()["token"]
    assert slow_client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth(token)).status_code == 201
    assert slow_client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth(token)).status_code == 201
    refused = slow_client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth(token))
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert len(slow_client.get(f"/api/rooms/{room_id}").json()["seats"]) == 3, "the refused bot was not added"
    other = slow_client.post("/api/rooms", json={"game": "tiny", "name": "Bo"})
    assert other.status_code == 201, "the anonymous bucket is not the seat's bucket"
    assert slow_client.get(f"/api/rooms/{room_id}/state").status_code == 200, "reads are never limited"


def test_flooding_a_socket_answers_rate_limited(slow_client: TestClient) -> None:
    room = slow_client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    with slow_client.websocket_connect(f"/ws/rooms/{room['room_id']}?token={room['token']}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        codes = []
        for n in range(4):
            ws.send_json({"type": "action", "id": str(n), "action": {"type": "noop"}})
            reply = ws.receive_json()
            while reply["type"] == "room":  # connection status pushes may come in between
                reply = ws.receive_json()
            codes.append(reply["error"]["code"])
        assert codes == ["not_started", "not_started", "rate_limited", "rate_limited"]
