"""Fixtures for the server tests: databases (SQLite, PostgreSQL in a fresh schema), Redis, app clients."""

from __future__ import annotations

import os
import uuid
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
import pytest
import redis

from app import i18n
from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.main import create_app
from app.services.matches import Applied
from app.services.moves import Move, Moves
from engines.core import registry
from tests.rooms import auth as auth  # the tests here import it from this module
from tests.servers import ServeProcess
from tests.services import service_missing

with warnings.catch_warnings():
    # Starlette nudges towards httpx2; the test client itself works as documented.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _service_missing(name: str, error: Exception) -> None:
    """Skip when a service is absent, except where CI promised it (then its absence is a failure)."""
    service_missing(f"{name} is unreachable: {error}")


@pytest.fixture(autouse=True)
def _no_settings_from_the_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings come from the environment: a developer's own DATABASE_URL or MOTABLE_* must not leak in."""
    for key in list(os.environ):
        if key.startswith("MOTABLE_") or key in ("DATABASE_URL", "REDIS_URL"):
            monkeypatch.delenv(key)


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[psycopg.Connection[Any]]:
    try:
        conn = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        _service_missing("PostgreSQL", error)
    with conn:
        yield conn


@pytest.fixture
def postgres_url(postgres_admin: psycopg.Connection[Any]) -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a schema of its own, dropped afterwards."""
    schema = f"motable_test_{uuid.uuid4().hex[:12]}"
    postgres_admin.execute(f'CREATE SCHEMA "{schema}"')
    separator = "&" if "?" in POSTGRES_URL else "?"
    yield f"{POSTGRES_URL}{separator}options={quote(f'-csearch_path={schema}')}"
    postgres_admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def redis_url() -> str:
    try:
        shared = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
        shared.ping()
        # This Redis has been up longer than any test: every process has shared its presence since
        # it started (a fresh Redis makes presence unknown for a heartbeat; test_seat_consent_processes).
        shared.set("motable:presence:since", 0, nx=True)
    except redis.RedisError as error:
        _service_missing("Redis", error)
    return REDIS_URL


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'motable.db'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test using this runs on SQLite and on PostgreSQL, on a freshly migrated database."""
    url = sqlalchemy_url(request.getfixturevalue(f"{request.param}_url"))
    upgrade(url)
    return url


@pytest.fixture
def tiny() -> Iterator[str]:
    """Registers the test game `tiny`, whose every rule the tests know."""
    registry.register("tiny", "tests.app.tiny_game")
    yield "tiny"
    registry.unregister("tiny")


# Lifted for the shared fixture: every request of a test comes from the one test client's address,
# and many tests make more rooms and bots than an address may per hour, or play whole matches over
# HTTP faster than an address may send (a seat's token no longer gives it an allowance of its own).
# The limits themselves are tested in test_ratelimit.py and test_limits.py.
NO_LIMITS: dict[str, Any] = {"rooms_per_hour": 0, "bots_per_hour": 0, "rate_per_second": 0}


@pytest.fixture
def multilingual(sqlite_url: str, tiny: str) -> Iterator[TestClient]:
    """A site offering every language it holds a catalogue of; the process's offer is reset after."""
    url = sqlalchemy_url(sqlite_url)
    upgrade(url)
    settings = Settings(database_url=url, bot_delay=0, languages="all", rate_per_second=0)
    with TestClient(create_app(settings)) as client:
        yield client
    i18n.configure(i18n.Languages())


@pytest.fixture
def client(database_url: str, tiny: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url, bot_delay=0, **NO_LIMITS))
    with TestClient(app) as test_client:
        yield test_client


def act(moves: Moves, room_id: str, token: str | None, action: Any, version: int | None = None) -> Applied:
    """Apply one player's action in a transaction of its own; returns once it is committed."""
    seat = moves.seats.player_seat(room_id, token)
    result = moves.apply_moves([Move(room_id, seat, action, version)])[0]
    if isinstance(result, Exception):
        raise result
    assert result is not None  # None answers a Closed only
    return result


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Callable[[dict[str, str]], ServeProcess]]:
    """Starts `motable serve` processes with extra environment; stops them after the test."""
    started: list[ServeProcess] = []

    def start(env: dict[str, str]) -> ServeProcess:
        server = ServeProcess(env, tmp_path / f"server-{len(started)}.log").start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
