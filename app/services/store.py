"""The database use cases, each in one transaction: called from worker threads by the playing layer
(app.playing), never by the transports directly for anything that changes a match."""

from __future__ import annotations

import copy
import itertools
import threading
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import or_, select

from app.db import Database
from app.errors import AppError
from app.models import Match, Room, Seat
from app.services import matches, people, rooms
from app.services.auth import hash_token, player_seat, seat_of
from app.services.cache import StateCache
from engines.core import get_bots, get_engine

_MASK = (1 << 63) - 1

# Rooms whose facts and seat tokens each process keeps in memory (least recently used go first).
FACTS_SIZE = 8192


def _bot_seed(seed: int, version: int, seat: int) -> int:
    return (seed * 1_000_003 + version * 31 + seat) & _MASK


def takes_optional_actions(game: str, kind: str) -> bool:
    """Whether bots of `kind` are offered optional actions out of turn: their class has `optional`."""
    return hasattr(get_bots(game).get(kind), "optional")


@dataclass(frozen=True)
class BotTurn:
    room_id: str
    version: int
    seat: int
    kind: str
    # Already chosen: an optional action (out of turn) the bot decided to take while looking.
    action: Any = None
    # Wait longer before acting: a person is waited for at the same time (a witness, a racer) or may
    # still take an optional action (Immunity) that the bot's move would end the window for.
    patient: bool = False


@dataclass(frozen=True)
class Move:
    """An action to apply: the seat is already authenticated."""

    room_id: str
    seat: int
    action: Any
    version: int | None


@dataclass(frozen=True)
class RoomFacts:
    """What a room's match is: its game, match, clock and the seats bots play. The bot seats change
    only when a bot stands in or a person leaves; every process then forgets them (Hub.handle)."""

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


class _Lru:
    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def discard(self, key: Any) -> None:
        with self._lock:
            self._items.pop(key, None)

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def items(self) -> list[tuple[Any, Any]]:
        with self._lock:
            return list(self._items.items())

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


class Services:
    def __init__(self, db: Database, test_seeds: list[int] | None = None) -> None:
        self.db = db
        # Test only (Settings.test_seeds): the seeds matches are dealt from, in turn.
        self._test_seeds = itertools.cycle(test_seeds) if test_seeds else None
        self._test_seeds_lock = threading.Lock()
        self.cache = StateCache()
        # room id -> (seat epoch, {token hash -> seat}). A seat's token changes only when a seat moves
        # to another device or its player leaves; every process then forgets the room, told by the
        # broker (Hub.handle) or, should that message be lost, by the room's seat epoch, which
        # SeatWatch compares every second. A miss (or an unknown token) is looked up in the
        # database and never remembered.
        self._seats = _Lru(FACTS_SIZE)
        # room id -> RoomFacts, only for started rooms (whose seats are settled for good).
        self._facts = _Lru(FACTS_SIZE)
        # Counts forget() calls: what a read begun before one of them found is not remembered (it may
        # predate the change that made the room be forgotten, e.g. a revoked token or a stand-in).
        self._forgets = 0
        self._forget_lock = threading.Lock()

    # -- rooms ------------------------------------------------------------
    def create_room(
        self,
        game: str,
        name: str,
        options: dict[str, Any] | None,
        clock: int | None = None,
        creator: str | None = None,
    ) -> dict[str, Any]:
        with self.db.transaction() as session:
            return rooms.create_room(session, game, name, options, clock, creator)

    def join(self, room_id: str, name: str) -> dict[str, Any]:
        with self.db.transaction() as session:
            return rooms.join_room(session, room_id, name)

    def add_bot(self, room_id: str, token: str | None) -> dict[str, Any]:
        with self.db.transaction() as session:
            return rooms.add_bot(session, room_id, token)

    def start(self, room_id: str, token: str | None, starter: int | Literal["random"] | None = None) -> None:
        with self.db.transaction() as session:
            match_id, state = rooms.start_room(session, room_id, token, starter, self._next_test_seed())
        self.cache.put(match_id, 1, state)

    def _next_test_seed(self) -> int | None:
        if self._test_seeds is None:
            return None
        with self._test_seeds_lock:
            return next(self._test_seeds)

    def rematch(self, room_id: str, token: str | None) -> dict[str, Any]:
        with self.db.transaction() as session:
            return rooms.rematch(session, room_id, token)

    def room(self, room_id: str, connected: set[int]) -> dict[str, Any]:
        """The room body; `connected`: the seats with a live socket, as presence knows them."""
        with self.db.read() as session:
            room = rooms.find_room(session, room_id)
            match = matches.current_match(session, room_id)
            state = matches.load_state(session, match, self.cache) if match is not None else None
            return rooms.room_body(session, room, match, state, connected)

    # -- seats --------------------------------------------------------------
    def known_seat(self, room_id: str, token: str) -> int | None:
        """The seat of `token` if this process has seen it before (no database read), else None."""
        known: tuple[int, dict[str, int]] | None = self._seats.get(room_id)
        return known[1].get(hash_token(token)) if known is not None else None

    def _remember_seat(self, room_id: str, token: str, seat: int, epoch: int, forgets: int) -> None:
        with self._forget_lock:
            if forgets != self._forgets:
                return
            known: tuple[int, dict[str, int]] | None = self._seats.get(room_id)
            tokens = known[1] if known is not None and known[0] == epoch else {}
            # A new dict, never one a reader may hold: readers look without the lock.
            self._seats.put(room_id, (epoch, {**tokens, hash_token(token): seat}))

    def seat_of(self, room_id: str, token: str | None) -> int | None:
        if token is not None and (known := self.known_seat(room_id, token)) is not None:
            return known
        forgets = self._forgets
        with self.db.read() as session:
            room = rooms.find_room(session, room_id)
            seat = seat_of(session, room_id, token)
            epoch = room.seat_epoch
        if token is not None and seat is not None:
            self._remember_seat(room_id, token, seat, epoch, forgets)
        return seat

    def player_seat(self, room_id: str, token: str | None) -> int:
        """The seat of a player who must be seated to do this."""
        if token is not None and (known := self.known_seat(room_id, token)) is not None:
            return known
        forgets = self._forgets
        with self.db.read() as session:
            room = rooms.find_room(session, room_id)
            seat = player_seat(session, room_id, token)
            epoch = room.seat_epoch
        assert token is not None
        self._remember_seat(room_id, token, seat, epoch, forgets)
        return seat

    def cached_epochs(self) -> dict[str, int]:
        """The seat epoch of every room whose seats or facts this process remembers."""
        epochs: dict[str, int] = {}
        for room_id, (epoch, _tokens) in self._seats.items():
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

    def forget_all(self) -> None:
        """Drop every room's seats and facts (the broker reconnected: forget events may be lost)."""
        with self._forget_lock:
            self._forgets += 1
            self._facts.clear()
            self._seats.clear()

    def known_facts(self, room_id: str) -> RoomFacts | None:
        """The room's facts if this process holds them (no database read)."""
        known: RoomFacts | None = self._facts.get(room_id)
        return known

    def forget(self, room_id: str) -> None:
        """Drop what this process remembers of a room: its seats or bots changed, or it was deleted.
        Reads already under way are not remembered either (see _forgets)."""
        with self._forget_lock:
            self._forgets += 1
            self._facts.discard(room_id)
            self._seats.discard(room_id)

    def facts(self, room_id: str) -> RoomFacts | None:
        """The started room's settled facts (None: no such room, or not started yet)."""
        known: RoomFacts | None = self._facts.get(room_id)
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
            clock, epoch = session.execute(
                select(Room.clock, Room.seat_epoch).where(Room.id == room_id)
            ).one()
            facts = RoomFacts(
                match.game,
                match.id,
                {seat: (stand_in_kind if standing else kind) or "random" for seat, kind, standing in bots},
                frozenset(seat for seat, _kind, standing in bots if standing),
                clock,
                people.waiting_seats(session, room_id),
                epoch,
            )
        with self._forget_lock:
            if forgets == self._forgets:
                self._facts.put(room_id, facts)
        return facts

    # -- playing ----------------------------------------------------------
    def state(self, room_id: str, token: str | None) -> dict[str, Any]:
        seat = self.seat_of(room_id, token)
        return self.state_bodies(room_id, {seat})[seat]

    def state_bodies(self, room_id: str, seats: set[int | None]) -> dict[int | None, dict[str, Any]]:
        """The current state body of each seat, all at one version."""
        with self.db.read() as session:
            room = rooms.find_room(session, room_id)
            match = matches.current_match(session, room_id)
            if match is None:
                return {seat: matches.waiting_body(seat) for seat in seats}
            state = matches.load_state(session, match, self.cache)
            # Both from the match row: on PostgreSQL the room row was read a statement earlier and may
            # predate the move that finished the match.
            version, status = match.version, match.status
        return matches.state_bodies(room.game, state, version, status, seats)

    def state_at(self, match_id: int, game: str, version: int, seat: int, action: Any) -> Any | None:
        """The match's state at `version` from memory: cached, or the cached state one version before
        with `action` by `seat` replayed (engines are deterministic). None: read the database."""
        cached = self.cache.get(match_id)
        if cached is None:
            return None
        if cached[0] == version:
            return cached[1]
        if cached[0] != version - 1:
            return None
        try:
            state = get_engine(game).apply(cached[1], seat, action)
        except Exception:
            return None
        self.cache.put(match_id, version, state)
        return state

    def apply_moves(self, moves: list[Move]) -> list[matches.Applied | Exception]:
        """Apply every move in one transaction and one commit (group commit), in order; each move
        succeeds or fails on its own (a refused one writes nothing). Returns once committed."""
        results: list[matches.Applied | Exception] = []
        # States reached in this transaction, so a room's second move builds on its first.
        pending: dict[int, tuple[int, Any]] = {}
        rows: list[dict[str, Any]] = []
        with self.db.transaction() as session:
            for move in moves:
                try:
                    applied = self._apply_known(session, move, pending, rows)
                    if applied is None:
                        # The reading path: a savepoint, so a refusal found late writes nothing.
                        with session.begin_nested():
                            applied = matches.apply_action(
                                session,
                                move.room_id,
                                move.seat,
                                move.action,
                                move.version,
                                self.cache,
                                pending,
                            )
                except Exception as error:
                    results.append(error)
                    continue
                pending[applied.match_id] = (applied.version, applied.state)
                results.append(applied)
            matches.insert_actions(session, rows)
        for result in results:
            if isinstance(result, matches.Applied):
                self.cache.put(result.match_id, result.version, result.state)
        return results

    def _apply_known(
        self, session: Any, move: Move, pending: dict[int, tuple[int, Any]], rows: list[dict[str, Any]]
    ) -> matches.Applied | None:
        """The fast path: a plain move on a state this process holds (None: take the reading path)."""
        facts = self.known_facts(move.room_id)
        if facts is None:
            return None
        known = pending.get(facts.match_id) or self.cache.get(facts.match_id)
        if known is None:
            return None
        done = matches.apply_known(
            session, facts.match_id, facts.game, known, move.seat, move.action, move.version
        )
        if done is None:
            return None
        applied, row = done
        rows.append(row)
        return applied

    def act(
        self, room_id: str, token: str | None, action: Any, version: int | None = None
    ) -> matches.Applied:
        """Apply one player's action in a transaction of its own; returns once it is committed."""
        seat = self.player_seat(room_id, token)
        result = self.apply_moves([Move(room_id, seat, action, version)])[0]
        if isinstance(result, Exception):
            raise result
        return result

    def log(self, room_id: str, token: str | None) -> dict[str, Any]:
        seat = self.seat_of(room_id, token)
        with self.db.read() as session:
            return matches.log_body(session, room_id, seat)

    def verify(self, room_id: str) -> list[str]:
        with self.db.read() as session:
            return matches.verify_match(session, room_id)

    # -- bots -------------------------------------------------------------
    def rooms_with_bots(self) -> list[str]:
        """Rooms in play with a bot seated: after a restart their bots must pick up where they were."""
        with self.db.read() as session:
            query = (
                select(Room.id)
                .join(Seat, Seat.room_id == Room.id)
                .join(Match, Match.room_id == Room.id)
                .where(Match.status == "playing", or_(Seat.bot.is_(True), Seat.stand_in.is_(True)))
                .distinct()
            )
            return list(session.scalars(query))

    def bot_turn(self, room_id: str, declined: frozenset[tuple[int, int]] = frozenset()) -> BotTurn | None:
        """The bot due to act now, if any: first a bot outside to_act that takes an optional action
        (asked through its `optional(state, seat)`, when it has one; None declines), then a bot in
        to_act. `declined` holds (version, seat) optional offers not to make again (they failed)."""
        facts = self.facts(room_id)
        if facts is None or not facts.bots:
            return None
        with self.db.read() as session:
            match = matches.current_match(session, room_id)
            if match is None or match.status != "playing":
                return None
            state = matches.load_state(session, match, self.cache)
            version, seed, players = match.version, match.seed, match.players
        engine = get_engine(facts.game)
        acting = engine.to_act(state)
        if not acting:
            return None
        bots = get_bots(facts.game)
        for seat in sorted(facts.bots):
            if seat in acting or (version, seat) in declined:
                continue
            kind = facts.bots[seat]
            if not takes_optional_actions(facts.game, kind) or not engine.legal_actions(state, seat):
                continue
            bot = bots[kind](engine, _bot_seed(seed, version, seat))
            action = bot.optional(copy.deepcopy(state), seat)
            if action is not None:
                return BotTurn(room_id, version, seat, kind, action=action)
        people = [s for s in range(players) if s not in facts.bots]
        patient = any(s in acting or engine.legal_actions(state, s) for s in people)
        for seat in sorted(facts.bots):
            if seat in acting:
                return BotTurn(room_id, version, seat, facts.bots[seat], patient=patient)
        return None

    def choose_bot(self, turn: BotTurn) -> Move:
        """The bot's action at the turn's version, chosen outside any transaction (a strong bot may think
        a while). Applying it at that version (stale_version if the match moved on) is the caller's."""
        with self.db.read() as session:
            match = matches.current_match(session, turn.room_id)
            if match is None or match.version != turn.version:
                raise AppError("stale_version", "the match moved on before the bot played")
            state = matches.load_state(session, match, self.cache)
            game, seed = match.game, match.seed
        if turn.action is not None:
            return Move(turn.room_id, turn.seat, turn.action, turn.version)
        engine = get_engine(game)
        bot = get_bots(game)[turn.kind](engine, _bot_seed(seed, turn.version, turn.seat))
        # The bot gets its own copy: cached states are shared by every thread of this process.
        action = bot.choose(copy.deepcopy(state), turn.seat)
        return Move(turn.room_id, turn.seat, action, turn.version)
