"""Playing: the deal, and moves applied in group commits, with the fast path for a state held in memory."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from app.db import Database
from app.services import matches, people, rooms
from app.services.cache import StateCache
from app.services.seats import Seats


@dataclass(frozen=True)
class Move:
    """An action to apply: the seat is already authenticated."""

    room_id: str
    seat: int
    action: Any
    version: int | None


@dataclass(frozen=True)
class Closed:
    """A socket of the seat closed at `at`: its "away since" (Seat.last_seen), written by the group
    commit's next batch, with the batch's other closes, rather than in a transaction of its own."""

    room_id: str
    seat: int
    at: datetime


@dataclass(frozen=True)
class Touched:
    """Who is at the room's table changed (a socket opened or closed): its revision is bumped, in the
    group commit's next batch, so the room body that says so is newer than any read before it."""

    room_id: str


# What a batch answers each item: a move's outcome (or what refused it); None for a mark.
Result = matches.Applied | Exception | None


class Moves:
    def __init__(
        self, db: Database, cache: StateCache, seats: Seats, test_seeds: list[int] | None = None
    ) -> None:
        self.db = db
        self.cache = cache
        self.seats = seats
        # Test only (Settings.test_seeds): the seeds matches are dealt from, in turn.
        self._test_seeds = itertools.cycle(test_seeds) if test_seeds else None
        self._test_seeds_lock = threading.Lock()

    def next_test_seed(self) -> int | None:
        """The seed the next match is dealt from in tests (Settings.test_seeds); None: a secret one."""
        if self._test_seeds is None:
            return None
        with self._test_seeds_lock:
            return next(self._test_seeds)

    def apply_moves(self, items: Sequence[Move | Closed | Touched]) -> list[Result]:
        """Apply every move in one transaction and one commit (group commit), in order; each move
        succeeds or fails on its own (a refused one writes nothing). The batch's marks (closed
        sockets, rooms touched) are then written together in a transaction of their own (None each,
        or what failed it): never in the moves' one, which holds match rows, so it takes no room or
        seat row besides and cannot fail with it. Returns once committed."""
        results: list[Result] = [None] * len(items)
        moves = [(i, item) for i, item in enumerate(items) if isinstance(item, Move)]
        if moves:
            self._apply(moves, results)
        marks = [(i, item) for i, item in enumerate(items) if not isinstance(item, Move)]
        if marks:
            try:
                with self.db.transaction() as session:
                    # Rooms in one order: two processes' batches never wait on each other's rows.
                    for room_id in sorted({m.room_id for _, m in marks if isinstance(m, Touched)}):
                        rooms.touch(session, room_id)
                    closed = [(m.room_id, m.seat, m.at) for _, m in marks if isinstance(m, Closed)]
                    if closed:
                        people.seen(session, closed)
            except Exception as error:
                for i, _ in marks:
                    results[i] = error
        return results

    def _apply(self, moves: list[tuple[int, Move]], results: list[Result]) -> None:
        """Apply `moves` (each with its place in `results`) in one transaction."""
        # States reached in this transaction, so a room's second move builds on its first.
        pending: dict[int, tuple[int, Any]] = {}
        rows: list[dict[str, Any]] = []
        # On Core, not an ORM session: the fast path needs none, and a lone move pays for the whole
        # transaction. The reading path gets a session of its own, in a savepoint of the batch's
        # transaction, so a refusal found late writes nothing.
        with self.db.statements() as connection:
            for i, move in moves:
                try:
                    known = self._apply_known(connection, move, pending, rows)
                    if isinstance(known, matches.Applied):
                        applied = known
                    else:
                        with self.db.savepoint(connection) as session:
                            applied = matches.apply_action(
                                session,
                                move.room_id,
                                move.seat,
                                move.action,
                                move.version,
                                self.cache,
                                pending,
                                known,
                            )
                except Exception as error:
                    results[i] = error
                    continue
                pending[applied.match_id] = (applied.version, applied.state)
                results[i] = applied
            matches.insert_actions(connection, rows)
        for result in results:
            if isinstance(result, matches.Applied):
                self.cache.put(result.match_id, result.version, result.state)

    def _apply_known(
        self,
        connection: Connection,
        move: Move,
        pending: dict[int, tuple[int, Any]],
        rows: list[dict[str, Any]],
    ) -> matches.Applied | matches.Computed | None:
        """The fast path: a plain move on a state this process holds; otherwise the reading path
        takes it, with the move as computed here if it was (matches.apply_known)."""
        facts = self.seats.known_facts(move.room_id)
        if facts is None:
            return None
        known = pending.get(facts.match_id) or self.cache.get(facts.match_id)
        if known is None:
            return None
        done = matches.apply_known(
            connection, facts.match_id, facts.game, known, move.seat, move.action, move.version
        )
        if not isinstance(done, tuple):
            return done
        applied, row = done
        rows.append(row)
        return applied
