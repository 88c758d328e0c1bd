"""No alert lost at a crash: the end of a match, a rematch and a seat request are written down with the
change that calls for them, and sent after a restart when the process died before sending them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, delete, insert, select

from app.alerts import dispatch
from app.config import sqlalchemy_url
from app.db import upgrade
from app.main import create_app
from app.models import AlertOutbox
from app.services import outbox
from tests import waiting
from tests.servers import ServeProcess, free_port

from .conftest import TestClient, auth
from .test_people_processes import TINY, tiny_room
from .test_push import Clock, Device, PushService, _settings, app_with, play, run_service, settled, table


def events(service: PushService, path: str, device: Device) -> list[str]:
    return [device.decrypt(r.body)["event"] for r in service.at(path)]


def rows(url: str, room_id: str) -> list[AlertOutbox]:
    engine = create_engine(sqlalchemy_url(url))
    try:
        with engine.connect() as conn:
            found = conn.execute(select(AlertOutbox).where(AlertOutbox.room_id == room_id)).all()
            return list(found)  # type: ignore[arg-type]
    finally:
        engine.dispose()


def wait_for(check: Callable[[], bool], seconds: float = 60) -> None:
    waiting.wait_for(check, seconds)


def looked_again(url: str, room_id: str) -> None:
    """Returns once the server made a look for the rows nobody holds, begun after this call: a row
    for a seat nobody plays (sent to no one, deleted when taken) is left for it and waited out."""
    engine = create_engine(sqlalchemy_url(url))
    try:
        with engine.begin() as conn:
            made = conn.execute(insert(AlertOutbox).values(room_id=room_id, seat=99, event="finished"))
            marker = made.inserted_primary_key[0]

        def taken() -> bool:
            with engine.connect() as conn:
                return conn.execute(select(AlertOutbox.id).where(AlertOutbox.id == marker)).first() is None

        try:
            wait_for(taken)
        finally:
            with engine.begin() as conn:
                conn.execute(delete(AlertOutbox).where(AlertOutbox.id == marker))
    finally:
        engine.dispose()


def play_to_the_end(base: str, room_id: str, tokens: dict[int, str]) -> None:
    while httpx.get(f"{base}/api/rooms/{room_id}").json()["status"] == "playing":
        to_act = httpx.get(f"{base}/api/rooms/{room_id}/state").json()["to_act"]
        token = tokens[to_act[0]]
        state: dict[str, Any] = httpx.get(f"{base}/api/rooms/{room_id}/state", headers=auth(token)).json()
        moved = httpx.post(
            f"{base}/api/rooms/{room_id}/actions",
            json={"action": state["legal_actions"][0]},
            headers=auth(token),
        )
        assert moved.status_code == 200, moved.text


@pytest.mark.slow
def test_the_end_of_a_match_is_alerted_once_across_a_kill_9(
    sqlite_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    down = free_port()  # the push service: nothing answers there until after the crash
    env = {
        "DATABASE_URL": sqlite_url,
        "MOTABLE_GAMES": TINY,
        "MOTABLE_PUSH_ALLOW_INSECURE_ENDPOINTS": "1",
        "MOTABLE_PUSH_GRACE_SECONDS": "3600",  # no turn alert: only the end is alerted
        "MOTABLE_RATE_PER_SECOND": "0",
    }
    server = spawn(env)
    base = server.base_url
    room_id, ann, bo = tiny_room(base)
    devices = {"/ann": Device(), "/bo": Device()}
    for path, token in (("/ann", ann), ("/bo", bo)):
        subscribed = httpx.post(
            f"{base}/api/rooms/{room_id}/push",
            json=devices[path].subscription(f"http://127.0.0.1:{down}{path}"),
            headers=auth(token),
        )
        assert subscribed.status_code == 201, subscribed.text
    play_to_the_end(base, room_id, {0: ann, 1: bo})
    # The server decided the end's alerts (each seat's row taken) and tries a push service that is down.
    wait_for(lambda: [r.taken_until is not None for r in rows(sqlite_url, room_id)] == [True, True])
    server.kill()
    service, http = run_service(down)
    try:
        server.start()
        wait_for(lambda: all(events(service, path, d) == ["finished"] for path, d in devices.items()))
        wait_for(lambda: rows(sqlite_url, room_id) == [])
        # After another look for what is left: still once each.
        looked_again(sqlite_url, room_id)
        assert {path: events(service, path, d) for path, d in devices.items()} == {
            "/ann": ["finished"],
            "/bo": ["finished"],
        }
        message = devices["/bo"].decrypt(service.at("/bo")[0].body)
        assert (message["title"], message["url"]) == ("Tiny: the match is over", f"/r/{room_id}")
    finally:
        server.kill()
        http.shutdown()
        http.server_close()


def test_rematch_and_seat_request_alerts_survive_a_stop(database_url: str, tiny: str) -> None:
    down = free_port()
    settings = _settings(database_url, push_grace_seconds=3600)
    ann_device, bo_device = Device(), Device()
    with TestClient(create_app(settings)) as client:
        client.app.state.runtime.alerts.per_seat = 0  # type: ignore[attr-defined]
        quiet_room, (quiet_ann, quiet_bo) = table(client)  # nobody asked for alerts there
        room_id, (ann, bo) = table(client)
        for device, path, token in ((ann_device, "/ann", ann), (bo_device, "/bo", bo)):
            client.post(
                f"/api/rooms/{room_id}/push",
                json=device.subscription(f"http://127.0.0.1:{down}{path}"),
                headers=auth(token),
            )
        for room, tokens in ((quiet_room, (quiet_ann, quiet_bo)), (room_id, (ann, bo))):
            while client.get(f"/api/rooms/{room}").json()["status"] == "playing":
                to_act = client.get(f"/api/rooms/{room}/state").json()["to_act"]
                play(client, room, tokens[to_act[0]])
        assert client.post(f"/api/rooms/{room_id}/rematch", headers=auth(ann)).status_code == 201
        assert client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 0}).status_code == 201
        assert rows(database_url, quiet_room) == []
        # Ann: the end and the seat request; Bo: the end and Ann's rematch; none delivered yet.
        wait_for(
            lambda: (
                len(rows(database_url, room_id)) == 4
                and all(r.taken_until for r in rows(database_url, room_id))
            )
        )
        pending = sorted((r.seat, r.event) for r in rows(database_url, room_id))
        assert pending == [(0, "finished"), (0, "seat_request"), (1, "finished"), (1, "rematch")]
    service, http = run_service(down)
    clock = Clock()
    try:
        with TestClient(app_with(settings, clock)) as client:
            client.app.state.runtime.alerts.per_seat = 0  # type: ignore[attr-defined]
            # The stopped process's holds lapse now rather than LEASE seconds from now.
            clock.advance(outbox.LEASE)
            wait_for(lambda: len(service.received) == 4)
            wait_for(lambda: rows(database_url, room_id) == [])
            # Past the next look for what is left, and a hold: still once each.
            clock.advance(outbox.SWEEP + outbox.LEASE)
            settled(client)
            assert sorted(events(service, "/ann", ann_device)) == ["finished", "seat_request"]
            assert sorted(events(service, "/bo", bo_device)) == ["finished", "rematch"]
            rematch = next(
                bo_device.decrypt(r.body)
                for r in service.at("/bo")
                if bo_device.decrypt(r.body)["event"] == "rematch"
            )
            assert rematch["body"] == "Ann started a rematch. Join them."
    finally:
        http.shutdown()
        http.server_close()


def test_an_alert_that_failed_on_its_way_is_taken_again(
    sqlite_url: str, tiny: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Short holds, so the row lapses and is looked for again within the test's patience.
    monkeypatch.setattr(outbox, "LEASE", 1.0)
    monkeypatch.setattr(outbox, "SWEEP", 0.3)
    real_build = dispatch.build
    failures = []

    def build_failing_once(table: Any, seat: int, event: Any, **facts: Any) -> Any:
        if event == "seat_request" and not failures:
            failures.append(seat)
            raise RuntimeError("the room could not be read just now")
        return real_build(table, seat, event, **facts)

    monkeypatch.setattr(dispatch, "build", build_failing_once)
    upgrade(sqlite_url)
    service, http = run_service()
    try:
        clock = Clock()
        with TestClient(app_with(_settings(sqlite_url, push_grace_seconds=3600), clock)) as client:
            room_id, (_ann, bo) = table(client)
            device = Device()
            client.post(
                f"/api/rooms/{room_id}/push", json=device.subscription(service.url("/bo")), headers=auth(bo)
            )
            assert client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 1}).status_code == 201
            wait_for(lambda: len(service.at("/bo")) == 1, seconds=20)
            assert failures == [1]  # the first try failed; the row was taken again and sent
            wait_for(lambda: rows(sqlite_url, room_id) == [])
            clock.advance(outbox.SWEEP + outbox.LEASE)  # past another look and a hold
            settled(client)
            assert events(service, "/bo", device) == ["seat_request"]
    finally:
        http.shutdown()
        http.server_close()
