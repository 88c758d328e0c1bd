"""One bad push service delays no one else's alerts, and a push reaches only the address that was
checked: real push services on 127.0.0.1 (one that hangs, one that answers 500, ones that drip a byte
every 2 s, one that never stops answering, a TLS one), and resolvers that answer one address to the
check and another a moment later."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import socket
import ssl
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpcore
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from app.alerts import push
from app.alerts.core import Alert
from app.alerts.push import Device, PushChannel
from app.config import Settings
from app.db import Database, upgrade
from app.errors import AppError
from app.main import create_app
from tests import waiting
from tests.app.conftest import TestClient, auth
from tests.app.test_push import DISGUISED, _settings, play, run_service, table
from tests.app.test_push import Device as Browser


@dataclass
class Log:
    """Every request any of the services received, in the order they came: (service, path)."""

    seen: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    release: threading.Event = field(default_factory=threading.Event)
    open_now: dict[str, int] = field(default_factory=dict)
    most_open: dict[str, int] = field(default_factory=dict)

    def at(self, name: str) -> list[str]:
        with self.lock:
            return [path for service, path in self.seen if service == name]


def _serve(log: Log, name: str, behaviour: str) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length", "0")))
            with log.lock:
                log.seen.append((name, self.path))
                log.open_now[name] = log.open_now.get(name, 0) + 1
                log.most_open[name] = max(log.most_open.get(name, 0), log.open_now[name])
            try:
                if behaviour == "hang":
                    log.release.wait(60)
                self.send_response(500 if behaviour == "fail" else 201)
                self.send_header("content-length", "0")
                self.end_headers()
            finally:
                with log.lock:
                    log.open_now[name] -= 1

        def log_message(self, *_args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        # A listen backlog for every request at once: with the default 5, a burst of connections
        # overflows it and the kernel makes the extra ones wait a second to try again, which
        # would look like the channel's own retry.
        request_queue_size = 128

    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def services() -> Iterator[tuple[Log, dict[str, int]]]:
    log = Log()
    servers = {name: _serve(log, name, name) for name in ("hang", "fail", "ok")}
    yield log, {name: server.server_address[1] for name, server in servers.items()}
    log.release.set()
    for server in servers.values():
        server.shutdown()
        server.server_close()


def _devices(port: int, name: str, count: int, host: str = "127.0.0.1", scheme: str = "http") -> list[Device]:
    made = []
    for number in range(count):
        keys = Browser().subscription("")["keys"]
        endpoint = f"{scheme}://{host}:{port}/{name}/{number}"
        made.append(Device(number, endpoint, keys["p256dh"], keys["auth"]))
    return made


def _alert(seat: int) -> Alert:
    return Alert("room", seat, "turn", "Mojo", "Mojo: your turn", "The table waits for you.", "/r/room")


async def _wait(check: Any, seconds: float = 30.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not reached in time")


def _insecure(sqlite_url: str) -> Settings:
    return Settings(database_url=sqlite_url, bind_host="127.0.0.1", push_allow_insecure_endpoints=True)


def test_a_hanging_and_a_failing_service_delay_no_one_else(
    sqlite_url: str, services: tuple[Log, dict[str, int]]
) -> None:
    log, ports = services
    upgrade(sqlite_url)
    # More devices on the bad services than there are shared places for all sends together.
    hanging = _devices(ports["hang"], "hang", push.CONCURRENCY + 8)
    failing = _devices(ports["fail"], "fail", 20)
    working = _devices(ports["ok"], "ok", 6)

    async def after_every_first_attempt(_seconds: float) -> None:
        # A retry waits until every failing device's first attempt came: were the waits to hold a
        # place, those attempts would never come.
        await _wait(lambda: len(log.at("fail")) >= len(failing))

    async def scenario() -> None:
        channel = PushChannel(Database(sqlite_url), _insecure(sqlite_url), sleep=after_every_first_attempt)
        await channel.start()
        try:
            tasks = [asyncio.create_task(channel.deliver_to([d], _alert(d.id))) for d in hanging]
            # The hanging service now holds as many requests as it is allowed.
            await _wait(lambda: len(log.at("hang")) >= push.PER_ORIGIN)
            tasks += [asyncio.create_task(channel.deliver_to([d], _alert(d.id))) for d in failing]
            await _wait(lambda: len(log.at("fail")) >= 1)
            tasks += [asyncio.create_task(channel.deliver_to([d], _alert(d.id))) for d in working]
            # Every working device gets its alert while the hanging service answered nothing yet.
            await _wait(lambda: len(log.at("ok")) == len(working))
            assert not log.release.is_set()
            # The failing service's retries wait without a place: every device's first attempt came,
            # then the second ones.
            await _wait(lambda: len(log.at("fail")) > len(failing))
            fail_paths = log.at("fail")
            assert sorted(fail_paths[: len(failing)]) == sorted(f"/fail/{d.id}" for d in failing)
            assert log.most_open.get("fail", 0) <= push.PER_ORIGIN
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            log.release.set()
            await channel.stop()

    asyncio.run(scenario())


# -- push services on an event loop of their own ------------------------------------------------
Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def read_request(reader: asyncio.StreamReader) -> dict[str, str]:
    """An HTTP/1.1 request's headers (lower-cased, with ":path"), its body read and dropped."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    headers = {":path": head[0].split(" ")[1]}
    for line in head[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    await reader.readexactly(int(headers.get("content-length", "0")))
    return headers


@dataclass
class Services:
    """Listeners on 127.0.0.1, served by an event loop in a thread of its own, whatever the test's own
    loop is doing; each counts the requests it holds open now, and the ones whose client hung up."""

    period: float = 2.0
    open: int = 0
    seen: int = 0
    hung_up: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    loop: asyncio.AbstractEventLoop = field(default_factory=asyncio.new_event_loop)
    _servers: list[asyncio.Server] = field(default_factory=list)
    _thread: threading.Thread | None = None

    def __post_init__(self) -> None:
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def add(self, behaviour: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]) -> int:
        """A new listener answering every request with `behaviour`; returns its port."""

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                await read_request(reader)
            except (asyncio.IncompleteReadError, OSError):
                writer.close()
                return
            with self.lock:
                self.open += 1
                self.seen += 1
            try:
                await behaviour(reader, writer)
            except OSError:
                pass
            finally:
                with self.lock:
                    self.open -= 1
                    self.hung_up += 1
                writer.close()

        async def listen() -> int:
            server = await asyncio.start_server(serve, "127.0.0.1", 0, backlog=128)
            self._servers.append(server)
            port: int = server.sockets[0].getsockname()[1]
            return port

        return asyncio.run_coroutine_threadsafe(listen(), self.loop).result(10)

    async def drip(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """A status line, then a byte every `period` seconds, until the client hangs up."""
        writer.write(b"HTTP/1.1 201 Created\r\n")
        while True:
            await writer.drain()
            try:
                if await asyncio.wait_for(reader.read(1), self.period) == b"":
                    return
            except TimeoutError:
                writer.write(b"x")

    async def endless(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """201 at once, then a body that never ends, as fast as the client reads it."""
        writer.write(b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"4000\r\n" + b"x" * 0x4000 + b"\r\n"
        while True:
            writer.write(chunk)
            await writer.drain()

    def close(self) -> None:
        async def stop() -> None:
            for server in self._servers:
                server.close()
            others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)
            for server in self._servers:
                await server.wait_closed()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        assert self._thread is not None
        self._thread.join(10)
        self.loop.close()


@pytest.fixture
def listeners() -> Iterator[Services]:
    made = Services()
    yield made
    made.close()


def test_dripping_push_services_delay_no_one_elses_alert(
    sqlite_url: str, tiny: str, listeners: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: four services answer a status line, then a byte every 2 s; 8 rooms with a
    seat's 10 devices subscribed to them; then a room whose device is on a working service."""
    # The drips stay stuck for the whole test (no deadline cuts them): only the places let the
    # working service's alert through.
    monkeypatch.setattr(push, "DEADLINE", 600.0)
    upgrade(sqlite_url)
    drips = [listeners.add(listeners.drip) for _ in range(4)]
    service, http = run_service()
    try:
        with TestClient(create_app(_settings(sqlite_url))) as client:
            for room in range(8):
                room_id, (ann, bo) = table(client)
                for number in range(push.MAX_DEVICES):
                    endpoint = f"http://127.0.0.1:{drips[number % 4]}/{room}/{number}"
                    subscribed = client.post(
                        f"/api/rooms/{room_id}/push", json=Browser().subscription(endpoint), headers=auth(bo)
                    )
                    assert subscribed.status_code == 201, subscribed.text
                play(client, room_id, ann)  # Bo's turn: a grace later, 10 pushes to the drips
            # The drips hold every place a request starts on.
            waiting.wait_for(lambda: listeners.seen >= push.CONCURRENCY - push.SLOW_PLACES, 60)
            room_id, (ann, bo) = table(client)
            client.post(
                f"/api/rooms/{room_id}/push",
                json=Browser().subscription(service.url("/bo")),
                headers=auth(bo),
            )
            play(client, room_id, ann)
            # A generous bound: the point is that it arrives, with the drips still holding requests.
            waiting.wait_for(lambda: len(service.at("/bo")) == 1, 60)
            assert listeners.open > 0
    finally:
        http.shutdown()
        http.server_close()


def _fake_clock() -> tuple[list[float], Callable[[], float]]:
    now = [1000.0]
    return now, lambda: now[0]


def test_an_attempt_ends_at_its_deadline_and_its_service_is_demoted(
    sqlite_url: str, listeners: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A byte every 0.2 s: the wait between two reads never reaches TIMEOUT; only a deadline ends it.
    listeners.period = 0.2
    monkeypatch.setattr(push, "DEADLINE", 1.0)
    monkeypatch.setattr(push, "BACKOFF", ())
    port = listeners.add(listeners.drip)
    upgrade(sqlite_url)
    (device,) = _devices(port, "drip", 1)
    service = push.service_of(device.endpoint)
    now, clock = _fake_clock()

    async def scenario() -> None:
        channel = PushChannel(Database(sqlite_url), _insecure(sqlite_url), clock=clock)
        await channel.start()
        try:
            await asyncio.wait_for(channel.deliver_to([device], _alert(0)), 60)
            assert channel.places.demoted(service)
            now[0] += push.DEMOTED_FOR
            assert not channel.places.demoted(service)
        finally:
            await channel.stop()

    asyncio.run(scenario())
    waiting.wait_for(lambda: listeners.hung_up == 1)  # the server saw the client give up
    assert listeners.seen == 1


def test_an_endless_answer_is_not_read_to_its_end(
    sqlite_url: str, listeners: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Were the body read to its end, the deadline would end each attempt and the alert be sent again.
    monkeypatch.setattr(push, "DEADLINE", 2.0)
    monkeypatch.setattr(push, "BACKOFF", (0.01, 0.01, 0.01))
    port = listeners.add(listeners.endless)
    upgrade(sqlite_url)
    devices = _devices(port, "endless", 1)

    async def scenario() -> None:
        channel = PushChannel(Database(sqlite_url), _insecure(sqlite_url))
        await channel.start()
        try:
            await asyncio.wait_for(channel.deliver_to(devices, _alert(0)), 60)
        finally:
            await channel.stop()

    asyncio.run(scenario())
    assert listeners.seen == 1  # answered 201: delivered once, not retried
    waiting.wait_for(lambda: listeners.hung_up == 1)


def _answering(status: int, retry_after: str | None) -> Handler:
    """A push service answering every request with `status` (and Retry-After, if given)."""
    head = f"HTTP/1.1 {status} Whatever\r\nContent-Length: 0\r\n"
    if retry_after is not None:
        head += f"Retry-After: {retry_after}\r\n"

    async def answer(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(head.encode("latin-1") + b"\r\n")
        await writer.drain()

    return answer


@pytest.mark.parametrize(
    ("status", "retry_after", "waits", "last_words"),
    [
        (503, None, list(push.BACKOFF), "given up after 4 attempt(s)"),
        # Honoured where it is longer than the backoff.
        (429, "6", [6.0, 6.0, 15.0], "given up after 4 attempt(s)"),
        # Past the cap: no use waiting that long, the next alert will come.
        (503, str(int(push.MAX_RETRY_AFTER) + 1), [], "given up after 1 attempt(s)"),
        # A date is not read: the backoff's waits.
        (429, "Wed, 21 Oct 2015 07:28:00 GMT", list(push.BACKOFF), "given up after 4 attempt(s)"),
        # A digit that is no ASCII digit ("²", valid Latin-1 in a header) is not read either.
        (503, "\u00b2", list(push.BACKOFF), "given up after 4 attempt(s)"),
        (400, None, [], "refused with 400"),
    ],
    ids=["5xx", "retry-after", "retry-after-too-long", "retry-after-date", "retry-after-²", "refused"],
)
def test_a_busy_service_is_tried_again_after_the_backoff_or_what_it_asks(
    sqlite_url: str,
    listeners: Services,
    caplog: pytest.LogCaptureFixture,
    status: int,
    retry_after: str | None,
    waits: list[float],
    last_words: str,
) -> None:
    port = listeners.add(_answering(status, retry_after))
    upgrade(sqlite_url)
    (device,) = _devices(port, "busy", 1)
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    async def scenario() -> None:
        channel = PushChannel(Database(sqlite_url), _insecure(sqlite_url), sleep=sleep)
        await channel.start()
        try:
            with caplog.at_level(logging.INFO, logger=push.__name__):
                await asyncio.wait_for(channel.deliver_to([device], _alert(0)), 60)
        finally:
            await channel.stop()

    asyncio.run(scenario())
    assert waited == waits
    assert listeners.seen == len(waits) + 1
    last = [record for record in caplog.records if record.name == push.__name__][-1]
    assert last.getMessage().endswith(last_words) and last.levelno == logging.WARNING


def test_an_unreachable_service_is_tried_again_after_the_backoff(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as closed:  # a port nothing listens on: each connection is refused
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    upgrade(sqlite_url)
    (device,) = _devices(port, "down", 1)
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    async def scenario() -> None:
        channel = PushChannel(Database(sqlite_url), _insecure(sqlite_url), sleep=sleep)
        await channel.start()
        try:
            with caplog.at_level(logging.INFO, logger=push.__name__):
                await asyncio.wait_for(channel.deliver_to([device], _alert(0)), 60)
        finally:
            await channel.stop()

    asyncio.run(scenario())
    assert waited == list(push.BACKOFF)
    origin = f"http://127.0.0.1:{port}"
    said = [record.getMessage() for record in caplog.records if record.name == push.__name__]
    assert said == [f"push to {origin}: ConnectError"] * 4 + [f"push to {origin} given up after 4 attempt(s)"]


@pytest.mark.parametrize("during", ["attempt", "wait"])
def test_a_cancelled_send_ends_at_once_and_is_not_tried_again(
    sqlite_url: str, listeners: Services, during: str
) -> None:
    """The server stopping cancels the sends under way: one cancelled during an attempt (the service
    holds the request) or during the wait after a 503 ends there, nothing retried, its places free."""

    async def holds(reader: asyncio.StreamReader, _writer: asyncio.StreamWriter) -> None:
        await reader.read()  # until the client hangs up

    port = listeners.add(holds if during == "attempt" else _answering(503, None))
    upgrade(sqlite_url)
    (device,) = _devices(port, "cancelled", 1)
    waited: list[float] = []

    async def scenario() -> None:
        asleep = asyncio.Event()

        async def sleep(seconds: float) -> None:
            waited.append(seconds)
            asleep.set()
            await asyncio.Event().wait()  # cancelled here, or never over

        channel = PushChannel(Database(sqlite_url), _insecure(sqlite_url), sleep=sleep)
        await channel.start()
        try:
            sending = asyncio.create_task(channel.deliver_to([device], _alert(0)))
            if during == "attempt":
                await _wait(lambda: listeners.open == 1)
            else:
                await asyncio.wait_for(asleep.wait(), 30)
            sending.cancel()
            with pytest.raises(asyncio.CancelledError):
                await asyncio.wait_for(sending, 10)
            assert len(channel.places) == 0
            assert not channel.places.demoted(push.service_of(device.endpoint))
        finally:
            await channel.stop()

    asyncio.run(scenario())
    assert listeners.seen == 1
    assert waited == ([] if during == "attempt" else [push.BACKOFF[0]])
    if during == "attempt":
        waiting.wait_for(lambda: listeners.hung_up == 1)  # the request was dropped, not left open


# -- the places ------------------------------------------------------------------------------------
def test_a_service_s_places_are_given_back() -> None:
    places = push.Places(per_service=2)

    async def scenario() -> None:
        async with places.hold("https://a.example:443"), places.hold("https://b.example:443"):
            assert len(places) == 2
        assert len(places) == 0

    asyncio.run(scenario())
    assert push.service_of("https://Push.Example/x") == push.service_of("https://push.example:443/y")
    assert push.service_of("https://push.example:8443/x") != push.service_of("https://push.example/x")


def test_a_slow_request_moves_to_a_slow_place_or_is_cut() -> None:
    places = push.Places(per_service=4, concurrency=5, slow=2)  # 3 fresh places, 2 slow ones

    async def scenario() -> None:
        async with contextlib.AsyncExitStack() as stack:
            held = [
                await stack.enter_async_context(places.hold(f"https://s{n}.example:443")) for n in range(3)
            ]
            assert not any(place.is_slow for place in held)
            assert places.fresh.locked()  # every fresh place taken
            assert await held[0].slow() and await held[1].slow()
            assert not places.fresh.locked()  # their fresh places are free again
            assert not await held[2].slow()  # no slow place left: this one is cut
            assert await held[0].slow()  # already slow: stays

    asyncio.run(scenario())


def test_a_demoted_service_sends_one_at_a_time_on_slow_places_for_a_while() -> None:
    now, clock = _fake_clock()
    places = push.Places(clock, per_service=4, concurrency=6, slow=2)
    slow = "https://slow.example:443"

    async def scenario() -> None:
        places.demote(slow)
        async with places.hold(slow) as first:
            assert first.is_slow
            second = asyncio.create_task(enter(places, slow))
            await asyncio.sleep(0)  # it runs until it waits: for the service's one place
            assert not second.done()
            # A healthy service's requests go ahead on fresh places meanwhile.
            async with places.hold("https://ok.example:443") as healthy:
                assert not healthy.is_slow
        assert await second  # the first one's place, a slow one
        now[0] += push.DEMOTED_FOR
        assert not places.demoted(slow)
        async with places.hold(slow) as again, places.hold(slow) as also:
            assert not again.is_slow and not also.is_slow

    asyncio.run(scenario())


async def enter(places: push.Places, service: str) -> bool:
    async with places.hold(service) as place:
        return place.is_slow


# -- where a push may go -------------------------------------------------------------------------
class Recording(httpcore.AsyncNetworkBackend):
    """Opens the TCP connections PinnedBackend asks for, and notes each (address, port). `routes`
    sends an address elsewhere (a public address played by a listener on 127.0.0.1); any other host
    is connected to as asked, resolving a name the way the system does."""

    def __init__(self, routes: dict[str, int] | None = None) -> None:
        self.real = httpcore.AnyIOBackend()
        self.routes = routes or {}
        self.asked: list[tuple[str, int]] = []

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        self.asked.append((host, port))
        if host in self.routes:
            host, port = "127.0.0.1", self.routes[host]
        return await self.real.connect_tcp(host, port, timeout=timeout, local_address=local_address)

    async def sleep(self, seconds: float) -> None:
        await self.real.sleep(seconds)


def rebinding(host: str, public: str, later: str, checks: int) -> Callable[[str], Awaitable[list[str]]]:
    """A resolver that answers `public` for `host` the first `checks` times, then `later`."""
    calls = []

    async def resolver(name: str) -> list[str]:
        assert name == host
        calls.append(name)
        return [public] if len(calls) <= checks else [later]

    return resolver


def _strict(sqlite_url: str) -> Settings:
    return Settings(database_url=sqlite_url, bind_host="127.0.0.1")


@pytest.mark.parametrize("address", DISGUISED)
def test_an_address_that_is_not_global_at_send_time_gets_nothing(sqlite_url: str, address: str) -> None:
    """Public when subscribing, then resolved to a disguised address: nothing connects, the device goes."""
    upgrade(sqlite_url)
    (device,) = _devices(443, "x", 1, host="push.example", scheme="https")
    network = Recording()
    dropped: list[int] = []

    async def scenario() -> None:
        channel = PushChannel(
            Database(sqlite_url),
            _strict(sqlite_url),
            resolver=rebinding("push.example", "8.8.8.8", address, checks=1),
            network=network,
        )
        channel.subscriptions.drop = dropped.extend  # type: ignore[method-assign]
        await channel.start()
        try:
            await channel.check(device.endpoint, device.p256dh, device.auth)  # subscribing: 8.8.8.8
            await channel.deliver_to([device], _alert(0))
        finally:
            await channel.stop()

    asyncio.run(scenario())
    assert network.asked == []
    assert dropped == [device.id]


def test_a_disguised_address_is_refused_when_subscribing(sqlite_url: str) -> None:
    upgrade(sqlite_url)

    async def scenario() -> None:
        for address in DISGUISED:
            channel = PushChannel(
                Database(sqlite_url),
                _strict(sqlite_url),
                resolver=rebinding("push.example", address, address, 1),
            )
            with pytest.raises(AppError) as refused:
                await channel.check("https://push.example/x", *keys())
            assert refused.value.code == "invalid_request", address

    asyncio.run(scenario())


def keys() -> tuple[str, str]:
    made = Browser().subscription("")["keys"]
    return made["p256dh"], made["auth"]


@dataclass
class Authority:
    """A certificate authority of the test's own and a certificate it signed for `host`."""

    host: str
    ca_pem: bytes = b""
    cert_pem: bytes = b""
    key_pem: bytes = b""

    def __post_init__(self) -> None:
        now = datetime.datetime.now(datetime.UTC)
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Motable test CA")])
        ca = (
            x509.CertificateBuilder()
            .subject_name(ca_name)
            .issuer_name(ca_name)
            .public_key(ca_key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=True,
                    crl_sign=True,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256())
        )
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, self.host)]))
            .issuer_name(ca_name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(self.host)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
            )
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(ca_key, hashes.SHA256())
        )
        self.ca_pem = ca.public_bytes(serialization.Encoding.PEM)
        self.cert_pem = cert.public_bytes(serialization.Encoding.PEM)
        self.key_pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )

    def server_context(self, tmp_path: Any, names: list[str]) -> ssl.SSLContext:
        """The server's side; each name the client sends (SNI) is appended to `names`."""
        (tmp_path / "cert.pem").write_bytes(self.cert_pem)
        (tmp_path / "key.pem").write_bytes(self.key_pem)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")

        def heard(_socket: Any, name: str | None, _context: Any) -> None:
            names.append(name or "")

        context.sni_callback = heard
        return context

    def client_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cadata=self.ca_pem.decode())


@pytest.mark.parametrize("checks", [1, 2], ids=["rebound-before-the-send", "rebound-after-the-check"])
def test_a_push_goes_only_to_the_address_that_was_checked(
    sqlite_url: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch, checks: int
) -> None:
    """push.example answers 8.8.8.8 to the first `checks` look-ups, then 127.0.0.1, where a listener
    waits (the trap). Whatever resolves it at send time besides the channel's one look-up, the system's
    resolver included, hears 127.0.0.1. 8.8.8.8 is played by a TLS server on 127.0.0.1 holding a
    certificate for push.example."""
    upgrade(sqlite_url)
    authority = Authority("push.example")
    real_getaddrinfo = socket.getaddrinfo

    def system_resolver(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host in ("push.example", b"push.example"):
            return real_getaddrinfo("127.0.0.1", *args, **kwargs)
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", system_resolver)
    trapped: list[bytes] = []
    names: list[str] = []
    requests: list[dict[str, str]] = []

    async def trap(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        trapped.append(await reader.read(5))  # a TLS ClientHello starts 16 03
        writer.close()

    async def stand_in(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        requests.append(await read_request(reader))
        writer.write(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    async def scenario() -> None:
        trap_server = await asyncio.start_server(trap, "127.0.0.1", 0)
        public = await asyncio.start_server(
            stand_in, "127.0.0.1", 0, ssl=authority.server_context(tmp_path, names)
        )
        port = trap_server.sockets[0].getsockname()[1]
        network = Recording({"8.8.8.8": public.sockets[0].getsockname()[1]})
        (device,) = _devices(port, "device", 1, host="push.example", scheme="https")
        dropped: list[int] = []
        channel = PushChannel(
            Database(sqlite_url),
            _strict(sqlite_url),
            resolver=rebinding("push.example", "8.8.8.8", "127.0.0.1", checks),
            network=network,
            tls=authority.client_context(),
        )
        channel.subscriptions.drop = dropped.extend  # type: ignore[method-assign]
        await channel.start()
        try:
            await channel.check(device.endpoint, device.p256dh, device.auth)  # subscribing
            await asyncio.wait_for(channel.deliver_to([device], _alert(0)), 60)
        finally:
            await channel.stop()
            for server in (trap_server, public):
                server.close()
                await server.wait_closed()
        assert trapped == []  # nothing ever reached 127.0.0.1 by the name
        if checks == 1:
            # Resolved to loopback at send time: refused, forgotten, nothing opened.
            assert network.asked == [] and requests == [] and dropped == [device.id]
        else:
            # Resolved once, checked, connected to that address; TLS and Host still name the host.
            assert network.asked == [("8.8.8.8", port)]
            assert names == ["push.example"]
            assert [r["host"] for r in requests] == [f"push.example:{port}"]
            assert [r[":path"] for r in requests] == ["/device/0"]
            assert dropped == []

    asyncio.run(scenario())


def test_a_connection_is_opened_only_for_a_checked_host() -> None:
    """Nothing in the channel can open a connection without a check naming that host first."""
    backend = push.PinnedBackend(Recording())

    async def scenario() -> None:
        with pytest.raises(httpcore.ConnectError):
            await backend.connect_tcp("push.example", 443)

    asyncio.run(scenario())
    assert backend.inner.asked == []  # type: ignore[attr-defined]
