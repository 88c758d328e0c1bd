"""Every body a client receives about a match and its room: each viewer's state body (the waiting one
before the deal), the room body and the action log. engine.view is the only way a state reaches them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.db import Database
from app.models import ActionRow, Match, Room, Seat
from app.realtime.presence import Presence
from app.services import matches, people, rooms
from app.services.cache import StateCache
from app.services.seats import Seats
from engines.core import get_engine, json_copy

Body = dict[str, Any]


def state_bodies(
    game: str, state: Any, version: int, status: str, seats: Iterable[int | None]
) -> dict[int | None, Body]:
    """The state body of each of `seats` (one per viewer of a move's fan-out). What all viewers share,
    who is to act and the result, is worked out once; each body still gets its own lists."""
    engine = get_engine(game)
    to_act = sorted(engine.to_act(state))
    result = engine.result(state)
    result_json = result.to_json() if result is not None else None
    return {
        seat: {
            "version": version,
            "status": status,
            "seat": seat,
            "to_act": list(to_act),
            # A seat outside to_act may still have optional actions (Mokuru's Immunity, Steal a Trick).
            "legal_actions": engine.legal_actions(state, seat) if seat is not None and to_act else [],
            "view": engine.view(state, seat),
            "result": json_copy(result_json),
        }
        for seat in seats
    }


def state_body(game: str, state: Any, version: int, status: str, seat: int | None) -> Body:
    """The GET /state body for `seat`: seat-specific data only ever comes from engine.view."""
    return state_bodies(game, state, version, status, {seat})[seat]


def applied_body(applied: matches.Applied) -> Body:
    """The body the player who made a move is answered with."""
    return state_body(applied.game, applied.state, applied.version, applied.status, applied.seat)


def waiting_body(seat: int | None) -> Body:
    return {
        "version": 0,
        "status": "waiting",
        "seat": seat,
        "to_act": [],
        "legal_actions": [],
        "view": {},
        "result": None,
    }


def room_body(
    session: Session,
    room: Room,
    match: Match | None,
    state: Any,
    connected: set[int],
    times: people.Times,
) -> Body:
    seats = session.scalars(select(Seat).where(Seat.room_id == room.id).order_by(Seat.seat)).all()
    scorepad = get_engine(room.game).scorepad(state).to_json() if state is not None else None
    due = people.deadline(session, room, match)
    return {
        "room_id": room.id,
        "game": room.game,
        "options": match.options if match is not None else room.options,
        "status": rooms.status_of(match),
        "host_seat": room.host_seat,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "connected": s.bot or s.seat in connected,
                "stand_in": s.stand_in,
                "away_since": None if s.bot or s.seat in connected else people.away_since(s).isoformat(),
            }
            for s in seats
        ],
        "version": match.version if match is not None else 0,
        "scorepad": scorepad or {"rounds": [], "totals": []},
        "rematch": room.rematch_id,
        "clock": room.clock,
        "deadline": due.isoformat() if due is not None else None,
        "gone_after": times.gone_after,
        "chat_spectators": room.chat_spectators,
        "seat_requests": people.open_requests(session, room, match, connected, times),
    }


def log_body(session: Session, room_id: str, viewer: int | None) -> Body:
    match = matches.current_match(session, room_id)
    if match is None:
        return {"seed_commitment": None, "entries": []}
    engine = get_engine(match.game)
    finished = match.status == "finished"
    rows = session.scalars(select(ActionRow).where(ActionRow.match_id == match.id).order_by(ActionRow.seq))
    body: Body = {
        "seed_commitment": match.seed_commitment,
        "entries": [
            {
                "seq": row.seq,
                "seat": row.seat,
                "action": row.action if finished else engine.public_action(row.action, row.seat, viewer),
                "at": row.created_at.isoformat(),
            }
            for row in rows
        ],
    }
    if finished:
        body.update(seed=match.seed, players=match.players, options=match.options)
    return body


class Views:
    """Reads the bodies above for a room: from the state this process holds where it can."""

    def __init__(
        self, db: Database, cache: StateCache, seats: Seats, presence: Presence, times: people.Times
    ) -> None:
        self.db = db
        self.cache = cache
        self.seats = seats
        self.presence = presence
        self.times = times

    async def room(self, room_id: str) -> Body:
        connected = await self.presence.connected(room_id)
        return await run_in_threadpool(self.room_with, room_id, connected)

    def room_with(self, room_id: str, connected: set[int]) -> Body:
        """The room body; `connected`: the seats with a live socket, as presence knows them."""
        with self.db.read() as session:
            room = rooms.find_room(session, room_id)
            match = matches.current_match(session, room_id)
            state = matches.load_state(session, match, self.cache) if match is not None else None
            return room_body(session, room, match, state, connected, self.times)

    def state(self, room_id: str, token: str | None) -> Body:
        seat = self.seats.seat_of(room_id, token)
        return self.state_bodies(room_id, {seat})[seat]

    def state_bodies(self, room_id: str, seats: set[int | None]) -> dict[int | None, Body]:
        """The current state body of each seat, all at one version."""
        with self.db.read() as session:
            room = rooms.find_room(session, room_id)
            match = matches.current_match(session, room_id)
            if match is None:
                return {seat: waiting_body(seat) for seat in seats}
            state = matches.load_state(session, match, self.cache)
            # Both from the match row: on PostgreSQL the room row was read a statement earlier and may
            # predate the move that finished the match.
            version, status = match.version, match.status
        return state_bodies(room.game, state, version, status, seats)

    async def read_state_bodies(self, room_id: str, seats: set[int | None]) -> dict[int | None, Body]:
        return await run_in_threadpool(self.state_bodies, room_id, seats)

    def bodies_after(self, move: dict[str, Any], seats: set[int | None]) -> dict[int | None, Body] | None:
        """Each viewer's body after a published move, from the state held in memory: cached, or the
        cached state one version before with the move replayed (engines are deterministic). None:
        not held here, read the database."""
        match_id, game, version = move["match"], move["game"], move["version"]
        cached = self.cache.get(match_id)
        if cached is None or cached[0] not in (version, version - 1):
            return None
        state = cached[1]
        if cached[0] == version - 1:
            engine = get_engine(game)
            try:
                state = engine.apply(state, move["seat"], move["action"])
            except Exception:
                return None
            self.cache.put(match_id, version, state)
        return state_bodies(game, state, version, move["status"], seats)

    def log(self, room_id: str, token: str | None) -> Body:
        seat = self.seats.seat_of(room_id, token)
        with self.db.read() as session:
            return log_body(session, room_id, seat)
