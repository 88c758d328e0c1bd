"""A test client behind a trusted proxy: each request may name its client address in X-Forwarded-For,
so one test speaks for many addresses, as `motable serve` sees them behind nginx."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from starlette.testclient import TestClient
from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.config import Settings
from app.main import create_app

from .conftest import NO_LIMITS


@contextmanager
def forwarded_client(database_url: str, **settings: Any) -> Iterator[TestClient]:
    """uvicorn's own middleware (which `motable serve` runs) in front of the app, trusting the test
    client as its proxy. `settings` go beside the usual test ones."""
    app = create_app(Settings(database_url=database_url, bot_delay=0, **{**NO_LIMITS, **settings}))
    # uvicorn's and Starlette's ASGI types differ in name only.
    proxied = cast(ASGIApp, ProxyHeadersMiddleware(cast(Any, app), trusted_hosts="*"))
    with TestClient(proxied) as client:
        yield client


def from_address(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}
