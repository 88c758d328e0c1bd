"""A lone move's group commit: the server CPU of one batch holding one move (apply, UPDATE, INSERT,
commit with its fsync), on the group commit's Core transaction on its kept connection
(`Database.statements`) or, for comparison, as before: a connection checked out of the pool for each
batch (`--via pooled`), or an ORM session (`--via session`).

    .venv/bin/python -m bench.commit [--moves 3000] [--via statements|pooled|session|all] [--postgres URL]

Plays random legal Mojo moves (four seats, target 1000 so the match runs on; rounds end now and then
and take the reading path, as in play) on a fresh SQLite file, or a fresh PostgreSQL schema, one move
per batch as a paced server commits them. Prints CPU (process time) and wall time per move, median and
mean over rounds of 200 moves, alternating the ways asked for (round by round, so that a machine
busier for a while weighs on all of them).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
from sqlalchemy import Connection, make_url

from app.db import Database, upgrade
from app.services.moves import Move
from bench.storage import Services, start
from engines.core import get_engine

ROUND = 200


@contextlib.contextmanager
def _through_session(db: Database) -> Iterator[Connection]:
    """The transaction as the group commit ran it first: an ORM session's, its connection used."""
    with db.transaction() as session:
        yield session.connection()


@contextlib.contextmanager
def _pooled(db: Database) -> Iterator[Connection]:
    """A Core transaction on a connection checked out of the pool for it and given back after, as
    the group commit ran it before it kept one connection (Database.statements)."""
    with db.engine.begin() as connection:
        yield connection


# How each way opens the batch's transaction (None: Database.statements, as the server does).
WAYS = {"statements": None, "pooled": _pooled, "session": _through_session}


def _table(services: Services) -> tuple[str, int]:
    made = services.create_room("mojo", "Ann", {"target": 1000})
    room_id, token = made["room_id"], made["token"]
    for _ in range(3):
        services.add_bot(room_id, token)
    start(services.parts, room_id, token)
    facts = services.seats.facts(room_id)
    assert facts is not None
    return room_id, facts.match_id


class _Table:
    """The match being played; a finished one is followed by a new table."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.room_id, self.match_id = _table(services)

    def position(self) -> tuple[int, object]:
        held = self.services.moves.cache.get(self.match_id)
        assert held is not None
        if not get_engine("mojo").to_act(held[1]):
            self.room_id, self.match_id = _table(self.services)
            return self.position()
        return held


def _round(services: Services, table: _Table, rng: random.Random) -> tuple[float, float]:
    engine = get_engine("mojo")
    cpu = wall = 0.0
    for _ in range(ROUND):
        version, state = table.position()
        room_id = table.room_id
        seat = min(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        c0, w0 = time.process_time(), time.perf_counter()
        result = services.moves.apply_moves([Move(room_id, seat, action, version)])[0]
        cpu += time.process_time() - c0
        wall += time.perf_counter() - w0
        if isinstance(result, Exception):
            raise result
    return cpu / ROUND * 1e6, wall / ROUND * 1e6


def run(url: str, moves: int, ways: list[str]) -> None:
    upgrade(url)
    services = Services(url)
    db = services.db
    statements = db.statements
    table = _Table(services)
    rng = random.Random(7)
    figures: dict[str, list[tuple[float, float]]] = {way: [] for way in ways}
    try:
        for _ in range(max(1, moves // (ROUND * len(ways)))):
            for way in ways:
                opens = WAYS[way]
                db.statements = statements if opens is None else functools.partial(opens, db)  # type: ignore[method-assign]
                figures[way].append(_round(services, table, rng))
    finally:
        db.statements = statements  # type: ignore[method-assign]
        db.dispose()
    for way, rounds in figures.items():
        cpus, walls = [c for c, _ in rounds], [w for _, w in rounds]
        cpu = f"median {statistics.median(cpus):6.0f} us, mean {statistics.fmean(cpus):6.0f} us"
        wall = f"median {statistics.median(walls):6.0f} us"
        print(f"{way:10s} {len(rounds) * ROUND:5d} moves  CPU a move: {cpu}  wall: {wall}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--via", choices=[*WAYS, "all"], default="all")
    parser.add_argument(
        "--postgres", help="a PostgreSQL URL: measured in a fresh schema of it instead of SQLite"
    )
    args = parser.parse_args()
    ways = list(WAYS) if args.via == "all" else [args.via]
    if args.postgres is None:
        with tempfile.TemporaryDirectory() as folder:
            run(f"sqlite:///{Path(folder) / 'commit.db'}", args.moves, ways)
        return
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    plain = make_url(args.postgres).set(drivername="postgresql")
    with psycopg.connect(plain.render_as_string(hide_password=False), autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
        try:
            url = make_url(args.postgres).set(drivername="postgresql+psycopg")
            url = url.update_query_dict({"options": f"-csearch_path={schema}"})
            run(url.render_as_string(hide_password=False), args.moves, ways)
        finally:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


if __name__ == "__main__":
    main()
