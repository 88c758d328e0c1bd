"""The people endpoints (docs/people.md) on SQLite and PostgreSQL: seat links and seat requests, clocks,
bots standing in for absent players, leaving and removal, and the table chat."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from app.services import people
from tests.rooms import seated_match
from tests.waiting import wait_for

from .conftest import auth
from .forwarded import forwarded_client, from_address


def code(response: Any) -> str:
    value: str = response.json()["error"]["code"]
    return value


def test_seat_link_holds_the_seat(client: TestClient) -> None:
    room_id, tokens = seated_match(client, start=False)
    link = client.get(f"/api/rooms/{room_id}/seat-link", headers=auth(tokens[1]))
    assert link.status_code == 200 and link.headers["cache-control"] == "no-store"
    body = link.json()
    assert body["seat"] == 1 and body["url"].endswith(f"/r/{room_id}#seat={tokens[1]}")
    assert body["qr_svg"].startswith("<svg") and "http://www.w3.org/2000/svg" in body["qr_svg"]
    assert client.get(f"/api/rooms/{room_id}/seat-link").status_code == 401
    assert client.get(f"/api/rooms/{room_id}/seat-link", headers=auth("nope")).status_code == 401


def ask(client: TestClient, room_id: str, seat: int) -> dict[str, Any]:
    asked = client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": seat})
    assert asked.status_code == 201, asked.text
    body: dict[str, Any] = asked.json()
    return body


def answer(client: TestClient, room_id: str, request_id: str, token: str, verb: str = "approve") -> Any:
    return client.post(f"/api/rooms/{room_id}/seat-requests/{request_id}/{verb}", headers=auth(token))


def lines(client: TestClient, room_id: str) -> list[str]:
    """The table's own lines in its log (chat messages of kind "seat")."""
    messages = client.get(f"/api/rooms/{room_id}/chat").json()["messages"]
    return [m["text"] for m in messages if m["kind"] == "seat"]


def gone(client: TestClient, room_id: str, seat: int, seconds: float) -> None:
    """Make the seat's player look gone this long (their last socket closed that long ago)."""
    from datetime import timedelta

    from sqlalchemy import update

    from app.models import Seat, utcnow

    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as session:
        session.execute(
            update(Seat)
            .where(Seat.room_id == room_id, Seat.seat == seat)
            .values(last_seen=utcnow() - timedelta(seconds=seconds))
        )


def test_a_present_holder_alone_moves_their_seat(client: TestClient) -> None:
    room_id, (ann, bo, cy) = seated_match(client, players=3)
    asked = ask(client, room_id, 1)
    request_id, new_token = asked["request_id"], asked["token"]
    # Until approved the new token holds nothing; the room shows the request, answerable by Bo only.
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(new_token)).status_code == 401
    listed = client.get(f"/api/rooms/{room_id}").json()["seat_requests"]
    assert [(r["seat"], r["status"], r["answerable_by"]) for r in listed] == [(1, "pending", [1])]
    # Bo is at the table (seen just now): neither the host nor anyone else answers for him.
    for other in (ann, cy):
        for verb in ("approve", "refuse"):
            refused = answer(client, room_id, request_id, other, verb)
            assert code(refused) == "forbidden" and "only Bo" in refused.json()["error"]["message"]
    assert code(answer(client, room_id, request_id, new_token)) == "unauthorized"
    # Bo approves from his old device: the seat moves at once, the old token stops working.
    approved = answer(client, room_id, request_id, bo)
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(new_token)).json()["seat"] == 1
    assert code(client.get(f"/api/rooms/{room_id}/state", headers=auth(bo))) == "unauthorized"
    assert client.get(f"/api/rooms/{room_id}/seat-requests/{request_id}").json()["status"] == "approved"
    assert client.get(f"/api/rooms/{room_id}").json()["seat_requests"] == []
    assert lines(client, room_id) == ["Bo's seat moved to another device, approved by Bo"]
    # The dead link says what became of it; the new one is the seat.
    check = client.get(f"/api/rooms/{room_id}/seat-check", headers=auth(bo)).json()
    assert check["status"] == "moved" and check["seat"] == 1 and check["name"] == "Bo" and check["by"] is None
    assert client.get(f"/api/rooms/{room_id}/seat-check", headers=auth(new_token)).json() == {
        "status": "valid",
        "seat": 1,
    }
    assert client.get(f"/api/rooms/{room_id}/seat-check", headers=auth("garbled")).json() == {
        "status": "unknown"
    }
    assert code(client.get(f"/api/rooms/{room_id}/seat-check")) == "unauthorized"
    # Answered once only.
    assert code(answer(client, room_id, request_id, new_token, "refuse")) == "invalid_request"


def test_the_hosts_seat_is_never_taken_while_the_host_is_here(client: TestClient) -> None:
    room_id, (ann, bo, cy) = seated_match(client, players=3)
    asked = ask(client, room_id, 0)
    # The way issue 18 found: another seated player approves the host's seat. Refused now.
    for other in (bo, cy):
        assert code(answer(client, room_id, asked["request_id"], other)) == "forbidden"
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(asked["token"])).status_code == 401
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()["seat"] == 0
    # Even with her socket closed long ago, the host is not gone while she plays over HTTP.
    gone(client, room_id, 0, 3600)
    card = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()["legal_actions"][0]
    assert (
        client.post(f"/api/rooms/{room_id}/actions", json={"action": card}, headers=auth(ann)).status_code
        == 200
    )
    assert code(answer(client, room_id, asked["request_id"], bo)) == "forbidden"
    refused = answer(client, room_id, asked["request_id"], ann, "refuse")
    assert refused.json()["status"] == "refused"
    assert lines(client, room_id) == ["Ann refused to move their seat to another device"]


def test_a_gone_holders_seat_moves_after_the_refusal_window(client: TestClient) -> None:
    from datetime import timedelta

    from sqlalchemy import update

    from app.models import SeatRequest, utcnow

    room_id, (ann, bo, cy) = seated_match(client, players=3)
    gone(client, room_id, 1, people.Times().gone_after + 60)
    # Bo is gone: the host answers (Cy may not), and her approval waits out the refusal window.
    asked = ask(client, room_id, 1)
    listed = client.get(f"/api/rooms/{room_id}").json()["seat_requests"]
    assert listed[0]["answerable_by"] == [0, 1]
    assert code(answer(client, room_id, asked["request_id"], cy)) == "forbidden"
    waiting = answer(client, room_id, asked["request_id"], ann).json()
    assert waiting["status"] == "waiting" and "effective_at" in waiting
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(bo)).json()["seat"] == 1
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(asked["token"])).status_code == 401
    assert (
        client.get(f"/api/rooms/{room_id}/seat-check", headers=auth(asked["token"])).json()["status"]
        == "asking"
    )
    # Bo refuses with his token: nothing moves.
    assert answer(client, room_id, asked["request_id"], bo, "refuse").json()["status"] == "refused"
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(bo)).json()["seat"] == 1

    # Again; this time Bo comes back (opens a socket) during the window: the move lapses.
    again = ask(client, room_id, 1)
    assert answer(client, room_id, again["request_id"], ann).json()["status"] == "waiting"
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={bo}") as socket:
        socket.receive_json()
        wait_for(
            lambda: (
                client.get(f"/api/rooms/{room_id}/seat-requests/{again['request_id']}").json()["status"]
                == "expired"
            )
        )
    assert "Bo is back: their seat stays on their device" in lines(client, room_id)

    # Once more, and nobody objects: the window ends and the seat moves.
    gone(client, room_id, 1, people.Times().gone_after + 60)
    third = ask(client, room_id, 1)
    assert answer(client, room_id, third["request_id"], ann).json()["status"] == "waiting"
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as session:
        session.execute(
            update(SeatRequest)
            .where(SeatRequest.id == third["request_id"])
            .values(effective_at=utcnow() - timedelta(seconds=1))
        )
    wait_for(
        lambda: (
            client.get(f"/api/rooms/{room_id}/seat-requests/{third['request_id']}").json()["status"]
            == "approved"
        )
    )
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(third["token"])).json()["seat"] == 1
    assert code(client.get(f"/api/rooms/{room_id}/state", headers=auth(bo))) == "unauthorized"
    check = client.get(f"/api/rooms/{room_id}/seat-check", headers=auth(bo)).json()
    assert check["status"] == "moved" and check["by"] == "Ann"
    assert (
        lines(client, room_id)[-1] == "Bo's seat moved to another device, approved by Ann while Bo was gone"
    )


def test_a_gone_hosts_seat_needs_a_majority_of_those_here(client: TestClient) -> None:
    room_id, (ann, bo, cy) = seated_match(client, players=3)
    gone(client, room_id, 0, people.Times().gone_after + 60)
    asked = ask(client, room_id, 0)
    # Bo and Cy are here: both must approve (a majority of two), then the window runs.
    first = answer(client, room_id, asked["request_id"], bo).json()
    assert first["status"] == "pending"
    assert code(answer(client, room_id, asked["request_id"], bo)) == "invalid_request"
    assert client.get(f"/api/rooms/{room_id}").json()["seat_requests"][0]["approvals"] == [1]
    assert answer(client, room_id, asked["request_id"], cy).json()["status"] == "waiting"
    assert "Bo, Cy approved moving Ann's seat" in lines(client, room_id)[-1]
    # A gone approver does not count: with Cy gone too, Bo alone is the majority of those here.
    assert answer(client, room_id, asked["request_id"], ann, "refuse").json()["status"] == "refused"
    gone(client, room_id, 2, people.Times().gone_after + 60)
    again = ask(client, room_id, 0)
    assert code(answer(client, room_id, again["request_id"], cy)) == "forbidden"
    assert answer(client, room_id, again["request_id"], bo).json()["status"] == "waiting"


def test_with_two_at_the_table_the_other_waits_a_day(client: TestClient) -> None:
    room_id, (ann, _bo) = seated_match(client)
    gone(client, room_id, 1, people.Times().gone_after + 60)
    asked = ask(client, room_id, 1)
    refused = answer(client, room_id, asked["request_id"], ann)
    assert code(refused) == "forbidden" and "gone a day" in refused.json()["error"]["message"]
    gone(client, room_id, 1, people.LONE_APPROVER_AFTER + 60)
    assert answer(client, room_id, asked["request_id"], ann).json()["status"] == "waiting"


def test_unknown_presence_refuses_what_needs_someone_gone(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id, (ann, bo, _cy) = seated_match(client, players=3)
    gone(client, room_id, 1, people.Times().gone_after + 60)
    presence = client.app.state.runtime.presence  # type: ignore[attr-defined]

    async def unknown(_room_id: str) -> None:
        return None

    monkeypatch.setattr(presence, "known", unknown)
    asked = ask(client, room_id, 1)
    for response in (
        client.post(f"/api/rooms/{room_id}/seats/1/bot", headers=auth(ann)),
        client.post(f"/api/rooms/{room_id}/seats/1/remove", headers=auth(ann)),
        answer(client, room_id, asked["request_id"], ann),
    ):
        assert response.status_code == 503 and code(response) == "unavailable"
        assert int(response.headers["retry-after"]) > 0
        assert "who is at the table" in response.json()["error"]["message"]
    room = client.get(f"/api/rooms/{room_id}").json()
    assert room["seats"][1]["bot"] is False and room["seats"][1]["stand_in"] is False
    # The holder's own answer needs no presence.
    assert answer(client, room_id, asked["request_id"], bo, "refuse").json()["status"] == "refused"


def test_seat_requests_are_checked_and_rate_limited(client: TestClient) -> None:
    room_id, (ann, _bo) = seated_match(client, start=False)
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
    # Two open requests per asking address and room, then wait for an answer.
    answers = [client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 1}) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 429, 429]
    assert code(answers[2]) == "rate_limited" and "retry-after" in answers[2].headers
    assert len(client.get(f"/api/rooms/{room_id}").json()["seat_requests"]) == 2
    bad = client.post(f"/api/rooms/{room_id}/seat-requests/nope/approve", headers=auth(ann))
    assert code(bad) == "not_found"


def test_a_refused_or_lapsed_request_frees_its_place_at_once(client: TestClient) -> None:
    from datetime import timedelta

    from sqlalchemy import update

    from app.models import SeatRequest, utcnow
    from app.ratelimit import Buckets

    room_id, (ann, bo) = seated_match(client)
    client.app.state.runtime.master.people.asking = Buckets(1000, 1000)  # type: ignore[attr-defined]
    asked = [ask(client, room_id, 1) for _ in range(2)]
    assert code(client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 1})) == "rate_limited"
    # Bo refuses one: its place is free at once.
    assert answer(client, room_id, asked[1]["request_id"], bo, "refuse").json()["status"] == "refused"
    replacement = ask(client, room_id, 1)
    first = asked[0]["request_id"]
    assert client.get(f"/api/rooms/{room_id}/seat-requests/{first}").json()["status"] == "pending"
    # Nobody answers for longer than a request lives.
    long_ago = utcnow() - timedelta(seconds=people.Times().request_lifetime + 1)
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as session:
        session.execute(update(SeatRequest).where(SeatRequest.room_id == room_id).values(created_at=long_ago))
    assert client.get(f"/api/rooms/{room_id}/seat-requests/{first}").json()["status"] == "expired"
    assert client.get(f"/api/rooms/{room_id}").json()["seat_requests"] == []
    late = answer(client, room_id, first, bo)
    assert code(late) == "invalid_request" and "lapsed" in late.json()["error"]["message"]
    assert code(answer(client, room_id, replacement["request_id"], bo)) == "invalid_request"
    # The seat's old token still holds it; the asker may ask again, and this time Bo answers.
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(bo)).json()["seat"] == 1
    again = ask(client, room_id, 1)
    pending = client.get(f"/api/rooms/{room_id}").json()["seat_requests"]
    assert [r["id"] for r in pending] == [again["request_id"]]
    approved = answer(client, room_id, again["request_id"], bo)
    assert approved.status_code == 200, approved.text
    assert client.get(f"/api/rooms/{room_id}/seat-requests/{first}").json()["status"] == "expired"
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()["seat"] == 0


def test_clock_is_set_by_the_host_before_the_start(client: TestClient) -> None:
    room_id, (ann, bo) = seated_match(client, start=False)
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
    room_id, (ann, bo) = seated_match(client)
    state = client.get(f"/api/rooms/{room_id}/state", headers=auth(bo)).json()
    assert state["to_act"] == [0]
    # Bo was seen just now: too early.
    assert code(client.post(f"/api/rooms/{room_id}/seats/1/bot", headers=auth(ann))) == "forbidden"
    assert code(client.post(f"/api/rooms/{room_id}/seats/1/bot")) == "unauthorized"
    monkeypatch.setattr(client.app.state.runtime.times, "gone_after", 0.0)  # type: ignore[attr-defined]
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
    # Whatever Ann's move woke has run its course (no bot delay in tests): a bot still standing in
    # would have played by the time the runner has no task for the room.
    runner = client.app.state.runtime.bots  # type: ignore[attr-defined]
    wait_for(lambda: room_id not in runner._tasks)
    state = client.get(f"/api/rooms/{room_id}/state", headers=auth(bo)).json()
    assert state["to_act"] == [1] and state["legal_actions"]


def test_acting_takes_the_seat_back(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    room_id, (ann, bo) = seated_match(client)
    monkeypatch.setattr(client.app.state.runtime.times, "gone_after", 0.0)  # type: ignore[attr-defined]
    # Ann is to act; Bo lets a bot play for Ann, then Ann acts herself before the bot.
    client.app.state.runtime.master.bots._delay = 5  # type: ignore[attr-defined]
    client.post(f"/api/rooms/{room_id}/seats/0/bot", headers=auth(bo))
    card = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()["legal_actions"][0]
    acted = client.post(f"/api/rooms/{room_id}/actions", json={"action": card}, headers=auth(ann))
    assert acted.status_code == 200
    assert client.get(f"/api/rooms/{room_id}").json()["seats"][0]["stand_in"] is False


def test_leaving_and_removal(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    room_id, (ann, bo, cy) = seated_match(client, players=3)
    assert code(client.post(f"/api/rooms/{room_id}/seats/1/remove", headers=auth(ann))) == "forbidden"
    monkeypatch.setattr(client.app.state.runtime.times, "gone_after", 0.0)  # type: ignore[attr-defined]
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
    room_id, (ann, bo) = seated_match(client, start=False)
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
    room_id, (ann, bo) = seated_match(client, start=False)
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


def test_a_dozen_addresses_cannot_fill_a_rooms_seat_request_places(database_url: str, tiny: str) -> None:
    """Issue 32: twelve addresses asking twice each held a room's 20 places for 15 minutes. Places are
    counted in asking addresses now: each holds at most 2 open requests, a room takes 20 addresses."""
    with forwarded_client(database_url) as client:
        room_id, _tokens = seated_match(client)

        def ask_from(address: str) -> Any:
            url = f"/api/rooms/{room_id}/seat-requests"
            return client.post(url, json={"seat": 1}, headers=from_address(address))

        def open_requests() -> int:
            return len(client.get(f"/api/rooms/{room_id}").json()["seat_requests"])

        for n in range(12):
            for _ in range(2):
                assert ask_from(f"198.51.100.{n + 1}").status_code == 201
        # The third from one address is refused, written nowhere, and says when a place frees.
        third = ask_from("198.51.100.1")
        assert third.status_code == 429 and code(third) == "rate_limited"
        assert 0 < int(third.headers["retry-after"]) <= people.Times().request_lifetime
        assert open_requests() == 24
        # Bo's own new phone, from an address of its own, still asks.
        assert ask_from("203.0.113.7").status_code == 201
        # One IPv6 host is one address however many of its /64 it uses.
        assert ask_from("2001:db8:0:1::1").status_code == 201
        assert ask_from("2001:db8:0:1::2").status_code == 201
        assert code(ask_from("2001:db8:0:1::3")) == "rate_limited"
        # Up to 20 addresses at once; then the room is full, for the next address only.
        for n in range(6):
            assert ask_from(f"192.0.2.{n + 1}").status_code == 201
        assert open_requests() == 33
        full = ask_from("192.0.2.99")
        assert full.status_code == 429 and code(full) == "rate_limited" and "too many" in full.text
        assert int(full.headers["retry-after"]) > 0
        assert open_requests() == 33
        assert ask_from("192.0.2.1").status_code == 201, "an address already asking keeps its second place"
