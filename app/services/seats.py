"""Who holds which seat, remembered per process: seat tokens and each started room's settled facts,
forgotten on every change of a room's seats (told by the broker, or found by the room's seat epoch)."""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import or_, select

from app.db import Database
from app.errors import AppError
from app.models import Room, Seat
from app.services import lookup, matches, people, rooms
from app.services.auth import hash_token, not_seated, token_seats
from app.services.cache import Lru

# Rooms whose facts and seat tokens each process keeps in memory (least recently used go first).
FACTS_SIZE = 8192


@dataclass(frozen=True)
class RoomFacts:
    """What a room's match is: its game, match, clock and the seats bots play. The bot seats change
    only when a bot stands in or a person leaves; every process then forgets them (a "seats" event)."""

    game: str
    match_id: int
    # Seats a bot plays: bots, and people a bot stands in for (stand_ins).
    bots: dict[int, str]
    stand_ins: frozenset[int] = frozenset()
    # Seconds per move, None without a clock.
    clock: int | None = None
    # Seats with an approved move to another device in its refusal window: the holder acting makes
    # it lapse (app/playing/people.py).
    waiting: frozenset[int] = frozenset()
    # The room's seat epoch when these were read (app/playing/seatwatch.py compares it).
    epoch: int = 0


class Seats:
    def __init__(self, db: Database) -> None:
        self.db = db
        # room id -> (seat epoch, {token hash -> seat}). A seat's token changes only when a seat moves
        # to another device or its player leaves; every process then forgets the room, told by the
        # broker or, should that message be lost, by the room's seat epoch, which SeatWatch compares
        # every second. A miss reads every seat of the room, all remembered; an unknown token never is.
        self._tokens: Lru[str, tuple[int, dict[str, int]]] = Lru(FACTS_SIZE)
        # room id -> RoomFacts, only for started rooms (whose seats are settled for good).
        self._facts: Lru[str, RoomFacts] = Lru(FACTS_SIZE)
        # Counts forget() calls: what a read begun before one of them found is not remembered (it may
        # predate the change that made the room be forgotten, e.g. a revoked token or a stand-in).
        self._forgets = 0
        self._forget_lock = threading.Lock()

    def known_seat(self, room_id: str, token: str) -> int | None:
        """The seat of `token` if this process has seen it before (no database read), else None."""
        known = self._tokens.get(room_id)
        return known[1].get(hash_token(token)) if known is not None else None

    def _remember_seats(self, room_id: str, holders: dict[str, int], epoch: int, forgets: int) -> None:
        with self._forget_lock:
            if forgets != self._forgets:
                return
            known = self._tokens.get(room_id)
            tokens = known[1] if known is not None and known[0] == epoch else {}
            # A new dict, never one a reader may hold: readers look without the lock.
            self._tokens.put(room_id, (epoch, {**tokens, **holders}))

    def seat_of(self, room_id: str, token: str | None) -> int | None:
        """The token's seat (None: a spectator); a token that holds no seat is refused (AppError)."""
        if token is not None and (known := self.known_seat(room_id, token)) is not None:
            return known
        if token is None and self._tokens.get(room_id) is not None:
            # A spectator (every socket opens as one) of a room whose seats this process holds: the
            # room exists as surely as those seats do (a deleted room's "gone" event forgets both).
            return None
        forgets = self._forgets
        with self.db.read() as session:
            epoch = lookup.seat_epoch(session, room_id)
            holders = token_seats(session, room_id)
        # Every seat's token at once: the other players' sockets, opening next, need no read.
        self._remember_seats(room_id, holders, epoch, forgets)
        if token is None:
            return None
        seat = holders.get(hash_token(token))
        if seat is None:
            raise not_seated()
        return seat

    def player_seat(self, room_id: str, token: str | None) -> int:
        """The seat of a player who must be seated to do this (a spectator is refused: unauthorized)."""
        seat = self.seat_of(room_id, token)
        if seat is None:
            raise AppError("unauthorized", "send the seat's token as 'Authorization: Bearer <token>'")
        return seat

    def cached_epochs(self) -> dict[str, int]:
        """The seat epoch of every room whose seats or facts this process remembers."""
        epochs: dict[str, int] = {}
        for room_id, (epoch, _tokens) in self._tokens.items():
            epochs[room_id] = epoch
        for room_id, facts in self._facts.items():
            epochs[room_id] = min(epochs.get(room_id, facts.epoch), facts.epoch)
        return epochs

    def seat_epochs(self, room_ids: Collection[str]) -> dict[str, int]:
        """The rooms' seat epochs now, from the database (a room missing from the answer is gone)."""
        found: dict[str, int] = {}
        ids = list(room_ids)
        with self.db.read() as session:
            for start in range(0, len(ids), 500):
                for room_id, epoch in session.execute(
                    select(Room.id, Room.seat_epoch).where(Room.id.in_(ids[start : start + 500]))
                ):
                    found[room_id] = epoch
        return found

    def seat_tokens(self, room_id: str) -> dict[int, str | None]:
        """Each seat's token hash now (None: a bot's), from the database."""
        with self.db.read() as session:
            return {
                seat: token_hash
                for seat, token_hash in session.execute(
                    select(Seat.seat, Seat.token_hash).where(Seat.room_id == room_id)
                )
            }

    def forget(self, room_id: str) -> None:
        """Drop what this process remembers of a room: its seats or bots changed, or it was deleted.
        Reads already under way are not remembered either (see _forgets)."""
        with self._forget_lock:
            self._forgets += 1
            self._facts.discard(room_id)
            self._tokens.discard(room_id)

    def forget_all(self) -> None:
        """Drop every room's seats and facts (the broker reconnected: forget events may be lost)."""
        with self._forget_lock:
            self._forgets += 1
            self._facts.clear()
            self._tokens.clear()

    def known_facts(self, room_id: str) -> RoomFacts | None:
        """The room's facts if this process holds them (no database read)."""
        return self._facts.get(room_id)

    def facts(self, room_id: str) -> RoomFacts | None:
        """The started room's settled facts (None: no such room, or not started yet)."""
        known = self._facts.get(room_id)
        if known is not None:
            return known
        forgets = self._forgets
        with self.db.read() as session:
            match = matches.current_match(session, room_id)
            if match is None:
                return None
            bots = session.execute(
                select(Seat.seat, Seat.bot_kind, Seat.stand_in).where(
                    Seat.room_id == room_id, or_(Seat.bot.is_(True), Seat.stand_in.is_(True))
                )
            ).all()
            stand_in_kind = rooms.default_bot_kind(match.game)
            fallback_kind = rooms.fallback_bot_kind(match.game)
            clock, epoch = session.execute(
                select(Room.clock, Room.seat_epoch).where(Room.id == room_id)
            ).one()
            facts = RoomFacts(
                match.game,
                match.id,
                {
                    seat: (stand_in_kind if standing else kind) or fallback_kind
                    for seat, kind, standing in bots
                },
                frozenset(seat for seat, _kind, standing in bots if standing),
                clock,
                people.waiting_seats(session, room_id),
                epoch,
            )
        with self._forget_lock:
            if forgets == self._forgets:
                self._facts.put(room_id, facts)
        return facts
