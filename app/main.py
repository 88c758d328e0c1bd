"""The FastAPI application: routers, error bodies, body limits and the process runtime."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import delivery, i18n, jsonsafe
from app.clock import SYSTEM_CLOCK, Clock
from app.config import Settings
from app.db import UNAVAILABLE_RETRY_AFTER, unavailable
from app.error_pages import html_error, wants_html
from app.errors import CODE_BY_STATUS, AppError, error_body
from app.guards import RoomIdGuard, SecurityHeaders, storable_json
from app.i18n import N_, Words, gettext, word
from app.logs import redact_tokens
from app.ratelimit import RateLimit, make_buckets
from app.retention import prune_on_schedule
from app.routes import (
    alerts,
    api,
    health,
    mygames,
    pages,
    passkeys,
    people,
    push,
    replay,
    screens,
    takeback,
    ws,
)
from app.runtime import Runtime
from app.serving import ConnectionLimits
from app.tasks import cancel_and_wait
from engines.core import registry

# A socket's close code for "try again later" (RFC 6455): clients reconnect after it.
TRY_AGAIN_LATER = 1013

# Where uvicorn logged unexpected failures before CatchAll answered them: operators keep one place to look.
log = logging.getLogger("uvicorn.error")

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"


class BodyLimit:
    """Refuses request bodies over `max_bytes` with 413 too_large, announced or streamed, and requests
    with more than `max_headers` header lines with 431 too_large."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_headers: int, max_json_depth: int) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_headers = max_headers
        self.max_json_depth = max_json_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if len(scope["headers"]) > self.max_headers:
            message = N_("a request may have at most %(most)s header lines")
            if scope["type"] == "websocket":
                # A close reason is at most 123 bytes and no player reads it: English.
                reason = message % {"most": self.max_headers}
                await send({"type": "websocket.close", "code": 1008, "reason": reason})
                return
            await _error_response(431, "too_large", gettext(message, most=self.max_headers))(
                scope, receive, send
            )
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            response = _error_response(
                413, "too_large", gettext("a request body may be at most %(most)s bytes", most=self.max_bytes)
            )
            await response(scope, receive, send)
            return
        # DELETE too: some take a JSON body (a push subscription's endpoint).
        if scope["method"] in ("POST", "PUT", "PATCH", "DELETE") and scope["path"].startswith("/api/"):
            await self._checked_json(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                # FastAPI passes an HTTPException from body reading through to our handler.
                raise HTTPException(
                    413, gettext("a request body may be at most %(most)s bytes", most=self.max_bytes)
                )
            return message

        await self.app(scope, limited, send)

    async def _checked_json(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Reads the whole (bounded) body first: a body the API cannot take as JSON is refused with
        422 invalid_request (bad UTF-8, nesting, huge integers, NUL) before any handler runs."""
        chunks: list[bytes] = []
        seen = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_bytes:
                response = _error_response(
                    413,
                    "too_large",
                    gettext("a request body may be at most %(most)s bytes", most=self.max_bytes),
                )
                await response(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if body.strip():
            try:
                value = jsonsafe.loads(body, self.max_json_depth)
            except ValueError as error:
                # jsonsafe's Words, in the reader's language.
                await _error_response(422, "invalid_request", word(error.args[0]))(scope, receive, send)
                return
            if not storable_json(value):
                # A \ud800 escape decodes to a lone surrogate, which no database can store.
                problem = gettext("text may not contain unpaired surrogates (\\ud800-\\udfff)")
                await _error_response(422, "invalid_request", problem)(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=status)


async def _app_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AppError)
    response = _error_response(exc.status, exc.code, exc.message)
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = "; ".join(
        f"{'.'.join(str(p) for p in err.get('loc', ())) or 'body'}: {_problem(err)}" for err in exc.errors()
    )
    return _error_response(422, "invalid_request", problems or gettext("invalid request"))


def _problem(err: dict[str, Any]) -> str:
    """Pydantic's words for one field, in English; ours (a name's or a message's check, Words raised
    as a ValueError) in the reader's language."""
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, ValueError) and cause.args and isinstance(cause.args[0], Words):
        worded = word(cause.args[0])
        if worded != str(cause.args[0]):
            return worded
    return str(err.get("msg", "invalid"))


def _unavailable_response() -> JSONResponse:
    response = _error_response(
        503, "unavailable", gettext("the database cannot be reached just now; try again in a few seconds")
    )
    response.headers["Retry-After"] = str(UNAVAILABLE_RETRY_AFTER)
    return response


class CatchAll:
    """Answers an unexpected failure with 500 internal_error and keeps the connection; a database
    that cannot be reached with 503 unavailable and Retry-After (a socket: close 1013, try again later).

    Starlette's own last-resort handler re-raises after answering, and uvicorn then closes the
    keep-alive connection without a word; a client reusing it would see its next request fail."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as error:
            down = unavailable(error)
            if down:
                # One line, not a traceback per request: during an outage every request fails alike.
                log.warning(
                    "%s %s: database unavailable: %s",
                    scope.get("method"),
                    scope.get("path"),
                    _first_line(error),
                )
            else:
                log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if started:
                raise  # half an answer is out: only closing the connection tells the client
            if down:
                response = _unavailable_response()
            else:
                response = _error_response(
                    500, "internal_error", gettext("something went wrong on our side; try again")
                )
            await response(scope, receive, send)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A socket whose database went away is closed with 1013, which clients reconnect on."""
        connected = accepted = closed = False

        async def tracked_receive() -> Message:
            nonlocal connected
            message = await receive()
            if message["type"] == "websocket.connect":
                connected = True
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal accepted, closed
            if message["type"] == "websocket.accept":
                accepted = True
            elif message["type"] == "websocket.close":
                closed = True
            await send(message)

        try:
            await self.app(scope, tracked_receive, tracked_send)
        except Exception as error:
            if not unavailable(error):
                raise
            log.warning("socket %s: database unavailable: %s", scope.get("path"), _first_line(error))
            if closed:
                return
            with contextlib.suppress(Exception):  # the client may be gone already
                if not accepted:
                    # Accepted first, so the client sees the close code and not a failed handshake.
                    if not connected:
                        await receive()
                    await send({"type": "websocket.accept"})
                await send(
                    {
                        "type": "websocket.close",
                        "code": TRY_AGAIN_LATER,
                        "reason": "database unavailable; reconnect",
                    }
                )


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code in (404, 405) and wants_html(request):
        # A person's browser on a mistyped address: a page with the way home (the API keeps JSON).
        return html_error(request, exc.status_code)
    if exc.status_code == 400:
        # FastAPI's "error parsing the body": CONTRACT.md's answer for a bad request is 422.
        return _error_response(422, "invalid_request", str(exc.detail))
    code = CODE_BY_STATUS.get(exc.status_code, "invalid_request")
    # Starlette's words for an address with nothing there or a method it does not take, in the
    # reader's language (ours, raised with gettext, are worded already).
    return _error_response(exc.status_code, code, gettext(str(exc.detail)))


# Starlette's own details (HTTPException's phrases), for the catalogue.
STARLETTE_DETAILS = (N_("Not Found"), N_("Method Not Allowed"))


def create_app(settings: Settings | None = None, clock: Clock = SYSTEM_CLOCK) -> FastAPI:
    settings = settings or Settings.from_env()
    redact_tokens()
    registry.register_from_env(settings.games)
    i18n.configure(i18n.Languages.parse(settings.languages))
    runtime = Runtime(settings, clock)
    buckets = make_buckets(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await runtime.start()
        pruner = asyncio.create_task(prune_on_schedule(runtime.master.commands.run, settings, runtime.clock))
        try:
            yield
        finally:
            await cancel_and_wait(pruner)
            await runtime.stop()
            await buckets.close()
            readiness_redis = getattr(app.state, "readiness_redis", None)
            if readiness_redis is not None:
                await readiness_redis.aclose()

    # No /docs or /redoc: they load scripts from a CDN, which the Content-Security-Policy forbids.
    app = FastAPI(title="Motable", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.runtime = runtime
    # The routes charge the per-address quotas in the same buckets (app.ratelimit.spend).
    app.state.buckets = buckets
    handlers: dict[Any, Any] = {
        AppError: _app_error,
        RequestValidationError: _validation_error,
        HTTPException: _http_error,
    }
    for exc_type, handler in handlers.items():
        app.add_exception_handler(exc_type, handler)
    delivery.install(app)
    app.add_middleware(
        BodyLimit,
        max_bytes=settings.max_body_bytes,
        max_headers=settings.max_headers,
        max_json_depth=settings.max_json_depth,
    )
    app.add_middleware(RoomIdGuard, page_not_found=pages.not_found_page)
    app.add_middleware(RateLimit, settings=settings, seats=runtime.seats, buckets=buckets)
    app.add_middleware(CatchAll)
    # Outside the error handlers, so a refusal's message is worded in the reader's language too.
    app.add_middleware(i18n.Speak)
    app.add_middleware(SecurityHeaders)
    # Outermost: a request over the connection limits is refused before anything reads it.
    app.add_middleware(ConnectionLimits, settings=settings)
    # Routes are matched in order, one regex each: the room socket and the API, which a table's
    # set-up and play use most, come first (the socket last cost ~75 us of matching per open).
    # No two routers share a path, so the order changes nothing else.
    app.include_router(ws.router)
    app.include_router(api.router)
    app.include_router(health.router)
    app.include_router(pages.router)
    app.include_router(replay.router)
    app.include_router(people.router)
    app.include_router(mygames.router)
    app.include_router(passkeys.router)
    app.include_router(alerts.router)
    app.include_router(push.router)
    app.include_router(takeback.router)
    app.include_router(screens.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
