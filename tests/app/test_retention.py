"""Data that expires: waiting rooms no one joined, finished matches after their retention, abandoned
matches; archived snapshots; `motable prune`; the in-process schedule. On SQLite and PostgreSQL."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select, update
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.cli import main
from app.config import Settings
from app.db import Database, upgrade
from app.models import ActionRow, Match, Room, Seat, Snapshot, utcnow
from app.retention import prune
from tests.rooms import add_bot, join, new_room, seated_match
from tests.servers import ServeProcess

from .conftest import auth
from .test_cli import finished_match

DAY = timedelta(days=1)


def age(db: Database, room_id: str, by: timedelta) -> None:
    """Make a room look `by` older: when it was made, joined, started, moved and finished."""
    with db.transaction() as session:
        room = session.get(Room, room_id)
        assert room is not None
        session.execute(update(Room).where(Room.id == room_id).values(created_at=room.created_at - by))
        for seat in session.scalars(select(Seat).where(Seat.room_id == room_id)):
            seat.created_at = seat.created_at - by
        match = session.scalars(select(Match).where(Match.room_id == room_id)).one_or_none()
        if match is not None:
            match.started_at = match.started_at - by
            if match.finished_at is not None:
                match.finished_at = match.finished_at - by
            for row in session.scalars(select(ActionRow).where(ActionRow.match_id == match.id)):
                row.created_at = row.created_at - by


def rooms(db: Database) -> set[str]:
    with db.transaction() as session:
        return set(session.scalars(select(Room.id)))


def counts(db: Database) -> dict[str, int]:
    with db.transaction() as session:
        return {
            model.__tablename__: session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Room, Seat, Match, ActionRow, Snapshot)
        }


@pytest.fixture
def db(client: TestClient) -> Database:
    database: Database = client.app.state.runtime.db  # type: ignore[attr-defined]
    return database


def test_waiting_rooms_no_one_joined_expire(client: TestClient, db: Database) -> None:
    lonely = new_room(client)
    with_bot = new_room(client)
    add_bot(client, with_bot)
    joined = new_room(client)
    join(client, joined)
    fresh = new_room(client)
    for room in (lonely, with_bot, joined):
        age(db, room.room_id, 2 * DAY)
    settings = Settings(database_url=db.url)

    done = prune(db, settings)
    assert done.waiting_rooms == 2
    assert rooms(db) == {joined.room_id, fresh.room_id}
    assert client.get(f"/api/rooms/{lonely.room_id}").status_code == 404

    age(db, joined.room_id, 6 * DAY)  # 8 days since Bo sat down: an idle waiting room
    assert prune(db, settings).idle_rooms == 1
    assert rooms(db) == {fresh.room_id}
    with db.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Seat)) == 1, "seats went with their rooms"


def test_finished_matches_are_kept_for_their_retention_then_deleted(client: TestClient, db: Database) -> None:
    room_id = finished_match(client)
    playing, _tokens = seated_match(client)
    settings = Settings(database_url=db.url, finished_match_hours=24 * 30)
    assert prune(db, settings).finished_matches == 0
    assert client.get(f"/api/rooms/{room_id}/log").json()["seed"] is not None, "still there for replays"

    age(db, room_id, 31 * DAY)
    assert prune(db, settings, dry_run=True).finished_matches == 1
    assert room_id in rooms(db), "a dry run changes nothing"
    assert prune(db, settings).finished_matches == 1
    assert rooms(db) == {playing}
    left = counts(db)
    assert left["matches"] == 1
    with db.transaction() as session:
        match_ids = set(session.scalars(select(ActionRow.match_id)))
        assert match_ids <= set(session.scalars(select(Match.id))), "no orphan actions"


def test_abandoned_matches_are_archived_then_deleted(client: TestClient, db: Database) -> None:
    room_id, tokens = seated_match(client, rounds=2)
    # Play a round so the match has two snapshots (the deal, and the round's end).
    while client.get(f"/api/rooms/{room_id}").json()["scorepad"]["rounds"] == []:
        state = client.get(f"/api/rooms/{room_id}/state").json()
        seat = state["to_act"][0]
        mine = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[seat])).json()
        client.post(
            f"/api/rooms/{room_id}/actions",
            headers=auth(tokens[seat]),
            json={"action": mine["legal_actions"][0]},
        )
    before = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[0])).json()
    assert counts(db)["snapshots"] >= 2
    settings = Settings(database_url=db.url)
    assert prune(db, settings).archived_snapshots == 0, "a match in play keeps its snapshots"

    age(db, room_id, 8 * DAY)
    done = prune(db, settings)
    assert done.archived_snapshots >= 1 and done.abandoned_matches == 0
    assert counts(db)["snapshots"] == 1
    # Nothing in memory: the state is read back from what the archive kept.
    client.app.state.runtime.cache._states.clear()  # type: ignore[attr-defined]
    after = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[0])).json()
    assert after == before, "an archived match resumes exactly where it was"

    age(db, room_id, 83 * DAY)
    assert prune(db, settings).abandoned_matches == 1
    assert room_id not in rooms(db)


def test_finished_matches_are_archived_and_still_verify(
    sqlite_url: str, tiny: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    upgrade(sqlite_url)
    with TestClient(create_test_app(sqlite_url)) as client:
        room_id = finished_match(client)
        db: Database = client.app.state.runtime.db  # type: ignore[attr-defined]
        assert prune(db, Settings(database_url=sqlite_url)).archived_snapshots >= 1
    monkeypatch.setenv("DATABASE_URL", sqlite_url)
    capsys.readouterr()
    assert main(["verify", room_id]) == 0, capsys.readouterr().out


def create_test_app(url: str) -> FastAPI:
    from app.main import create_app

    return create_app(Settings(database_url=url, bot_delay=0))


def test_prune_command(
    sqlite_url: str, tiny: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    upgrade(sqlite_url)
    with TestClient(create_test_app(sqlite_url)) as client:
        made = new_room(client)
        age(client.app.state.runtime.db, made.room_id, 2 * DAY)  # type: ignore[attr-defined]
    monkeypatch.setenv("DATABASE_URL", sqlite_url)
    capsys.readouterr()
    assert main(["prune", "--dry-run"]) == 0
    assert "waiting rooms: 1" in capsys.readouterr().out
    assert main(["prune"]) == 0
    assert "waiting rooms: 1" in capsys.readouterr().out
    assert main(["prune"]) == 0
    assert "waiting rooms: 0" in capsys.readouterr().out


def test_a_server_prunes_on_its_own_schedule(tmp_path: Path, sqlite_url: str) -> None:
    server = ServeProcess(
        {"DATABASE_URL": sqlite_url, "MOTABLE_PRUNE_EVERY_HOURS": "0.0005"}, tmp_path / "serve.log"
    ).start()
    try:
        made = new_room(server.base_url, "mojo")
        db = Database(sqlite_url)
        try:
            age(db, made.room_id, 2 * DAY)
        finally:
            db.dispose()
        deadline = time.monotonic() + 20
        while httpx.get(f"{server.base_url}/api/rooms/{made.room_id}").status_code != 404:
            assert time.monotonic() < deadline, "the schedule never pruned the expired room"
            time.sleep(0.5)
    finally:
        server.stop()


def test_the_schedule_tells_the_alerts_a_pruned_room_is_gone(db: Database, tiny: str) -> None:
    """The schedule runs through the command runner, which publishes each deleted room through the
    Publisher, so this process's listeners (the alerts, which forget what they waited on in that room)
    hear "gone" as well as every process's sockets."""
    from app.main import create_app

    app = create_app(Settings(database_url=db.url, bot_delay=0, prune_every_hours=0.0005))
    with TestClient(app) as client:
        heard: list[tuple[str, str]] = []
        runtime = client.app.state.runtime  # type: ignore[attr-defined]
        runtime.publisher.listeners.append(lambda room_id, event: heard.append((room_id, event["kind"])))
        made = new_room(client)
        with client.websocket_connect(f"/ws/rooms/{made.room_id}?token={made.token}") as socket:
            assert socket.receive_json()["type"] == "snapshot"
            age(db, made.room_id, 2 * DAY)
            deadline = time.monotonic() + 20
            while (made.room_id, "gone") not in heard:
                assert time.monotonic() < deadline, "the schedule never told the listeners the room is gone"
                time.sleep(0.05)
            # The socket open on the room is closed (a frame sent before the close may come first).
            with pytest.raises(WebSocketDisconnect):
                for _ in range(10):
                    socket.receive_json()
        assert client.get(f"/api/rooms/{made.room_id}").status_code == 404


def test_zero_hours_keep_for_ever(client: TestClient, db: Database) -> None:
    made = new_room(client)
    age(db, made.room_id, 3650 * DAY)
    keep = Settings(
        database_url=db.url,
        waiting_room_hours=0,
        idle_room_hours=0,
        finished_match_hours=0,
        abandoned_match_hours=0,
        archive_after_hours=0,
    )
    assert prune(db, keep).waiting_rooms == 0
    assert made.room_id in rooms(db)
    assert utcnow()  # the clock the policy measures against


def bots_alone(db: Database, room_id: str) -> None:
    """Every person at the table left: each seat is a bot's."""
    with db.transaction() as session:
        session.execute(update(Seat).where(Seat.room_id == room_id).values(bot=True, token_hash=None))


def test_matches_of_bots_alone_are_pruned_soon(client: TestClient, db: Database) -> None:
    people, _tokens = seated_match(client)
    playing, _tokens = seated_match(client)
    finished = finished_match(client)
    bots_alone(db, playing)
    bots_alone(db, finished)
    settings = Settings(database_url=db.url, all_bot_room_hours=1)
    assert prune(db, settings).all_bot_matches == 0, "bots alone may play on within the hour"

    for room_id in (people, playing, finished):
        age(db, room_id, timedelta(hours=2))
    assert prune(db, settings, dry_run=True).room_ids == [], "a dry run deletes nothing"
    done = prune(db, settings)
    assert done.all_bot_matches == 2
    assert sorted(done.room_ids) == sorted([playing, finished])
    assert "room_ids" not in done.as_dict() and "all bot matches: 2" in str(done)
    assert rooms(db) == {people}, "people who stopped moving two hours ago are kept (abandoned: 90 days)"


def test_a_person_playing_with_bots_is_not_pruned_as_bots_alone(client: TestClient, db: Database) -> None:
    room_id, _tokens = seated_match(client, players=1, bots=1)
    age(db, room_id, timedelta(hours=5))
    assert prune(db, Settings(database_url=db.url, all_bot_room_hours=1)).all_bot_matches == 0
    assert room_id in rooms(db)
