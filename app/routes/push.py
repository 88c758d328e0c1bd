"""Web Push endpoints (docs/people.md "Alerts") and the installable app's files: the service worker at
the site's root (so its scope is every page) and the web app manifest."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from app.alerts.push import MAX_ENDPOINT
from app.deps import MasterDep, RuntimeDep, TokenDep
from app.errors import AppError
from app.i18n import N_, current
from app.routes.pages import templates
from app.services.auth import hash_token

router = APIRouter()

STATIC = Path(__file__).resolve().parents[2] / "static"

Endpoint = Annotated[str, Field(min_length=1, max_length=MAX_ENDPOINT)]


class Keys(BaseModel):
    p256dh: Annotated[str, Field(min_length=1, max_length=128)]
    auth: Annotated[str, Field(min_length=1, max_length=64)]


class Subscription(BaseModel):
    """The browser's PushSubscription as `toJSON()` gives it."""

    model_config = ConfigDict(extra="ignore")

    endpoint: Endpoint
    keys: Keys
    expirationTime: float | None = None  # the browser's own name


class Unsubscribe(BaseModel):
    endpoint: Endpoint


async def _seat(master: Any, room_id: str, token: str | None) -> int:
    seat = await master.seat_of(room_id, token)
    if seat is None or token is None:
        raise AppError("unauthorized", N_("send the seat's token as 'Authorization: Bearer <token>'"))
    return int(seat)


@router.get("/api/push/key")
async def push_key(runtime: RuntimeDep) -> JSONResponse:
    """The server's VAPID public key: the browser's `applicationServerKey`."""
    return JSONResponse({"public_key": runtime.push.public_key}, headers={"Cache-Control": "no-cache"})


@router.post("/api/rooms/{room_id}/push", status_code=201)
async def subscribe(
    room_id: str, body: Subscription, master: MasterDep, runtime: RuntimeDep, token: TokenDep
) -> JSONResponse:
    """Alerts for the caller's seat go to this device from now on (until its token changes)."""
    seat = await _seat(master, room_id, token)
    assert token is not None
    await runtime.push.check(body.endpoint, body.keys.p256dh, body.keys.auth)
    await run_in_threadpool(
        runtime.push.subscriptions.add,
        room_id,
        seat,
        hash_token(token),
        body.endpoint,
        body.keys.p256dh,
        body.keys.auth,
        current(),  # the page's language: this device's alerts are written in it
    )
    runtime.push.subscribed(room_id)
    # The dispatcher looks at the room now: a seat subscribing during its own turn is alerted for it.
    runtime.alerts.heard(room_id, {"kind": "state"})
    return JSONResponse({"seat": seat, "subscribed": True}, status_code=201)


@router.delete("/api/rooms/{room_id}/push", status_code=204)
async def unsubscribe(
    room_id: str, body: Unsubscribe, master: MasterDep, runtime: RuntimeDep, token: TokenDep
) -> Response:
    """No more alerts to this device for the caller's seat (done already is fine)."""
    seat = await _seat(master, room_id, token)
    await run_in_threadpool(runtime.push.subscriptions.remove, room_id, seat, body.endpoint)
    return Response(status_code=204)


@router.get("/sw.js", include_in_schema=False)
def service_worker() -> FileResponse:
    return FileResponse(
        STATIC / "sw.js",
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
def manifest() -> FileResponse:
    return FileResponse(
        STATIC / "manifest.webmanifest",
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/offline", response_class=HTMLResponse, include_in_schema=False)
def offline(request: Request) -> HTMLResponse:
    """The page the service worker keeps and shows when a page cannot be reached."""
    return templates.TemplateResponse(request, "offline.html", {})
