"""Replays: refused until the match is over, then every step of it from any seat's place."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import jsonpatch
import pytest
from starlette.testclient import TestClient

from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.main import create_app
from tests.rooms import join, new_room, start_match


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    url = sqlalchemy_url(sqlite_url)
    upgrade(url)
    # These tests play whole matches from one address as fast as they can: the request limit is
    # lifted here (tests/app/test_ratelimit.py and test_limits.py test it).
    settings = Settings(database_url=url, bot_delay=0, rate_per_second=0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _play_to_the_end(client: TestClient, room: str, tokens: list[str]) -> None:
    """Random legal moves, each sent by the seat to act, until the match is over."""
    pick = random.Random(3)
    for _ in range(3000):
        state = client.get(f"/api/rooms/{room}/state").json()
        if state["status"] == "finished":
            return
        seat = state["to_act"][0]
        mine = client.get(f"/api/rooms/{room}/state", headers=_auth(tokens[seat])).json()
        answer = client.post(
            f"/api/rooms/{room}/actions",
            json={"action": pick.choice(mine["legal_actions"]), "version": mine["version"]},
            headers=_auth(tokens[seat]),
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(("game", "options"), [("mojo", {"target": 10}), ("moby-trick", {"target": 5})])
def test_a_finished_match_replays_step_by_step_and_not_before(
    client: TestClient, game: str, options: dict[str, Any]
) -> None:
    made = new_room(client, game, **options)
    room = made.room_id
    assert client.get(f"/api/rooms/{room}/replay").status_code == 409  # not started
    bo = join(client, made)
    start_match(client, made)
    early = client.get(f"/api/rooms/{room}/replay?seat=all")
    assert early.status_code == 403 and early.json()["error"]["code"] == "forbidden"
    _play_to_the_end(client, room, [made.token, bo])

    log = client.get(f"/api/rooms/{room}/log").json()
    final = client.get(f"/api/rooms/{room}/state", headers=_auth(bo)).json()
    for viewpoint in ("1", "spectator", "all"):
        answer = client.get(f"/api/rooms/{room}/replay?seat={viewpoint}")
        assert answer.status_code == 200
        assert "immutable" in answer.headers["cache-control"]
        body = answer.json()
        assert body["seed"] == log["seed"]
        assert len(body["steps"]) == len(log["entries"])
        assert [(s["seat"], s["action"]) for s in body["steps"]] == [
            (e["seat"], e["action"]) for e in log["entries"]
        ]
        table = body["first"]
        assert table["version"] == 1 and table["status"] == "playing"
        for step in body["steps"]:
            table = jsonpatch.apply_patch(table, step["ops"])
        assert table["status"] == "finished"
        assert table["result"] == final["result"]
        if viewpoint == "1":
            # Seat 1's last table is exactly what Bo's page showed at the end.
            assert table["view"] == final["view"]
        if viewpoint == "all":
            assert [v["seat"] for v in table["views"]] == [0, 1]
            assert table["views"][1] == final["view"]
    bad = client.get(f"/api/rooms/{room}/replay?seat=7")
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"
    assert client.get(f"/r/{room}/replay").status_code == 200
    assert client.get("/r/nosuchroom/replay").status_code == 404
    unknown = client.get("/api/rooms/nosuchroom/replay")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"


def test_a_seat_written_with_a_non_ascii_digit_is_refused_not_a_server_error() -> None:
    # "³" passes str.isdigit() but int() refuses it: schemathesis found the 500 this answered.
    from app.errors import AppError
    from app.replay import parse_viewpoint

    with pytest.raises(AppError) as refused:
        parse_viewpoint("\u00b3", 2)
    assert refused.value.code == "invalid_request"
    assert parse_viewpoint("1", 2) == 1
