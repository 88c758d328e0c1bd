"""Web Push (RFC 8030), encrypted with aes128gcm (RFC 8291) and signed with VAPID (RFC 8292).

- The key pair: from MOTABLE_PUSH_VAPID_PRIVATE_KEY, or made on first start and kept in the database
  (one row, so every process signs with the same key). `GET /api/push/key` gives its public half.
- A subscription belongs to one seat and remembers the hash of the token that made it: nothing is sent
  once the seat's token changed (handover, leave, removal), and `seats_changed` deletes it then; the
  room's deletion deletes it (ON DELETE CASCADE).
- An endpoint is an address the browser chose, so the server only ever POSTs to https URLs whose host
  resolves to public addresses only, checked when subscribing and again before each send; redirects
  are not followed and the timeout is short. 404/410 delete the subscription; 429 and 5xx are retried
  with a growing wait (Retry-After honoured up to a cap). Sending runs in tasks of its own: a move never
  waits for it.
- One push service that hangs or answers 500 delays nobody else's alerts: a request holds a place
  among PER_ORIGIN for its service and among CONCURRENCY for all, only while it is under way (the
  waits between retries hold none), and a send waits for its service's place before it takes a
  shared one.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import ipaddress
import json
import logging
import os
import socket
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import http_ece
import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from app.alerts.core import Alert
from app.alerts.interest import Interest
from app.config import Settings
from app.db import Database
from app.errors import AppError
from app.models import PushKey, PushSubscription, Seat

log = logging.getLogger(__name__)

# Seconds for each attempt (connect, write, read): a push service answers at once or not at all.
TIMEOUT = 5.0
# Waits before the second, third and fourth attempts after a 429 or 5xx (or a failed connection).
BACKOFF = (1.0, 4.0, 15.0)
# The longest Retry-After honoured; longer and the alert is given up (the next one will come).
MAX_RETRY_AFTER = 60.0
# How long a push service keeps an alert for a device that is offline: an hour, then it is stale.
TTL = 3600
# Devices one seat may subscribe; the oldest goes past it.
MAX_DEVICES = 10
# Sends under way at once, for all seats together.
CONCURRENCY = 32
# Sends under way at once to one push service (scheme, host and port of the endpoint): a service that
# hangs or fails holds at most this many of the CONCURRENCY places, never the others' share. Browsers
# use a handful of services (FCM, Mozilla's, Apple's, Microsoft's), so a quarter each; a healthy
# service answering in 100 ms still takes 80 alerts a second.
PER_ORIGIN = 8
MAX_ENDPOINT = 2048
# Seconds the host name of an endpoint may take to resolve.
RESOLVE_TIMEOUT = 3.0


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_key_of(vapid: Vapid02) -> str:
    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def _raw_private(vapid: Vapid02) -> str:
    return b64url(vapid.private_key.private_numbers().private_value.to_bytes(32, "big"))


def vapid_from_setting(key: str) -> Vapid02:
    text = key.strip()
    if "-----BEGIN" in text:
        return Vapid02.from_pem(text.encode())
    return Vapid02.from_raw(text.encode())


def topic(room_id: str, seat: int) -> str:
    """The Topic header (at most 32 base64url characters): a newer alert for the same seat and room
    replaces one the device has not fetched yet."""
    return b64url(hashlib.sha256(f"{room_id}:{seat}".encode()).digest())[:32]


def payload(alert: Alert) -> dict[str, Any]:
    """What the service worker receives: public facts of the room only (never a card, never a token)."""
    return {
        "game": alert.game,
        "room": alert.room_id,
        "event": alert.event,
        "title": alert.title,
        "body": alert.body,
        "url": alert.url,
    }


def encrypt(body: bytes, p256dh: str, auth: str) -> bytes:
    """aes128gcm for one device (RFC 8291): a fresh sender key and salt for every message."""
    sender = ec.generate_private_key(ec.SECP256R1())
    encrypted: bytes = http_ece.encrypt(
        body,
        salt=os.urandom(16),
        private_key=sender,
        dh=unb64url(p256dh),
        auth_secret=unb64url(auth),
        version="aes128gcm",
    )
    return encrypted


# -- addresses an endpoint may have -----------------------------------------------------------
def _public(address: str, insecure: bool) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if insecure and ip.is_loopback:
        return True
    return ip.is_global and not ip.is_multicast


async def resolve(host: str) -> list[str]:
    loop = asyncio.get_running_loop()
    infos = await asyncio.wait_for(
        loop.getaddrinfo(host, None, type=socket.SOCK_STREAM), timeout=RESOLVE_TIMEOUT
    )
    return sorted({str(info[4][0]) for info in infos})


def _endpoint_shape(endpoint: str, insecure: bool) -> str:
    """The endpoint's host, or why it is refused."""
    if len(endpoint) > MAX_ENDPOINT:
        raise AppError("invalid_request", f"a push endpoint is at most {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 (raises on a bad port)
    except ValueError as error:
        raise AppError("invalid_request", "the push endpoint is not a URL") from error
    schemes = ("https", "http") if insecure else ("https",)
    if parts.scheme not in schemes:
        raise AppError("invalid_request", "a push endpoint must be an https:// URL")
    if not parts.hostname or parts.username is not None or parts.password is not None:
        raise AppError("invalid_request", "a push endpoint names a host, without user or password")
    if parts.fragment:
        raise AppError("invalid_request", "a push endpoint has no #fragment")
    return parts.hostname


async def check_endpoint(endpoint: str, insecure: bool) -> None:
    """Refuses (422) an endpoint the server must not POST to: not https, or a host with any private,
    loopback, link-local or otherwise non-public address."""
    host = _endpoint_shape(endpoint, insecure)
    try:
        addresses = await resolve(host)
    except (OSError, TimeoutError, UnicodeError) as error:
        raise AppError("invalid_request", "the push endpoint's host does not resolve") from error
    if not addresses or not all(_public(address, insecure) for address in addresses):
        raise AppError("invalid_request", "a push endpoint must be on a public address")


def check_keys(p256dh: str, auth: str) -> None:
    """The browser's keys: an uncompressed P-256 point and a 16-byte secret, base64url."""
    try:
        point = unb64url(p256dh)
        secret = unb64url(auth)
    except ValueError as error:
        raise AppError("invalid_request", "keys.p256dh and keys.auth are base64url") from error
    if len(secret) != 16:
        raise AppError("invalid_request", "keys.auth is a 16-byte secret")
    try:
        if len(point) != 65:
            raise ValueError("not an uncompressed point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError as error:
        raise AppError("invalid_request", "keys.p256dh is not a P-256 public key") from error


# -- the database -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Device:
    id: int
    endpoint: str
    p256dh: str
    auth: str


class Subscriptions:
    """The subscriptions table, read and written in worker threads by the callers."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add(self, room_id: str, seat: int, token_hash: str, endpoint: str, p256dh: str, auth: str) -> None:
        with self.db.transaction() as session:
            row = session.scalars(
                select(PushSubscription).where(
                    PushSubscription.room_id == room_id, PushSubscription.endpoint == endpoint
                )
            ).one_or_none()
            if row is None:
                row = PushSubscription(room_id=room_id, endpoint=endpoint)
                session.add(row)
            # The same device subscribing again (new keys, or for another seat in the room) replaces it.
            row.seat, row.token_hash, row.p256dh, row.auth = seat, token_hash, p256dh, auth
            session.flush()
            mine = session.scalars(
                select(PushSubscription.id)
                .where(PushSubscription.room_id == room_id, PushSubscription.seat == seat)
                .order_by(PushSubscription.id.desc())
            ).all()
            if len(mine) > MAX_DEVICES:
                stale = list(mine[MAX_DEVICES:])
                session.execute(delete(PushSubscription).where(PushSubscription.id.in_(stale)))

    def remove(self, room_id: str, seat: int, endpoint: str) -> None:
        with self.db.transaction() as session:
            session.execute(
                delete(PushSubscription).where(
                    PushSubscription.room_id == room_id,
                    PushSubscription.seat == seat,
                    PushSubscription.endpoint == endpoint,
                )
            )

    def drop(self, ids: Iterable[int]) -> None:
        ids = list(ids)
        if ids:
            with self.db.transaction() as session:
                session.execute(delete(PushSubscription).where(PushSubscription.id.in_(ids)))

    def devices(self, room_id: str, seat: int) -> list[Device]:
        """The seat's devices whose token is still the seat's token."""
        with self.db.read() as session:
            rows = session.execute(
                select(PushSubscription)
                .join(Seat, (Seat.room_id == PushSubscription.room_id) & (Seat.seat == PushSubscription.seat))
                .where(
                    PushSubscription.room_id == room_id,
                    PushSubscription.seat == seat,
                    Seat.token_hash == PushSubscription.token_hash,
                    Seat.bot.is_(False),
                )
            ).scalars()
            return [Device(row.id, row.endpoint, row.p256dh, row.auth) for row in rows]

    def any_in(self, room_id: str) -> bool:
        with self.db.read() as session:
            found = session.scalar(
                select(PushSubscription.id).where(PushSubscription.room_id == room_id).limit(1)
            )
            return found is not None

    def rooms(self, limit: int) -> set[str] | None:
        """Every room with a subscription; None when there are more than `limit`."""
        with self.db.read() as session:
            found = set(session.scalars(select(PushSubscription.room_id).distinct().limit(limit + 1)))
            return found if len(found) <= limit else None

    def forget_revoked(self, room_id: str) -> int:
        """Deletes the room's subscriptions made with a token its seat no longer has."""
        with self.db.transaction() as session:
            current = dict(
                session.execute(select(Seat.seat, Seat.token_hash).where(Seat.room_id == room_id)).all()
            )
            rows = session.execute(
                select(PushSubscription.id, PushSubscription.seat, PushSubscription.token_hash).where(
                    PushSubscription.room_id == room_id
                )
            ).all()
            stale = [sub_id for sub_id, seat, token_hash in rows if current.get(seat) != token_hash]
            if stale:
                session.execute(delete(PushSubscription).where(PushSubscription.id.in_(stale)))
            return len(stale)

    def key(self) -> str | None:
        with self.db.read() as session:
            return session.scalars(select(PushKey.private_key).where(PushKey.id == 1)).one_or_none()

    def keep_key(self, private_key: str) -> str:
        """Stores the key unless another process stored one first; returns the one kept."""
        try:
            with self.db.transaction() as session:
                session.add(PushKey(id=1, private_key=private_key))
        except IntegrityError:
            pass
        kept = self.key()
        assert kept is not None
        return kept


def load_vapid(settings: Settings, subscriptions: Subscriptions) -> Vapid02:
    """The settings' key, else the database's, else a new one kept there (first start)."""
    if settings.push_vapid_private_key:
        return vapid_from_setting(settings.push_vapid_private_key)
    stored = subscriptions.key()
    if stored is None:
        fresh = Vapid02()
        fresh.generate_keys()
        stored = subscriptions.keep_key(_raw_private(fresh))
    return Vapid02.from_raw(stored.encode())


def contact(settings: Settings) -> str:
    if settings.push_contact:
        return settings.push_contact
    if settings.public_url and settings.public_url.startswith("https://"):
        return settings.public_url
    return "mailto:operator@motable.invalid"


# -- the channel ---------------------------------------------------------------------------------
class OriginSlots:
    """PER_ORIGIN places per push service; a service's entry goes once nobody uses or waits for it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._slots: dict[str, tuple[asyncio.Semaphore, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, origin: str) -> AsyncIterator[None]:
        semaphore, users = self._slots.get(origin, (None, 0))
        if semaphore is None:
            semaphore = asyncio.Semaphore(self.size)
        self._slots[origin] = (semaphore, users + 1)
        try:
            async with semaphore:
                yield
        finally:
            semaphore, users = self._slots[origin]
            if users <= 1:
                del self._slots[origin]
            else:
                self._slots[origin] = (semaphore, users - 1)

    def __len__(self) -> int:
        return len(self._slots)


class PushChannel:
    """Delivers an alert to every device the seat subscribed, each in a task of its own."""

    name = "push"

    def __init__(self, db: Database, settings: Settings) -> None:
        self.subscriptions = Subscriptions(db)
        self.settings = settings
        self.insecure = settings.insecure_push_for_tests()
        self.contact = contact(settings)
        self._vapid: Vapid02 | None = None
        self._client: httpx.AsyncClient | None = None
        self._sending = asyncio.Semaphore(CONCURRENCY)
        self._origins = OriginSlots(PER_ORIGIN)
        # The signed VAPID header per push service origin, reused until shortly before it expires.
        self._signed: dict[str, tuple[float, str]] = {}
        # The rooms where a device subscribed, as this process knows them (app/alerts/interest.py).
        self._interest = Interest(self.subscriptions.rooms, self.subscriptions.any_in)

    async def start(self) -> None:
        self._vapid = await run_in_threadpool(load_vapid, self.settings, self.subscriptions)
        self._client = httpx.AsyncClient(
            follow_redirects=False,
            timeout=httpx.Timeout(TIMEOUT),
            limits=httpx.Limits(max_connections=CONCURRENCY, max_keepalive_connections=8),
            trust_env=False,
        )

    async def stop(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    @property
    def public_key(self) -> str:
        assert self._vapid is not None, "the push channel has not started"
        return public_key_of(self._vapid)

    async def check(self, endpoint: str, p256dh: str, auth: str) -> None:
        check_keys(p256dh, auth)
        await check_endpoint(endpoint, self.insecure)

    async def interested(self, room_id: str) -> bool:
        """Whether any device subscribed in the room (every such room read at most every 30 s)."""
        return await self._interest.wanted(room_id)

    def subscribed(self, room_id: str) -> None:
        """A device subscribed in the room through this process."""
        self._interest.add(room_id)

    async def seats_changed(self, room_id: str) -> None:
        dropped = await run_in_threadpool(self.subscriptions.forget_revoked, room_id)
        if dropped:
            log.info("dropped %d push subscription(s) of room %s whose token was revoked", dropped, room_id)

    async def deliver(self, alert: Alert) -> None:
        devices = await run_in_threadpool(self.subscriptions.devices, alert.room_id, alert.seat)
        if not devices:
            return
        await self.deliver_to(devices, alert)

    async def deliver_to(self, devices: list[Device], alert: Alert) -> None:
        """Sends the alert to each device, each with its retries; returns when every one is done
        (delivered, dropped or given up)."""
        body = json.dumps(payload(alert), separators=(",", ":")).encode()
        results = await asyncio.gather(
            *(self._send(device, alert, body) for device in devices), return_exceptions=True
        )
        for device, result in zip(devices, results, strict=True):
            if isinstance(result, BaseException):
                log.warning("push to %s failed: %r", _origin(device.endpoint), result)

    def _authorization(self, endpoint: str) -> str:
        origin = _origin(endpoint)
        now = time.time()
        cached = self._signed.get(origin)
        if cached is not None and cached[0] - now > 3600:
            return cached[1]
        assert self._vapid is not None
        expires = int(now) + 12 * 3600
        signed = self._vapid.sign({"aud": origin, "exp": expires, "sub": self.contact})
        self._signed[origin] = (expires, signed["Authorization"])
        return str(signed["Authorization"])

    async def _send(self, device: Device, alert: Alert, body: bytes) -> None:
        assert self._client is not None
        encrypted = await run_in_threadpool(encrypt, body, device.p256dh, device.auth)
        headers = {
            "TTL": str(TTL),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "Topic": topic(alert.room_id, alert.seat),
            "Urgency": "high" if alert.event in ("turn", "clock", "seat_request") else "normal",
            "Authorization": self._authorization(device.endpoint),
        }
        origin = _origin(device.endpoint)
        for attempt in range(len(BACKOFF) + 1):
            wait: float | None
            try:
                # Checked again before each send: a host may resolve elsewhere than it did.
                await check_endpoint(device.endpoint, self.insecure)
            except AppError:
                log.warning("push endpoint at %s no longer public: dropped", origin)
                await run_in_threadpool(self.subscriptions.drop, [device.id])
                return
            try:
                # Only the request holds places (its service's, then a shared one), not the waits between.
                async with self._origins.hold(service_of(device.endpoint)), self._sending:
                    response = await self._client.post(device.endpoint, content=encrypted, headers=headers)
            except httpx.HTTPError as error:
                log.info("push to %s: %s", origin, type(error).__name__)
                wait = BACKOFF[attempt] if attempt < len(BACKOFF) else None
            else:
                status = response.status_code
                if status in (200, 201, 202, 204):
                    return
                if status in (404, 410):
                    # The browser unsubscribed or the subscription expired: forget the device.
                    await run_in_threadpool(self.subscriptions.drop, [device.id])
                    return
                if status != 429 and status < 500:
                    log.warning("push to %s refused with %d", origin, status)
                    return
                wait = _retry_after(response, attempt)
            if wait is None or attempt == len(BACKOFF):
                log.warning("push to %s given up after %d attempt(s)", origin, attempt + 1)
                return
            await asyncio.sleep(wait)


def _retry_after(response: httpx.Response, attempt: int) -> float | None:
    backoff = BACKOFF[attempt] if attempt < len(BACKOFF) else None
    header = response.headers.get("retry-after")
    if header is None or not header.strip().isdigit():
        return backoff
    asked = float(header.strip())
    if asked > MAX_RETRY_AFTER:
        return None
    return max(asked, backoff or 0.0)


def _origin(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


def service_of(endpoint: str) -> str:
    """The push service an endpoint belongs to: scheme, host and port (the default port spelled out)."""
    parts = urlsplit(endpoint)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"
