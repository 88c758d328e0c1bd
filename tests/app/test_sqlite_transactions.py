"""SQLite transactions as app/db.py opens them: a write transaction holds the write lock from its first
statement (two writers queue instead of one failing half-way), a read one never waits for a writer,
and a BEGIN the database refuses is raised as SQLAlchemy raises any statement's error."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import exc, text

from app.db import READ_ONLY, make_engine, unavailable


def test_a_write_transaction_holds_the_lock_and_a_read_does_not_wait(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE t (x INTEGER)"))
            conn.execute(text("INSERT INTO t VALUES (1)"))
        other = sqlite3.connect(tmp_path / "db.sqlite", isolation_level=None, timeout=0)
        try:
            # Nothing written yet, and the lock is already the open transaction's.
            with engine.begin(), pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
            other.execute("BEGIN IMMEDIATE")
            other.execute("INSERT INTO t VALUES (2)")
            # A writer holds the lock: a read transaction reads the last committed snapshot at once.
            with engine.connect().execution_options(**{READ_ONLY: True}) as reader, reader.begin():
                assert reader.execute(text("SELECT count(*) FROM t")).scalar() == 1
            other.execute("COMMIT")
        finally:
            other.close()
    finally:
        engine.dispose()


def test_a_refused_begin_is_a_sqlalchemy_error_that_means_unavailable(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    other = sqlite3.connect(tmp_path / "db.sqlite", isolation_level=None)
    try:
        with engine.connect() as conn:
            conn.connection.driver_connection.execute("PRAGMA busy_timeout=0")  # type: ignore[union-attr]
            other.execute("BEGIN IMMEDIATE")
            with pytest.raises(exc.OperationalError) as refused:
                conn.begin()
            assert isinstance(refused.value.orig, sqlite3.OperationalError)
            assert "BEGIN IMMEDIATE" in str(refused.value)
            assert unavailable(refused.value)
            other.execute("ROLLBACK")
            # The connection is usable once the lock is free.
            with conn.begin():
                assert conn.execute(text("SELECT 1")).scalar() == 1
    finally:
        other.close()
        engine.dispose()
