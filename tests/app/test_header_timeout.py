"""`motable serve` without a proxy (issue 32): a connection that does not send a whole request head in
MOTABLE_HEADER_TIMEOUT seconds is closed, silent or trickling, first request or a later one on a kept
connection, while requests under way and WebSockets are left alone; and connections that sent nothing
are capped per address, so one address's silent sockets cannot lock everyone else out."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from contextlib import ExitStack

from tests.rooms import new_room
from tests.servers import ServeProcess

from .test_limits import connect_from, healthz_from, read_all, socket_from, wait_for
from .test_serving import read_response

Spawn = Callable[[dict[str, str]], ServeProcess]

HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
# Short, yet long enough for a loaded machine to send a whole head at once after connecting.
TIMEOUT = "3"
# Far longer than any timeout under test: a connection still open when it passes was not closed.
PATIENCE = 60


def closed_by_server(sock: socket.socket) -> bytes:
    """Waits for the server to close `sock`; what it sent before (b"": nothing)."""
    sock.settimeout(PATIENCE)
    try:
        return read_all(sock)
    except ConnectionResetError:
        return b""
    except TimeoutError:
        raise AssertionError(f"the server kept the connection open for {PATIENCE} s") from None


def answer_of(sock: socket.socket) -> bytes:
    """One answer to a request with `Connection: close` (read to the end)."""
    sock.settimeout(PATIENCE)
    return read_all(sock)


def test_a_connection_that_sends_no_whole_head_is_closed(sqlite_url: str, spawn: Spawn) -> None:
    server = spawn({"DATABASE_URL": sqlite_url, "MOTABLE_HEADER_TIMEOUT": TIMEOUT})
    with ExitStack() as stack:
        silent = stack.enter_context(connect_from(server, "127.0.0.1"))
        partial = stack.enter_context(connect_from(server, "127.0.0.1"))
        partial.sendall(b"GET /healthz HTTP/1.1\r\nHo")
        # A kept connection: one request answered, then part of the next head.
        kept = stack.enter_context(connect_from(server, "127.0.0.1"))
        kept.sendall(HEALTHZ)
        kept.settimeout(PATIENCE)
        assert read_response(kept)[0] == 200
        kept.sendall(b"GET /heal")
        began = time.monotonic()
        for sock in (silent, partial, kept):
            assert closed_by_server(sock) == b""
        print(f"three connections without a whole head closed within {time.monotonic() - began:.1f} s")


def test_requests_under_way_and_sockets_outlast_the_header_timeout(sqlite_url: str, spawn: Spawn) -> None:
    """Opened with a silent connection: once the silent one is closed, the header timeout has passed
    for them too, and they still work."""
    server = spawn({"DATABASE_URL": sqlite_url, "MOTABLE_HEADER_TIMEOUT": TIMEOUT})
    room = new_room(server.base_url, "mojo")
    body = b'{"name": "Bo"}'
    with ExitStack() as stack:
        silent = stack.enter_context(connect_from(server, "127.0.0.1"))
        ws = stack.enter_context(socket_from(server, "127.0.0.1", room.room_id))
        assert '"snapshot"' in str(ws.recv(timeout=10))
        uploading = stack.enter_context(connect_from(server, "127.0.0.1"))
        head = (
            f"POST /api/rooms/{room.room_id}/join HTTP/1.1\r\nHost: x\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        uploading.sendall(head.encode() + body[:5])
        assert closed_by_server(silent) == b""

        uploading.sendall(body[5:])
        assert answer_of(uploading).startswith(b"HTTP/1.1 201 "), "the body's own timeout is 20 s"
        ws.send('{"type": "not-a-message", "id": "still-here"}')
        deadline = time.monotonic() + 10
        while '"still-here"' not in str(ws.recv(timeout=10)):
            assert time.monotonic() < deadline, "the socket answers"


def test_silent_connections_from_one_address_leave_room_for_everyone_else(
    sqlite_url: str, spawn: Spawn
) -> None:
    """30 silent connections from one address on a server of 20: before, they took every place and
    the others got 503 until they went away. Now that address holds its share of 4 (the others are
    refused as they connect) and another address is served."""
    server = spawn(
        {
            "DATABASE_URL": sqlite_url,
            "MOTABLE_MAX_CONNECTIONS": "20",
            "MOTABLE_MAX_CONNECTIONS_PER_ADDRESS": "4",
            # Loopback is a trusted proxy by default, and a proxy's connections are not counted.
            "MOTABLE_TRUSTED_PROXIES": "192.0.2.1",
            # Long: what is tested here is the share, not the timeout.
            "MOTABLE_HEADER_TIMEOUT": "300",
        }
    )
    with ExitStack() as stack:
        silent = [stack.enter_context(connect_from(server, "127.0.0.1")) for _ in range(30)]
        refused = [sock for sock in silent[4:] if closed_by_server(sock)]
        assert len(refused) == 26
        answer = healthz_from(server, "127.0.0.1")
        assert answer.startswith(b"HTTP/1.1 503 ") and b"too many connections open" in answer
        assert b"retry-after: 5" in answer.lower()

        assert healthz_from(server, "127.0.0.2").startswith(b"HTTP/1.1 200 "), "another address gets in"
        # The 4 places hold: those connections still serve a request when they send one.
        for sock in silent[:4]:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert answer_of(sock).startswith(b"HTTP/1.1 200 ")
    wait_for(lambda: healthz_from(server, "127.0.0.1").startswith(b"HTTP/1.1 200 "), 5, "a free place")
