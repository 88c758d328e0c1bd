"""Group commit: many rooms' moves in one transaction, each checked on its own, in order; a process
whose memory is behind the database never applies a move to the wrong state."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from app.config import Settings
from app.errors import AppError
from app.models import ActionRow, Match, Seat
from app.playing.writer import Writer
from app.runtime import Runtime
from app.services import lookup
from app.services.matches import Applied
from app.services.moves import Closed, Move
from app.services.people import aware
from engines.core import get_engine
from tests.rooms import seated_match

from .conftest import act


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
    a, _ = seated_match(client)
    b, _ = seated_match(client)
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
    room_id, (host, guest) = seated_match(client)
    other = Runtime(Settings(database_url=runtime.db.url))
    try:
        _held(other, room_id)
        tokens = {0: host, 1: guest}
        engine = get_engine("tiny")
        for _ in range(2):
            body = views.state(room_id, None)
            seat = body["to_act"][0]
            act(moves, room_id, tokens[seat], views.state(room_id, tokens[seat])["legal_actions"][0])
        body = views.state(room_id, None)
        seat = body["to_act"][0]
        action = views.state(room_id, tokens[seat])["legal_actions"][0]
        current_version, current = _held(runtime, room_id)
        assert current_version == body["version"] == 3
        applied = act(other.moves, room_id, tokens[seat], action, body["version"])
        assert applied.version == 4
        # The move went onto the stored version 3, not onto the version 1 the process held.
        assert engine.dump(applied.state) == engine.dump(engine.apply(current, seat, action))
        # Behind again, and this time the move names no version: the UPDATE ... WHERE version finds
        # the database ahead, and the move goes onto the stored state.
        body = views.state(room_id, None)
        seat = body["to_act"][0]
        act(moves, room_id, tokens[seat], views.state(room_id, tokens[seat])["legal_actions"][0])
        current_version, current = _held(runtime, room_id)
        seat = min(engine.to_act(current))
        action = engine.legal_actions(current, seat)[0]
        applied = act(other.moves, room_id, tokens[seat], action)
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


@pytest.mark.asyncio
async def test_a_move_whose_caller_went_away_is_still_applied_and_answered_to_nobody() -> None:
    """A socket that closes while its move waits in the writer's queue cancels only its wait: the
    move is applied with its batch all the same (the writer never takes it out)."""
    started, release = threading.Event(), threading.Event()
    applied: list[Any] = []

    def slow(moves: list[Move]) -> list[Applied | Exception]:
        started.set()
        release.wait(5)
        applied.extend(moves)
        return [RuntimeError("not a real move")] * len(moves)

    writer = Writer(slow)
    try:
        first = asyncio.create_task(writer.submit(Move("r", 0, {"n": 1}, None)))
        await asyncio.to_thread(started.wait, 5)  # the first batch is under way
        gone = asyncio.create_task(writer.submit(Move("r", 0, {"n": 2}, None)))
        await asyncio.sleep(0.05)  # queued behind it
        gone.cancel()
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await gone
        with pytest.raises(RuntimeError):
            await first
        for _ in range(100):
            if len(applied) == 2:
                break
            await asyncio.sleep(0.02)
    finally:
        release.set()
        await writer.stop()
    assert [m.action for m in applied] == [{"n": 1}, {"n": 2}]


def _raise_epoch(runtime: Any, room_id: str) -> int:
    """Raise the room's seat epoch in the database, as a seat change does, telling no process."""
    with runtime.db.transaction() as session:
        room = lookup.find_room(session, room_id)
        lookup.bump_epoch(room)
        return int(room.seat_epoch)


def test_a_newer_seat_epoch_drops_what_was_remembered_at_an_older_one(client: TestClient) -> None:
    runtime = _runtime(client)
    seats = runtime.seats
    room_id, (host, _guest) = seated_match(client)
    assert seats.player_seat(room_id, host) == 0 and seats.facts(room_id) is not None
    assert seats.known_seat(room_id, host) == 0 and seats.known_facts(room_id) is not None
    epoch = seats.known_facts(room_id).epoch  # type: ignore[union-attr]
    # The epoch it was read at, told again (an event of this process heard back): nothing dropped.
    assert seats.saw(room_id, epoch) is False
    assert seats.known_seat(room_id, host) == 0 and seats.known_facts(room_id) is not None
    assert seats.saw(room_id, epoch + 1) is True
    assert seats.known_seat(room_id, host) is None and seats.known_facts(room_id) is None
    # An unknown token is never remembered.
    with pytest.raises(AppError):
        seats.player_seat(room_id, "forged")
    assert seats.known_seat(room_id, "forged") is None
    # A deleted room: everything of it dropped.
    assert seats.player_seat(room_id, host) == 0
    assert seats.saw(room_id, None) is True and seats.known_seat(room_id, host) is None


def test_one_read_remembers_every_seat_of_the_room(client: TestClient) -> None:
    """The first socket's look-up reads every seat's token: the other players' sockets, opening next,
    and spectators of the room need no read. A token that holds no seat is still refused."""
    runtime = _runtime(client)
    seats = runtime.seats
    room_id, (host, guest) = seated_match(client)
    seats.saw(room_id, _raise_epoch(runtime, room_id))
    assert seats.seat_of(room_id, None) is None  # a spectator: the room is read once
    assert seats.known_seat(room_id, host) == 0 and seats.known_seat(room_id, guest) == 1
    reads: list[str] = []
    real_read = seats.db.read

    def counted() -> Any:
        reads.append("read")
        return real_read()

    seats.db.read = counted  # type: ignore[method-assign]
    try:
        assert seats.seat_of(room_id, guest) == 1 and seats.seat_of(room_id, None) is None
        assert reads == []
        with pytest.raises(AppError):
            seats.seat_of(room_id, "forged")
        assert reads == ["read"] and seats.known_seat(room_id, "forged") is None
    finally:
        seats.db.read = real_read  # type: ignore[method-assign]
    # A room this process does not know is read, and an unknown one refused, spectator or not.
    with pytest.raises(AppError):
        seats.seat_of("zzzzzzzz", None)


def test_a_read_that_found_an_older_epoch_than_one_seen_is_not_remembered(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token revoked (or a bot standing in) while another thread was reading the room: the change's
    epoch is heard before that read ends, so what the read found (from before the change) is used once
    and not kept; a later read, at the new epoch, is."""
    import app.services.seats as seats_module

    runtime = _runtime(client)
    seats = runtime.seats
    room_id, (host, _guest) = seated_match(client)
    other_room, _ = seated_match(client)
    real_token_seats, real_match = seats_module.token_seats, seats_module.matches.current_match

    # The change commits and its epoch is heard while a read is under way (the read found the
    # epoch from before it).
    def seats_then_change(session: Any, room: str) -> dict[str, int]:
        holders = real_token_seats(session, room)
        seats.saw(room, held_epoch[room] + 1)
        return holders

    def match_then_change(session: Any, room: str, lock: bool = False) -> Any:
        match = real_match(session, room, lock=lock)
        seats.saw(room, held_epoch[room] + 2)
        return match

    with runtime.db.read() as session:
        held_epoch = {room_id: lookup.seat_epoch(session, room_id)}
    monkeypatch.setattr(seats_module, "token_seats", seats_then_change)
    monkeypatch.setattr(seats_module.matches, "current_match", match_then_change)
    assert seats.player_seat(room_id, host) == 0
    assert seats.facts(room_id) is not None
    assert seats.known_seat(room_id, host) is None and seats.known_facts(room_id) is None
    monkeypatch.undo()
    # Once the database holds that epoch too, reads are remembered; another room is untouched.
    for _ in range(2):
        _raise_epoch(runtime, room_id)
    assert seats.player_seat(room_id, host) == 0 and seats.facts(room_id) is not None
    assert seats.known_seat(room_id, host) == 0 and seats.known_facts(room_id) is not None
    assert seats.facts(other_room) is not None
    seats.saw(room_id, held_epoch[room_id] + 3)
    assert seats.known_facts(other_room) is not None and seats.known_facts(room_id) is None


def test_sockets_opening_in_a_waiting_room_write_only_the_rooms_revision(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Players open the table before it starts: the only write is the room's revision, bumped for the
    presence change by the group commit's writer (sockets opening together share one bump; on SQLite
    a transaction per socket would queue behind the group commit for the write lock); no bot look-up
    is woken (no match, no bot turn); the seats' tokens are read once for every socket of the room."""
    from sqlalchemy import event

    runtime = _runtime(client)
    room_id, tokens = seated_match(client, "mojo", 3, start=False)
    statements: list[str] = []

    writers: set[str] = set()

    def seen(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        statements.append(" ".join(statement.split()[:2]))
        if statement.split()[0] in ("INSERT", "UPDATE", "DELETE"):
            writers.add(threading.current_thread().name)

    kicked: list[str] = []
    monkeypatch.setattr(runtime.master.bots, "kick", lambda room, *a, **k: kicked.append(room))
    event.listen(runtime.db.engine, "before_cursor_execute", seen)
    try:
        with contextlib.ExitStack() as stack:
            for seat, token in enumerate(tokens):
                socket = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}"))
                assert socket.receive_json()["state"]["seat"] is None
                socket.send_json({"type": "auth", "token": token})
                # The room body saying the last socket took its seat may come first, on a slow machine.
                snapshot = socket.receive_json()
                while snapshot["type"] == "room":
                    snapshot = socket.receive_json()
                assert snapshot["type"] == "snapshot" and snapshot["state"]["seat"] == seat
                assert snapshot["state"]["status"] == "waiting"
            # The room body saying every seat is here comes after each socket took its seat.
            while True:
                message = socket.receive_json()
                if message["type"] == "room" and all(s["connected"] for s in message["room"]["seats"]):
                    break
            opened = list(statements)
    finally:
        event.remove(runtime.db.engine, "before_cursor_execute", seen)
    writes = [s for s in opened if s.split()[0] in ("INSERT", "UPDATE", "DELETE")]
    assert writes and set(writes) == {"UPDATE rooms"} and len(writes) <= len(tokens)
    assert writers == {"motable-writer"}
    assert kicked == []
    assert opened.count("SELECT seats.seat,") == 1
    # Once started, a socket opening wakes the room's bots again.
    started = client.post(f"/api/rooms/{room_id}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert started.status_code == 200
    kicked.clear()
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={tokens[1]}") as socket:
        assert socket.receive_json()["state"]["status"] == "playing"
    assert room_id in kicked


def _last_seen(runtime: Runtime, room_id: str) -> dict[int, datetime | None]:
    with runtime.db.read() as session:
        seats = session.scalars(select(Seat).where(Seat.room_id == room_id))
        return {s.seat: None if s.last_seen is None else aware(s.last_seen) for s in seats}


def test_closed_sockets_are_marked_in_a_batch_of_moves(client: TestClient) -> None:
    """A closed socket's "away since" rides in the group commit's batch: the batch's moves commit
    together, then its closes together, each seat marked at the moment its socket closed, not when
    it was written."""
    from sqlalchemy import event

    runtime = _runtime(client)
    engine = get_engine("tiny")
    room_id, _ = seated_match(client)
    version, state = _held(runtime, room_id)
    seat = min(engine.to_act(state))
    early, late = datetime(2026, 1, 1, 12, tzinfo=UTC), datetime(2026, 1, 2, 12, tzinfo=UTC)
    commits: list[str] = []

    def count(_conn: Any) -> None:
        commits.append(threading.current_thread().name)

    event.listen(runtime.db.engine, "commit", count)
    try:
        results = runtime.moves.apply_moves(
            [
                Closed(room_id, 0, early),
                Move(room_id, seat, engine.legal_actions(state, seat)[0], version),
                Closed(room_id, 1, late),
            ]
        )
    finally:
        event.remove(runtime.db.engine, "commit", count)
    assert results[0] is None and isinstance(results[1], Applied) and results[2] is None
    # This thread's: the server's own background work may commit meanwhile. One for the moves, one
    # for the two closes.
    assert commits.count(threading.current_thread().name) == 2
    assert _last_seen(runtime, room_id) == {0: early, 1: late}


def test_a_failed_close_mark_fails_only_the_closes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The closes are written apart from the moves: when their write fails, the batch's move is
    still committed and answered, and each close hears why."""
    from app.services import people

    runtime = _runtime(client)
    engine = get_engine("tiny")
    room_id, _ = seated_match(client)
    version, state = _held(runtime, room_id)
    seat = min(engine.to_act(state))

    def broken(*_args: Any) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(people, "seen", broken)
    results = runtime.moves.apply_moves(
        [
            Closed(room_id, 0, datetime.now(UTC)),
            Move(room_id, seat, engine.legal_actions(state, seat)[0], version),
        ]
    )
    assert isinstance(results[0], RuntimeError) and isinstance(results[1], Applied)
    assert client.get(f"/api/rooms/{room_id}/state").json()["version"] == version + 1


def test_a_closing_socket_marks_its_seat_on_the_writer_thread(client: TestClient) -> None:
    """A socket that closes writes when its player was last seen, through the writer (no transaction
    of its own on a worker thread)."""
    from sqlalchemy import event

    runtime = _runtime(client)
    room_id, tokens = seated_match(client)
    threads: list[str] = []

    def watch(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if statement.startswith("UPDATE seats SET last_seen"):
            threads.append(threading.current_thread().name)

    before = _last_seen(runtime, room_id)
    event.listen(runtime.db.engine, "before_cursor_execute", watch)
    try:
        with client.websocket_connect(f"/ws/rooms/{room_id}") as socket:
            socket.receive_json()
            socket.send_json({"type": "auth", "token": tokens[1]})
            assert socket.receive_json()["state"]["seat"] == 1
            opened = datetime.now(UTC)
        for _ in range(100):  # the close is handled, and committed, once the client has gone
            after = _last_seen(runtime, room_id)
            if after[1] != before[1]:
                break
            time.sleep(0.02)
    finally:
        event.remove(runtime.db.engine, "before_cursor_execute", watch)
    assert threads == ["motable-writer"]
    assert after[0] == before[0]
    marked = after[1]
    assert marked is not None and opened <= marked <= datetime.now(UTC)


class _DiskFull(Exception):
    pass


def test_a_failed_close_mark_still_tells_the_room_the_player_left(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the "away since" write fails, the other players still see the seat go: the room body is
    pushed all the same (only the stored moment is missing), and the failure reaches the caller."""
    import json

    from app.services import people

    from .players import InProcessSocket

    runtime = _runtime(client)
    room_id, tokens = seated_match(client)
    portal = client.portal  # type: ignore[attr-defined]
    written = people.seen

    def broken(*_args: Any) -> None:
        raise _DiskFull("the disk is full")

    with client.websocket_connect(f"/ws/rooms/{room_id}?token={tokens[0]}") as staying:
        watcher = InProcessSocket(staying)

        def seat_one_connected() -> bool:
            while True:
                message = json.loads(watcher.recv(timeout=5))
                if message["type"] == "room":
                    return bool(message["room"]["seats"][1]["connected"])

        # Seat 1's socket opens and closes as the socket handler would tell the playing layer
        # (called here, so the close is not cut short by the test client cancelling its handler).
        portal.call(runtime.master.connect, room_id, 1)
        while not seat_one_connected():
            pass
        monkeypatch.setattr(people, "seen", broken)
        with pytest.raises(_DiskFull):
            portal.call(runtime.master.disconnect, room_id, 1)
        monkeypatch.setattr(people, "seen", written)  # seat 0's own close writes as usual
        while seat_one_connected():  # times out (fails) if no room body says seat 1 has gone
            pass


def test_a_move_the_fast_path_cannot_write_is_applied_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused move and a move that ends the match are worked out on the state held in memory and
    finished by the reading path (which words refusals and writes the end): the engine applies each
    once, not once per path."""
    runtime = _runtime(client)
    engine = get_engine("tiny")
    room_id, _ = seated_match(client, rounds=1)
    version, state = _held(runtime, room_id)
    applied_by_engine: list[Any] = []
    real_apply = type(engine).apply

    def counting_apply(self: Any, state: Any, seat: int, action: Any) -> Any:
        applied_by_engine.append(action)
        return real_apply(self, state, seat, action)

    monkeypatch.setattr(type(engine), "apply", counting_apply)
    mover = min(engine.to_act(state))
    other = 1 - mover
    out_of_turn = Move(room_id, other, engine.legal_actions(state, mover)[0], version)
    refused = runtime.moves.apply_moves([out_of_turn])
    assert isinstance(refused[0], AppError) and refused[0].code in ("not_your_turn", "illegal_action")
    assert len(applied_by_engine) == 1
    # Two cards each: the fourth move ends the only round, and the match.
    for _ in range(4):
        seat = min(engine.to_act(state))
        action = engine.legal_actions(state, seat)[0]
        applied_by_engine.clear()
        (done,) = runtime.moves.apply_moves([Move(room_id, seat, action, version)])
        assert isinstance(done, Applied), done
        assert applied_by_engine == [action]
        version, state = done.version, done.state
    assert done.status == "finished" and done.scored
    assert client.get(f"/api/rooms/{room_id}/state").json()["status"] == "finished"


def test_the_fast_paths_rows_read_back_as_the_orm_writes_them(client: TestClient) -> None:
    """The fast path writes on the driver's cursor (app/db.py Prepared): its action rows and the
    match's version read back exactly as rows written through the ORM do, on SQLite and PostgreSQL."""
    runtime = _runtime(client)
    engine = get_engine("tiny")
    room_id, _ = seated_match(client, rounds=3)
    version, state = _held(runtime, room_id)
    seat = min(engine.to_act(state))
    action = engine.legal_actions(state, seat)[0]
    (done,) = runtime.moves.apply_moves([Move(room_id, seat, action, version)])
    assert isinstance(done, Applied) and not done.scored, done  # a plain move: the fast path's
    with runtime.db.read() as session:
        match = session.get(Match, done.match_id)
        assert match is not None and match.version == version + 1
        rows = session.scalars(select(ActionRow).where(ActionRow.match_id == done.match_id)).all()
    row = next(r for r in rows if r.seq == version)
    assert (row.seat, row.action) == (seat, action)
    assert isinstance(row.created_at, datetime)
    # Within a minute of now, in the same zone as every other row's time (UTC).
    assert abs(aware(row.created_at) - datetime.now(UTC)).total_seconds() < 60


def test_the_group_commits_connection_is_kept_between_batches_and_renewed_after_a_failure(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Database.statements keeps one connection between transactions; one whose transaction failed
    is let go and the next batch gets a fresh one; dispose closes it."""
    db = _runtime(client).db
    with db.statements() as first:
        pass
    with db.statements() as again:
        assert again is first
    with pytest.raises(RuntimeError), db.statements() as failing:
        assert failing is first
        raise RuntimeError("a statement failed")
    assert first.closed
    with db.statements() as fresh:
        assert fresh is not first and not fresh.closed
    # Idle too long: a fresh checkout (a PostgreSQL restart is found out by the pool's ping).
    monkeypatch.setattr("app.db.HELD_IDLE", -1.0)
    with db.statements() as renewed:
        assert renewed is not fresh
    db.dispose()
    assert renewed.closed
