"""Token buckets that answer 429 rate_limited to clients sending far faster than any player.

Who is counted: a request carrying a seat's token (verified against the database once, then
remembered) is counted for that seat; every other request for the client's address, which is the
proxy's word for it only when the proxy is trusted (MOTABLE_TRUSTED_PROXIES). A made-up token is
never a seat, so it is counted for the address like no token at all, and checking it costs the
address a token of its own. Reads, writes and WebSocket connects are all counted; static files and
health checks are not. With Redis configured the buckets live there, shared by every process; while
Redis is unreachable each process counts on its own."""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

import redis.asyncio as aioredis
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.errors import AppError, error_body
from app.roomids import is_room_id

if TYPE_CHECKING:
    from app.runtime import Runtime

log = logging.getLogger(__name__)

TRY_AGAIN_LATER = 1013
# Not counted: files any page loads, and what load balancers poll.
_FREE = ("/static/", "/healthz", "/readyz")
_ROOM = re.compile(r"^/(?:api|ws)/rooms/([^/]+)")


class Buckets:
    """One token bucket per key: `burst` requests at once, refilled at `per_second`."""

    def __init__(self, per_second: float, burst: int, max_keys: int = 50_000) -> None:
        self.per_second = per_second
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        if self.per_second <= 0:
            return True
        now = time.monotonic() if now is None else now
        tokens, stamp = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - stamp) * self.per_second)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self.max_keys:  # forget the longest-idle clients first
            self._buckets.popitem(last=False)
        return allowed


# One bucket in a Redis hash: tokens and the time they were counted, refilled from Redis's own clock
# so processes on different machines agree. Atomic: Redis runs a script alone.
_TAKE = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local stored = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(stored[1]) or burst
local stamp = tonumber(stored[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return allowed
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
        if self.per_second <= 0:
            return True
        if time.monotonic() >= self._paused_until:
            try:
                allowed = await self._take(
                    keys=[f"{self.prefix}:rate:{key}"], args=[self.per_second, self.burst]
                )
                return bool(allowed)
            except (aioredis.RedisError, OSError) as error:
                self._paused_until = time.monotonic() + self.PAUSE
                log.warning("rate limits fall back to this process alone: Redis failed (%s)", error)
        return self.local.allow(key)

    async def close(self) -> None:
        await self._redis.aclose()


class LocalBuckets:
    """The same interface over this process's own buckets."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.local = Buckets(per_second, burst)

    async def allow(self, key: str) -> bool:
        return self.local.allow(key)

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


class SeatCache:
    """Tokens already verified to hold a seat, by hash: (room id, token hash) -> seat."""

    def __init__(self, size: int = 50_000) -> None:
        self.size = size
        self._seats: OrderedDict[tuple[str, str], int] = OrderedDict()

    def get(self, room_id: str, token_hash: str) -> int | None:
        seat = self._seats.get((room_id, token_hash))
        if seat is not None:
            self._seats.move_to_end((room_id, token_hash))
        return seat

    def put(self, room_id: str, token_hash: str, seat: int) -> None:
        self._seats[(room_id, token_hash)] = seat
        while len(self._seats) > self.size:
            self._seats.popitem(last=False)


class RateLimit:
    """Counts every request and socket connect except static files and health checks (see above)."""

    def __init__(self, app: ASGIApp, runtime: Runtime, buckets: SharedBuckets | LocalBuckets) -> None:
        self.app = app
        self.runtime = runtime
        self.buckets = buckets
        self.seats = SeatCache()

    async def _key(self, scope: Scope) -> str | None:
        """The bucket to count this request in, or None when checking its token was already refused."""
        address = "a:" + client_address(scope)
        token = _token(scope)
        room = _ROOM.match(scope["path"])
        if token is None or room is None or not is_room_id(room.group(1)):
            return address
        room_id = room.group(1)
        token_hash = hashlib.sha256(token.encode()).hexdigest()
        seat = self.seats.get(room_id, token_hash)
        if seat is None:
            # Checking a token costs a database read: an address pays for it from a bucket of its own.
            if not await self.buckets.allow("v:" + address):
                return None
            try:
                seat = await run_in_threadpool(self.runtime.services.seat_of, room_id, token)
            except AppError:
                seat = None
            if seat is None:
                return address
            self.seats.put(room_id, token_hash, seat)
        return f"s:{room_id}:{seat}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope["path"].startswith(_FREE):
            await self.app(scope, receive, send)
            return
        key = await self._key(scope)
        if key is not None and await self.buckets.allow(key):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER, "reason": "too many connections"})
            return
        response = JSONResponse(
            error_body("rate_limited", "too many requests; slow down and retry"),
            status_code=429,
            headers={"Retry-After": "1"},
        )
        await response(scope, receive, send)


def make_buckets(settings: Any) -> SharedBuckets | LocalBuckets:
    if settings.redis_url:
        return SharedBuckets(
            settings.redis_url, settings.rate_per_second, settings.rate_burst, settings.redis_prefix
        )
    return LocalBuckets(settings.rate_per_second, settings.rate_burst)
