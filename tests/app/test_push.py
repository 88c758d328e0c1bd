"""Web Push end to end without a push service: a local HTTP server plays the push service, the test is
the browser (its own P-256 key pair and auth secret), and what arrives is decrypted and checked."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ipaddress
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from fastapi import FastAPI
from sqlalchemy import delete, select

from app.alerts import dispatch, push
from app.alerts.push import is_public
from app.clock import SystemClock
from app.config import Settings
from app.main import create_app
from app.models import AlertMark, PushSubscription, Room
from tests import waiting
from tests.app.conftest import NO_LIMITS, TestClient, auth
from tests.rooms import join, new_room, start_match

GRACE = 0.3


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """A push service on 127.0.0.1: records every POST, answers per path (/hang never in time)."""

    port: int = 0
    received: list[Received] = field(default_factory=list)
    status: dict[str, int] = field(default_factory=dict)
    release: threading.Event = field(default_factory=threading.Event)
    answered: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def at(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]


@pytest.fixture
def service() -> Iterator[PushService]:
    state, server = run_service()
    yield state
    state.release.set()
    server.shutdown()
    server.server_close()


def wait_for(check: Callable[..., bool], seconds: float = 30) -> None:
    """Waits for what the alert path does (after its grace and its retries); generous, since a
    loaded machine runs the dispatcher late, and a wait is not a measure of speed."""
    waiting.wait_for(check, seconds)


def run_service(port: int = 0) -> tuple[PushService, ThreadingHTTPServer]:
    """A push service answering on `port` (any free one for 0) until its server is shut down."""
    state = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = self.rfile.read(length)
            state.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            if self.path.startswith("/hang"):
                state.release.wait(30)
            self.send_response(state.status.get(self.path, 201))
            self.send_header("content-length", "0")
            self.end_headers()
            state.answered.append(self.path)

        def log_message(self, *_args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        request_queue_size = 64  # a burst of sends never waits on the listen backlog

    server = Server(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return state, server


@dataclass
class Device:
    """The browser's side: a P-256 key pair and an auth secret, as PushManager.subscribe makes them."""

    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.secret)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.secret, version="aes128gcm")
        value: dict[str, Any] = json.loads(plain)
        return value


def _settings(database_url: str, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": database_url,
        "bot_delay": 0,
        "bind_host": "127.0.0.1",
        "push_allow_insecure_endpoints": True,
        "push_grace_seconds": GRACE,
        "push_contact": "mailto:ops@example.org",
        **NO_LIMITS,
    }
    values.update(extra)
    return Settings(**values)


class Clock(SystemClock):
    """The alert dispatcher's clock (app/clock.py), its wall clock moved by the test: real time plus
    what the test added, or held where the test put it. Its waits are the event loop's."""

    def __init__(self, held: float | None = None) -> None:
        self.offset = 0.0
        self.held = held

    def wall(self) -> float:
        return self.held if self.held is not None else time.time() + self.offset

    def advance(self, seconds: float) -> None:
        if self.held is not None:
            self.held += seconds
        else:
            self.offset += seconds


def app_with(settings: Settings, clock: Clock) -> FastAPI:
    """The app, its dispatcher reading `clock` from its first look on (the other loops keep the
    system clock: only the alerts' time is moved here)."""
    app = create_app(settings)
    app.state.runtime.alerts.clock = clock
    return app


def settled(client: TestClient) -> None:
    """Returns once the dispatcher made a whole look at what waits that began after this call (after
    the test moved its clock, or made a change), and every alert it decided is done with its channels:
    what it would send by now it has sent."""
    alerts = client.app.state.runtime.alerts  # type: ignore[attr-defined]
    seen = alerts.steps
    wait_for(lambda: alerts.steps >= seen + 2 and alerts.delivering == 0)


def claimed(client: TestClient, room_id: str) -> list[tuple[int, str]]:
    """The turn and clock alerts decided in the room (each is claimed before it goes)."""
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.read() as session:
        rows = session.scalars(select(AlertMark).where(AlertMark.room_id == room_id)).all()
        return sorted((row.seat, row.event) for row in rows)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(database_url: str, tiny: str, clock: Clock) -> Iterator[TestClient]:
    with TestClient(app_with(_settings(database_url), clock)) as test_client:
        yield test_client


def table(client: TestClient, clock: int | None = None) -> tuple[str, list[str]]:
    """Ann (seat 0, to act first) and Bo (seat 1), started."""
    room = new_room(client)
    bo = join(client, room)
    if clock is not None:
        set_clock = client.post(
            f"/api/rooms/{room.room_id}/clock", json={"seconds": clock}, headers=auth(room.token)
        )
        assert set_clock.status_code == 200, set_clock.text
    start_match(client, room)
    return room.room_id, [room.token, bo]


def play(client: TestClient, room_id: str, token: str) -> float:
    """Plays the seat's first legal card; returns how long the move took."""
    state = client.get(f"/api/rooms/{room_id}/state", headers=auth(token)).json()
    action = state["legal_actions"][0]
    started = time.monotonic()
    response = client.post(f"/api/rooms/{room_id}/actions", json={"action": action}, headers=auth(token))
    took = time.monotonic() - started
    assert response.status_code == 200, response.text
    return took


def subscriptions(client: TestClient, room_id: str) -> list[PushSubscription]:
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.read() as session:
        return list(session.scalars(select(PushSubscription).where(PushSubscription.room_id == room_id)))


def verify_vapid(header: str, public_key: str, audience: str) -> dict[str, Any]:
    """RFC 8292: `vapid t=<JWT>,k=<key>`, the JWT signed ES256 by that key, for the push service."""
    scheme, _, params = header.partition(" ")
    assert scheme == "vapid"
    parts = dict(part.split("=", 1) for part in params.split(","))
    assert parts["k"] == public_key
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    try:
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as error:  # pragma: no cover - the assertion's message
        raise AssertionError("the VAPID JWT's signature does not check with GET /api/push/key") from error
    body: dict[str, Any] = json.loads(unb64url(claims))
    assert body["aud"] == audience
    assert body["sub"] == "mailto:ops@example.org"
    assert time.time() < body["exp"] <= time.time() + 24 * 3600
    return body


def test_a_turn_alert_arrives_encrypted_signed_and_without_cards(
    client: TestClient, service: PushService
) -> None:
    room_id, (ann, bo) = table(client)
    public_key = client.get("/api/push/key").json()["public_key"]
    assert len(unb64url(public_key)) == 65 and unb64url(public_key)[0] == 4
    device = Device()
    subscribed = client.post(
        f"/api/rooms/{room_id}/push", json=device.subscription(service.url("/bo")), headers=auth(bo)
    )
    assert subscribed.status_code == 201, subscribed.text
    # Every card of every hand, seen by the seats themselves before the move.
    cards = {
        a["card"]
        for t in (ann, bo)
        for a in client.get(f"/api/rooms/{room_id}/state", headers=auth(t)).json()["legal_actions"]
    }
    sent_at = time.monotonic()
    play(client, room_id, ann)
    wait_for(lambda: len(service.at("/bo")) == 1)
    arrived = time.monotonic() - sent_at
    assert arrived >= GRACE  # Bo had no socket open: alerted once the grace was over, not before
    sent = service.at("/bo")[0]
    assert sent.headers["content-encoding"] == "aes128gcm"
    assert int(sent.headers["ttl"]) > 0
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,32}", sent.headers["topic"])
    verify_vapid(sent.headers["authorization"], public_key, f"http://127.0.0.1:{service.port}")
    message = device.decrypt(sent.body)
    assert message == {
        "game": "Tiny",
        "room": room_id,
        "event": "turn",
        "title": "Tiny: your turn",
        "body": "Ann played; the table waits for you.",
        "url": f"/r/{room_id}",
    }
    text = json.dumps(message)
    assert ann not in text and bo not in text
    assert not re.search(r"\d", message["title"] + message["body"])  # no card, no number of any kind
    assert all(isinstance(value, str) for value in message.values())
    assert cards  # the hands were read
    # Ann was to act at the start but holds no subscription: nothing else went out.
    assert [r.path for r in service.received] == ["/bo"]


def test_a_seat_with_a_socket_open_is_not_pinged(
    client: TestClient, clock: Clock, service: PushService
) -> None:
    room_id, (ann, bo) = table(client)
    client.post(
        f"/api/rooms/{room_id}/push", json=Device().subscription(service.url("/bo")), headers=auth(bo)
    )
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={bo}") as _socket:
        play(client, room_id, ann)
        settled(client)  # Bo's turn is known to the dispatcher
        clock.advance(GRACE * 4)
        settled(client)  # and it looked again well past the grace
        assert service.at("/bo") == []
        assert claimed(client, room_id) == []  # not even decided
    # Bo closed the tab while it is still their turn: alerted a grace later.
    wait_for(lambda: len(service.at("/bo")) == 1)


def test_at_most_one_alert_a_minute_per_seat(client: TestClient, clock: Clock, service: PushService) -> None:
    room_id, (ann, bo) = table(client)
    device = Device()
    client.post(f"/api/rooms/{room_id}/push", json=device.subscription(service.url("/bo")), headers=auth(bo))
    play(client, room_id, ann)
    wait_for(lambda: len(service.at("/bo")) == 1)
    play(client, room_id, bo)
    play(client, room_id, ann)  # Bo's turn again, within the minute
    settled(client)
    clock.advance(GRACE * 5)  # the turn's grace is over, the minute is not
    settled(client)
    assert len(service.at("/bo")) == 1
    # The held alert goes out once the minute is over, under the same Topic.
    clock.advance(dispatch.PER_SEAT_SECONDS)
    wait_for(lambda: len(service.at("/bo")) == 2)
    first, second = service.at("/bo")
    assert first.headers["topic"] == second.headers["topic"]
    assert device.decrypt(second.body)["event"] == "turn"


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_subscription_is_dropped(client: TestClient, service: PushService, status: int) -> None:
    room_id, (ann, bo) = table(client)
    service.status["/gone"] = status
    client.post(
        f"/api/rooms/{room_id}/push", json=Device().subscription(service.url("/gone")), headers=auth(bo)
    )
    assert len(subscriptions(client, room_id)) == 1
    play(client, room_id, ann)
    wait_for(lambda: len(service.at("/gone")) == 1)
    wait_for(lambda: subscriptions(client, room_id) == [])


def test_a_failing_service_is_retried(client: TestClient, service: PushService) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)  # the waits are noted, not waited

    client.app.state.runtime.push.sleep = sleep  # type: ignore[attr-defined]
    room_id, (ann, bo) = table(client)
    service.status["/busy"] = 503
    client.post(
        f"/api/rooms/{room_id}/push", json=Device().subscription(service.url("/busy")), headers=auth(bo)
    )
    play(client, room_id, ann)
    wait_for(lambda: len(service.at("/busy")) == 4)  # the first attempt and three retries
    settled(client)  # the alert's delivery is over: given up
    assert len(service.at("/busy")) == 4
    assert waits == list(push.BACKOFF)
    assert len(subscriptions(client, room_id)) == 1  # a busy service is no reason to forget the device


def test_a_hanging_push_service_slows_no_move(
    client: TestClient, service: PushService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(push, "DEADLINE", 600.0)  # the attempt lasts as long as the service holds it
    room_id, (ann, bo) = table(client)
    client.post(
        f"/api/rooms/{room_id}/push", json=Device().subscription(service.url("/hang")), headers=auth(bo)
    )
    play(client, room_id, ann)
    wait_for(lambda: len(service.at("/hang")) == 1)  # the push service holds the request open now
    for seat in (bo, ann, bo):
        play(client, room_id, seat)
    # The moves are done while the push service still holds the alert's one attempt: none waited for it.
    assert len(service.at("/hang")) == 1
    assert service.answered == []


def test_the_subscription_dies_with_the_seats_token(
    client: TestClient, clock: Clock, service: PushService
) -> None:
    room_id, (ann, bo) = table(client)
    client.post(
        f"/api/rooms/{room_id}/push", json=Device().subscription(service.url("/bo")), headers=auth(bo)
    )
    assert [s.seat for s in subscriptions(client, room_id)] == [1]
    assert client.post(f"/api/rooms/{room_id}/leave", headers=auth(bo)).status_code == 200
    wait_for(lambda: subscriptions(client, room_id) == [])
    play(client, room_id, ann)
    settled(client)
    clock.advance(GRACE * 4)
    settled(client)
    assert service.received == []


def test_unsubscribing_stops_the_alerts(client: TestClient, clock: Clock, service: PushService) -> None:
    room_id, (ann, bo) = table(client)
    subscription = Device().subscription(service.url("/bo"))
    client.post(f"/api/rooms/{room_id}/push", json=subscription, headers=auth(bo))
    # Only the seat that subscribed may remove it: Ann's call removes nothing of Bo's.
    assert (
        client.request(
            "DELETE",
            f"/api/rooms/{room_id}/push",
            json={"endpoint": subscription["endpoint"]},
            headers=auth(ann),
        ).status_code
        == 204
    )
    assert len(subscriptions(client, room_id)) == 1
    gone = client.request(
        "DELETE", f"/api/rooms/{room_id}/push", json={"endpoint": subscription["endpoint"]}, headers=auth(bo)
    )
    assert gone.status_code == 204
    assert subscriptions(client, room_id) == []
    play(client, room_id, ann)
    settled(client)
    clock.advance(GRACE * 4)
    settled(client)
    assert service.received == []


def test_seat_request_and_end_of_match_alerts(client: TestClient, service: PushService) -> None:
    room_id, (ann, bo) = table(client)
    ann_device, bo_device = Device(), Device()
    client.post(
        f"/api/rooms/{room_id}/push", json=ann_device.subscription(service.url("/ann")), headers=auth(ann)
    )
    client.post(
        f"/api/rooms/{room_id}/push", json=bo_device.subscription(service.url("/bo")), headers=auth(bo)
    )
    client.app.state.runtime.alerts.per_seat = 0  # type: ignore[attr-defined]
    assert client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 1}).status_code == 201
    wait_for(lambda: any(bo_device.decrypt(r.body)["event"] == "seat_request" for r in service.at("/bo")))
    while client.get(f"/api/rooms/{room_id}").json()["status"] == "playing":
        to_act = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()["to_act"]
        play(client, room_id, ann if to_act == [0] else bo)
    for path, device in (("/ann", ann_device), ("/bo", bo_device)):
        wait_for(
            lambda p=path, d=device: any(d.decrypt(r.body)["event"] == "finished" for r in service.at(p))
        )
    assert client.post(f"/api/rooms/{room_id}/rematch", headers=auth(ann)).status_code == 201
    wait_for(lambda: any(bo_device.decrypt(r.body)["event"] == "rematch" for r in service.at("/bo")))
    rematch = next(
        bo_device.decrypt(r.body)
        for r in service.at("/bo")
        if bo_device.decrypt(r.body)["event"] == "rematch"
    )
    assert rematch["body"] == "Ann started a rematch. Join them."
    assert not any(ann_device.decrypt(r.body)["event"] == "rematch" for r in service.at("/ann"))


def test_a_clock_with_a_quarter_left_alerts(database_url: str, tiny: str, service: PushService) -> None:
    with TestClient(create_app(_settings(database_url, push_grace_seconds=3600))) as client:
        room_id, (ann, bo) = table(client, clock=4)
        device = Device()
        client.post(
            f"/api/rooms/{room_id}/push", json=device.subscription(service.url("/bo")), headers=auth(bo)
        )
        moved = time.monotonic()
        play(client, room_id, ann)
        wait_for(lambda: len(service.at("/bo")) == 1)
        assert time.monotonic() - moved >= 2.5  # three quarters of 4 seconds
        message = device.decrypt(service.at("/bo")[0].body)
        assert message["event"] == "clock"
        assert message["title"] == "Tiny: your clock is running out"


BAD_ENDPOINTS = [
    "https://10.1.2.3/push",  # private
    "https://192.168.1.9/push",
    "https://169.254.169.254/latest/meta-data",  # link-local (cloud metadata)
    "https://[::1]/push",  # loopback
    "https://[fe80::1]/push",
    "https://localhost/push",
    "http://8.8.8.8/push",  # not https
    "ftp://8.8.8.8/push",
    "https://user:pw@8.8.8.8/push",
    "not a url",
    "https://" + "a" * 3000 + ".example/push",
]


# Addresses that are not global though Python's `is_global` alone may take them for global ones: IPv4
# wrapped in IPv6 (mapped, compatible, translated, NAT64, 6to4, Teredo), and special ranges its tables
# lack.
DISGUISED = [
    "::127.0.0.1",  # IPv4-compatible loopback
    "::8.8.8.8",  # IPv4-compatible, deprecated whatever it wraps
    "::ffff:127.0.0.1",  # IPv4-mapped loopback
    "::ffff:10.0.0.1",
    "::ffff:0:7f00:1",  # IPv4-translated loopback
    "64:ff9b::7f00:1",  # NAT64 of loopback
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254, the cloud metadata service
    "64:ff9b:1::808:808",  # NAT64 for local use
    "2002:7f00:1::",  # 6to4 of loopback
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo (its client is 127.0.0.1)
    "192.0.0.8",  # IETF protocol assignments
    "192.0.0.9",
    "100.64.0.1",  # shared address space (carrier NAT)
    "3fff::1",  # documentation
    "5f00::1",  # SRv6
]
NOT_GLOBAL = [
    *DISGUISED,
    "0.0.0.0",
    "::",
    "127.0.0.1",
    "::1",
    "10.1.2.3",
    "169.254.169.254",
    "fe80::1",
    "fd12:3456::1",
    "224.0.0.1",
    "ff02::1",
    "ff0e::1",
    "2001:db8::1",
    "198.18.0.1",
    "240.0.0.1",
    "255.255.255.255",
]
# Global, also when wrapped: NAT64 and 6to4 of Google's public resolver.
GLOBAL = ["8.8.8.8", "2001:4860:4860::8888", "64:ff9b::808:808", "2002:808:808::1"]


def url_of(address: str) -> str:
    return f"https://[{address}]/push" if ":" in address else f"https://{address}/push"


@pytest.mark.parametrize("address", NOT_GLOBAL)
def test_an_address_that_is_not_global_is_not_public(address: str) -> None:
    assert not is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", GLOBAL)
def test_a_global_address_is_public(address: str) -> None:
    assert is_public(ipaddress.ip_address(address))


def test_only_loopback_is_let_through_for_tests() -> None:
    assert is_public(ipaddress.ip_address("127.0.0.1"), loopback_ok=True)
    assert is_public(ipaddress.ip_address("::ffff:127.0.0.1"), loopback_ok=True)
    assert not is_public(ipaddress.ip_address("64:ff9b::7f00:1"), loopback_ok=True)
    assert not is_public(ipaddress.ip_address("10.0.0.1"), loopback_ok=True)


@pytest.mark.parametrize("endpoint", [*BAD_ENDPOINTS, *(url_of(address) for address in DISGUISED)])
def test_only_https_endpoints_on_public_addresses(sqlite_url: str, tiny: str, endpoint: str) -> None:
    from app.db import upgrade

    upgrade(sqlite_url)
    with TestClient(create_app(_settings(sqlite_url, push_allow_insecure_endpoints=False))) as client:
        room_id, (_ann, bo) = table(client)
        refused = client.post(
            f"/api/rooms/{room_id}/push", json=Device().subscription(endpoint), headers=auth(bo)
        )
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["code"] == "invalid_request"
        assert subscriptions(client, room_id) == []
        # A public https endpoint is taken.
        taken = client.post(
            f"/api/rooms/{room_id}/push",
            json=Device().subscription("https://8.8.8.8/push/x"),
            headers=auth(bo),
        )
        assert taken.status_code == 201


def test_bad_subscriptions_are_refused(client: TestClient, service: PushService) -> None:
    room_id, (_ann, bo) = table(client)
    good = Device().subscription(service.url("/bo"))
    url = f"/api/rooms/{room_id}/push"

    def refused(body: Any, headers: dict[str, str] | None = None) -> str:
        response = client.post(url, json=body, headers=auth(bo) if headers is None else headers)
        assert response.status_code in (401, 422), response.text
        return str(response.json()["error"]["code"])

    assert refused({**good, "keys": {**good["keys"], "auth": b64url(b"short")}}) == "invalid_request"
    assert (
        refused({**good, "keys": {**good["keys"], "p256dh": b64url(b"\x04" + b"\x01" * 64)}})
        == "invalid_request"
    )
    assert refused({**good, "keys": {"p256dh": good["keys"]["p256dh"]}}) == "invalid_request"
    assert refused({"keys": good["keys"]}) == "invalid_request"
    assert refused({**good, "endpoint": 5}) == "invalid_request"
    assert refused(good, headers={}) == "unauthorized"  # a spectator has no seat to alert
    assert refused(good, headers=auth("not-a-token")) == "unauthorized"
    assert client.post("/api/rooms/zzzzzzzzzzzz/push", json=good, headers=auth(bo)).status_code == 404
    assert subscriptions(client, room_id) == []


def test_insecure_endpoints_are_refused_on_a_public_address(sqlite_url: str) -> None:
    with pytest.raises(ValueError, match="loopback"):
        create_app(_settings(sqlite_url, bind_host="0.0.0.0"))


def test_the_key_pair_is_kept_across_restarts(database_url: str, tiny: str) -> None:
    keys = []
    for _ in range(2):
        with TestClient(create_app(_settings(database_url))) as client:
            keys.append(client.get("/api/push/key").json()["public_key"])
    assert keys[0] == keys[1]


def test_the_subscription_dies_with_the_room(client: TestClient, service: PushService) -> None:
    room_id, (_ann, bo) = table(client)
    client.post(
        f"/api/rooms/{room_id}/push", json=Device().subscription(service.url("/bo")), headers=auth(bo)
    )
    assert len(subscriptions(client, room_id)) == 1
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as session:
        # What pruning does to an expired room (app/retention.py deletes its row).
        session.execute(delete(Room).where(Room.id == room_id))
    assert subscriptions(client, room_id) == []


def test_a_key_from_the_settings_is_used(sqlite_url: str, tiny: str) -> None:
    from app.db import upgrade

    upgrade(sqlite_url)
    key = ec.generate_private_key(ec.SECP256R1())
    raw = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    public = b64url(
        key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    for setting in (raw, pem.decode()):
        with TestClient(create_app(_settings(sqlite_url, push_vapid_private_key=setting))) as client:
            assert client.get("/api/push/key").json() == {"public_key": public}


def test_the_worker_manifest_and_offline_page_are_served(client: TestClient) -> None:
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker.headers["service-worker-allowed"] == "/"
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "content-security-policy" in worker.headers  # the site's policy, which the worker keeps to
    manifest = client.get("/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["start_url"] == "/" and body["display"] == "standalone"
    for icon in body["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
        width, height = (
            int.from_bytes(image.content[16:20], "big"),
            int.from_bytes(image.content[20:24], "big"),
        )
        assert f"{width}x{height}" == icon["sizes"]
    offline = client.get("/offline")
    assert offline.status_code == 200
    assert (
        "You&#39;re offline: your games wait for you" in offline.text
        or "You're offline: your games wait for you" in offline.text
    )


def test_subscribing_during_ones_turn_alerts_for_that_turn(client: TestClient, service: PushService) -> None:
    room_id, (ann, _bo) = table(client)  # Ann's turn from the start, before anyone subscribed
    device = Device()
    client.post(
        f"/api/rooms/{room_id}/push", json=device.subscription(service.url("/ann")), headers=auth(ann)
    )
    wait_for(lambda: len(service.at("/ann")) == 1)
    assert device.decrypt(service.at("/ann")[0].body)["body"] == "The table waits for you."


def test_the_contact_is_a_mailto_or_https_address(sqlite_url: str) -> None:
    with pytest.raises(ValueError, match="mailto"):
        _settings(sqlite_url, push_contact="ops@example.org")


def test_a_turn_alert_survives_a_restart_and_goes_once(
    database_url: str, tiny: str, service: PushService
) -> None:
    settings = _settings(database_url, push_grace_seconds=1.5)
    device = Device()
    # The first process's clock stands still: it stops before Bo's grace is over, however slowly it runs.
    with TestClient(app_with(settings, Clock(held=time.time()))) as client:
        room_id, (ann, bo) = table(client)
        client.post(
            f"/api/rooms/{room_id}/push", json=device.subscription(service.url("/bo")), headers=auth(bo)
        )
        play(client, room_id, ann)
        settled(client)
    # Nothing went out, and nothing will from it.
    assert service.at("/bo") == []
    restarted = time.monotonic()
    with TestClient(create_app(settings)) as client:
        wait_for(lambda: len(service.at("/bo")) == 1)
        assert time.monotonic() - restarted >= 1.5  # a grace after the start
        message = device.decrypt(service.at("/bo")[0].body)
        assert (message["event"], message["body"]) == ("turn", "Ann played; the table waits for you.")
    # Another restart during the same turn: Bo was alerted for it already.
    clock = Clock()
    with TestClient(app_with(settings, clock)) as client:
        settled(client)  # the look at the rooms in play after the start is done
        clock.advance(1.5 * 2.5)
        settled(client)
        assert len(service.at("/bo")) == 1
        # Bo's next turn is a new one: alerted again (the minute's limit lifted here).
        client.app.state.runtime.alerts.per_seat = 0  # type: ignore[attr-defined]
        play(client, room_id, bo)
        play(client, room_id, ann)
        wait_for(lambda: len(service.at("/bo")) == 2)
        assert device.decrypt(service.at("/bo")[1].body)["event"] == "turn"


def test_a_turn_that_comes_back_before_the_next_look_is_a_new_turn(
    database_url: str, tiny: str, service: PushService
) -> None:
    """Bo plays and Ann plays back before the dispatcher looks: it reads the room once for both moves
    and finds Bo to act, as he was when he was alerted. It is a new turn all the same: Bo is alerted
    again a grace later. (A loaded machine batched the two, and Bo's new turn went unalerted.)"""
    clock = Clock()
    device = Device()
    with TestClient(app_with(_settings(database_url, push_grace_seconds=1.5), clock)) as client:
        alerts = client.app.state.runtime.alerts  # type: ignore[attr-defined]
        alerts.per_seat = 0  # the minute's limit is not what this is about
        room_id, (ann, bo) = table(client)
        client.post(
            f"/api/rooms/{room_id}/push", json=device.subscription(service.url("/bo")), headers=auth(bo)
        )
        play(client, room_id, ann)
        settled(client)
        clock.advance(2)
        wait_for(lambda: len(service.at("/bo")) == 1)

        async def hold() -> None:
            alerts._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await alerts._loop

        async def go_on() -> None:
            alerts._loop = asyncio.create_task(alerts.run())

        # Both moves wait in the dispatcher's queue: its next look takes them together.
        portal = client.portal
        assert portal is not None  # inside the client's `with`
        portal.call(hold)
        play(client, room_id, bo)
        play(client, room_id, ann)
        portal.call(go_on)
        settled(client)
        clock.advance(2)
        wait_for(lambda: len(service.at("/bo")) == 2)
        assert device.decrypt(service.at("/bo")[1].body)["event"] == "turn"


def test_a_clock_alert_survives_a_restart_and_goes_once(
    database_url: str, tiny: str, service: PushService
) -> None:
    settings = _settings(database_url, push_grace_seconds=3600)
    device = Device()
    # The first process's clock stands still at the start: the quarter never comes for it.
    with TestClient(app_with(settings, Clock(held=time.time()))) as client:
        room_id, (ann, bo) = table(client, clock=8)
        client.post(
            f"/api/rooms/{room_id}/push", json=device.subscription(service.url("/bo")), headers=auth(bo)
        )
        play(client, room_id, ann)
        settled(client)
        deadline = datetime.fromisoformat(client.get(f"/api/rooms/{room_id}").json()["deadline"])
    assert service.at("/bo") == []
    # The next two processes look at the room a second before Bo's deadline: the quarter is past.
    late = deadline.timestamp() - 1
    with TestClient(app_with(settings, Clock(held=late))) as client:
        wait_for(lambda: len(service.at("/bo")) == 1)
        assert device.decrypt(service.at("/bo")[0].body)["event"] == "clock"
    with TestClient(app_with(settings, Clock(held=late))) as client:
        settled(client)
        assert len(service.at("/bo")) == 1
