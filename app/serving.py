"""How `motable serve` runs uvicorn on the open internet, through uvicorn's public options only.

Each limit, and what enforces it:
- the size of a request's head: uvicorn's `h11_max_incomplete_event_size` stops reading a head past
  twice MOTABLE_MAX_HEADER_BYTES (400, connection closed); ConnectionLimits below answers 431 too_large
  for one over the limit that is not that large;
- the number of header lines: BodyLimit (app/main.py), 431 too_large;
- the time a body may take once its headers are in: ConnectionLimits, 408 timeout;
- an idle keep-alive connection: uvicorn's `timeout_keep_alive`;
- open connections at once: uvicorn's `limit_concurrency` (503 to a request beyond it);
- what one client address may hold: ConnectionLimits counts its requests under way and its open
  sockets (503 unavailable), and HeadTimeout its connections that have not sent a request yet (503
  unavailable as they connect);
- the time to send a request's head, and a connection that never sends one: HeadTimeout (closed).
  uvicorn has no option for it; HeadTimeout wraps uvicorn's h11 protocol through the `http` option,
  which takes any protocol class, and uses nothing of it but the asyncio protocol interface. Behind
  the shipped nginx, its client_header_timeout closes them first (docs/operations.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import ipaddress
import logging
import math
import resource
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any, ClassVar, cast

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.typing import BytesLike

from app import i18n
from app.config import Settings
from app.errors import error_body
from app.i18n import N_
from app.ratelimit import address_key, client_address
from app.tasks import cancel_and_wait

log = logging.getLogger("uvicorn.error")

# File descriptors kept for the database pool, Redis, logs and the listening socket itself.
SPARE_FILES = 64
# What a refused client is told to wait, in seconds.
RETRY_AFTER = 5

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
    """Requests under way and sockets open per client address (an IPv6 client: its /64), so one
    address cannot take the whole server. A trusted proxy's own address is not counted: it carries
    everyone's requests (those it forwards are counted by the address it names). `held` names what
    is counted, for the log."""

    def __init__(self, share: int, trusted: list[Network] | None, held: str = "open connections") -> None:
        self.share = share
        self.trusted = trusted
        self.held = held
        self._open: dict[str, int] = {}
        self._refused = 0
        self._told_at = 0.0

    def counts(self, address: str) -> bool:
        """Whether `address` counts against a share (not a trusted proxy's)."""
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

    def admit(self, address: str) -> bool:
        """Count one more for `address`; False when it already holds its share (not counted)."""
        key = address_key(address)
        held = self._open.get(key, 0)
        if held >= self.share:
            self._refused += 1
            now = time.monotonic()
            if now - self._told_at >= 10.0:  # one line per 10 s, however hard one address knocks
                log.warning(
                    "refused %d: %s holds its share of %d %s",
                    self._refused,
                    key,
                    self.share,
                    self.held,
                )
                self._refused, self._told_at = 0, now
            return False
        self._open[key] = held + 1
        return True

    def release(self, address: str) -> None:
        key = address_key(address)
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)


def _head_bytes(scope: Scope) -> int:
    """About what the request line and headers took on the wire."""
    line = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") + 16
    return line + sum(len(name) + len(value) + 4 for name, value in scope.get("headers") or ())


def _expects_body(scope: Scope) -> bool:
    for name, value in scope.get("headers") or ():
        if name == b"content-length" and value.strip() not in (b"", b"0"):
            return True
        if name == b"transfer-encoding":
            return True
    return False


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, code: str, message: str, close: bool = False
) -> None:
    headers = {"Retry-After": str(RETRY_AFTER)} if status == 503 else {}
    if close:
        headers["Connection"] = "close"
    # Outside i18n.Speak (nothing is read before these limits): the reader's language from the head.
    with i18n.speaking(i18n.language_of(scope)):
        worded = i18n.gettext(message)
    response = JSONResponse(error_body(code, worded), status_code=status, headers=headers)
    if scope["type"] == "websocket":
        # Refused in the handshake with the HTTP answer itself (the ASGI denial response).
        await receive()
        start = {"type": "websocket.http.response.start", "status": status, "headers": response.raw_headers}
        await send(start)
        await send({"type": "websocket.http.response.body", "body": response.body})
        return
    await response(scope, receive, send)


class ConnectionLimits:
    """The limits of the module's list that an ASGI app can see: the head's size, an address's share,
    and the time a body may take. Outermost of the middleware, so nothing is read before it."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.max_header_bytes = settings.max_header_bytes
        self.body_timeout = settings.body_timeout
        share = min(settings.max_connections_per_address, settings.max_connections)
        self.shares = AddressShare(
            share, trusted_networks(settings.trusted_proxies), "requests under way and open sockets"
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        held = CONNECTION.get()
        connection = held() if held is not None else None
        if connection is None:  # not through `motable serve` (the test client, say)
            await self._limited(scope, receive, send)
            return
        connection.request_began()
        try:
            await self._limited(scope, receive, send)
        finally:
            connection.request_ended()

    async def _limited(self, scope: Scope, receive: Receive, send: Send) -> None:
        if _head_bytes(scope) > self.max_header_bytes:
            await _refuse(scope, receive, send, 431, "too_large", N_("the request's headers are too large"))
            return
        address = client_address(scope)
        counted = self.shares.counts(address)
        if counted and not self.shares.admit(address):
            message = N_("this address has too many connections open; close some and retry")
            await _refuse(scope, receive, send, 503, "unavailable", message)
            return
        try:
            if scope["type"] == "http" and self.body_timeout > 0 and _expects_body(scope):
                await self._body_in_time(scope, receive, send)
            else:
                if scope["type"] == "websocket":
                    # The server's own send, for a socket's frames once accepted (app/routes/ws.py): no
                    # middleware changes a "websocket.send", so each frame skips their wrappers.
                    scope[FRAME_SEND] = send
                await self.app(scope, receive, send)
        finally:
            if counted:
                self.shares.release(address)

    async def _body_in_time(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the app; if the body is not all in within body_timeout (and no answer began), the app
        is stopped and the client answered 408 timeout, the connection closed."""
        body_in = answered = False

        async def tracked_receive() -> Message:
            nonlocal body_in
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_in = True
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                answered = True
            await send(message)

        task = asyncio.ensure_future(self.app(scope, tracked_receive, tracked_send))
        try:
            async with asyncio.timeout(self.body_timeout):
                await asyncio.shield(task)
            return
        except TimeoutError:
            if body_in or answered:
                await task  # the body came in time: the app takes as long as it takes
                return
        finally:
            if not task.done():
                await cancel_and_wait(task)
        await _refuse(
            scope, receive, send, 408, "timeout", N_("the request's body came too slowly"), close=True
        )


def _refusal(status: int, reason: str, code: str, message: str) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection, written before any request was read."""
    body = JSONResponse(error_body(code, message)).body
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
        f"retry-after: {RETRY_AFTER}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + bytes(body)


class HeadTimeout(asyncio.Protocol):
    """uvicorn's h11 protocol, left as it is, behind two bounds it lacks: a connection that has not
    sent a whole request head `timeout` seconds after it opened (or after the first byte of a later
    request's head) is closed, and one client address may hold at most `pending`'s share of
    connections that have sent no request yet (more get 503 as they connect). Without them, sockets
    opened and left silent filled the server's connections, and everyone else got 503.

    Only the asyncio protocol interface is used, forwarded to the h11 protocol; when a request's head
    is complete the h11 protocol starts the app, and ConnectionLimits tells this connection, found
    through the CONNECTION context variable: set here while the h11 protocol reads, and so inherited
    by the task it starts (a WebSocket's too) and any pipelined request's after it. Between requests
    uvicorn's keep-alive timeout closes an idle connection until its next byte arrives; from then on
    this one runs. A timer that ends during a request closes nothing: the body has its own timeout.

    `motable serve` makes a subclass carrying the settings (`head_timeout_protocol`), since uvicorn
    builds the protocol of each connection itself."""

    timeout: ClassVar[float]
    pending: ClassVar[AddressShare]

    def __init__(self, **made_with: Any) -> None:
        # Whatever uvicorn builds a protocol with (its config, the server's state...), handed on.
        self._h11: asyncio.Protocol | None = H11Protocol(**made_with)
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._requests = 0  # under way: their head is in
        self._heard = False  # bytes came in while a request was under way
        self._counted: str | None = None  # the address counted in `pending` (None: not counted)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream transport (uvloop's does not derive from asyncio.Transport, so no isinstance).
        self._transport = transport = cast(asyncio.Transport, transport)
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) else None  # a Unix socket's peer is a str
        if address is not None and self.pending.counts(address):
            if not self.pending.admit(address):
                message = "this address has too many connections open; close some and retry"
                transport.write(_refusal(503, "Service Unavailable", "unavailable", message))
                transport.close()
                self._h11 = None
                return
            self._counted = address
        assert self._h11 is not None
        self._h11.connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._h11 is None:
            return
        if self._requests:
            self._heard = True
        elif self._timer is None:
            self._arm()  # the first byte of a later request's head
        token = CONNECTION.set(weakref.ref(self))
        try:
            self._h11.data_received(data)
        finally:
            CONNECTION.reset(token)

    def eof_received(self) -> bool | None:
        return self._h11.eof_received() if self._h11 is not None else None

    def pause_writing(self) -> None:
        if self._h11 is not None:
            self._h11.pause_writing()

    def resume_writing(self) -> None:
        if self._h11 is not None:
            self._h11.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        if self._h11 is not None:
            self._h11.connection_lost(exc)

    def request_began(self) -> None:
        """A request's head is in (ConnectionLimits, as the app starts on it)."""
        self._requests += 1
        self._disarm()
        self._uncount()

    def request_ended(self) -> None:
        self._requests -= 1
        if not self._requests and self._heard:
            # Bytes of a next head may have come while this request was answered, when neither the
            # keep-alive timeout nor this one ran. (They may have been this request's body: then an
            # idle connection is closed by whichever of the two timeouts ends first.)
            self._heard = False
            if self._timer is None:
                self._arm()

    def _arm(self) -> None:
        if self.timeout > 0:
            self._timer = asyncio.get_running_loop().call_later(self.timeout, self._expired)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expired(self) -> None:
        self._timer = None
        if not self._requests and self._transport is not None:
            self._transport.close()

    def _uncount(self) -> None:
        if self._counted is not None:
            self.pending.release(self._counted)
            self._counted = None


# The connection whose request the current task serves (HeadTimeout); None outside `motable serve`.
# A weak reference: tasks a request starts inherit it, and must not keep a closed connection alive.
CONNECTION: contextvars.ContextVar[weakref.ref[HeadTimeout] | None] = contextvars.ContextVar(
    "motable_connection", default=None
)


def head_timeout_protocol(settings: Settings) -> type[HeadTimeout]:
    """The protocol class of one server: HeadTimeout with its settings, and one count of connections
    without a request per address, shared by all its connections."""
    share = min(settings.max_connections_per_address, settings.max_connections)
    pending = AddressShare(share, trusted_networks(settings.trusted_proxies), "connections without a request")
    return type("ServedHeadTimeout", (HeadTimeout,), {"timeout": settings.header_timeout, "pending": pending})


class Collector:
    """When the cyclic garbage collector runs, for a server process: on a timer instead of CPython's
    allocation counts, and never over what was alive at the last run.

    CPython starts a young collection when allocations outnumber deallocations by a threshold. A
    server in steady state frees about as many tracked objects as it makes (each move replaces the
    bodies, views and state of the one before), so that count hardly moves while the young
    generation fills with objects that live seconds: at 5,000 sockets it held 60,000-130,000 objects
    when a collection finally came, a 50-450 ms pause, and the older generations' collections took
    0.3-0.8 s (docs/performance.md, "Pauses"). Almost all of that garbage is freed by reference
    counting anyway; cycles are rare (a few hundred objects a second, mostly SQLAlchemy's statement
    objects, gone within a young collection).

    So automatic collection is off, and every `young_every` seconds a young collection runs and what
    survives it is frozen (`gc.freeze`): the next run walks only what was made since, a few ms.
    Frozen objects are still freed by reference counting; only a cycle among them that became
    garbage later would stay (about 13 objects a second under load), so every `full_every` seconds
    everything is unfrozen and collected once (a longer pause: 1.3 s at 5,000 sockets) and frozen
    again.
    """

    def __init__(self, young_every: float, full_every: float) -> None:
        self.young_every = young_every
        self.full_every = full_every
        self._next_full = time.monotonic() + full_every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Freeze what start-up made, turn automatic collection off and run on a thread of its own
        (a collection holds the interpreter lock wherever it starts, as an automatic one does)."""
        if self.young_every <= 0:
            return  # left to CPython's own thresholds
        gc.freeze()
        gc.disable()
        self._thread = threading.Thread(target=self._run, name="motable-gc", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.young_every):
            self.step(time.monotonic())

    def step(self, now: float) -> None:
        """One run: the young collection, the full one when it is due, then freeze."""
        gc.collect(0)
        if now >= self._next_full:
            started = time.perf_counter()
            gc.unfreeze()
            found = gc.collect()
            self._next_full = now + self.full_every
            log.info(
                "full garbage collection: %d unreachable objects, %.0f ms",
                found,
                (time.perf_counter() - started) * 1000,
            )
        gc.freeze()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None


def tune_gc(settings: Settings) -> Collector:
    """The collector policy of a server process (`Collector`), as the settings say; started."""
    collector = Collector(settings.gc_young_seconds, settings.gc_full_seconds)
    collector.start()
    return collector


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


# The scope key holding the server's send, as ConnectionLimits (the outermost middleware) got it.
FRAME_SEND = "motable.frame_send"

# The scope key holding a socket's frame writer (FrameProtocol.write_now).
FRAME_WRITE = "motable.frame_write"


# Text frames shorter than this many bytes go out uncompressed by default, also on a socket that agreed
# to permessage-deflate (RFC 7692 lets the sender choose per message; `MOTABLE_WS_COMPRESS_FROM`).
# At a table of four, compressing a move's patches (500 B to 1.2 KB a seat) cost about 160 us of server
# CPU a move, a tenth of it (each socket's compressor is cold by the time its next patch comes), to
# send some 800 bytes fewer a seat (docs/performance.md, "Issue 34 on 2026-12-08").
COMPRESS_FROM = 2048


class PlainSmallText(ServerProtocol):
    """websockets' server protocol, sending a text frame shorter than `compress_from` bytes without
    compressing it."""

    compress_from = COMPRESS_FROM

    def send_text(self, data: BytesLike, fin: bool = True) -> None:
        plain = fin and len(data) < self.compress_from and not self.expect_continuation_frame
        if plain and self.state is State.OPEN:
            # As send_text's frame, but through no extension: the RSV1 bit stays clear, which is how
            # the reader knows it is not compressed, and neither side's deflate window takes it in.
            self.writes.append(Frame(Opcode.TEXT, data).serialize(mask=False, extensions=()))
            return
        super().send_text(data, fin)


class FrameProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' sans-I/O one, uvicorn's own default), plus a way to
    write frames at once, without a task: `write_now`, put in the scope as FRAME_WRITE.

    Sent through ASGI, each frame is a message queued for the socket's sender task, which wakes to
    hand it to the protocol's `send`: a task wake-up and an `await` chain per frame, five frames a
    move at a table of four. When nothing is queued ahead and the socket takes writes, the playing
    layer writes the frame from where it was made (app/realtime/hub.py), and several frames for one
    socket (a move's ack and its patch) go out in one write to the transport."""

    compress_from: ClassVar[int] = COMPRESS_FROM

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The same protocol object as uvicorn made it (its extensions, its limits), sending short
        # text frames uncompressed, whichever way they are sent (write_now or ASGI).
        self.conn.__class__ = PlainSmallText
        cast(PlainSmallText, self.conn).compress_from = self.compress_from

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # None: the handshake was refused before a scope was made
            scope[FRAME_WRITE] = self.write_now

    def write_now(self, texts: Sequence[str]) -> bool:
        """Write these text frames in one write, if the socket is open and takes writes now (its
        transport is not paused); False, with nothing written, if not: the caller queues them for the
        socket's sender, which waits, and which answers a socket closing or gone."""
        if (
            not self.handshake_complete
            or self.initial_response is not None
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        try:
            for text in texts:
                self.conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True


def frame_protocol(settings: Settings) -> type[FrameProtocol]:
    """The WebSocket protocol class of one server: FrameProtocol with its settings."""
    return type("ServedFrames", (FrameProtocol,), {"compress_from": settings.ws_compress_from})


# Seconds between keepalive pings on an idle-or-not socket, and how long a pong may take.
WS_PING_INTERVAL = 60.0
WS_PING_TIMEOUT = 30.0


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
        "http": head_timeout_protocol(settings),
        # A head past twice the limit is refused (400) and the connection closed, without reading the
        # rest; one between the limit and that gets ConnectionLimits' 431 too_large.
        "h11_max_incomplete_event_size": 2 * settings.max_header_bytes,
        "timeout_keep_alive": math.ceil(settings.keepalive_timeout),
        # Requests beyond the cap (connections counted with sockets) get 503 instead of queueing.
        "limit_concurrency": cap,
        # Frames over our own limit are refused in the app with a too_large error; this caps the rest.
        "ws_max_size": settings.max_ws_message_bytes * 4,
        # Keepalive pings every 60 s (uvicorn's default is 20 s): at 5,000 sockets 20 s is 250 pings and
        # 250 pongs a second, as many frames as 100 moves. A dead peer is still dropped within
        # interval + timeout (90 s); nginx's proxy_read_timeout must stay above the interval.
        "ws_ping_interval": WS_PING_INTERVAL,
        "ws_ping_timeout": WS_PING_TIMEOUT,
        # uvicorn's default (websockets' sans-I/O protocol), with frames written without a task.
        "ws": frame_protocol(settings),
        "proxy_headers": True,
        "forwarded_allow_ips": settings.trusted_proxies,
        "server_header": False,
        "log_level": log_level,
    }
