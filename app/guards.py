"""ASGI guards that refuse bad requests before any work: paths and query strings no database could
store, made-up room ids; and the browser security headers on every answer."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_to_bytes

from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import error_body
from app.i18n import N_, gettext
from app.roomids import is_room_id

# Characters no database here stores as text: NUL (PostgreSQL refuses it in text and JSON) and lone
# surrogates (they have no UTF-8 form, so neither driver can send them).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")

# Longer than any id the server makes (room ids are 12 characters, request ids 16) or any file name
# it serves; a longer segment names nothing, so it is refused before it reaches a query.
MAX_SEGMENT = 200

# Paths whose first segment after the prefix is a room id: the JSON API, the socket and the pages.
_ROOM_PATH = re.compile(r"^/(api/rooms|ws/rooms|r)/([^/]+)")
# The pages a person opens (a room and its replay, a game's rules): their not-found answer is a page.
_PAGE_PATH = re.compile(r"^/(r|rules)/")


def _browser(scope: Scope) -> bool:
    """A person's browser opening a page (not the API, a socket or a script): it gets HTML errors."""
    from starlette.requests import Request

    from app.error_pages import wants_html

    return wants_html(Request(scope))


def storable(text: str) -> bool:
    """Whether a database could keep `text` as it is."""
    return _UNSTORABLE.search(text) is None


def storable_json(value: Any) -> bool:
    """Whether every string and key in a decoded JSON value is `storable` (walked without recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not storable(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _decoded(raw: bytes) -> str | None:
    """Percent-decoded `raw` as UTF-8, or None when the bytes it stands for are not UTF-8."""
    try:
        return unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _path_ok(scope: Scope) -> bool:
    raw: bytes | None = scope.get("raw_path")
    # uvicorn decodes the path leniently (bad bytes become U+FFFD): judge the bytes the client sent.
    path = _decoded(raw) if raw is not None else scope["path"]
    if path is None or not storable(path) or not storable(scope["path"]):
        return False
    return all(len(segment) <= MAX_SEGMENT for segment in path.split("/"))


def _query_ok(scope: Scope) -> bool:
    query: bytes = scope.get("query_string", b"")
    if not query:
        return True
    decoded = _decoded(query.replace(b"+", b" "))
    return decoded is not None and storable(decoded)


class RoomIdGuard:
    """Refuses, before any work and on every route, what could never name anything or reach the database:

    - a path with NUL, a lone surrogate, bytes that are not UTF-8 once percent-decoded, or a segment
      longer than MAX_SEGMENT: 404 not_found;
    - a room id (`/api/rooms/{id}`, `/ws/rooms/{id}`, `/r/{id}`) that is not a room id's shape: 404;
    - a query string holding such characters: 422 invalid_request.

    Pages answer their HTML not-found page (`page_not_found`), everything else the contract's JSON
    error, and a socket is accepted and then closed with 1008 (as for a room that does not exist)."""

    def __init__(self, app: ASGIApp, page_not_found: Callable[[Scope], Response] | None = None) -> None:
        self.app = app
        self.page_not_found = page_not_found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not _path_ok(scope):
            await self._refuse(scope, receive, send, 404, "not_found", N_("there is nothing at this address"))
            return
        room = _ROOM_PATH.match(scope["path"])
        if room is not None and not is_room_id(room.group(2)):
            await self._refuse(scope, receive, send, 404, "not_found", N_("no such room"))
            return
        if not _query_ok(scope):
            message = N_("the query string may hold only UTF-8 text without NUL characters")
            await self._refuse(scope, receive, send, 422, "invalid_request", message)
            return
        await self.app(scope, receive, send)

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, status: int, code: str, message: str
    ) -> None:
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            # A close reason: at most 123 bytes, read by no player; English.
            await send({"type": "websocket.close", "code": 1008, "reason": message})
            return
        response: Response
        path: str = scope["path"]
        if status == 404 and self.page_not_found is not None and (_PAGE_PATH.match(path) or _browser(scope)):
            response = self.page_not_found(scope)
        else:
            response = JSONResponse(error_body(code, gettext(message)), status_code=status)
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
