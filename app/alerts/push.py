"""Web Push (RFC 8030), encrypted with aes128gcm (RFC 8291) and signed with VAPID (RFC 8292).

- The key pair: from MOTABLE_PUSH_VAPID_PRIVATE_KEY, or made on first start and kept in the database
  (one row, so every process signs with the same key). `GET /api/push/key` gives its public half.
- A subscription belongs to one seat and remembers the hash of the token that made it: nothing is sent
  once the seat's token changed (handover, leave, removal), and `seats_changed` deletes it then; the
  room's deletion deletes it (ON DELETE CASCADE).
- An endpoint is an address the browser chose, so the server only ever POSTs to https URLs whose host
  resolves to global addresses only (`is_public`: IPv4 inside IPv6 forms unwrapped and checked too),
  checked when subscribing and before each attempt. The host is resolved once per attempt and the
  connection goes to an address that was checked (`PinnedBackend`): nothing resolves it a second time,
  so a name that answers a public address to the check and loopback a moment later reaches nothing
  but the checked address. TLS still names and verifies the endpoint's host (SNI, certificate) and the
  Host header carries it. Redirects are not followed.
- An attempt has a total deadline (DEADLINE: connecting, TLS, the request and the whole answer), on
  top of TIMEOUT per read, and reads at most MAX_ANSWER bytes of the answer. 404/410 delete the
  subscription; 429, 5xx, a failed connection and a passed deadline are retried with a growing wait
  (Retry-After honoured up to a cap). Sending runs in tasks of its own: a move never waits for it.
- One push service that hangs, drips or answers 500 delays nobody else's alerts (`Places`): a request
  holds a place among PER_ORIGIN of its service, and a shared one: a fresh place for its first
  SLOW_AFTER seconds, then one of SLOW_PLACES, or it is cut when none is free. A service whose request
  was cut or passed the deadline is demoted for DEMOTED_FOR seconds: one request at a time, on a slow
  place only. The fresh places are thus held only by young requests of services not known to be slow,
  and come free within SLOW_AFTER whatever the slow services do. The waits between retries hold no
  place, and a send waits for its service's place before it takes a shared one.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import contextvars
import hashlib
import ipaddress
import json
import logging
import os
import socket
import ssl
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

import http_ece
import httpcore
import httpx
from cachetools import TTLCache
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, retry_if_result

from app.alerts.core import Alert
from app.alerts.interest import Interest
from app.config import Settings
from app.db import Database
from app.errors import AppError
from app.i18n import N_, SOURCE, speaking, word
from app.models import PushKey, PushSubscription, Seat

log = logging.getLogger(__name__)

# Seconds for each step of an attempt (connecting, sending, each read).
TIMEOUT = 5.0
# Seconds one attempt may take in all: connecting, TLS, sending and reading the whole answer. A service
# that sends a byte every few seconds never lets TIMEOUT pass between two reads; this bounds it.
DEADLINE = 10.0
# Bytes of an answer read (push services answer with an empty body); past it the connection is dropped.
MAX_ANSWER = 16_384
# Waits before the second, third and fourth attempts after a 429 or 5xx (or a failed connection).
BACKOFF = (1.0, 4.0, 15.0)
# The longest Retry-After honoured; longer and the alert is given up (the next one will come).
MAX_RETRY_AFTER = 60.0
# How long a push service keeps an alert for a device that is offline: an hour, then it is stale.
TTL = 3600
# Devices one seat may subscribe; the oldest goes past it.
MAX_DEVICES = 10
# Requests under way at once, for all seats and services together: CONCURRENCY - SLOW_PLACES fresh
# places and SLOW_PLACES slow ones.
CONCURRENCY = 32
# Requests past SLOW_AFTER at once, all services together. The 24 fresh places are held only by
# requests younger than SLOW_AFTER of services not demoted, so whatever number of services drip or
# hang, every fresh place comes free within SLOW_AFTER and a healthy service's alert waits about that
# long at worst. The case, four services that drip a byte every 2 s: 32 of their requests
# want places, 24 get fresh ones; 2 s later 8 move to the slow places and 16 are cut, the four are
# demoted, and from then on they hold at most the 8 slow places, never a fresh one.
SLOW_PLACES = 8
# Push services answer in well under a second (FCM, Mozilla's, Apple's, Microsoft's: 50-300 ms); a
# request still under way after this is slow: it moves to a slow place, or is cut when none is free.
SLOW_AFTER = 2.0
# Requests under way at once to one push service (scheme, host and port of the endpoint): browsers use
# a handful of services, so a third of the fresh places each; a healthy service answering in 100 ms
# still takes 80 alerts a second.
PER_ORIGIN = 8
# Seconds a service whose request was cut or passed DEADLINE keeps a single place, a slow one (each
# further cut starts them again): a new service can hold fresh places for SLOW_AFTER once per
# DEMOTED_FOR, however many alerts wait for it.
DEMOTED_FOR = 300.0
# Services remembered as demoted at once, at most (the least recently demoted or asked about goes
# first): far more than the handful browsers use, so only endpoints made up to flood it reach it.
DEMOTED_MOST = 65_536
# Push service origins whose signed VAPID header is kept, at most (browsers use a handful).
SIGNED_MOST = 1024
# Seconds a signed VAPID header is valid (its "exp"), and how long it is reused: until an hour before.
SIGNED_FOR = 12 * 3600
SIGNED_REUSED = SIGNED_FOR - 3600
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
    """What the service worker receives: public facts of the room only (never a card, never a token),
    its words in the language being spoken (`speaking`: the device's)."""
    return {
        "game": alert.game,
        "room": alert.room_id,
        "event": alert.event,
        "title": word(alert.title),
        "body": word(alert.body),
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
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# Never a push service's address, whatever Python's `is_global` says of it (its tables lag behind
# IANA's, and differ between Python versions).
_NEVER = tuple(
    ipaddress.ip_network(net)
    for net in (
        "192.0.0.0/24",  # IETF protocol assignments (RFC 6890)
        "::/96",  # IPv4-compatible, deprecated (RFC 4291): `::127.0.0.1`
        "::ffff:0:0:0/96",  # IPv4-translated, only inside a SIIT translator (RFC 6145): `::ffff:0:7f00:1`
        "64:ff9b:1::/48",  # NAT64 for local use (RFC 8215)
        "3fff::/20",  # documentation (RFC 9637)
        "5f00::/16",  # SRv6 segment identifiers (RFC 9602)
    )
)
# NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address the packet goes to.
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _embedded(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses a packet to `ip` may end up at: NAT64, 6to4's relay, Teredo's server and
    client (each unwrapped, so `64:ff9b::7f00:1` or `2002:7f00:1::` is loopback, not global)."""
    found: list[ipaddress.IPv4Address] = []
    if ip in _NAT64:
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)
    return found


def is_public(ip: Address, loopback_ok: bool = False) -> bool:
    """Whether the server may connect to `ip` for a push: a global unicast address, and so is every
    IPv4 address it wraps. `loopback_ok`: tests play the push service on 127.0.0.1."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # `::ffff:a.b.c.d` is a.b.c.d to the socket layer
    if loopback_ok and ip.is_loopback:
        return True
    if any(ip.version == net.version and ip in net for net in _NEVER):
        return False
    if not ip.is_global or ip.is_multicast:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        return all(is_public(inner) for inner in _embedded(ip))
    return True


Resolver = Callable[[str], Awaitable[list[str]]]


async def resolve(host: str) -> list[str]:
    """The host's addresses, in the order the system prefers them."""
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(RESOLVE_TIMEOUT):
        infos = await loop.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True, slots=True)
class Target:
    """Where one attempt goes: the endpoint's URL, and the checked address its host is reached at."""

    url: httpcore.URL
    host: str  # as the connection pool names it: IDNA, no brackets
    address: str


def _endpoint_url(endpoint: str, insecure: bool) -> httpx.URL:
    """The endpoint, parsed, or why it is refused."""
    if len(endpoint) > MAX_ENDPOINT:
        raise AppError(
            "invalid_request", N_("a push endpoint is at most %(most)s characters"), most=MAX_ENDPOINT
        )
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 (raises on a bad port)
        url = httpx.URL(endpoint)
    except (ValueError, httpx.InvalidURL) as error:
        raise AppError("invalid_request", N_("the push endpoint is not a URL")) from error
    schemes = ("https", "http") if insecure else ("https",)
    if parts.scheme not in schemes:
        raise AppError("invalid_request", N_("a push endpoint must be an https:// URL"))
    if not parts.hostname or parts.username is not None or parts.password is not None:
        raise AppError("invalid_request", N_("a push endpoint names a host, without user or password"))
    if parts.fragment:
        raise AppError("invalid_request", N_("a push endpoint has no #fragment"))
    return url


async def check_endpoint(endpoint: str, insecure: bool, resolver: Resolver = resolve) -> Target:
    """Refuses (422) an endpoint the server must not POST to: not https, or a host with any address
    that is not public. Else where to send: the host's first address, resolved this once."""
    url = _endpoint_url(endpoint, insecure)
    host = url.raw_host.decode("ascii")
    try:
        addresses = await resolver(host)
        ips = [ipaddress.ip_address(address.split("%", 1)[0]) for address in addresses]
    except (OSError, TimeoutError, UnicodeError, ValueError) as error:
        raise AppError("invalid_request", N_("the push endpoint's host does not resolve")) from error
    if not ips or not all(is_public(ip, loopback_ok=insecure) for ip in ips):
        raise AppError("invalid_request", N_("a push endpoint must be on a public address"))
    target = httpcore.URL(scheme=url.raw_scheme, host=url.raw_host, port=url.port, target=url.raw_path)
    return Target(target, host, str(ips[0]))


# The target of the attempt under way in this task: the only address its connection may go to.
_PINNED: contextvars.ContextVar[Target | None] = contextvars.ContextVar("push_target", default=None)


class PinnedBackend(httpcore.AsyncNetworkBackend):
    """Connects to the address the attempt checked, never to what the host name resolves to now. The
    connection pool still names the host, so TLS sends it (SNI) and verifies the certificate for it,
    and the request's Host header carries it."""

    def __init__(self, inner: httpcore.AsyncNetworkBackend | None = None) -> None:
        self.inner = inner if inner is not None else httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        target = _PINNED.get()
        if target is None or target.host != host:
            raise httpcore.ConnectError(f"{host} was not checked for this attempt")
        return await self.inner.connect_tcp(
            target.address, port, timeout=timeout, local_address=local_address, socket_options=socket_options
        )

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("push endpoints are reached over TCP only")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


def check_keys(p256dh: str, auth: str) -> None:
    """The browser's keys: an uncompressed P-256 point and a 16-byte secret, base64url."""
    try:
        point = unb64url(p256dh)
        secret = unb64url(auth)
    except ValueError as error:
        raise AppError("invalid_request", N_("keys.p256dh and keys.auth are base64url")) from error
    if len(secret) != 16:
        raise AppError("invalid_request", N_("keys.auth is a 16-byte secret"))
    try:
        if len(point) != 65:
            raise ValueError("not an uncompressed point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError as error:
        raise AppError("invalid_request", N_("keys.p256dh is not a P-256 public key")) from error


# -- the database -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Device:
    id: int
    endpoint: str
    p256dh: str
    auth: str
    # The language its alerts are written in: the page's when alerts were turned on.
    lang: str = SOURCE


class Subscriptions:
    """The subscriptions table, read and written in worker threads by the callers."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add(
        self,
        room_id: str,
        seat: int,
        token_hash: str,
        endpoint: str,
        p256dh: str,
        auth: str,
        lang: str = SOURCE,
    ) -> None:
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
            row.lang = lang
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
            return [Device(row.id, row.endpoint, row.p256dh, row.auth, row.lang or SOURCE) for row in rows]

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
class Cut(Exception):
    """A request still under way after SLOW_AFTER found no slow place free: ended, to be retried."""


# How an attempt may fail that is worth another: the service slow (it is demoted then) or unreachable.
SLOW = (Cut, TimeoutError, httpcore.TimeoutException)
UNREACHABLE = (httpcore.NetworkError, httpcore.ProtocolError, httpcore.UnsupportedProtocol)
# Tried again: those, and a busy service (an attempt returns its answer only for a 429 or 5xx).
RETRIED = retry_if_exception_type(SLOW + UNREACHABLE) | retry_if_result(lambda busy: busy is not None)


@dataclass
class _Service:
    places: asyncio.Semaphore  # PER_ORIGIN
    demoted_turn: asyncio.Lock  # the single place of a demoted service
    users: int = 0  # requests under way or waiting: the entry goes at 0


class Place:
    """The shared place a request holds: a fresh one, or a slow one once it is slow."""

    def __init__(self, places: Places, pool: asyncio.Semaphore) -> None:
        self._places = places
        self.pool = pool

    @property
    def is_slow(self) -> bool:
        return self.pool is self._places.slow

    async def slow(self) -> bool:
        """Gives the fresh place back for a slow one; False when none is free (the request is cut)."""
        if self.is_slow:
            return True
        if self._places.slow.locked():
            return False
        await self._places.slow.acquire()  # free: taken without waiting
        self.pool.release()
        self.pool = self._places.slow
        return True


class Places:
    """Who may have a request under way (the numbers and why: the constants above)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        per_service: int = PER_ORIGIN,
        concurrency: int = CONCURRENCY,
        slow: int = SLOW_PLACES,
    ) -> None:
        self.clock = clock
        self.per_service = per_service
        self.fresh = asyncio.Semaphore(concurrency - slow)
        self.slow = asyncio.Semaphore(slow)
        self._services: dict[str, _Service] = {}
        # Services demoted, each for DEMOTED_FOR seconds on `clock` (event loop only: no lock).
        self._demoted: TTLCache[str, bool] = TTLCache(DEMOTED_MOST, DEMOTED_FOR, timer=lambda: self.clock())

    def demote(self, service: str) -> None:
        self._demoted[service] = True

    def demoted(self, service: str) -> bool:
        return self._demoted.get(service, False)

    @contextlib.asynccontextmanager
    async def hold(self, service: str) -> AsyncIterator[Place]:
        entry = self._services.get(service)
        if entry is None:
            entry = self._services[service] = _Service(asyncio.Semaphore(self.per_service), asyncio.Lock())
        entry.users += 1
        try:
            async with entry.places, contextlib.AsyncExitStack() as demotion:
                pool = self.fresh
                if self.demoted(service):
                    # Slow lately: one request at a time, and never on a fresh place.
                    await demotion.enter_async_context(entry.demoted_turn)
                    pool = self.slow
                await pool.acquire()
                place = Place(self, pool)
                try:
                    yield place
                finally:
                    place.pool.release()
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._services[service]

    def __len__(self) -> int:
        return len(self._services)


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    retry_after: str | None


class PushChannel:
    """Delivers an alert to every device the seat subscribed, each in a task of its own.

    `resolver`, `network` (what opens the TCP connection to the checked address), `tls` (the
    certificates trusted), `clock` (monotonic, for demotions) and `sleep` (the waits between attempts)
    are the real ones unless a test gives its own."""

    name = "push"

    def __init__(
        self,
        db: Database,
        settings: Settings,
        *,
        resolver: Resolver = resolve,
        network: httpcore.AsyncNetworkBackend | None = None,
        tls: ssl.SSLContext | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.subscriptions = Subscriptions(db)
        self.sleep = sleep
        self.settings = settings
        self.insecure = settings.insecure_push_for_tests()
        self.contact = contact(settings)
        self.resolver = resolver
        self._network = PinnedBackend(network)
        self._tls = tls
        self._vapid: Vapid02 | None = None
        self._pool: httpcore.AsyncConnectionPool | None = None
        self.places = Places(clock)
        # The signed VAPID header per push service origin, reused until an hour before it expires (wall
        # clock: the header's "exp" is one). Event loop only: no lock.
        self._signed: TTLCache[str, str] = TTLCache(SIGNED_MOST, SIGNED_REUSED, timer=time.time)
        # The rooms where a device subscribed, as this process knows them (app/alerts/interest.py).
        self._interest = Interest(self.subscriptions.rooms, self.subscriptions.any_in)

    async def start(self) -> None:
        self._vapid = await run_in_threadpool(load_vapid, self.settings, self.subscriptions)
        # httpcore's pool rather than an httpx client: only it takes a network backend, and that is
        # where the connection is held to the checked address. No proxy from the environment.
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=self._tls,
            max_connections=CONCURRENCY,
            max_keepalive_connections=8,
            network_backend=self._network,
        )

    async def stop(self) -> None:
        if self._pool is not None:
            await self._pool.aclose()
            self._pool = None

    @property
    def public_key(self) -> str:
        assert self._vapid is not None, "the push channel has not started"
        return public_key_of(self._vapid)

    async def check(self, endpoint: str, p256dh: str, auth: str) -> None:
        check_keys(p256dh, auth)
        await check_endpoint(endpoint, self.insecure, self.resolver)

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
        bodies: dict[str, bytes] = {}
        for lang in {device.lang for device in devices}:
            with speaking(lang):
                bodies[lang] = json.dumps(payload(alert), separators=(",", ":")).encode()
        results = await asyncio.gather(
            *(self._send(device, alert, bodies[device.lang]) for device in devices), return_exceptions=True
        )
        for device, result in zip(devices, results, strict=True):
            if isinstance(result, BaseException):
                log.warning("push to %s failed: %r", _origin(device.endpoint), result)

    def _authorization(self, endpoint: str) -> str:
        origin = _origin(endpoint)
        cached = self._signed.get(origin)
        if cached is not None:
            return cached
        assert self._vapid is not None
        signed = self._vapid.sign({"aud": origin, "exp": int(time.time()) + SIGNED_FOR, "sub": self.contact})
        header = self._signed[origin] = str(signed["Authorization"])
        return header

    async def _send(self, device: Device, alert: Alert, body: bytes) -> None:
        encrypted = await run_in_threadpool(encrypt, body, device.p256dh, device.auth)
        headers = [
            ("TTL", str(TTL)),
            ("Content-Encoding", "aes128gcm"),
            ("Content-Type", "application/octet-stream"),
            ("Topic", topic(alert.room_id, alert.seat)),
            ("Urgency", "high" if alert.event in ("turn", "clock", "seat_request") else "normal"),
            ("Authorization", self._authorization(device.endpoint)),
        ]
        origin = _origin(device.endpoint)

        def given_up(state: RetryCallState) -> None:
            log.warning("push to %s given up after %d attempt(s)", origin, state.attempt_number)

        # A fresh one per send: tenacity keeps a Retrying's state per thread, not per task, so sends
        # running side by side on the event loop must not share one.
        retrying = AsyncRetrying(
            sleep=self.sleep,
            retry=RETRIED,
            wait=_wait,
            stop=_stop,
            retry_error_callback=given_up,
        )
        await retrying(self._send_once, device, origin, encrypted, headers)

    async def _send_once(
        self, device: Device, origin: str, encrypted: bytes, headers: list[tuple[str, str]]
    ) -> Answer | None:
        """One attempt. None when it is over (delivered, dropped or refused); the answer when the
        service is busy (429, 5xx); raises when the service was slow or unreachable."""
        try:
            # Resolved and checked for this attempt, and connected to what was checked.
            target = await check_endpoint(device.endpoint, self.insecure, self.resolver)
        except AppError:
            log.warning("push endpoint at %s no longer public: dropped", origin)
            await run_in_threadpool(self.subscriptions.drop, [device.id])
            return None
        service = service_of(device.endpoint)
        try:
            # Only the request holds places (its service's, then a shared one), not the waits between.
            async with self.places.hold(service) as place:
                answer = await self._attempt(place, target, encrypted, headers)
        except SLOW as error:
            # Slow rather than down: the service keeps one place for a while, so it holds nobody's.
            self.places.demote(service)
            log.info("push to %s: %s, the service demoted", origin, type(error).__name__)
            raise
        except UNREACHABLE as error:
            log.info("push to %s: %s", origin, type(error).__name__)
            raise
        status = answer.status
        if status in (200, 201, 202, 204):
            return None
        if status in (404, 410):
            # The browser unsubscribed or the subscription expired: forget the device.
            await run_in_threadpool(self.subscriptions.drop, [device.id])
            return None
        if status != 429 and status < 500:
            log.warning("push to %s refused with %d", origin, status)
            return None
        return answer

    async def _attempt(
        self, place: Place, target: Target, content: bytes, headers: list[tuple[str, str]]
    ) -> Answer:
        """One POST within DEADLINE; still under way after SLOW_AFTER, it moves to a slow place or,
        with none free, is cut (Cut)."""
        request = asyncio.ensure_future(self._post(target, content, headers))
        try:
            await asyncio.wait({request}, timeout=SLOW_AFTER)
            if not request.done() and not await place.slow():
                raise Cut(f"still under way after {SLOW_AFTER} s, and no slow place free")
            return await request
        finally:
            if not request.done():
                request.cancel()
                await asyncio.wait({request})

    async def _post(self, target: Target, content: bytes, headers: list[tuple[str, str]]) -> Answer:
        assert self._pool is not None, "the push channel has not started"
        # Set in this request's own task: PinnedBackend connects this request to the checked address.
        _PINNED.set(target)
        timeouts = {"connect": TIMEOUT, "read": TIMEOUT, "write": TIMEOUT, "pool": DEADLINE}
        async with (
            asyncio.timeout(DEADLINE),
            self._pool.stream(
                "POST", target.url, headers=headers, content=content, extensions={"timeout": timeouts}
            ) as response,
        ):
            retry_after = next(
                (
                    value.decode("latin-1")
                    for name, value in response.headers
                    if name.lower() == b"retry-after"
                ),
                None,
            )
            read = 0
            # The body says nothing we use; read (a little) so the connection can serve the next push.
            body = cast(AsyncGenerator[bytes, None], response.aiter_stream())
            async with contextlib.aclosing(body) as chunks:
                async for chunk in chunks:
                    read += len(chunk)
                    if read > MAX_ANSWER:
                        break  # closing the response unread drops the connection
            return Answer(response.status, retry_after)


def _wait(state: RetryCallState) -> float:
    """Before the next attempt: BACKOFF's wait, or longer if the busy service asked (Retry-After)."""
    failed = state.attempt_number
    backoff = BACKOFF[failed - 1] if failed <= len(BACKOFF) else 0.0
    asked = _asked(state)
    return backoff if asked is None else max(asked, backoff)


def _stop(state: RetryCallState) -> bool:
    """After the last of BACKOFF's waits, or when the busy service asked for a wait past MAX_RETRY_AFTER
    (the alert is given up: the next one will come)."""
    asked = _asked(state)
    return state.attempt_number > len(BACKOFF) or (asked is not None and asked > MAX_RETRY_AFTER)


def _asked(state: RetryCallState) -> float | None:
    """The seconds the busy service asked to wait (a Retry-After in seconds; not a date), if it did."""
    outcome = state.outcome
    if outcome is None or outcome.failed:
        return None
    busy: Answer = outcome.result()
    header = busy.retry_after
    if header is None or not (header.strip().isascii() and header.strip().isdigit()):
        return None
    return float(header.strip())


def _origin(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


def service_of(endpoint: str) -> str:
    """The push service an endpoint belongs to: scheme, host and port (the default port spelled out)."""
    parts = urlsplit(endpoint)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"
