"""Who holds which seat, remembered per process: seat tokens and each started room's settled facts.

One rule keeps them fresh: everything remembered of a room is keyed by the room's seat epoch, which
every change of who plays a seat (or with which token) raises in its own transaction
(app/services/people/common.py `bump_epoch`). Whoever learns a room's epoch tells `saw`; what was
remembered at an older epoch is dropped there, and a read that found an older epoch than one already
seen is not kept. The epoch comes from wherever it is read: the transaction of the command that
raised it (app/playing/commands.py, on its own process, before it answers), the event that command
publishes (every other process, app/playing/fanout.py), and the epochs read back every second for
rooms this process remembers or watches (app/playing/seatwatch.py: the broker may lose an event)."""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import or_, select

from app.db import Database
from app.errors import AppError
from app.i18n import N_
from app.models import Room, Seat
from app.services import lookup, matches, people, rooms
from app.services.auth import hash_token, not_seated, token_seats
from app.services.cache import Lru

# Rooms whose facts and seat tokens each process keeps in memory (least recently used go first).
FACTS_SIZE = 8192


@dataclass(frozen=True)
class RoomFacts:
    """What a room's match is: its game, match, clock and the seats bots play. The bot seats change
    only when a bot stands in, a person leaves or a seat's move waits out its window, each of which
    raises the room's seat epoch."""

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
    # The room's seat epoch these were read at (the key: see the module's docstring).
    epoch: int = 0


class Seats:
    def __init__(self, db: Database) -> None:
        self.db = db
        # room id -> (seat epoch, {token hash -> seat}). A miss reads every seat of the room, all
        # remembered; an unknown token never is.
        self._tokens: Lru[str, tuple[int, dict[str, int]]] = Lru(FACTS_SIZE)
        # room id -> RoomFacts, only for started rooms (whose seats are settled for good).
        self._facts: Lru[str, RoomFacts] = Lru(FACTS_SIZE)
        # room id -> the newest seat epoch this process has seen. Kept for more rooms than the entries
        # above: a read that began before a change must not store what it found once the change's
        # epoch is known. (Should one be pushed out and such a read land, the epochs read back every
        # second drop it: app/playing/seatwatch.py.)
        self._epochs: Lru[str, int] = Lru(4 * FACTS_SIZE)
        self._lock = threading.Lock()

    def saw(self, room_id: str, epoch: int | None) -> bool:
        """The room's seat epoch is `epoch` now (None: the room was deleted). What was remembered at an
        older epoch is dropped. True when the epoch is newer than any seen before (or the room is
        gone), False when it was known already."""
        with self._lock:
            if epoch is None:
                self._epochs.discard(room_id)
                self._facts.discard(room_id)
                self._tokens.discard(room_id)
                return True
            return self._advance(room_id, epoch) > 0

    def _advance(self, room_id: str, epoch: int) -> int:
        """Under the lock: compare `epoch` with the newest seen (-1 older, 0 the same, 1 newer); a newer
        one becomes the newest and drops what was remembered at another."""
        newest = self._epochs.get(room_id)
        if newest is not None and epoch <= newest:
            return -1 if epoch < newest else 0
        self._epochs.put(room_id, epoch)
        tokens = self._tokens.get(room_id)
        if tokens is not None and tokens[0] != epoch:
            self._tokens.discard(room_id)
        facts = self._facts.get(room_id)
        if facts is not None and facts.epoch != epoch:
            self._facts.discard(room_id)
        return 1

    def known_seat(self, room_id: str, token: str, token_hash: str | None = None) -> int | None:
        """The seat of `token` if this process has seen it before (no database read), else None.
        `token_hash`: hash_token(token), where the caller holds it already (a socket's, each move)."""
        known = self._tokens.get(room_id)
        if known is None:
            return None
        return known[1].get(token_hash if token_hash is not None else hash_token(token))

    def _remember_seats(self, room_id: str, holders: dict[str, int], epoch: int) -> None:
        with self._lock:
            if self._advance(room_id, epoch) < 0:
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
            # room exists as surely as those seats do (a deleted room's "gone" event drops both).
            return None
        with self.db.read() as session:
            # The epoch first: should a change commit between the two reads, the tokens are newer
            # than their key, which only makes them be read again.
            epoch = lookup.seat_epoch(session, room_id)
            holders = token_seats(session, room_id)
        # Every seat's token at once: the other players' sockets, opening next, need no read.
        self._remember_seats(room_id, holders, epoch)
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
            raise AppError("unauthorized", N_("send the seat's token as 'Authorization: Bearer <token>'"))
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

    def known_facts(self, room_id: str) -> RoomFacts | None:
        """The room's facts if this process holds them (no database read)."""
        return self._facts.get(room_id)

    def facts(self, room_id: str) -> RoomFacts | None:
        """The started room's settled facts (None: no such room, or not started yet)."""
        known = self._facts.get(room_id)
        if known is not None:
            return known
        with self.db.read() as session:
            # The epoch first, as in seat_of.
            epoch = lookup.seat_epoch(session, room_id)
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
            clock = session.scalar(select(Room.clock).where(Room.id == room_id))
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
        with self._lock:
            if self._advance(room_id, epoch) >= 0:
                self._facts.put(room_id, facts)
        return facts
