"""Database growth: bytes per abandoned room and per whole match, before and after archiving.

    .venv/bin/python -m bench.storage [--matches 20] [--postgres postgresql://postgres@127.0.0.1/test]

Plays whole matches through the service layer (seat 0 a random player, the other seats the server's
bots) on a fresh SQLite file and, when given, a fresh PostgreSQL schema; prints the growth measured
by the database itself (SQLite: used pages; PostgreSQL: pg_total_relation_size with indexes and TOAST).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sqlite3
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
from sqlalchemy import make_url, text

from app.config import Settings, sqlalchemy_url
from app.db import Database, upgrade
from app.retention import prune
from app.runtime import Runtime
from app.services import rooms
from app.services.matches import Applied
from app.services.moves import Move, Moves


def act(moves: Moves, room_id: str, token: str | None, action: Any, version: int | None = None) -> Applied:
    """Apply one player's action in a transaction of its own; returns once it is committed."""
    seat = moves.seats.player_seat(room_id, token)
    result = moves.apply_moves([Move(room_id, seat, action, version)])[0]
    if isinstance(result, Exception):
        raise result
    assert result is not None  # None answers a Closed only
    return result


def start(parts: Runtime, room_id: str, token: str) -> None:
    """Deal the room's match in a transaction of its own, from the next test seed when the runtime has
    them; its first state is kept in memory, as the server's start does."""
    with parts.db.transaction() as session:
        match_id, state = rooms.start_room(session, room_id, token, None, parts.moves.next_test_seed())
    parts.moves.cache.put(match_id, 1, state)


def runtime(url: str, **settings: Any) -> Runtime:
    """The app as a server process wires it, never started (no background task runs, no request is
    served): a bench takes the layer it measures from it. No Redis, whatever the shell names."""
    return Runtime(Settings(database_url=url, redis_url=None, **settings))


class Services:
    """The service modules a match needs, without a server: rooms, moves, bot turns and state bodies."""

    def __init__(self, url: str) -> None:
        parts = runtime(url)
        self.parts = parts
        self.db = parts.db
        self.seats = parts.seats
        self.moves = parts.moves
        self.bot_turns = parts.bot_turns
        self.views = parts.views

    def create_room(self, game: str, name: str, options: dict[str, Any] | None) -> dict[str, Any]:
        with self.db.transaction() as session:
            made: dict[str, Any] = rooms.create_room(session, game, name, options)
            return made

    def add_bot(self, room_id: str, token: str) -> None:
        with self.db.transaction() as session:
            rooms.add_bot(session, room_id, token)

    def play_bot(self, turn: Any) -> None:
        result = self.moves.apply_moves([self.bot_turns.choose_bot(turn)])[0]
        if isinstance(result, Exception):
            raise result


def sqlite_bytes(db: Database) -> int:
    # A plain connection: the server's engine wraps every statement in BEGIN IMMEDIATE.
    with contextlib.closing(sqlite3.connect(make_url(db.url).database or "")) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        free = connection.execute("PRAGMA freelist_count").fetchone()[0]
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    return int((pages - free) * size)


def postgres_bytes(db: Database) -> int:
    with db.engine.connect() as connection:
        total = connection.execute(
            text(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            )
        ).scalar()
    return int(total or 0)


def play(services: Services, game: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    made = services.create_room(game, "Ann", None)
    room_id, token = made["room_id"], made["token"]
    for _ in range(players - 1):
        services.add_bot(room_id, token)
    start(services.parts, room_id, token)
    while True:
        state = services.views.state(room_id, token)
        if state["status"] == "finished":
            return
        if 0 in state["to_act"] and state["legal_actions"]:
            act(services.moves, room_id, token, rng.choice(state["legal_actions"]), state["version"])
            continue
        turn = services.bot_turns.bot_turn(room_id)
        assert turn is not None, "nobody to act in a match that is not finished"
        services.play_bot(turn)


def measure(name: str, url: str, size: Callable[[Database], int], matches: int) -> dict[str, Any]:
    upgrade(url)
    services = Services(url)
    db = services.db
    try:
        empty = size(db)
        for _ in range(matches * 5):
            services.create_room("mojo", "Ann", None)
        rooms = size(db)
        figures: dict[str, Any] = {"database": name, "room": (rooms - empty) / (matches * 5)}
        for game, players in (("mojo", 2), ("mojo", 4), ("moby-trick", 3)):
            before = size(db)
            for seed in range(matches):
                play(services, game, players, seed)
            after = size(db)
            figures[f"{game} x{players}"] = (after - before) / matches
        before_archive = size(db)
        archived = prune(
            db,
            Settings(
                database_url=url,
                waiting_room_hours=0,
                idle_room_hours=0,
                finished_match_hours=0,
                abandoned_match_hours=0,
            ),
        )
        figures["archived snapshots"] = archived.archived_snapshots
        figures["freed by archiving, per match"] = (before_archive - size(db)) / (3 * matches)
        return figures
    finally:
        db.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--postgres", help="a PostgreSQL URL; a schema of its own is made and dropped")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        url = sqlalchemy_url(f"sqlite:///{Path(folder) / 'storage.db'}")
        rows.append(measure("SQLite", url, sqlite_bytes, args.matches))
    if args.postgres:
        schema = f"motable_bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(args.postgres, autocommit=True) as admin:
            admin.execute(f'CREATE SCHEMA "{schema}"')
            try:
                sep = "&" if "?" in args.postgres else "?"
                url = sqlalchemy_url(f"{args.postgres}{sep}options={quote(f'-csearch_path={schema}')}")
                rows.append(measure("PostgreSQL", url, postgres_bytes, args.matches))
            finally:
                admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
    for row in rows:
        print(f"{row.pop('database')}:")
        for key, value in row.items():
            shown = f"{value / 1024:.1f} KiB" if isinstance(value, float) else str(value)
            print(f"  {key}: {shown}")


if __name__ == "__main__":
    main()
