"""How `motable serve` runs uvicorn on the open internet: bounded headers, timeouts, a connection cap.

uvicorn alone never times out a client that is slow to send its headers or body, never closes a
connection that sends nothing at all, and parses headers of any size with its default parser. The
HTTP protocol below is uvicorn's h11 protocol with those bounds added.
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import json
import logging
import resource
import time
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.config import Settings
from app.errors import error_body
from app.ratelimit import address_key

log = logging.getLogger("uvicorn.error")

# File descriptors kept for the database pool, Redis, logs and the listening socket itself.
SPARE_FILES = 64


def _raw_response(status: int, reason: str, code: str, message: str, extra: str = "") -> bytes:
    body = json.dumps(error_body(code, message)).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n{extra}\r\n"
    )
    return head.encode() + body


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(setting: str) -> list[Network] | None:
    """MOTABLE_TRUSTED_PROXIES as networks; None when it is `*` (every address is trusted)."""
    networks: list[Network] = []
    for part in (part.strip() for part in setting.split(",")):
        if part == "*":
            return None
        if part:
            try:
                networks.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                continue  # a name uvicorn may know (a unix socket, say): no address of ours matches it
    return networks


class AddressShare:
    """Open connections per client address, so one address cannot take the whole cap.

    Counted by transport: a connection upgraded to a WebSocket keeps its transport (and uvicorn hands
    it to another protocol object), so a transport counts until it is closing, whichever protocol
    holds it by then. Closed ones are dropped when their address connects again, and in a sweep of
    every address now and then."""

    SWEEP_EVERY = 1024

    def __init__(self, share: int, trusted: list[Network] | None) -> None:
        self.share = share
        self.trusted = trusted
        self._open: dict[str, set[asyncio.BaseTransport]] = {}
        self._since_sweep = 0
        self._refused = 0
        self._told_at = 0.0

    def counts(self, address: str) -> bool:
        """Whether connections from `address` count against a share (not a trusted proxy's)."""
        if self.share <= 0:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if self.trusted is None:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return not any(ip in network for network in self.trusted)

    def admit(self, address: str, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection; False when its address already holds its share (not counted)."""
        self._since_sweep += 1
        if self._since_sweep >= self.SWEEP_EVERY:
            self._sweep()
        key = address_key(address)
        group = self._open.setdefault(key, set())
        if len(group) >= self.share:
            group -= {t for t in group if t.is_closing()}
        if len(group) >= self.share:
            self._refused += 1
            now = time.monotonic()
            if now - self._told_at >= 10.0:  # one line per 10 s, however hard one address knocks
                log.warning(
                    "refused %d connection(s): %s holds its share of %d open connections",
                    self._refused,
                    key,
                    self.share,
                )
                self._refused, self._told_at = 0, now
            return False
        group.add(transport)
        return True

    def release(self, address: str, transport: asyncio.BaseTransport) -> None:
        key = address_key(address)
        group = self._open.get(key)
        if group is not None:
            group.discard(transport)
            if not group:
                del self._open[key]

    def _sweep(self) -> None:
        self._since_sweep = 0
        for key, group in list(self._open.items()):
            group -= {t for t in group if t.is_closing()}
            if not group:
                del self._open[key]


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, plus: header size and time limits, a body time limit, a connection cap."""

    # uvicorn builds one protocol per connection and cannot pass settings in: `protocol_for` makes a
    # subclass carrying them.
    settings: Settings
    # One per server (made by `protocol_for`), shared by its connections.
    shares: ClassVar[AddressShare]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        # The client address this connection is counted for in `shares` (None: not counted).
        self._counted: str | None = None

    # -- connection cap -----------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.settings.max_connections:
            log.warning(
                "refused a connection: %d open, the cap is %d",
                len(self.connections) - 1,
                self.settings.max_connections,
            )
            self._turn_away(transport, "the server has too many open connections; retry in a moment")
            return
        address = self.client[0] if self.client else None
        if address is not None and self.shares.counts(address):
            if not self.shares.admit(address, transport):
                self._turn_away(transport, "this address has too many connections open; close some and retry")
                return
            self._counted = address
        self._arm_header_timer()

    def _turn_away(self, transport: asyncio.Transport, message: str) -> None:
        transport.write(
            _raw_response(503, "Service Unavailable", "unavailable", message, "retry-after: 5\r\n")
        )
        transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        if self._counted is not None:
            self.shares.release(self._counted, self.transport)
            self._counted = None
        super().connection_lost(exc)

    # -- header size --------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and self._head_too_large(data):
            self._refuse(431, "Request Header Fields Too Large", "the request's headers are too large")
            return
        super().data_received(data)
        self._track_progress()

    def _head_too_large(self, data: bytes) -> bool:
        limit = self.settings.max_header_bytes
        pending = self.conn.trailing_data[0]
        if len(pending) + len(data) <= limit:
            return False
        head = pending + data
        end = head.find(b"\r\n\r\n", 0, limit + 4)
        return end < 0

    def _refuse(self, status: int, reason: str, message: str) -> None:
        self._cancel_timers()
        if not self.transport.is_closing():
            self.transport.write(
                _raw_response(status, reason, "too_large" if status == 431 else "timeout", message)
            )
            self.transport.close()

    # -- timeouts -----------------------------------------------------------------
    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.settings.header_timeout, self._headers_late)

    def _track_progress(self) -> None:
        if self.transport.get_protocol() is not self:  # upgraded to a WebSocket: its own pings apply
            self._cancel_timers()
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            return
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        if state is h11.SEND_BODY:
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(self.settings.body_timeout, self._body_late)
        elif self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.transport.get_protocol() is self:
            # The next request's headers get the same time as the first one's.
            self._arm_header_timer()
            self._track_progress()

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self.conn.trailing_data[0]:
            self._refuse(408, "Request Timeout", "the request's headers came too slowly")
        else:
            # Nothing sent: an idle connection, closed without an answer.
            self.transport.close()

    def _body_late(self) -> None:
        self._body_timer = None
        if not self.transport.is_closing():
            self._refuse(408, "Request Timeout", "the request's body came too slowly")

    def _cancel_timers(self) -> None:
        for timer in (self._header_timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._header_timer = self._body_timer = None


def protocol_for(settings: Settings) -> type[GuardedH11Protocol]:
    """A protocol class carrying these settings and the server's per-address counts (uvicorn builds
    one instance per connection). An address's share is never more than the cap itself."""
    share = min(settings.max_connections_per_address, settings.max_connections)
    shares = AddressShare(share, trusted_networks(settings.trusted_proxies))
    return type("MotableHttp", (GuardedH11Protocol,), {"settings": settings, "shares": shares})


def tune_gc() -> None:
    """Fewer cyclic garbage collections: the server holds many long-lived JSON-like objects (cached
    states, each socket's last body) that a collection walks again and again, while almost all of
    its garbage is freed by reference counting. Objects alive after start-up are left out of every
    collection (freeze); the youngest generation is collected after 50,000 allocations instead of
    700. Measured with bench/load.py (docs/performance.md): 5-8% less CPU per move."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def raise_open_file_limit(wanted: int) -> int:
    """Raise this process's soft open-file limit towards `wanted` (up to the hard limit); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as error:
            log.warning("could not raise the open-file limit from %d to %d: %s", soft, target, error)
    return soft


def uvicorn_options(settings: Settings, host: str, port: int, log_level: str = "info") -> dict[str, Any]:
    """Everything `motable serve` hands to uvicorn (also used by tests that run the server in-process)."""
    files = raise_open_file_limit(settings.max_connections + SPARE_FILES)
    cap = min(settings.max_connections, max(files - SPARE_FILES, 16))
    if cap < settings.max_connections:
        log.warning("the open-file limit is %d, so at most %d connections are served at once", files, cap)
        settings = settings.model_copy(update={"max_connections": cap})
    return {
        "host": host,
        "port": port,
        "http": protocol_for(settings),
        # A backstop behind the protocol's own check.
        "h11_max_incomplete_event_size": settings.max_header_bytes + 1024,
        "timeout_keep_alive": settings.keepalive_timeout,
        # Requests beyond the cap (counted with sockets) get 503 instead of queueing without end.
        "limit_concurrency": cap + 1,
        # Frames over our own limit are refused in the app with a too_large error; this caps the rest.
        "ws_max_size": settings.max_ws_message_bytes * 4,
        "proxy_headers": True,
        "forwarded_allow_ips": settings.trusted_proxies,
        "server_header": False,
        "log_level": log_level,
    }
