"""The database use cases, each in one transaction: called from worker threads by the playing layer
(app.playing), never by the transports directly for anything that changes a match."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import select

from app.db import Database
from app.errors import AppError
from app.models import Match, Room, Seat
from app.services import matches, rooms
from app.services.auth import player_seat, seat_of
from app.services.cache import StateCache
from engines.core import get_bots, get_engine

_MASK = (1 << 63) - 1


@dataclass(frozen=True)
class BotTurn:
    room_id: str
    version: int
    seat: int
    kind: str


class Services:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.cache = StateCache()

    # -- rooms ------------------------------------------------------------
    def create_room(self, game: str, name: str, options: dict[str, Any] | None) -> dict[str, Any]:
        with self.db.transaction() as session:
            return rooms.create_room(session, game, name, options)

    def join(self, room_id: str, name: str) -> dict[str, Any]:
        with self.db.transaction() as session:
            return rooms.join_room(session, room_id, name)

    def add_bot(self, room_id: str, token: str | None) -> dict[str, Any]:
        with self.db.transaction() as session:
            return rooms.add_bot(session, room_id, token)

    def start(self, room_id: str, token: str | None, starter: int | Literal["random"] | None = None) -> None:
        with self.db.transaction() as session:
            match_id, state = rooms.start_room(session, room_id, token, starter)
        self.cache.put(match_id, 1, state)

    def rematch(self, room_id: str, token: str | None) -> dict[str, Any]:
        with self.db.transaction() as session:
            return rooms.rematch(session, room_id, token)

    def room(self, room_id: str, connected: set[int]) -> dict[str, Any]:
        """The room body; `connected`: the seats with a live socket, as presence knows them."""
        with self.db.transaction() as session:
            room = rooms.find_room(session, room_id)
            match = matches.current_match(session, room_id)
            state = matches.load_state(session, match, self.cache) if match is not None else None
            return rooms.room_body(session, room, match, state, connected)

    def seat_of(self, room_id: str, token: str | None) -> int | None:
        with self.db.transaction() as session:
            rooms.find_room(session, room_id)
            return seat_of(session, room_id, token)

    # -- playing ----------------------------------------------------------
    def state(self, room_id: str, token: str | None) -> dict[str, Any]:
        with self.db.transaction() as session:
            rooms.find_room(session, room_id)
            seat = seat_of(session, room_id, token)
        return self.state_bodies(room_id, {seat})[seat]

    def state_bodies(self, room_id: str, seats: set[int | None]) -> dict[int | None, dict[str, Any]]:
        """The current state body of each seat, all at one version."""
        with self.db.transaction() as session:
            room = rooms.find_room(session, room_id)
            match = matches.current_match(session, room_id)
            if match is None:
                return {seat: matches.waiting_body(seat) for seat in seats}
            state = matches.load_state(session, match, self.cache)
            # Both from the match row: on PostgreSQL the room row was read a statement earlier and may
            # predate the move that finished the match.
            version, status = match.version, match.status
        return {seat: matches.state_body(room.game, state, version, status, seat) for seat in seats}

    def act(
        self, room_id: str, token: str | None, action: Any, version: int | None = None
    ) -> matches.Applied:
        """Apply a player's action; returns once it is committed."""
        with self.db.transaction() as session:
            rooms.find_room(session, room_id)
            seat = player_seat(session, room_id, token)
            applied = matches.apply_action(session, room_id, seat, action, version, self.cache)
        self.cache.put(applied.match_id, applied.version, applied.state)
        return applied

    def log(self, room_id: str, token: str | None) -> dict[str, Any]:
        with self.db.transaction() as session:
            rooms.find_room(session, room_id)
            return matches.log_body(session, room_id, seat_of(session, room_id, token))

    def verify(self, room_id: str) -> list[str]:
        with self.db.transaction() as session:
            return matches.verify_match(session, room_id)

    # -- bots -------------------------------------------------------------
    def rooms_with_bots(self) -> list[str]:
        """Rooms in play with a bot seated: after a restart their bots must pick up where they were."""
        with self.db.transaction() as session:
            query = (
                select(Room.id)
                .join(Seat, Seat.room_id == Room.id)
                .join(Match, Match.room_id == Room.id)
                .where(Match.status == "playing", Seat.bot.is_(True))
                .distinct()
            )
            return list(session.scalars(query))

    def bot_turn(self, room_id: str) -> BotTurn | None:
        """The bot due to act now, if any."""
        with self.db.transaction() as session:
            match = matches.current_match(session, room_id)
            if match is None or match.status != "playing":
                return None
            state = matches.load_state(session, match, self.cache)
            acting = get_engine(match.game).to_act(state)
            bots = session.execute(
                select(Seat.seat, Seat.bot_kind)
                .where(Seat.room_id == room_id, Seat.bot.is_(True))
                .order_by(Seat.seat)
            ).all()
            for seat, kind in bots:
                if seat in acting:
                    return BotTurn(room_id, match.version, seat, kind or "random")
        return None

    def play_bot(self, turn: BotTurn) -> matches.Applied:
        """Choose outside any transaction (a strong bot may think a while), then apply at that version."""
        with self.db.transaction() as session:
            match = matches.current_match(session, turn.room_id)
            if match is None or match.version != turn.version:
                raise AppError("stale_version", "the match moved on before the bot played")
            state = matches.load_state(session, match, self.cache)
            game, seed = match.game, match.seed
        engine = get_engine(game)
        bot = get_bots(game)[turn.kind](engine, (seed * 1_000_003 + turn.version * 31 + turn.seat) & _MASK)
        # The bot gets its own copy: cached states are shared by every thread of this process.
        action = bot.choose(copy.deepcopy(state), turn.seat)
        with self.db.transaction() as session:
            applied = matches.apply_action(session, turn.room_id, turn.seat, action, turn.version, self.cache)
        self.cache.put(applied.match_id, applied.version, applied.state)
        return applied
