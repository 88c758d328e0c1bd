"""ASGI guards that refuse bad requests before any work: malformed room ids (and, below, bad JSON)."""

from __future__ import annotations

import re

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import error_body
from app.roomids import is_room_id

# The JSON API's and the socket's room paths; the room page checks its own id (it answers HTML).
_ROOM_PATH = re.compile(r"^/(?:api|ws)/rooms/([^/]+)")


class RoomIdGuard:
    """A room id that cannot exist answers 404 not_found (a socket: close 1008) without touching the
    database: a NUL byte or a 3,000-character id never reaches a query."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            found = _ROOM_PATH.match(scope["path"])
            if found is not None and not is_room_id(found.group(1)):
                await self._refuse(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            # As for a room that does not exist: accepted, then closed with 1008 (CONTRACT.md).
            await receive()
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1008, "reason": "no such room"})
            return
        response = JSONResponse(error_body("not_found", "no such room"), status_code=404)
        await response(scope, receive, send)


# Scripts and styles only from our own files (the templates have no inline script or handler); the
# favicon is a data: URL; sockets and fetches go to this origin; no page may frame ours.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeaders:
    """Adds the browser security headers to every HTTP response (pages, API answers, errors, files)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)
