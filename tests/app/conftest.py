"""Fixtures for the server tests: databases (SQLite, PostgreSQL in a fresh schema), Redis, app clients."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import psycopg
import pytest
import redis

from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.main import create_app
from engines.core import registry

with warnings.catch_warnings():
    # Starlette nudges towards httpx2; the test client itself works as documented.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _service_missing(name: str, error: Exception) -> None:
    """Skip when a service is absent, except where CI promised it (then its absence is a failure)."""
    message = f"{name} is unreachable: {error}"
    if os.environ.get("MOTABLE_REQUIRE_SERVICES"):
        pytest.fail(message)
    pytest.skip(message)


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
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
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
    registry._MODULES["tiny"] = "tests.app.tiny_game"
    yield "tiny"
    del registry._MODULES["tiny"]


@pytest.fixture
def client(database_url: str, tiny: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url, bot_delay=0))
    with TestClient(app) as test_client:
        yield test_client


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """A real `motable serve` process."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self._env = env
        self._log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        env = {**os.environ, "MOTABLE_BOT_DELAY": "0", **self._env}
        with self._log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app", "serve", "--port", str(self.port), "--log-level", "warning"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self._log_path.read_text()
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError(f"server did not start:\n{self._log_path.read_text()}")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Callable[[dict[str, str]], Server]]:
    """Starts `motable serve` processes with extra environment; stops them after the test."""
    started: list[Server] = []

    def start(env: dict[str, str]) -> Server:
        server = Server(env, tmp_path / f"server-{len(started)}.log").start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
