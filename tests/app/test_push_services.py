"""One bad push service delays no one else's alerts: three real push services on 127.0.0.1, one that
holds every request open, one that answers 500, one that works, all sent to at once."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from app.alerts import push
from app.alerts.core import Alert
from app.alerts.push import Device, PushChannel
from app.config import Settings
from app.db import Database, upgrade
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


def _devices(port: int, name: str, count: int) -> list[Device]:
    made = []
    for number in range(count):
        keys = Browser().subscription("")["keys"]
        made.append(Device(number, f"http://127.0.0.1:{port}/{name}/{number}", keys["p256dh"], keys["auth"]))
    return made


def _alert(seat: int) -> Alert:
    return Alert("room", seat, "turn", "Mojo", "Mojo: your turn", "The table waits for you.", "/r/room")


async def _wait(check: Any, seconds: float = 30.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not reached in time")


def test_a_hanging_and_a_failing_service_delay_no_one_else(
    sqlite_url: str, services: tuple[Log, dict[str, int]]
) -> None:
    log, ports = services
    upgrade(sqlite_url)
    settings = Settings(database_url=sqlite_url, bind_host="127.0.0.1", push_allow_insecure_endpoints=True)
    # More devices on the bad services than there are shared places for all sends together.
    hanging = _devices(ports["hang"], "hang", push.CONCURRENCY + 8)
    failing = _devices(ports["fail"], "fail", 20)
    working = _devices(ports["ok"], "ok", 6)

    async def scenario() -> None:
        channel = PushChannel(Database(sqlite_url), settings)
        await channel.start()
        try:
            tasks = [asyncio.create_task(channel.deliver_to([d], _alert(d.id))) for d in hanging]
            # The hanging service now holds as many requests as it is allowed.
            await _wait(lambda: len(log.at("hang")) >= push.PER_ORIGIN)
            tasks += [asyncio.create_task(channel.deliver_to([d], _alert(d.id))) for d in failing]
            await _wait(lambda: len(log.at("fail")) >= 1)
            tasks += [asyncio.create_task(channel.deliver_to([d], _alert(d.id))) for d in working]
            await _wait(lambda: len(log.at("ok")) == len(working))
            # Every working device got its alert while the hanging service still held its first
            # requests: none of them had timed out (a timed-out send comes back for a second attempt).
            hang_paths = log.at("hang")
            assert len(hang_paths) == len(set(hang_paths)) == push.PER_ORIGIN
            assert log.open_now["hang"] == push.PER_ORIGIN
            # The failing service's retries wait without a place: every device's first attempt came
            # before any device's second one.
            await _wait(lambda: len(log.at("fail")) > len(failing))
            fail_paths = log.at("fail")
            assert sorted(fail_paths[: len(failing)]) == sorted(f"/fail/{d.id}" for d in failing)
            assert log.most_open["hang"] == push.PER_ORIGIN
            assert log.most_open.get("fail", 0) <= push.PER_ORIGIN
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            log.release.set()
            await channel.stop()

    asyncio.run(scenario())


def test_a_service_s_places_are_given_back(sqlite_url: str) -> None:
    slots = push.OriginSlots(2)

    async def scenario() -> None:
        async with slots.hold("https://a.example:443"), slots.hold("https://b.example:443"):
            assert len(slots) == 2
        assert len(slots) == 0

    asyncio.run(scenario())
    assert push.service_of("https://Push.Example/x") == push.service_of("https://push.example:443/y")
    assert push.service_of("https://push.example:8443/x") != push.service_of("https://push.example/x")
