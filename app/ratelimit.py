"""Token buckets that answer 429 rate_limited to clients sending far faster than any player, and the
per-address quotas on making rooms and bots.

Who is counted: every request is charged to the client's address, which is the proxy's word for it
only when the proxy is trusted (MOTABLE_TRUSTED_PROXIES); an IPv6 client is counted by its /64, the
block one home or phone is given. A request passes when its address has a token left. When the
address is out, a request carrying a seat's token (verified against the database once, then
remembered) may still pass on headroom: a token from its room's bucket, shared by every seat of that
room, and one from the address's own headroom bucket. The first keeps a table playing when several
of its players share one address (a family behind one router); the second caps what all of an
address's rooms give it together, so minting seats in many rooms adds at most one room's worth of
requests, never one per room. A made-up token is never a seat and gets no headroom; checking an
unknown token costs a database read, paid from a bucket of the address's own. Reads, writes and
WebSocket connects are all counted; static files and health checks are not.

Quotas (rooms made and bots added per hour) are buckets too, charged by the routes that make them
(`spend`). With Redis configured every bucket lives there, shared by every process; while Redis is
unreachable each process counts on its own."""

# Kept hand-written because `limits` (checked: 5.8, its fixed, moving and sliding-window-counter
# strategies over memory and Redis, sync and async) cannot say what clients are told here:
# - Refill. These are token buckets: `burst` at once, then one more every 1/rate seconds. `limits`
#   counts hits in windows: after a burst the next hit waits for the window to move (a quota of 3 rooms
#   an hour answers "in about 60 minutes", not the 20 test_limits.py and the 429's message say), and a
#   window is whole seconds, so 3 at 2 a second ("3 per 1.5 s", test_ratelimit.py) cannot be written.
# - All or nothing. A seat's headroom takes from its room's bucket and its address's in one atomic step
#   (one Lua script in Redis); `limits` hits one key per call, so two processes could each pass the
#   first and be refused the second, spending a token for nothing.
# - Giving back. A quota token is returned when the room could not be made (`spend`, cost -1); `limits`
#   takes positive whole costs and can only clear a key.
# - One clock. The script reads Redis's TIME, so servers on machines whose clocks drift agree; `limits`'
#   moving window (the only one without a fixed window's double burst) is given each client's time.time().
# - Bounded memory. The local buckets are an LRU of 50,000 keys; `limits`' memory storage keeps every
#   key until it expires, however many addresses a flood brings.
# Per-/64 keys and the fallback while Redis is down would carry over (they are ours either way); the
# Retry-After would not, being computed from the window instead of the refill.

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import re
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

import redis.asyncio as aioredis
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.config import Settings
from app.errors import AppError, error_body
from app.i18n import N_plural, gettext
from app.roomids import is_room_id
from app.services.cache import Lru
from app.services.seats import Seats

log = logging.getLogger(__name__)

TRY_AGAIN_LATER = 1013
# Not counted: files any page loads, and what load balancers poll.
_FREE = ("/static/", "/healthz", "/readyz")
_ROOM = re.compile(r"^/(?:api|ws)/rooms/([^/]+)")

Spend = tuple[str, float, int]
"""One bucket to take from: its key, its refill per second and its size (burst)."""


class Buckets:
    """Token buckets in this process, by key: `burst` requests at once, refilled at `per_second`.
    `allow` uses the sizes given here; `take` names the sizes of each bucket it takes from."""

    def __init__(self, per_second: float, burst: int, max_keys: int = 50_000) -> None:
        self.per_second = per_second
        self.burst = burst
        self.max_keys = max_keys
        # The longest-idle clients are forgotten first.
        self._buckets: Lru[str, tuple[float, float]] = Lru(max_keys)

    def allow(self, key: str, now: float | None = None) -> bool:
        return self.take([(key, self.per_second, self.burst)], now=now) == 0.0

    def take(self, spends: Sequence[Spend], cost: float = 1.0, now: float | None = None) -> float:
        """Take `cost` tokens from every bucket named, or from none of them. Returns 0.0 when taken,
        else the seconds until all of them would hold enough. A bucket whose rate is 0 or less is
        unlimited; a negative cost gives tokens back (up to each bucket's size) and always succeeds."""
        now = time.monotonic() if now is None else now
        live = [spend for spend in spends if spend[1] > 0]
        levels = []
        wait = 0.0
        for key, rate, burst in live:
            tokens, stamp = self._buckets.get(key) or (float(burst), now)
            level = min(float(burst), tokens + max(0.0, now - stamp) * rate)
            levels.append(level)
            if level < cost:
                wait = max(wait, (cost - level) / rate)
        for (key, _rate, burst), level in zip(live, levels, strict=True):
            self._buckets.put(key, (min(float(burst), level - cost) if wait == 0.0 else level, now))
        return wait


# Buckets in Redis hashes: tokens and the time they were counted, refilled from Redis's own clock so
# processes on different machines agree. All or nothing, and atomic: Redis runs a script alone.
# KEYS are the buckets; ARGV[1] the cost, then each bucket's rate and size in KEYS' order. Returns
# the wait in seconds as text ("0": taken), since Redis would cut a Lua number to an integer.
_TAKE = """
local cost = tonumber(ARGV[1])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local levels = {}
local wait = 0
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[2 * i])
  local burst = tonumber(ARGV[2 * i + 1])
  local stored = redis.call('HMGET', key, 'tokens', 'stamp')
  local tokens = tonumber(stored[1]) or burst
  local stamp = tonumber(stored[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
  levels[i] = tokens
  if tokens < cost then
    wait = math.max(wait, (cost - tokens) / rate)
  end
end
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[2 * i])
  local burst = tonumber(ARGV[2 * i + 1])
  local tokens = levels[i]
  if wait == 0 then
    tokens = math.min(burst, tokens - cost)
  end
  redis.call('HSET', key, 'tokens', tostring(tokens), 'stamp', tostring(now))
  redis.call('EXPIRE', key, math.ceil(burst / rate) + 1)
end
return tostring(wait)
"""


class SharedBuckets:
    """Buckets kept in Redis for every process; local ones while Redis does not answer."""

    # After Redis fails, this process counts alone for this long before asking Redis again.
    PAUSE = 5.0

    def __init__(self, url: str, per_second: float, burst: int, prefix: str) -> None:
        self.per_second = per_second
        self.burst = burst
        self.prefix = prefix
        self.local = Buckets(per_second, burst)
        self._redis = aioredis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        self._take: Any = self._redis.register_script(_TAKE)
        self._paused_until = 0.0

    async def allow(self, key: str) -> bool:
        return await self.take([(key, self.per_second, self.burst)]) == 0.0

    async def take(self, spends: Sequence[Spend], cost: float = 1.0) -> float:
        live = [spend for spend in spends if spend[1] > 0]
        if not live:
            return 0.0
        if time.monotonic() >= self._paused_until:
            try:
                args: list[float] = [cost]
                for _key, rate, burst in live:
                    args += [rate, burst]
                wait = await self._take(keys=[f"{self.prefix}:rate:{key}" for key, _r, _b in live], args=args)
                return float(wait)
            except (aioredis.RedisError, OSError) as error:
                self._paused_until = time.monotonic() + self.PAUSE
                log.warning("rate limits fall back to this process alone: Redis failed (%s)", error)
        return self.local.take(live, cost)

    async def close(self) -> None:
        await self._redis.aclose()


class LocalBuckets:
    """The same interface over this process's own buckets."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.local = Buckets(per_second, burst)

    async def allow(self, key: str) -> bool:
        return self.local.allow(key)

    async def take(self, spends: Sequence[Spend], cost: float = 1.0) -> float:
        return self.local.take(spends, cost)

    async def close(self) -> None:
        return None


def _token(scope: Scope) -> str | None:
    for name, value in scope.get("headers") or ():
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            return token.strip() or None if scheme.lower() == "bearer" else None
    if scope["type"] == "websocket":
        tokens = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
        return tokens[0] if tokens else None
    return None


def client_address(scope: Scope) -> str:
    """The client's address: uvicorn has put the trusted proxy's X-Forwarded-For there already."""
    client = scope.get("client")
    return client[0] if client else "unknown"


def address_key(address: str) -> str:
    """What the limits count one client by: an IPv4 address as it is, an IPv6 one by its /64 (the
    block a home or a phone is given: counting single IPv6 addresses would let one client count as
    billions), an IPv4 address mapped into IPv6 as the IPv4 address. Anything else as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def address_digest(address: str) -> str:
    """The sha256 hex of the client's key (`address_key`): stored as a room's creator, never the address."""
    return hashlib.sha256(address_key(address).encode()).hexdigest()


def retry_after(wait: float) -> int:
    """Whole seconds for a Retry-After header: at least 1."""
    return max(1, math.ceil(wait))


class RateLimit:
    """Counts every request and socket connect except static files and health checks (see above)."""

    def __init__(
        self, app: ASGIApp, settings: Settings, seats: Seats, buckets: SharedBuckets | LocalBuckets
    ) -> None:
        self.app = app
        # The process's seat tokens, forgotten when a seat's token is revoked: a revoked token gets no
        # headroom from the moment its room is forgotten.
        self.seats = seats
        self.buckets = buckets
        self.rate = (float(settings.rate_per_second), int(settings.rate_burst))
        self.headroom = (float(settings.seat_rate_per_second), int(settings.seat_rate_burst))

    async def _seat(self, scope: Scope, address: str) -> str | None:
        """The room whose seat this request's token holds, or None (no token, not a seat, or the
        address may not have another token checked just now)."""
        token = _token(scope)
        room = _ROOM.match(scope["path"])
        if token is None or room is None or not is_room_id(room.group(1)):
            return None
        room_id = room.group(1)
        if self.seats.known_seat(room_id, token) is not None:
            return room_id
        # Checking a token costs a database read: an address pays for it from a bucket of its own.
        if await self.buckets.take([("v:" + address, *self.rate)]) > 0:
            return None
        try:
            seat = await run_in_threadpool(self.seats.seat_of, room_id, token)
        except AppError:
            seat = None
        return room_id if seat is not None else None

    async def wait(self, scope: Scope) -> float:
        """0.0 when this request may pass, else the seconds until it would (see the module's doc)."""
        if self.rate[0] <= 0:
            return 0.0
        address = address_key(client_address(scope))
        wait = await self.buckets.take([("a:" + address, *self.rate)])
        if wait == 0.0 or self.headroom[0] <= 0:
            return wait
        room_id = await self._seat(scope, address)
        if room_id is None:
            return wait
        extra = await self.buckets.take([("r:" + room_id, *self.headroom), ("h:" + address, *self.headroom)])
        return 0.0 if extra == 0.0 else min(wait, extra)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope["path"].startswith(_FREE):
            await self.app(scope, receive, send)
            return
        wait = await self.wait(scope)
        if wait == 0.0:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER, "reason": "too many connections"})
            return
        response = JSONResponse(
            error_body("rate_limited", gettext("too many requests; slow down and retry")),
            status_code=429,
            headers={"Retry-After": str(retry_after(wait))},
        )
        await response(scope, receive, send)


def make_buckets(settings: Settings) -> SharedBuckets | LocalBuckets:
    if settings.redis_url:
        return SharedBuckets(
            settings.redis_url, settings.rate_per_second, settings.rate_burst, settings.redis_prefix
        )
    return LocalBuckets(settings.rate_per_second, settings.rate_burst)


# -- quotas ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Quota:
    """So many of something per hour for each client address (0: no quota)."""

    key: str
    per_hour: int
    # What is counted ("rooms", "bots") and how it is made, in words; the 429's message is `spend`'s.
    what: str
    done: str


def quotas(settings: Settings) -> dict[str, Quota]:
    return {
        "rooms": Quota("q:rooms", int(settings.rooms_per_hour), "rooms", "made"),
        "bots": Quota("q:bots", int(settings.bots_per_hour), "bots", "added"),
    }


class Spent:
    """A quota token taken for one request: given back unless `keep` stays True when it ends."""

    def __init__(self) -> None:
        self.keep = True


@asynccontextmanager
async def spend(connection: HTTPConnection, kind: str) -> AsyncIterator[Spent]:
    """Charge this client's address one of its `kind` quota (rooms, bots) for what the block makes.
    Refused: 429 rate_limited with Retry-After, before anything is made. When the block fails (the
    room could not be made, say) or sets `keep = False`, the token is given back: only what was made
    counts."""
    app_state = connection.app.state
    quota = quotas(app_state.runtime.settings)[kind]
    buckets: SharedBuckets | LocalBuckets = app_state.buckets
    if quota.per_hour <= 0:
        yield Spent()
        return
    spends = [
        (
            f"{quota.key}:{address_key(client_address(connection.scope))}",
            quota.per_hour / 3600,
            quota.per_hour,
        )
    ]
    wait = await buckets.take(spends)
    if wait > 0:
        minutes = max(1, math.ceil(wait / 60))
        if quota.what == "bots":
            refusal = N_plural(
                "this address has added its %(most)s bots for this hour; "
                "the next one can be added in about %(num)s minute",
                "this address has added its %(most)s bots for this hour; "
                "the next one can be added in about %(num)s minutes",
                minutes,
                most=quota.per_hour,
            )
        else:
            refusal = N_plural(
                "this address has made its %(most)s rooms for this hour; "
                "the next one can be made in about %(num)s minute",
                "this address has made its %(most)s rooms for this hour; "
                "the next one can be made in about %(num)s minutes",
                minutes,
                most=quota.per_hour,
            )
        raise AppError("rate_limited", refusal, retry_after=retry_after(wait))
    spent = Spent()
    try:
        yield spent
    except BaseException:
        await buckets.take(spends, cost=-1.0)
        raise
    if not spent.keep:
        await buckets.take(spends, cost=-1.0)
