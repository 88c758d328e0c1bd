"""Database engines, sessions and migrations for SQLite and PostgreSQL."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, exc, make_url
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.expression import UpdateBase

import migrations

# An execution option marking a transaction that only reads.
READ_ONLY = "motable_read_only"

# Seconds a new PostgreSQL connection may take before it counts as failed (unless the URL says
# otherwise): an unreachable database host then answers 503 promptly instead of after TCP's minutes.
CONNECT_TIMEOUT = 5

# Seconds the group commit's connection may sit idle and still be used without a fresh checkout
# (which, on PostgreSQL, checks the connection is alive first): a busy writer keeps one connection,
# an idle one finds out a server restart before its next batch.
HELD_IDLE = 10.0

# Seconds a client is told to wait (Retry-After) when the database cannot be reached.
UNAVAILABLE_RETRY_AFTER = 5

# What the database driver raises when it cannot serve a query now, whatever the query: the server
# refused or dropped the connection, the pool had none free in time, the file could not be opened
# or is locked. Wrapped by SQLAlchemy (the first four) or raised by the drivers themselves.
_UNAVAILABLE: tuple[type[BaseException], ...] = (
    exc.OperationalError,
    exc.InterfaceError,
    exc.TimeoutError,
    exc.DisconnectionError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    sqlite3.OperationalError,
)


def unavailable(error: BaseException) -> bool:
    """Whether `error` means the database cannot be reached just now, rather than a bug: the error
    itself, what it was raised from (`raise ... from`), or any member of an exception group."""
    seen: set[int] = set()
    stack = [error]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, _UNAVAILABLE):
            return True
        if isinstance(item, exc.DBAPIError) and item.connection_invalidated:
            return True
        if isinstance(item, BaseExceptionGroup):
            stack.extend(item.exceptions)
        if item.__cause__ is not None:
            stack.append(item.__cause__)
    return False


def create_private_sqlite_file(url: str) -> None:
    """Create a SQLite database file readable by its owner only (it holds live seeds and decks).
    SQLite gives the -wal and -shm files beside it the same mode. An existing file is left as it is."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.exists() and path.parent.is_dir():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


def make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        args = {} if "connect_timeout" in make_url(url).query else {"connect_timeout": CONNECT_TIMEOUT}
        return create_engine(url, pool_pre_ping=True, connect_args=args)
    create_private_sqlite_file(url)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    # pysqlite's own BEGIN handling is off so every transaction starts with BEGIN IMMEDIATE: taking
    # the write lock up front means two writers queue on busy_timeout instead of one failing with
    # SQLITE_BUSY when it upgrades a read lock.
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # FULL syncs the WAL on every commit: an acknowledged action survives power loss, not only kill -9.
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # Reads take no write lock: in WAL mode a deferred transaction reads its snapshot while the
        # writer commits, so a read never queues behind a write. Sent on the driver's connection:
        # through exec_driver_sql it cost a paced move's writer 102 us of its 612 (docs/performance.md).
        statement = "BEGIN" if connection.get_execution_options().get(READ_ONLY, False) else "BEGIN IMMEDIATE"
        try:
            connection.connection.driver_connection.execute(statement)
        except sqlite3.Error as error:
            # Raised as SQLAlchemy raises it from a statement of its own (sqlalchemy.exc.OperationalError...).
            raise exc.DBAPIError.instance(statement, (), error, sqlite3.Error) from error

    return engine


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._read_sessions = sessionmaker(
            self.engine.execution_options(**{READ_ONLY: True}), expire_on_commit=False
        )
        # The group commit's connection, kept between its transactions (Database.statements).
        self._held: Connection | None = None
        self._held_since = 0.0
        self._held_lock = threading.Lock()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One unit of work: committed when the block ends, rolled back if it raises."""
        with self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def statements(self) -> Iterator[Connection]:
        """One unit of work on SQLAlchemy Core, no ORM session: committed when the block ends, rolled
        back if it raises. The group commit's transaction (app/services/moves.py), on a connection
        kept between transactions: a lone move pays for its whole transaction, and a checkout from
        the pool and back (with, on PostgreSQL, a ping first) was a fifth of it (`bench/commit.py`).
        One caller at a time (the writer thread; others wait their turn). A connection left idle
        for HELD_IDLE seconds, or in a transaction that failed, is given back and a fresh one
        checked out next time; `dispose` closes it."""
        with self._held_lock:
            connection = self._held
            now = time.monotonic()
            if connection is not None and now - self._held_since > HELD_IDLE:
                self._held = None
                connection.close()
                connection = None
            if connection is None:
                connection = self._held = self.engine.connect()
            try:
                with connection.begin():
                    yield connection
            except BaseException:
                # Whatever failed (the server went away, a constraint): the next batch starts afresh.
                self._held = None
                connection.close()
                raise
            finally:
                self._held_since = time.monotonic()

    @contextmanager
    def savepoint(self, connection: Connection) -> Iterator[Session]:
        """An ORM session inside the transaction of `connection` (Database.statements), in a savepoint
        of its own: what it wrote is kept when the block ends, undone (and only that) if it raises."""
        with (
            Session(
                bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
            ) as session,
            session.begin(),
        ):
            yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A transaction that only reads (on SQLite a deferred one: it never waits for the writer)."""
        with self._read_sessions() as session, session.begin():
            yield session

    def dispose(self, wait: float = 5.0) -> None:
        """Close every connection. Waits (a bounded time) for connections still checked out by worker
        threads finishing a query: disposing under them would strand those connections unclosed."""
        deadline = time.monotonic() + wait
        if self._held_lock.acquire(timeout=wait):
            try:
                if self._held is not None:
                    self._held.close()
                    self._held = None
            finally:
                self._held_lock.release()
        while self.engine.pool.checkedout() and time.monotonic() < deadline:  # type: ignore[attr-defined]
            time.sleep(0.01)
        self.engine.dispose()


class Prepared:
    """A Core INSERT or UPDATE compiled once per dialect and run on the driver's own cursor, inside
    the transaction of a Core connection: the group commit's fast path (app/services/matches.py),
    two statements a move. Through `Connection.execute`, each run builds a cache key, looks the
    compiled form up, converts every parameter through the type's processor, fires the events and
    wraps the cursor in a result: about two thirds of the statement's CPU on SQLite
    (`bench/commit.py`). Here only what the column types need done to a value is done (a JSON
    column's text, a SQLite datetime's), by the processors SQLAlchemy itself would use, and the
    driver's own statement cache (sqlite3's, psycopg's prepared statements) does the rest.

    Only for statements whose every parameter is a plain column value: no defaults computed in
    Python, no RETURNING (`compile` refuses neither, so the callers keep to that)."""

    def __init__(self, statement: UpdateBase, columns: list[str] | None = None) -> None:
        self._statement = statement
        self._columns = columns
        self._by_dialect: dict[str, tuple[str, list[str] | None, dict[str, Any]]] = {}

    def _compiled(self, dialect: Dialect) -> tuple[str, list[str] | None, dict[str, Any]]:
        key = f"{dialect.name}+{dialect.driver}"
        known = self._by_dialect.get(key)
        if known is None:
            compiled = self._statement.compile(dialect=dialect, column_keys=self._columns)
            order = list(compiled.positiontup or ()) if compiled.positional else None
            convert = {}
            for name, bind in compiled.binds.items():
                processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
                if processor is not None:
                    convert[name] = processor
            known = self._by_dialect[key] = (compiled.string, order, convert)
        return known

    def _parameters(
        self, dialect: Dialect, rows: list[dict[str, Any]]
    ) -> tuple[str, list[tuple[Any, ...]] | list[dict[str, Any]]]:
        sql, order, convert = self._compiled(dialect)
        if convert:
            rows = [{**row, **{name: f(row[name]) for name, f in convert.items()}} for row in rows]
        if order is None:
            return sql, rows
        return sql, [tuple(row[name] for name in order) for row in rows]

    def run(self, connection: Connection, values: dict[str, Any]) -> int:
        """Run it once with `values`; returns how many rows it changed."""
        sql, (parameters,) = self._parameters(connection.dialect, [values])
        cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(sql, parameters)
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def run_many(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        """Run it once per row of `rows`, in one call to the driver."""
        sql, parameters = self._parameters(connection.dialect, rows)
        cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.executemany(sql, parameters)
        finally:
            cursor.close()


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    # Passed as an attribute, not a main option: configparser would choke on `%` in the URL.
    cfg.attributes["url"] = url
    return cfg


def upgrade(url: str) -> None:
    """Apply every pending migration."""
    command.upgrade(alembic_config(url), "head")
