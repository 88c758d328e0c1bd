"""The FastAPI application: routers, error bodies, body limits and the process runtime."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.errors import CODE_BY_STATUS, AppError, error_body
from app.logs import redact_tokens
from app.ratelimit import Buckets, RateLimit
from app.routes import api, pages, people, ws
from app.runtime import Runtime
from engines.core import registry

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"


class BodyLimit:
    """Refuses request bodies over `max_bytes` with 413 too_large, announced or streamed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            response = _error_response(
                413, "too_large", f"a request body may be at most {self.max_bytes} bytes"
            )
            await response(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                # FastAPI passes an HTTPException from body reading through to our handler.
                raise HTTPException(413, f"a request body may be at most {self.max_bytes} bytes")
            return message

        await self.app(scope, limited, send)


def _error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=status)


async def _app_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AppError)
    return _error_response(exc.status, exc.code, exc.message)


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = "; ".join(
        f"{'.'.join(str(p) for p in err.get('loc', ())) or 'body'}: {err.get('msg', 'invalid')}"
        for err in exc.errors()
    )
    return _error_response(422, "invalid_request", problems or "invalid request")


async def _unexpected_error(_request: Request, _exc: Exception) -> JSONResponse:
    # Starlette still logs the exception with its traceback; the client gets the usual body shape.
    return _error_response(500, "internal_error", "something went wrong on our side; try again")


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    code = CODE_BY_STATUS.get(exc.status_code, "invalid_request")
    return _error_response(exc.status_code, code, str(exc.detail))


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    redact_tokens()
    registry.register_from_env(os.environ.get("MOTABLE_GAMES"))
    runtime = Runtime(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await runtime.start()
        try:
            yield
        finally:
            await runtime.stop()

    app = FastAPI(title="Motable", lifespan=lifespan)
    app.state.runtime = runtime
    handlers: dict[Any, Any] = {
        AppError: _app_error,
        RequestValidationError: _validation_error,
        HTTPException: _http_error,
        Exception: _unexpected_error,
    }
    for exc_type, handler in handlers.items():
        app.add_exception_handler(exc_type, handler)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(RateLimit, buckets=Buckets(settings.rate_per_second, settings.rate_burst))
    app.include_router(pages.router)
    app.include_router(api.router)
    app.include_router(people.router)
    app.include_router(ws.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
