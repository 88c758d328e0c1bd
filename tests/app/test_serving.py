"""`motable serve` on the open internet: bounded headers, timeouts, a connection cap, liveness and readiness.

Every test here talks to a real `motable serve` process over raw sockets on 127.0.0.1. The time to send
the headers is the proxy's to bound (uvicorn has no public option for it): tests/app/test_nginx.py."""

from __future__ import annotations

import json
import resource
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
import uvicorn

from app.config import Settings
from app.db import upgrade
from app.main import create_app
from app.serving import AddressShare, trusted_networks, uvicorn_options
from tests.forwarder import Forwarder
from tests.servers import ServeProcess, free_port
from tests.services import service_missing
from tests.waiting import wait_for

Spawn = Callable[..., ServeProcess]


@pytest.fixture
def serve(tmp_path: Path, sqlite_url: str) -> Iterator[Spawn]:
    started: list[ServeProcess] = []

    def start(env: dict[str, str] | None = None, **kwargs: object) -> ServeProcess:
        server = ServeProcess(
            {"DATABASE_URL": sqlite_url, **(env or {})},
            tmp_path / f"serve-{len(started)}.log",
            **kwargs,  # type: ignore[arg-type]
        )
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


def connect(server: ServeProcess, timeout: float = 10.0) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=timeout)
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Everything until the server closes the connection."""
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a content-length, leaving the connection open."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"connection closed mid-response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    while len(body) < int(headers.get("content-length", "0")):
        body += sock.recv(65536)
    return status, headers, body


def test_huge_header_is_refused_without_reading_it(serve: Spawn) -> None:
    server = serve()
    with connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        refused = None
        try:
            for _ in range(64 * 16):  # up to 64 MiB, in 64 KiB pieces
                sock.sendall(b"a" * 65536)
        except (BrokenPipeError, ConnectionResetError) as error:
            refused = error
        assert refused is not None, "the server kept reading a 64 MiB header"
        answer = sock.recv(65536)
    # uvicorn stops reading at twice the limit: 400 and the connection closed (or reset under the sender).
    assert answer.startswith((b"HTTP/1.1 400 ", b"HTTP/1.1 431 ")) or answer == b""
    # The server is fine afterwards.
    assert httpx.get(f"{server.base_url}/healthz").status_code == 200


def test_header_just_over_the_limit_answers_431(serve: Spawn) -> None:
    server = serve({"MOTABLE_MAX_HEADER_BYTES": "4096"})
    with connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 5000 + b"\r\n\r\n")
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 431 ")
    assert b'"too_large"' in answer
    fits = httpx.get(f"{server.base_url}/healthz", headers={"X-Big": "a" * 3000})
    assert fits.status_code == 200


def test_too_many_headers_answer_431(serve: Spawn) -> None:
    server = serve({"MOTABLE_MAX_HEADERS": "20"})
    many = {f"X-H{n}": "1" for n in range(30)}
    refused = httpx.get(f"{server.base_url}/healthz", headers=many)
    assert refused.status_code == 431
    assert refused.json()["error"]["code"] == "too_large"
    assert httpx.get(f"{server.base_url}/healthz", headers=dict(list(many.items())[:10])).status_code == 200


def test_trickled_body_is_cut_off(serve: Spawn) -> None:
    server = serve({"MOTABLE_BODY_TIMEOUT": "1"})
    with connect(server) as sock:
        sock.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 200\r\n\r\n{"
        )
        began = time.monotonic()
        answer = b""
        for _ in range(30):
            try:
                sock.sendall(b" ")
            except (BrokenPipeError, ConnectionResetError):
                break
            time.sleep(0.2)
            sock.setblocking(False)
            try:
                answer += sock.recv(65536)
            except BlockingIOError:
                pass
            finally:
                sock.setblocking(True)
            if answer:
                break
    assert time.monotonic() - began < 5
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_idle_keep_alive_connection_is_closed(serve: Spawn) -> None:
    server = serve({"MOTABLE_KEEPALIVE_TIMEOUT": "1"})
    with connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        status, _headers, _body = read_response(sock)
        assert status == 200
        began = time.monotonic()
        assert read_all(sock) == b""
        assert time.monotonic() - began < 4


def test_connection_cap_refuses_clearly_and_recovers(serve: Spawn) -> None:
    server = serve({"MOTABLE_MAX_CONNECTIONS": "8"})
    idle = [connect(server) for _ in range(8)]
    answers: list[bytes] = []

    def one_more() -> bool:
        with connect(server) as extra:
            extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answers.append(read_all(extra))
        return answers[-1].startswith(b"HTTP/1.1 503 ")

    try:
        # uvicorn's own answer past limit_concurrency: idle connections count, as sockets do. Until
        # the server has taken in all 8, one more is still served.
        wait_for(one_more)
        assert all(answer.startswith(b"HTTP/1.1 200 ") for answer in answers[:-1]), answers
    finally:
        for sock in idle:
            sock.close()
    deadline = time.monotonic() + 5
    while httpx.get(f"{server.base_url}/healthz").status_code != 200:
        assert time.monotonic() < deadline


def test_open_file_limit_is_raised_at_start(serve: Spawn) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 1024:
        service_missing(f"the hard open-file limit is {hard}: nothing to raise to")

    def low_soft_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))

    server = serve(preexec=low_soft_limit)
    assert server.process is not None
    limits = Path(f"/proc/{server.process.pid}/limits").read_text()
    line = next(line for line in limits.splitlines() if line.startswith("Max open files"))
    assert int(line.split()[3]) > 1024, line


def test_head_healthz_answers_200(serve: Spawn) -> None:
    server = serve()
    answer = httpx.head(f"{server.base_url}/healthz")
    assert answer.status_code == 200
    assert httpx.get(f"{server.base_url}/readyz").json() == {"status": "ok", "checks": {"database": "ok"}}


def test_server_header_is_not_sent(serve: Spawn) -> None:
    server = serve()
    assert "server" not in httpx.get(f"{server.base_url}/healthz").headers


def _through(forwarder: Forwarder, url: str) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    hostport = f"127.0.0.1:{forwarder.port}"
    return urlunsplit(parts._replace(netloc=f"{netloc[0]}@{hostport}" if len(netloc) == 2 else hostport))


def _wait_for(condition: Callable[[], bool], seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


@pytest.mark.postgres
@pytest.mark.redis
def test_readiness_follows_postgres_and_redis(serve: Spawn, postgres_url: str, redis_url: str) -> None:
    pg = urlsplit(postgres_url)
    rd = urlsplit(redis_url)
    pg_link = Forwarder((pg.hostname or "127.0.0.1", pg.port or 5432)).start()
    redis_link = Forwarder((rd.hostname or "127.0.0.1", rd.port or 6379)).start()
    try:
        server = serve(
            {"DATABASE_URL": _through(pg_link, postgres_url), "REDIS_URL": _through(redis_link, redis_url)}
        )
        ready = httpx.get(f"{server.base_url}/readyz")
        assert ready.status_code == 200
        assert ready.json()["checks"] == {"database": "ok", "redis": "ok"}

        pg_link.cut()
        not_ready = httpx.get(f"{server.base_url}/readyz", timeout=10)
        assert not_ready.status_code == 503
        assert not_ready.json()["checks"]["database"].startswith("unavailable")
        assert httpx.get(f"{server.base_url}/healthz").status_code == 200, "liveness is not readiness"
        pg_link.restore()
        _wait_for(lambda: httpx.get(f"{server.base_url}/readyz", timeout=10).status_code == 200)
        made = httpx.post(f"{server.base_url}/api/rooms", json={"game": "mojo", "name": "Ann"}, timeout=10)
        assert made.status_code == 201, "PostgreSQL is back: requests work again"

        redis_link.cut()
        not_ready = httpx.get(f"{server.base_url}/readyz", timeout=10)
        assert not_ready.status_code == 503
        assert not_ready.json()["checks"] == {"database": "ok", "redis": not_ready.json()["checks"]["redis"]}
        assert not_ready.json()["checks"]["redis"].startswith("unavailable")
        redis_link.restore()
        _wait_for(lambda: httpx.get(f"{server.base_url}/readyz", timeout=10).status_code == 200)
    finally:
        pg_link.cut()
        redis_link.cut()


def test_keep_alive_connection_survives_a_500(sqlite_url: str) -> None:
    """A real uvicorn server (in this process) with the serve options, and a route that fails."""
    upgrade(sqlite_url)
    app = create_app(Settings(database_url=sqlite_url, bot_delay=0))

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, **uvicorn_options(Settings(), "127.0.0.1", port, "critical")))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        _wait_for(lambda: server.started, 10)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /boom HTTP/1.1\r\nHost: x\r\n\r\n")
            status, headers, body = read_response(sock)
            assert status == 500
            assert json.loads(body)["error"]["code"] == "internal_error"
            assert headers.get("connection") != "close"
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            status, _headers, body = read_response(sock)
            assert status == 200, "the connection that saw a 500 still serves the next request"
    finally:
        server.should_exit = True
        thread.join(10)


def test_an_unexpected_failure_is_logged_with_its_traceback(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from starlette.testclient import TestClient

    upgrade(sqlite_url)
    app = create_app(Settings(database_url=sqlite_url, bot_delay=0))

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug worth a traceback")

    with TestClient(app, raise_server_exceptions=False) as client, caplog.at_level("ERROR", "uvicorn.error"):
        answer = client.get("/boom")
    assert answer.status_code == 500 and answer.json()["error"]["code"] == "internal_error"
    failed = [r for r in caplog.records if r.name == "uvicorn.error" and r.exc_info]
    assert failed and "a bug worth a traceback" in str(failed[0].exc_info[1])  # type: ignore[index]


def test_an_address_share_counts_what_each_address_holds_until_it_lets_go() -> None:
    share = AddressShare(2, trusted_networks("10.0.0.0/8, 127.0.0.1"))
    assert share.counts("198.51.100.7") and share.counts("::ffff:198.51.100.7")
    assert not share.counts("10.1.2.3") and not share.counts("::ffff:127.0.0.1"), "trusted proxies"
    assert not AddressShare(2, trusted_networks("*")).counts("198.51.100.7")
    assert not AddressShare(0, []).counts("198.51.100.7"), "0: no share"

    assert share.admit("198.51.100.7") and share.admit("::ffff:198.51.100.7")
    assert not share.admit("198.51.100.7"), "the address holds its share"
    assert share.admit("198.51.100.8"), "another address still gets in"
    share.release("198.51.100.7")
    assert share.admit("198.51.100.7")

    assert share.admit("2001:db8::1") and share.admit("2001:db8::2")
    assert not share.admit("2001:db8::3"), "an IPv6 client is counted by its /64"
    assert share.admit("2001:db8:0:1::1")
