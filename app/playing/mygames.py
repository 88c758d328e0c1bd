"""The home page's "Your games": one compact summary per seat a browser holds, every room in one
request. Only what anyone may read of a room (its players, whose turn, the clock, the totals) plus
the seat's own facts (its name, whether it is to act) and the last move as that seat reads it in the log.
A token that holds no seat learns nothing about the room."""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from app.db import Database
from app.models import ActionRow, Match, Room, Seat, SeatMove, SeatRequest
from app.roomids import is_room_id
from app.services import matches, people, rooms
from app.services.auth import hash_token
from app.services.cache import StateCache
from engines.core import get_engine

Body = dict[str, Any]


def unknown(room_id: str, why: str = "unknown") -> Body:
    """What a token that holds no seat is told: nothing about the room but what became of that token."""
    return {"room_id": room_id, "found": False, "seat_status": why}


def _revoked(session: Session, room_id: str, wanted: str) -> str:
    """Why a token that once held a seat here stopped working ("moved", "left", "removed")."""
    reason = session.scalar(
        select(SeatMove.reason)
        .where(SeatMove.room_id == room_id, SeatMove.old_token_hash == wanted)
        .order_by(SeatMove.id.desc())
        .limit(1)
    )
    return reason or "unknown"


def _ids(value: Any, found: set[int]) -> set[int]:
    if isinstance(value, dict):
        for item in value.values():
            _ids(item, found)
    elif isinstance(value, list):
        for item in value:
            _ids(item, found)
    elif isinstance(value, int) and not isinstance(value, bool):
        found.add(value)
    return found


def _cards(value: Any, found: dict[int, Any]) -> dict[int, Any]:
    if isinstance(value, dict):
        card_id = value.get("id")
        if isinstance(card_id, int) and not isinstance(card_id, bool):
            found.setdefault(card_id, value)
        for item in value.values():
            _cards(item, found)
    elif isinstance(value, list):
        for item in value:
            _cards(item, found)
    return found


def public_cards(engine: Any, state: Any, action: Any) -> list[Any]:
    """The cards a move names that a spectator sees on the table now (a played card on its pile), so
    the list can say "played a red 5"; a card nobody but its holder sees is never among them."""
    wanted = _ids(action, set())
    if not wanted:
        return []
    shown = _cards(engine.view(state, None), {})
    return [shown[card_id] for card_id in sorted(wanted) if card_id in shown]


@dataclass
class Rooms:
    """Everything the summaries read, fetched for all the rooms asked about at once (a handful of
    queries whatever the number of seats)."""

    rooms: dict[str, Room] = field(default_factory=dict)
    seats: dict[str, list[Seat]] = field(default_factory=dict)
    matches: dict[str, Match] = field(default_factory=dict)
    # match id -> its newest action
    last: dict[int, ActionRow] = field(default_factory=dict)
    # room id -> its open seat requests
    requests: dict[str, list[SeatRequest]] = field(default_factory=dict)


def read_rooms(session: Session, room_ids: list[str]) -> Rooms:
    found = Rooms()
    ids = sorted({room_id for room_id in room_ids if is_room_id(room_id)})
    if not ids:
        return found
    found.rooms = {room.id: room for room in session.scalars(select(Room).where(Room.id.in_(ids)))}
    for seat in session.scalars(select(Seat).where(Seat.room_id.in_(ids)).order_by(Seat.seat)):
        found.seats.setdefault(seat.room_id, []).append(seat)
    found.matches = {m.room_id: m for m in session.scalars(select(Match).where(Match.room_id.in_(ids)))}
    open_requests = select(SeatRequest).where(
        SeatRequest.room_id.in_(ids), SeatRequest.status.in_(people.OPEN_REQUEST_STATUSES)
    )
    for request in session.scalars(open_requests.order_by(SeatRequest.created_at)):
        found.requests.setdefault(request.room_id, []).append(request)
    match_ids = [m.id for m in found.matches.values()]
    if match_ids:
        newest = (
            select(ActionRow.match_id, func.max(ActionRow.seq).label("seq"))
            .where(ActionRow.match_id.in_(match_ids))
            .group_by(ActionRow.match_id)
            .subquery()
        )
        rows = session.scalars(
            select(ActionRow).join(
                newest, and_(ActionRow.match_id == newest.c.match_id, ActionRow.seq == newest.c.seq)
            )
        )
        found.last = {row.match_id: row for row in rows}
    return found


def summary(
    session: Session, cache: StateCache, times: people.Times, found: Rooms, room_id: str, token: str
) -> Body:
    room = found.rooms.get(room_id)
    if room is None:
        return unknown(room_id)
    wanted = hash_token(token)
    seats = found.seats.get(room_id, [])
    mine = next(
        (s for s in seats if s.token_hash is not None and hmac.compare_digest(s.token_hash, wanted)), None
    )
    if mine is None:
        return unknown(room_id, _revoked(session, room_id, wanted))
    match = found.matches.get(room_id)
    engine = get_engine(room.game)
    state = matches.load_state(session, match, cache) if match is not None else None
    to_act = sorted(engine.to_act(state)) if state is not None else []
    result = engine.result(state) if state is not None else None
    row = found.last.get(match.id) if match is not None else None
    last: Body | None = None
    if match is not None and row is not None:
        finished = match.status == "finished"
        action = row.action if finished else engine.public_action(row.action, row.seat, mine.seat)
        last = {
            "seq": row.seq,
            "seat": row.seat,
            "action": action,
            "at": people.aware(row.created_at).isoformat(),
            "cards": public_cards(engine, state, action),
        }
    # As people.deadline reads it: the match's last move (or its start) plus the clock.
    due = None
    if room.clock is not None and match is not None and match.status == "playing":
        due = people.aware(row.created_at if row is not None else match.started_at) + timedelta(
            seconds=room.clock
        )
    return {
        "room_id": room_id,
        "found": True,
        "game": room.game,
        "status": rooms.status_of(match),
        "seat": mine.seat,
        "name": mine.name,
        "host_seat": room.host_seat,
        "players": [{"seat": s.seat, "name": s.name, "bot": s.bot, "stand_in": s.stand_in} for s in seats],
        "version": match.version if match is not None else 0,
        "to_act": to_act,
        "your_turn": mine.seat in to_act,
        "clock": room.clock,
        "deadline": due.isoformat() if due is not None else None,
        "last_move": last,
        "totals": engine.scorepad(state).totals if state is not None else [],
        "winners": list(result.winners) if result is not None else None,
        "rematch": room.rematch_id,
        # Someone asks for this seat from another device: its holder hears it on any page.
        "seat_requests": people.holder_requests(found.requests.get(room_id, []), mine.seat, times),
    }


class MyGames:
    def __init__(self, db: Database, cache: StateCache, times: people.Times) -> None:
        self.db = db
        self.cache = cache
        self.times = times

    def summaries(self, held: list[tuple[str, str]]) -> list[Body]:
        """One body per (room id, token), in the order asked, all read in one transaction."""
        with self.db.read() as session:
            found = read_rooms(session, [room_id for room_id, _token in held])
            return [
                summary(session, self.cache, self.times, found, room_id, token) for room_id, token in held
            ]
