"""The people endpoints (docs/people.md) on SQLite and PostgreSQL: seat links and seat requests, clocks,
bots standing in for absent players, leaving and removal, and the table chat."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.services import people

from .conftest import auth


def room_with(client: TestClient, humans: int = 2, start: bool = True) -> tuple[str, list[str]]:
    made = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    tokens = [made["token"]]
    for name in ["Bo", "Cy"][: humans - 1]:
        tokens.append(client.post(f"/api/rooms/{made['room_id']}/join", json={"name": name}).json()["token"])
    if start:
        assert client.post(f"/api/rooms/{made['room_id']}/start", headers=auth(tokens[0])).status_code == 200
    return made["room_id"], tokens


def code(response: Any) -> str:
    value: str = response.json()["error"]["code"]
    return value


def wait_for(check: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_seat_link_holds_the_seat(client: TestClient) -> None:
    room_id, tokens = room_with(client, start=False)
    link = client.get(f"/api/rooms/{room_id}/seat-link", headers=auth(tokens[1]))
    assert link.status_code == 200 and link.headers["cache-control"] == "no-store"
    body = link.json()
    assert body["seat"] == 1 and body["url"].endswith(f"/r/{room_id}#seat={tokens[1]}")
    assert body["qr_svg"].startswith("<svg") and "http://www.w3.org/2000/svg" in body["qr_svg"]
    assert client.get(f"/api/rooms/{room_id}/seat-link").status_code == 401
    assert client.get(f"/api/rooms/{room_id}/seat-link", headers=auth("nope")).status_code == 401


def test_a_seat_request_approved_by_the_host_replaces_the_token(client: TestClient) -> None:
    room_id, (ann, bo) = room_with(client)
    asked = client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 1})
    assert asked.status_code == 201
    request_id, new_token = asked.json()["request_id"], asked.json()["token"]
    # Until approved the new token holds nothing; the room shows the request to everyone.
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(new_token)).status_code == 401
    room = client.get(f"/api/rooms/{room_id}").json()
    assert [r["seat"] for r in room["seat_requests"]] == [1]
    # The asker cannot approve for themselves; with the host away, Bo (the old holder) may not either.
    assert code(
        client.post(f"/api/rooms/{room_id}/seat-requests/{request_id}/approve", headers=auth(bo))
    ) == ("forbidden")
    approved = client.post(f"/api/rooms/{room_id}/seat-requests/{request_id}/approve", headers=auth(ann))
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(new_token)).json()["seat"] == 1
    assert code(client.get(f"/api/rooms/{room_id}/state", headers=auth(bo))) == "unauthorized"
    assert client.get(f"/api/rooms/{room_id}/seat-requests/{request_id}").json()["status"] == "approved"
    assert client.get(f"/api/rooms/{room_id}").json()["seat_requests"] == []
    # Answered once only.
    again = client.post(f"/api/rooms/{room_id}/seat-requests/{request_id}/refuse", headers=auth(ann))
    assert code(again) == "invalid_request"


def test_others_answer_when_the_host_is_away_or_asks(client: TestClient) -> None:
    room_id, (ann, bo, cy) = room_with(client, humans=3)
    asked = client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 0}).json()
    # The host's own seat: another player answers (the host is not connected in this test anyway).
    refused = client.post(
        f"/api/rooms/{room_id}/seat-requests/{asked['request_id']}/refuse", headers=auth(cy)
    )
    assert refused.json()["status"] == "refused"
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(asked["token"])).status_code == 401
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).status_code == 200
    # The host is here (a socket open): only the host answers a request for Cy's seat.
    asked = client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 2}).json()
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={ann}") as socket:
        socket.receive_json()
        approve = f"/api/rooms/{room_id}/seat-requests/{asked['request_id']}/approve"
        assert code(client.post(approve, headers=auth(bo))) == "forbidden"
        assert client.post(approve, headers=auth(ann)).json()["status"] == "approved"


def test_seat_requests_are_checked_and_rate_limited(client: TestClient) -> None:
    room_id, (ann, _bo) = room_with(client, start=False)
    assert code(client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 5})) == "not_found"
    assert code(client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": "1"})) == "invalid_request"
    assert code(client.post("/api/rooms/nope/seat-requests", json={"seat": 0})) == "not_found"
    # Numbers no database column holds are refused, not a server error.
    assert (
        code(client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": -(2**40)})) == "invalid_request"
    )
    assert (
        code(client.post(f"/api/rooms/{room_id}/seats/{2**40}/remove", headers=auth(ann)))
        == "invalid_request"
    )
    assert code(client.post(f"/api/rooms/{room_id}/clock", json={"seconds": 2**40}, headers=auth(ann))) == (
        "invalid_request"
    )
    # Three asks at once per address and room (the refused one above counted), then one per 20 s.
    answers = [client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 1}) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 429, 429]
    assert code(answers[2]) == "rate_limited"
    assert len(client.get(f"/api/rooms/{room_id}").json()["seat_requests"]) == 2
    bad = client.post(f"/api/rooms/{room_id}/seat-requests/nope/approve", headers=auth(ann))
    assert code(bad) == "not_found"


def test_an_unanswered_seat_request_lapses_and_frees_its_place(client: TestClient) -> None:
    from datetime import timedelta

    from sqlalchemy import update

    from app.models import SeatRequest
    from app.ratelimit import Buckets

    room_id, (ann, _bo) = room_with(client)
    # Many askers (the per-address limit is another test's): they fill the room's five places.
    client.app.state.runtime.master.people.asking = Buckets(1000, 1000)  # type: ignore[attr-defined]
    asked = [client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 1}).json() for _ in range(5)]
    full = client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 1})
    assert code(full) == "rate_limited"
    first = asked[0]["request_id"]
    status = client.get(f"/api/rooms/{room_id}/seat-requests/{first}").json()
    assert status["status"] == "pending"
    # Nobody answers for longer than a request lives.
    long_ago = people.utcnow() - timedelta(seconds=people.REQUEST_LIFETIME + 1)
    services = client.app.state.runtime.services  # type: ignore[attr-defined]
    with services.db.transaction() as session:
        session.execute(update(SeatRequest).where(SeatRequest.room_id == room_id).values(created_at=long_ago))
    status = client.get(f"/api/rooms/{room_id}/seat-requests/{first}").json()
    assert status["status"] == "expired"
    assert client.get(f"/api/rooms/{room_id}").json()["seat_requests"] == []
    late = client.post(f"/api/rooms/{room_id}/seat-requests/{first}/approve", headers=auth(ann))
    assert code(late) == "invalid_request" and "lapsed" in late.json()["error"]["message"]
    # The seat's old token still holds it; the asker may ask again, and this time the host answers.
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(_bo)).json()["seat"] == 1
    again = client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 1})
    assert again.status_code == 201
    pending = client.get(f"/api/rooms/{room_id}").json()["seat_requests"]
    assert [r["id"] for r in pending] == [again.json()["request_id"]]
    approved = client.post(
        f"/api/rooms/{room_id}/seat-requests/{again.json()['request_id']}/approve", headers=auth(ann)
    )
    assert approved.status_code == 200, approved.text
    assert client.get(f"/api/rooms/{room_id}/seat-requests/{first}").json()["status"] == "expired"


def test_clock_is_set_by_the_host_before_the_start(client: TestClient) -> None:
    room_id, (ann, bo) = room_with(client, start=False)
    assert (
        code(client.post(f"/api/rooms/{room_id}/clock", json={"seconds": 60}, headers=auth(bo)))
        == "forbidden"
    )
    assert code(client.post(f"/api/rooms/{room_id}/clock", json={"seconds": 0}, headers=auth(ann))) == (
        "invalid_request"
    )
    body = client.post(f"/api/rooms/{room_id}/clock", json={"seconds": 60}, headers=auth(ann)).json()
    assert body["clock"] == 60 and body["deadline"] is None
    client.post(f"/api/rooms/{room_id}/start", headers=auth(ann))
    room = client.get(f"/api/rooms/{room_id}").json()
    assert room["deadline"] is not None
    assert code(client.post(f"/api/rooms/{room_id}/clock", json={"seconds": 5}, headers=auth(ann))) == (
        "already_started"
    )


def test_a_room_can_be_made_with_its_clock(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"game": "tiny", "name": "Ann", "clock": 180})
    assert made.status_code == 201
    assert client.get(f"/api/rooms/{made.json()['room_id']}").json()["clock"] == 180
    plain = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    assert client.get(f"/api/rooms/{plain['room_id']}").json()["clock"] is None
    for bad in [0, 8 * 24 * 3600, "60", 1.5]:
        refused = client.post("/api/rooms", json={"game": "tiny", "name": "Ann", "clock": bad})
        assert refused.status_code == 422 and code(refused) == "invalid_request", bad


def test_a_bot_stands_in_for_a_gone_player_who_takes_the_seat_back(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id, (ann, bo) = room_with(client)
    state = client.get(f"/api/rooms/{room_id}/state", headers=auth(bo)).json()
    assert state["to_act"] == [0]
    # Bo was seen just now: too early.
    assert code(client.post(f"/api/rooms/{room_id}/seats/1/bot", headers=auth(ann))) == "forbidden"
    assert code(client.post(f"/api/rooms/{room_id}/seats/1/bot")) == "unauthorized"
    monkeypatch.setattr(people, "GONE_AFTER", 0.0)
    assert code(client.post(f"/api/rooms/{room_id}/seats/1/bot", headers=auth(bo))) == "invalid_request"
    room = client.post(f"/api/rooms/{room_id}/seats/1/bot", headers=auth(ann)).json()
    assert room["seats"][1]["stand_in"] is True and room["seats"][1]["name"] == "Bo"
    # Ann plays; the bot answers for Bo.
    card = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()["legal_actions"][0]
    client.post(f"/api/rooms/{room_id}/actions", json={"action": card}, headers=auth(ann))
    wait_for(lambda: client.get(f"/api/rooms/{room_id}/state").json()["to_act"] == [0])
    log = client.get(f"/api/rooms/{room_id}/log").json()["entries"]
    assert [e["seat"] for e in log] == [0, 1]
    # Bo comes back: the seat is his again and he plays his own turn.
    back = client.delete(f"/api/rooms/{room_id}/seats/1/bot", headers=auth(bo))
    assert back.status_code == 200 and back.json()["seats"][1]["stand_in"] is False
    assert code(client.delete(f"/api/rooms/{room_id}/seats/1/bot", headers=auth(ann))) == "forbidden"
    card = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()["legal_actions"][0]
    client.post(f"/api/rooms/{room_id}/actions", json={"action": card}, headers=auth(ann))
    time.sleep(0.3)
    state = client.get(f"/api/rooms/{room_id}/state", headers=auth(bo)).json()
    assert state["to_act"] == [1] and state["legal_actions"]


def test_acting_takes_the_seat_back(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    room_id, (ann, bo) = room_with(client)
    monkeypatch.setattr(people, "GONE_AFTER", 0.0)
    # Ann is to act; Bo lets a bot play for Ann, then Ann acts herself before the bot.
    client.app.state.runtime.master.bots._delay = 5  # type: ignore[attr-defined]
    client.post(f"/api/rooms/{room_id}/seats/0/bot", headers=auth(bo))
    card = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()["legal_actions"][0]
    acted = client.post(f"/api/rooms/{room_id}/actions", json={"action": card}, headers=auth(ann))
    assert acted.status_code == 200
    assert client.get(f"/api/rooms/{room_id}").json()["seats"][0]["stand_in"] is False


def test_leaving_and_removal(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    room_id, (ann, bo, cy) = room_with(client, humans=3)
    assert code(client.post(f"/api/rooms/{room_id}/seats/1/remove", headers=auth(ann))) == "forbidden"
    monkeypatch.setattr(people, "GONE_AFTER", 0.0)
    assert code(client.post(f"/api/rooms/{room_id}/seats/2/remove", headers=auth(bo))) == "forbidden"
    removed = client.post(f"/api/rooms/{room_id}/seats/1/remove", headers=auth(ann)).json()
    assert removed["seats"][1]["bot"] is True and removed["seats"][1]["name"] == "Bo"
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(bo)).status_code == 401
    # The host leaves: a bot takes the seat, Cy hosts, and the game goes on to the end with bots.
    left = client.post(f"/api/rooms/{room_id}/leave", headers=auth(ann)).json()
    assert left["seats"][0]["bot"] is True and left["host_seat"] == 2

    def my_turns() -> bool:
        state = client.get(f"/api/rooms/{room_id}/state", headers=auth(cy)).json()
        if state["legal_actions"]:
            client.post(
                f"/api/rooms/{room_id}/actions", json={"action": state["legal_actions"][0]}, headers=auth(cy)
            )
        return bool(state["status"] == "finished")

    wait_for(my_turns, seconds=20)
    assert code(client.post(f"/api/rooms/{room_id}/leave", headers=auth(cy))) == "game_over"


def test_chat(client: TestClient) -> None:
    room_id, (ann, bo) = room_with(client, start=False)
    with client.websocket_connect(f"/ws/rooms/{room_id}") as watcher:
        assert watcher.receive_json()["type"] == "snapshot"
        said = client.post(f"/api/rooms/{room_id}/chat", json={"text": "<b>hi</b>\u202e"}, headers=auth(bo))
        assert said.status_code == 201
        message = said.json()
        assert message["text"] == "<b>hi</b>" and message["name"] == "Bo" and message["seat"] == 1
        pushed = watcher.receive_json()
        assert pushed == {"type": "chat", "message": message}
    assert client.get(f"/api/rooms/{room_id}/chat").json()["messages"] == [message]
    assert code(client.post(f"/api/rooms/{room_id}/chat", json={"text": "x" * 281}, headers=auth(bo))) == (
        "invalid_request"
    )
    assert code(client.post(f"/api/rooms/{room_id}/chat", json={"text": " \u200b"}, headers=auth(bo))) == (
        "invalid_request"
    )
    # Spectators read; they write only once the host allows it.
    assert code(client.post(f"/api/rooms/{room_id}/chat", json={"text": "hello"})) == "forbidden"
    settings = f"/api/rooms/{room_id}/chat/settings"
    assert code(client.post(settings, json={"spectators": True}, headers=auth(bo))) == "forbidden"
    assert (
        client.post(settings, json={"spectators": True}, headers=auth(ann)).json()["chat_spectators"] is True
    )
    spectator = client.post(f"/api/rooms/{room_id}/chat", json={"text": "hello", "name": "Dee"})
    assert spectator.json()["name"] == "Dee (watching)" and spectator.json()["seat"] is None
    # Rate-limited per writer: a burst of 5, then slow down.
    answers = [
        client.post(f"/api/rooms/{room_id}/chat", json={"text": f"m{i}"}, headers=auth(ann)).status_code
        for i in range(7)
    ]
    assert answers[:5] == [201] * 5 and answers[-1] == 429
    assert len(client.get(f"/api/rooms/{room_id}/chat").json()["messages"]) == 7


def test_a_chat_message_says_after_which_event_it_was_written(client: TestClient) -> None:
    room_id, (ann, bo) = room_with(client, start=False)
    said = client.post(f"/api/rooms/{room_id}/chat", json={"text": "ready?"}, headers=auth(bo))
    assert said.json()["after"] is None  # the waiting room has no log
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(ann)).status_code == 200
    go = client.post(f"/api/rooms/{room_id}/chat", json={"text": "go"}, headers=auth(bo))
    assert go.json()["after"] == 0
    for _ in range(2):
        state = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()
        seat = state["to_act"][0]
        token = [ann, bo][seat]
        mine = client.get(f"/api/rooms/{room_id}/state", headers=auth(token)).json()
        move = {"action": mine["legal_actions"][0], "version": mine["version"]}
        assert client.post(f"/api/rooms/{room_id}/actions", json=move, headers=auth(token)).status_code == 200
    events = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()["view"]["events"]
    nice = client.post(f"/api/rooms/{room_id}/chat", json={"text": "nice"}, headers=auth(ann)).json()
    assert nice["after"] == events[-1]["seq"] == 2
    kept = client.get(f"/api/rooms/{room_id}/chat").json()["messages"]
    assert [m["after"] for m in kept] == [None, 0, 2]
