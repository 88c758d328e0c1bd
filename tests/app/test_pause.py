"""Pausing a game (docs/people.md "Pause"): who must agree, the table's log lines, clocks that stop (no
stand-in for a seat whose time would have run out), moves still accepted, resuming, and the PauseGate."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient

from app.alerts.core import Alert
from app.alerts.gates import PauseGate
from app.models import ActionRow, Match, Room, utcnow
from tests.rooms import new_room, seated_match

from .conftest import auth
from .test_people import code, gone, lines


def pause(client: TestClient, room_id: str, token: str, verb: str = "pause") -> dict:
    answered = client.post(f"/api/rooms/{room_id}/{verb}", headers=auth(token))
    assert answered.status_code == 200, answered.text
    body: dict = answered.json()
    return body


def age(client: TestClient, room_id: str, seconds: float) -> None:
    """Make the match's every move (and its start) this much older: its clock ran that long."""
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as session:
        match_id = session.query(Match.id).filter(Match.room_id == room_id).scalar()
        session.execute(
            update(Match).where(Match.id == match_id).values(started_at=utcnow() - timedelta(seconds=seconds))
        )
        for row in session.query(ActionRow).filter(ActionRow.match_id == match_id):
            row.created_at = row.created_at - timedelta(seconds=seconds)


def test_every_present_human_agrees_then_the_game_pauses(client: TestClient) -> None:
    room_id, (ann, bo, cy) = seated_match(client, players=3)
    body = pause(client, room_id, bo)
    assert body["paused"] is False
    request = body["pause_request"]
    assert request["by"] == 1 and request["waiting_for"] == [0, 2] and request["approvals"] == []
    assert lines(client, room_id)[-1] == "Bo asked to pause the game; waiting for Ann, Cy"
    # Asking twice, or answering one's own request: refused, nothing changes.
    assert code(client.post(f"/api/rooms/{room_id}/pause", headers=auth(ann))) == "invalid_request"
    assert code(client.post(f"/api/rooms/{room_id}/pause/approve", headers=auth(bo))) == "forbidden"
    assert code(client.post(f"/api/rooms/{room_id}/pause/approve")) == "unauthorized"
    body = pause(client, room_id, ann, "pause/approve")
    assert body["paused"] is False and body["pause_request"]["waiting_for"] == [2]
    assert code(client.post(f"/api/rooms/{room_id}/pause/approve", headers=auth(ann))) == "invalid_request"
    body = pause(client, room_id, cy, "pause/approve")
    assert body["paused"] is True and body["pause_request"] is None and body["paused_at"]
    assert body["deadline"] is None
    assert lines(client, room_id)[-2:] == [
        "Ann agreed to pause the game",
        "The game is paused (asked by Bo, agreed by Ann, Cy): no clocks and no alerts until someone resumes",
    ]
    assert code(client.post(f"/api/rooms/{room_id}/pause", headers=auth(ann))) == "invalid_request"
    # Any player resumes.
    body = pause(client, room_id, cy, "resume")
    assert body["paused"] is False and body["paused_at"] is None
    assert lines(client, room_id)[-1] == "Cy resumed the game: the clocks run again"
    assert code(client.post(f"/api/rooms/{room_id}/resume", headers=auth(cy))) == "invalid_request"


def test_one_refusal_ends_the_request(client: TestClient) -> None:
    room_id, (ann, bo, cy) = seated_match(client, players=3)
    pause(client, room_id, ann)
    pause(client, room_id, bo, "pause/approve")
    body = pause(client, room_id, cy, "pause/refuse")
    assert body["paused"] is False and body["pause_request"] is None
    assert lines(client, room_id)[-1] == "Cy refused to pause the game; it goes on"
    assert code(client.post(f"/api/rooms/{room_id}/pause/approve", headers=auth(cy))) == "invalid_request"


def test_gone_players_and_bots_are_not_waited_for(client: TestClient) -> None:
    room_id, (ann, bo, cy) = seated_match(client, players=3)
    gone(client, room_id, 2, 3600)  # Cy has been gone an hour
    body = pause(client, room_id, ann)
    assert body["pause_request"]["waiting_for"] == [1]
    # Cy, gone when it was asked, does not answer it.
    assert code(client.post(f"/api/rooms/{room_id}/pause/approve", headers=auth(cy))) == "forbidden"
    assert pause(client, room_id, bo, "pause/approve")["paused"] is True

    made = new_room(client)
    solo, token = made.room_id, made.token
    client.post(f"/api/rooms/{solo}/bots", json={"count": 1}, headers=auth(token))
    assert client.post(f"/api/rooms/{solo}/start", headers=auth(token)).status_code == 200
    body = pause(client, solo, token)  # the bot agrees: the game pauses at once
    assert body["paused"] is True
    assert lines(client, solo)[-1] == "Ann paused the game: no clocks and no alerts until someone resumes"


def test_pausing_needs_a_match_in_play(client: TestClient) -> None:
    room_id, (ann, _bo) = seated_match(client, start=False)
    assert code(client.post(f"/api/rooms/{room_id}/pause", headers=auth(ann))) == "not_started"


def test_the_clock_stops_while_paused_and_restarts_on_resume(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id, (ann, bo) = seated_match(client, clock=60)
    pause(client, room_id, ann)
    pause(client, room_id, bo, "pause/approve")
    # Ann is to act; her minute would have run out long ago: nobody may let a bot play for her.
    age(client, room_id, 3600)
    room = client.get(f"/api/rooms/{room_id}").json()
    assert room["paused"] is True and room["deadline"] is None
    refused = client.post(f"/api/rooms/{room_id}/seats/0/bot", headers=auth(bo))
    assert code(refused) == "forbidden" and "paused" in refused.json()["error"]["message"]
    # Gone for good while paused: still no stand-in, no removal.
    monkeypatch.setattr(client.app.state.runtime.times, "gone_after", 0.0)  # type: ignore[attr-defined]
    assert code(client.post(f"/api/rooms/{room_id}/seats/0/bot", headers=auth(bo))) == "forbidden"
    assert code(client.post(f"/api/rooms/{room_id}/seats/1/remove", headers=auth(ann))) == "forbidden"
    monkeypatch.setattr(client.app.state.runtime.times, "gone_after", 120.0)  # type: ignore[attr-defined]
    # Moves are still accepted while paused.
    card = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()["legal_actions"][0]
    assert (
        client.post(f"/api/rooms/{room_id}/actions", json={"action": card}, headers=auth(ann)).status_code
        == 200
    )
    age(client, room_id, 3600)
    # Resumed: Bo, now to act, gets his whole minute from the resume, not from the old move.
    before = time.time()
    room = pause(client, room_id, ann, "resume")
    from datetime import datetime

    due = datetime.fromisoformat(room["deadline"]).timestamp()
    assert before + 55 <= due <= time.time() + 61
    assert code(client.post(f"/api/rooms/{room_id}/seats/1/bot", headers=auth(ann))) == "forbidden"
    # Once the minute is over again, the others may let a bot play.
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as session:
        session.execute(
            update(Room).where(Room.id == room_id).values(resumed_at=utcnow() - timedelta(seconds=120))
        )
    assert client.post(f"/api/rooms/{room_id}/seats/1/bot", headers=auth(ann)).status_code == 200


def test_the_pause_gate_holds_alerts_back(client: TestClient) -> None:
    room_id, (ann, bo) = seated_match(client)
    gate = PauseGate(client.app.state.runtime.db)  # type: ignore[attr-defined]
    alert = Alert(room_id, 1, "turn", "Tiny", "Tiny: your turn", "Ann played.", f"/r/{room_id}")
    assert asyncio.run(gate.allows(alert, time.time())) is True
    pause(client, room_id, ann)
    assert asyncio.run(gate.allows(alert, time.time())) is True  # asked is not paused
    pause(client, room_id, bo, "pause/approve")
    assert asyncio.run(gate.allows(alert, time.time())) is False
    pause(client, room_id, bo, "resume")
    assert asyncio.run(gate.allows(alert, time.time())) is True


def test_a_player_who_leaves_is_not_waited_for(client: TestClient) -> None:
    room_id, (ann, bo, cy) = seated_match(client, players=3)
    pause(client, room_id, ann)
    pause(client, room_id, bo, "pause/approve")
    # Cy, the last one it waits for, leaves: a bot agrees in his place, and the game pauses.
    assert client.post(f"/api/rooms/{room_id}/leave", headers=auth(cy)).status_code == 200
    room = client.get(f"/api/rooms/{room_id}").json()
    assert room["paused"] is True and room["pause_request"] is None
    assert lines(client, room_id)[-1].startswith("The game is paused (asked by Ann, agreed by Bo)")
    pause(client, room_id, bo, "resume")
    # The asker leaves: the request goes with them.
    pause(client, room_id, bo)
    assert client.post(f"/api/rooms/{room_id}/leave", headers=auth(bo)).status_code == 200
    room = client.get(f"/api/rooms/{room_id}").json()
    assert room["paused"] is False and room["pause_request"] is None


def test_an_unanswered_request_lapses(client: TestClient) -> None:
    room_id, (ann, bo) = seated_match(client)
    body = pause(client, room_id, ann)
    expires = body["pause_request"]["expires"]
    from datetime import datetime

    assert 890 <= (datetime.fromisoformat(expires) - utcnow()).total_seconds() <= 900
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as session:
        room = session.get(Room, room_id)
        assert room is not None and room.pause_request is not None
        room.pause_request = {**room.pause_request, "expires": (utcnow() - timedelta(seconds=1)).isoformat()}
    assert client.get(f"/api/rooms/{room_id}").json()["pause_request"] is None
    assert code(client.post(f"/api/rooms/{room_id}/pause/approve", headers=auth(bo))) == "invalid_request"
    assert pause(client, room_id, bo)["pause_request"]["by"] == 1  # may be asked again


def test_a_pause_flood_never_pushes_the_players_messages_out_of_the_chat(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: a player alone at the table paused and resumed 120 times in 2.7 s, and the chat's last
    100 messages became table lines. Table lines are kept apart from what people wrote now, and the
    flood itself is refused past a few changes (429 with Retry-After)."""
    from app.playing.pause import CHANGE_BURST
    from app.ratelimit import Buckets
    from app.services.people import chat

    room_id, (ann, bo) = seated_match(client, players=2)
    said = []
    for n in range(3):
        written = client.post(f"/api/rooms/{room_id}/chat", json={"text": f"gg {n}"}, headers=auth(bo))
        assert written.status_code == 201
        said.append(written.json())
    # Ann is alone at the table: her pause needs nobody's consent. A few changes pass, then slow down.
    gone(client, room_id, 1, 3600)
    answers = [
        client.post(f"/api/rooms/{room_id}/{'pause' if n % 2 == 0 else 'resume'}", headers=auth(ann))
        for n in range(CHANGE_BURST + 2)
    ]
    assert [a.status_code for a in answers] == [200] * CHANGE_BURST + [429, 429]
    assert code(answers[-1]) == "rate_limited" and int(answers[-1].headers["retry-after"]) > 0
    assert len(lines(client, room_id)) == CHANGE_BURST, "a refused change writes no line"

    # Past the limit (as many processes would let through), the table's lines still never push out
    # the people's messages. (Fewer kept of each, so a few dozen lines are a flood.)
    client.app.state.runtime.pauses.changing = Buckets(0, 1)  # type: ignore[attr-defined]
    monkeypatch.setattr(chat, "CHAT_KEPT", 5)
    monkeypatch.setattr(chat, "TABLE_LINES_KEPT", 8)
    for n in range(2 * (chat.CHAT_KEPT + chat.TABLE_LINES_KEPT)):
        pause(client, room_id, ann, "pause" if n % 2 == 0 else "resume")
    messages = client.get(f"/api/rooms/{room_id}/chat").json()["messages"]
    assert [m for m in messages if m["kind"] == "chat"] == said
    table = [m for m in messages if m["kind"] == "seat"]
    assert len(table) == chat.TABLE_LINES_KEPT
    assert table[-1]["text"] == "Ann resumed the game: the clocks run again"
    assert [m["id"] for m in messages] == sorted(m["id"] for m in messages), "one log, oldest first"
