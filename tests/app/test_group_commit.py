"""Group commit: many rooms' moves in one transaction, each checked on its own, in order; a process
whose memory is behind the database never applies a move to the wrong state."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.errors import AppError
from app.playing.writer import Writer
from app.runtime import Runtime
from app.services.matches import Applied
from app.services.moves import Move
from engines.core import get_engine

from .test_api import started_room


def _runtime(client: TestClient) -> Runtime:
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    return runtime


def _held(runtime: Runtime, room_id: str) -> tuple[int, Any]:
    facts = runtime.seats.facts(room_id)
    assert facts is not None
    runtime.views.state(room_id, None)  # loads the state into memory
    held = runtime.cache.get(facts.match_id)
    assert held is not None
    return held


def test_one_batch_applies_each_move_on_its_own_in_order(client: TestClient) -> None:
    runtime = _runtime(client)
    engine = get_engine("tiny")
    a, _ = started_room(client)
    b, _ = started_room(client)
    version, state_a = _held(runtime, a)
    _, state_b = _held(runtime, b)
    seat_a = min(engine.to_act(state_a))
    first = engine.legal_actions(state_a, seat_a)[0]
    after = engine.apply(state_a, seat_a, first)
    seat_next = min(engine.to_act(after))
    second = engine.legal_actions(after, seat_next)[0]
    seat_b = min(engine.to_act(state_b))
    moves = [
        Move(a, seat_a, first, version),
        Move(b, seat_b, engine.legal_actions(state_b, seat_b)[0], version),
        # Builds on the first move of the batch, not yet committed when it is applied.
        Move(a, seat_next, second, version + 1),
        # Refused: room b moved on in this very batch.
        Move(b, seat_b, engine.legal_actions(state_b, seat_b)[0], version),
        # Refused: not this seat's turn.
        Move(a, seat_a, second, None),
    ]
    results = runtime.moves.apply_moves(moves)
    assert [type(r).__name__ for r in results] == ["Applied", "Applied", "Applied", "AppError", "AppError"]
    assert isinstance(results[3], AppError) and results[3].code == "stale_version"
    assert isinstance(results[4], AppError) and results[4].code in ("not_your_turn", "illegal_action")
    assert [r.version for r in results[:3] if isinstance(r, Applied)] == [2, 2, 3]
    log_a = client.get(f"/api/rooms/{a}/log").json()["entries"]
    log_b = client.get(f"/api/rooms/{b}/log").json()["entries"]
    assert [(e["seq"], e["seat"]) for e in log_a] == [(1, seat_a), (2, seat_next)]
    assert [(e["seq"], e["seat"]) for e in log_b] == [(1, seat_b)]
    assert client.get(f"/api/rooms/{a}/state").json()["version"] == 3


def test_a_process_whose_memory_is_behind_applies_to_the_stored_state(client: TestClient) -> None:
    """Two processes on one database: the second holds version 1 in memory while the first moved on."""
    runtime = _runtime(client)
    views, moves = runtime.views, runtime.moves
    room_id, (host, guest) = started_room(client)
    other = Runtime(Settings(database_url=runtime.db.url))
    try:
        _held(other, room_id)
        tokens = {0: host, 1: guest}
        engine = get_engine("tiny")
        for _ in range(2):
            body = views.state(room_id, None)
            seat = body["to_act"][0]
            moves.act(room_id, tokens[seat], views.state(room_id, tokens[seat])["legal_actions"][0])
        body = views.state(room_id, None)
        seat = body["to_act"][0]
        action = views.state(room_id, tokens[seat])["legal_actions"][0]
        current_version, current = _held(runtime, room_id)
        assert current_version == body["version"] == 3
        applied = other.moves.act(room_id, tokens[seat], action, body["version"])
        assert applied.version == 4
        # The move went onto the stored version 3, not onto the version 1 the process held.
        assert engine.dump(applied.state) == engine.dump(engine.apply(current, seat, action))
        # Behind again, and this time the move names no version: the UPDATE ... WHERE version finds
        # the database ahead, and the move goes onto the stored state.
        body = views.state(room_id, None)
        seat = body["to_act"][0]
        moves.act(room_id, tokens[seat], views.state(room_id, tokens[seat])["legal_actions"][0])
        current_version, current = _held(runtime, room_id)
        seat = min(engine.to_act(current))
        action = engine.legal_actions(current, seat)[0]
        applied = other.moves.act(room_id, tokens[seat], action)
        assert current_version == 5 and applied.version == 6
        assert engine.dump(applied.state) == engine.dump(engine.apply(current, seat, action))
        assert client.get(f"/api/rooms/{room_id}/state").json()["version"] == applied.version
        assert [e["seq"] for e in client.get(f"/api/rooms/{room_id}/log").json()["entries"]] == [
            1,
            2,
            3,
            4,
            5,
        ]
    finally:
        other.db.dispose()


@pytest.mark.asyncio
async def test_a_failed_commit_answers_every_move_of_the_batch() -> None:
    def failing(moves: list[Move]) -> list[Applied | Exception]:
        raise OSError("the disk is full")

    writer = Writer(failing)
    try:
        outcomes = await asyncio.gather(
            *(writer.submit(Move(f"r{i}", 0, {}, None)) for i in range(3)), return_exceptions=True
        )
    finally:
        await writer.stop()
    assert [type(o) for o in outcomes] == [OSError] * 3


def test_a_forgotten_room_is_looked_up_again(client: TestClient) -> None:
    runtime = _runtime(client)
    seats = runtime.seats
    room_id, (host, _guest) = started_room(client)
    assert seats.player_seat(room_id, host) == 0 and seats.facts(room_id) is not None
    assert seats.known_seat(room_id, host) == 0 and seats.known_facts(room_id) is not None
    seats.forget(room_id)
    assert seats.known_seat(room_id, host) is None and seats.known_facts(room_id) is None
    # An unknown token is never remembered.
    with pytest.raises(AppError):
        seats.player_seat(room_id, "forged")
    assert seats.known_seat(room_id, "forged") is None


def test_a_read_begun_before_a_forget_is_not_remembered(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token revoked (or a bot standing in) while another thread was reading the room: what that read
    found may be from before the change, so it is used once and not kept."""
    import app.services.seats as seats_module

    runtime = _runtime(client)
    seats = runtime.seats
    room_id, (host, _guest) = started_room(client)
    other_room, _ = started_room(client)
    seats.forget(room_id)
    real_seat_of, real_match = seats_module.seat_of, seats_module.matches.current_match

    def seat_then_forget(session: Any, room: str, token: str | None) -> int | None:
        seat = real_seat_of(session, room, token)
        seats.forget(room)  # the change commits and is heard while this read is under way
        return seat

    def match_then_forget(session: Any, room: str, lock: bool = False) -> Any:
        match = real_match(session, room, lock=lock)
        seats.forget(room)
        return match

    monkeypatch.setattr(seats_module, "seat_of", seat_then_forget)
    monkeypatch.setattr(seats_module.matches, "current_match", match_then_forget)
    assert seats.player_seat(room_id, host) == 0
    assert seats.facts(room_id) is not None
    assert seats.known_seat(room_id, host) is None and seats.known_facts(room_id) is None
    monkeypatch.undo()
    # Reads with no forget meanwhile are remembered, and forgetting one room keeps the others.
    assert seats.player_seat(room_id, host) == 0 and seats.facts(other_room) is not None
    seats.forget(room_id)
    assert seats.known_facts(other_room) is not None
