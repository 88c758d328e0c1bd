"""How pages and static files travel: compressed, cached, and named by content.

- `static_url(path)` gives `/static/<path>?v=<content hash>` for templates (`{{ static('js/room.js') }}`),
  so a changed file gets a new address and an unchanged one can be cached for good.
- Static files asked for with `?v=` are cached for a year as immutable; without it (the modules an
  ES module imports by relative path) browsers revalidate them with the ETag each time (`no-cache`).
- Responses are gzip-compressed when the browser accepts it (pages, JSON, CSS, JS, SVG).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"


@lru_cache(maxsize=512)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256((STATIC_DIR / path).read_bytes()).hexdigest()[:12]


def static_url(path: str) -> str:
    """The address of a static file with its content hash, for templates."""
    file = (STATIC_DIR / path).resolve()
    if not file.is_relative_to(STATIC_DIR) or not file.is_file():
        raise FileNotFoundError(f"no static file {path}")
    stat = file.stat()
    return f"/static/{path}?v={_digest(path, stat.st_mtime_ns, stat.st_size)}"


class StaticCache:
    """Sets Cache-Control on /static/ answers: immutable when versioned, revalidated otherwise."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)
            return
        versioned = b"v=" in scope.get("query_string", b"")

        async def with_cache(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (200, 304):
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                headers.append((b"cache-control", IMMUTABLE if versioned else REVALIDATE))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_cache)


def install(app: FastAPI) -> None:
    """Compression and cache headers for every answer of `app`."""
    app.add_middleware(StaticCache)
    app.add_middleware(GZipMiddleware, minimum_size=512, compresslevel=6)
