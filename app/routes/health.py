"""Liveness (`/healthz`: the process answers) and readiness (`/readyz`: it can serve requests now)."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text
from starlette.concurrency import run_in_threadpool

from app.runtime import Runtime

router = APIRouter()

# A check that takes longer than this counts as failed: a load balancer must hear back promptly.
CHECK_TIMEOUT = 2.0


@router.api_route("/healthz", methods=["GET", "HEAD"])
async def healthz() -> dict[str, str]:
    """Alive: the process runs its event loop. Says nothing about the database (see /readyz)."""
    return {"status": "ok"}


def _database_ok(runtime: Runtime) -> None:
    with runtime.db.engine.connect() as connection:
        connection.execute(text("SELECT 1"))


async def _redis_ok(request: Request, url: str) -> None:
    client: aioredis.Redis | None = getattr(request.app.state, "readiness_redis", None)
    if client is None:
        client = aioredis.Redis.from_url(
            url, socket_connect_timeout=CHECK_TIMEOUT, socket_timeout=CHECK_TIMEOUT
        )
        request.app.state.readiness_redis = client
    await client.ping()


async def _check(name: str, probe: object) -> tuple[str, str]:
    try:
        async with asyncio.timeout(CHECK_TIMEOUT):
            await probe  # type: ignore[misc]
    except Exception as error:  # any failure, a timeout included, means "not ready"
        return name, f"unavailable: {type(error).__name__}"
    return name, "ok"


@router.api_route("/readyz", methods=["GET", "HEAD"], responses={503: {"description": "not ready"}})
async def readyz(request: Request) -> JSONResponse:
    """Ready: the database answers, and Redis too when one is configured. 503 otherwise."""
    runtime: Runtime = request.app.state.runtime
    probes = {"database": run_in_threadpool(_database_ok, runtime)}
    if runtime.settings.redis_url:
        probes["redis"] = _redis_ok(request, runtime.settings.redis_url)
    checks = dict(await asyncio.gather(*(_check(name, probe) for name, probe in probes.items())))
    ready = all(state == "ok" for state in checks.values())
    return JSONResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks}, status_code=200 if ready else 503
    )
