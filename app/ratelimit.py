"""Token buckets that answer 429 rate_limited to clients sending far faster than any player."""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.errors import error_body


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


def client_key(scope: Scope) -> str:
    """The bearer token's hash when there is one (a seat), else the client address."""
    auth = dict(scope.get("headers") or []).get(b"authorization")
    if auth:
        return "t:" + hashlib.sha256(auth).hexdigest()
    client = scope.get("client")
    return "a:" + (client[0] if client else "unknown")


class RateLimit:
    """Limits state-changing HTTP requests; reads and the WebSocket handshake pass."""

    def __init__(self, app: ASGIApp, buckets: Buckets) -> None:
        self.app = app
        self.buckets = buckets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        writes = scope["type"] == "http" and scope["method"] not in ("GET", "HEAD", "OPTIONS")
        if writes and not self.buckets.allow(client_key(scope)):
            response = JSONResponse(
                error_body("rate_limited", "too many requests; slow down and retry"),
                status_code=429,
                headers={"Retry-After": "1"},
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
