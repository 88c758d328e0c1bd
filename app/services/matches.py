"""Matches: load the live state, apply actions inside the caller's transaction, verify a finished match."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from app.db import Prepared
from app.errors import AppError
from app.i18n import N_
from app.models import ActionRow, Match, Room, ScoreRow, Snapshot, utcnow
from app.services import outbox
from app.services.cache import StateCache
from engines.core import EngineError, ReplayError, Result, Scorepad, get_engine, replay_states
from engines.core import seed_commitment as seed_commitment  # rooms.py imports it from here
from engines.core.takeback import History, taken_back


@dataclass(frozen=True)
class Applied:
    """An applied action: what the caller needs to answer and to tell the other viewers."""

    match_id: int
    game: str
    seat: int
    version: int
    state: Any
    # A round or the match ended, so the room body (scorepad, status) changed too.
    scored: bool
    # The action applied (other processes replay it on the state they hold).
    action: Any = None
    # The match's status after it: "playing" or "finished" (status_after).
    status: str = "playing"
    # The state before it (whether it may be taken back is decided from both, app/playing/takebacks.py).
    before: Any = None


@dataclass(frozen=True)
class Computed:
    """A move worked out on a state held in memory that the fast path could not write (the engine
    refused it, or it ends a round or the match): the reading path takes it over when the match is
    still at `version`, so the engine applies a move once."""

    match_id: int
    version: int
    state: Any
    # The state the move leads to; None when the engine refused the move (`refused` says why).
    after: Any
    refused: EngineError | None = None


def status_after(result: Result | None) -> str:
    """A started match's status: the one place "finished" is decided (the engine has a result). It is
    stored on the match row when the move is applied, and every body reads it from there or from here."""
    return "finished" if result is not None else "playing"


_MATCH = select(Match).where(Match.room_id == bindparam("room_id"))
# Serialises writers on PostgreSQL; SQLite already holds its write lock (BEGIN IMMEDIATE).
_MATCH_LOCKED = _MATCH.with_for_update()


def current_match(session: Session, room_id: str, *, lock: bool = False) -> Match | None:
    return session.scalars(_MATCH_LOCKED if lock else _MATCH, {"room_id": room_id}).one_or_none()


def load_state(session: Session, match: Match, cache: StateCache) -> Any:
    """The state at `match.version`: the cached one, or the latest snapshot with later actions replayed."""
    cached = cache.get(match.id)
    if cached is not None and cached[0] == match.version:
        return cached[1]
    start = cached if cached is not None and cached[0] < match.version else None
    state = state_at(session, match, match.version, start)
    cache.put(match.id, match.version, state)
    return state


def state_at(session: Session, match: Match, version: int, start: tuple[int, Any] | None = None) -> Any:
    """The state at `version` (at most the match's): from `start` (a (version, state) held in memory) or
    the latest snapshot at or before it, with the later log entries replayed (takebacks included)."""
    engine = get_engine(match.game)
    if start is not None and start[0] <= version:
        rows = _rows(session, match.id, start[0], version)
        # A takeback first needs the state before `start`, which is not held: read from a snapshot.
        if not rows or taken_back(rows[0].action) is None:
            return _replayed(engine, start[1], rows)
    snapshot = session.scalars(
        select(Snapshot)
        .where(Snapshot.match_id == match.id, Snapshot.version <= version)
        .order_by(Snapshot.version.desc())
        .limit(1)
    ).one()
    # No takeback ever follows a snapshot: an action that wrote one (it ended a round) cannot be taken
    # back (docs/playing.md, "Takeback").
    return _replayed(engine, engine.load(snapshot.state), _rows(session, match.id, snapshot.version, version))


def _rows(session: Session, match_id: int, first: int, version: int) -> list[ActionRow]:
    return list(
        session.scalars(
            select(ActionRow)
            .where(ActionRow.match_id == match_id, ActionRow.seq >= first, ActionRow.seq < version)
            .order_by(ActionRow.seq)
        )
    )


def _replayed(engine: Any, state: Any, rows: list[ActionRow]) -> Any:
    history = History(engine, state)
    for row in rows:
        history.apply(row.seat, row.action)
    return history.state


# Built once: what a move writes on the reading path, and a round's end (a move in twenty or so).
_ROUNDS_STORED = select(func.count(func.distinct(ScoreRow.round))).where(
    ScoreRow.match_id == bindparam("match_id")
)
_INSERT_SCORE = insert(cast(Table, ScoreRow.__table__))
_INSERT_ACTION = insert(cast(Table, ActionRow.__table__))
_INSERT_SNAPSHOT = insert(cast(Table, Snapshot.__table__))


def _action_row(match_id: int, seq: int, seat: int, action: Any, at: datetime) -> dict[str, Any]:
    """The action log's row for one move, as both paths insert it (`_INSERT_ACTION`)."""
    return {"match_id": match_id, "seq": seq, "seat": seat, "action": action, "created_at": at}


def record_scores(session: Session, match_id: int, scorepad: Scorepad) -> None:
    """Add the scorepad rows of rounds finished since the last call."""
    stored = session.scalar(_ROUNDS_STORED, {"match_id": match_id}) or 0
    rows = [
        {"match_id": match_id, "round": index, "seat": seat, "points": int(p)}
        for index, points in enumerate(scorepad.rounds[stored:], start=stored + 1)
        for seat, p in enumerate(points)
    ]
    if rows:
        session.connection().execute(_INSERT_SCORE, rows)


def apply_action(
    session: Session,
    room_id: str,
    seat: int,
    action: Any,
    expected_version: int | None,
    cache: StateCache,
    pending: dict[int, tuple[int, Any]] | None = None,
    computed: Computed | None = None,
) -> Applied:
    """Apply `action` by `seat` inside the caller's transaction; raises AppError having written nothing.
    `pending`: states this transaction has reached but not committed yet, by match id; `computed`:
    the move as the fast path already worked it out, used when the match is at its version."""
    match = current_match(session, room_id, lock=True)
    if match is None:
        # A room deleted since its seat was remembered (retention) is gone, not waiting.
        if session.get(Room, room_id) is None:
            raise AppError("not_found", N_("no room '%(room)s'"), room=room_id)
        raise AppError("not_started", N_("the match has not started yet"))
    if expected_version is not None and expected_version != match.version:
        raise AppError(
            "stale_version",
            N_("the match is at version %(version)s, not %(expected)s"),
            version=match.version,
            expected=expected_version,
        )
    engine = get_engine(match.game)
    if computed is not None and computed.match_id == match.id and computed.version == match.version:
        if computed.refused is not None:
            raise AppError.from_engine(computed.refused)
        state, new_state = computed.state, computed.after
    else:
        ahead = pending.get(match.id) if pending is not None else None
        state = (
            ahead[1] if ahead is not None and ahead[0] == match.version else load_state(session, match, cache)
        )
        try:
            new_state = engine.apply(state, seat, action)
        except EngineError as error:
            raise AppError.from_engine(error) from None
    version = match.version + 1
    now = utcnow()
    session.connection().execute(_INSERT_ACTION, _action_row(match.id, match.version, seat, action, now))
    new_round = engine.round_number(new_state)
    result = engine.result(new_state)
    values: dict[str, Any] = {"version": version, "round": new_round}
    scored = new_round != match.round or result is not None
    if scored:
        snapshot = {
            "match_id": match.id,
            "version": version,
            "round": new_round,
            "state": engine.dump(new_state),
            "created_at": now,
        }
        session.connection().execute(_INSERT_SNAPSHOT, snapshot)
        record_scores(session, match.id, engine.scorepad(new_state))
    status = status_after(result)
    if status == "finished":
        values.update(status=status, finished_at=now)
        # The end's alerts are written with the move that ends it: a crash cannot lose them.
        outbox.record(session, room_id, "finished", match.id)
    changed = session.execute(
        update(Match).where(Match.id == match.id, Match.version == match.version).values(**values)
    )
    if changed.rowcount != 1:  # type: ignore[attr-defined]
        raise AppError("stale_version", N_("another action was applied first; fetch the state and retry"))
    return Applied(match.id, match.game, seat, version, new_state, scored, action, status, state)


# Built once: the per-move statements of the fast path below.
_MATCHES = cast(Table, Match.__table__)
# The fast path's two statements, run on the driver's cursor (app/db.py Prepared).
_ADVANCE = Prepared(
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("m_id"), _MATCHES.c.version == bindparam("m_version"))
    .values(version=bindparam("m_next"), round=bindparam("m_round"))
)
_APPEND_ACTION = Prepared(_INSERT_ACTION, ["match_id", "seq", "seat", "action", "created_at"])


def apply_known(
    connection: Connection,
    match_id: int,
    game: str,
    known: tuple[int, Any],
    seat: int,
    action: Any,
    expected: int | None,
) -> tuple[Applied, dict[str, Any]] | Computed | None:
    """Apply `action` to the state this process holds at version `known[0]`, with no read: the
    UPDATE ... WHERE version = known checks the version. Returns the applied move and its action row
    (for the caller to insert); or, with nothing written, what the reading path must finish: the move
    as computed here (the engine refused it, or it ends a round or the match), or None when the
    database is ahead of what is known."""
    version, state = known
    if expected is not None and expected != version:
        return None
    engine = get_engine(game)
    try:
        new_state = engine.apply(state, seat, action)
    except EngineError as error:
        # Refusals are worded by the reading path, which also knows the match is not over, etc.
        return Computed(match_id, version, state, None, error)
    new_round = engine.round_number(new_state)
    result = engine.result(new_state)
    # A finished match or a new round writes a snapshot and scores: the reading path does that.
    if status_after(result) != "playing" or new_round != engine.round_number(state):
        return Computed(match_id, version, state, new_state)
    advanced = _ADVANCE.run(
        connection, {"m_id": match_id, "m_version": version, "m_next": version + 1, "m_round": new_round}
    )
    if advanced != 1:
        return None
    row = _action_row(match_id, version, seat, action, utcnow())
    return Applied(match_id, game, seat, version + 1, new_state, False, action, before=state), row


def insert_actions(connection: Connection, rows: list[dict[str, Any]]) -> None:
    if rows:
        _APPEND_ACTION.run_many(connection, rows)


def _stored(dump: dict[str, Any]) -> Any:
    """A state dump as it reads back from a JSON column (tuples become lists)."""
    return json.loads(json.dumps(dump))


def verify_match(session: Session, room_id: str) -> list[str]:
    """Replay a finished match from its revealed seed; the problems found (none: the match is sound)."""
    match = current_match(session, room_id)
    if match is None:
        return [f"room {room_id} has no match"]
    if match.status != "finished":
        return [f"the match in room {room_id} is not finished"]
    problems = []
    if seed_commitment(match.seed) != match.seed_commitment:
        problems.append("sha256(seed) does not match the seed commitment")
    engine = get_engine(match.game)
    snapshots = {
        s.version: s.state for s in session.scalars(select(Snapshot).where(Snapshot.match_id == match.id))
    }
    rows = list(
        session.scalars(select(ActionRow).where(ActionRow.match_id == match.id).order_by(ActionRow.seq))
    )
    for version, row in enumerate(rows, start=1):
        if row.seq != version:
            problems.append(f"action seq {row.seq} found where {version} was expected")
            return problems
    # The state at version v is the one before action seq v; setup is version 1.
    actions = [(row.seat, row.action) for row in rows]
    final = len(rows) + 1
    try:
        for version, state in enumerate(
            replay_states(engine, match.players, match.seed, match.options, actions), 1
        ):
            if version in snapshots and snapshots[version] != _stored(engine.dump(state)):
                where = "the final snapshot" if version == final else f"the snapshot at version {version}"
                problems.append(f"{where} differs from the replay")
    except ReplayError as error:
        problems.append(
            f"action seq {error.number} by seat {error.seat} is refused on replay: {error.error.message}"
        )
        return problems
    version = final
    if version != match.version:
        problems.append(f"the log replays to version {version}, the match is at {match.version}")
    if engine.result(state) is None:
        problems.append("the replayed match is not over")
    stored: dict[int, dict[int, int]] = {}
    for score in session.scalars(select(ScoreRow).where(ScoreRow.match_id == match.id)):
        stored.setdefault(score.round, {})[score.seat] = score.points
    rounds = [[stored[r][s] for s in sorted(stored[r])] for r in sorted(stored)]
    if rounds != engine.scorepad(state).rounds:
        problems.append("the stored scorepad differs from the replay")
    return problems
