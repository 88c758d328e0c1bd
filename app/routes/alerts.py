"""Alerts away from the table and the pause (docs/people.md "Email alerts", "Quiet hours", "Pause"):
they only parse, call the alert and playing layers and shape the answer."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from app.deps import RuntimeDep, TokenDep
from app.ratelimit import address_key, client_address
from app.routes.pages import templates

router = APIRouter()

MAX_TOKEN = 200


class AddEmail(BaseModel):
    email: Annotated[str, Field(max_length=320)]


class Quiet(BaseModel):
    from_: Annotated[str, Field(alias="from", max_length=5)]
    to: Annotated[str, Field(max_length=5)]
    tz: Annotated[str, Field(max_length=64)]


class SetAlerts(BaseModel):
    quiet: Quiet | None = None


# -- pause -----------------------------------------------------------------------
@router.post("/api/rooms/{room_id}/pause")
async def ask_pause(room_id: str, runtime: RuntimeDep, token: TokenDep) -> dict[str, Any]:
    return await runtime.pauses.ask(room_id, token)


@router.post("/api/rooms/{room_id}/pause/approve")
async def approve_pause(room_id: str, runtime: RuntimeDep, token: TokenDep) -> dict[str, Any]:
    return await runtime.pauses.answer(room_id, token, True)


@router.post("/api/rooms/{room_id}/pause/refuse")
async def refuse_pause(room_id: str, runtime: RuntimeDep, token: TokenDep) -> dict[str, Any]:
    return await runtime.pauses.answer(room_id, token, False)


@router.post("/api/rooms/{room_id}/resume")
async def resume(room_id: str, runtime: RuntimeDep, token: TokenDep) -> dict[str, Any]:
    return await runtime.pauses.resume(room_id, token)


# -- a seat's alert settings --------------------------------------------------------
@router.get("/api/rooms/{room_id}/alerts")
async def alert_settings(
    room_id: str, runtime: RuntimeDep, token: TokenDep, response: Response
) -> dict[str, Any]:
    response.headers["Cache-Control"] = "no-store"
    return await runtime.alert_settings.read(room_id, token)


@router.put("/api/rooms/{room_id}/alerts")
async def set_alert_settings(
    room_id: str, body: SetAlerts, runtime: RuntimeDep, token: TokenDep
) -> dict[str, Any]:
    quiet = (
        None if body.quiet is None else {"from": body.quiet.from_, "to": body.quiet.to, "tz": body.quiet.tz}
    )
    return await runtime.alert_settings.set_quiet(room_id, token, quiet)


@router.post("/api/rooms/{room_id}/email", status_code=201)
async def add_email(
    room_id: str, body: AddEmail, request: Request, runtime: RuntimeDep, token: TokenDep
) -> dict[str, Any]:
    # Charged to the client as the rate limiter counts it, in its buckets (shared through Redis).
    client = address_key(client_address(request.scope))
    return await runtime.mail.add(
        room_id, token, body.email, client=client, buckets=request.app.state.buckets
    )


@router.delete("/api/rooms/{room_id}/email", status_code=204)
async def remove_email(room_id: str, runtime: RuntimeDep, token: TokenDep) -> Response:
    await runtime.mail.remove(room_id, token)
    return Response(status_code=204)


# -- the pages an email's links open -------------------------------------------------
Token = Annotated[str, Query(alias="t", max_length=MAX_TOKEN)]


def _page(request: Request, purpose: str, status: str, token: str) -> HTMLResponse:
    response = templates.TemplateResponse(
        request,
        "email.html",
        {"purpose": purpose, "status": status, "token": token},
        status_code=404 if status == "unknown" else 200,
    )
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@router.get("/email/confirm", response_class=HTMLResponse, include_in_schema=False)
async def confirm_page(request: Request, runtime: RuntimeDep, t: Token) -> HTMLResponse:
    # A GET changes nothing: mail scanners open links; the page's button confirms.
    return _page(request, "confirm", await runtime.mail.confirm(t, commit=False), t)


@router.post("/email/confirm", response_class=HTMLResponse, include_in_schema=False)
async def confirm(request: Request, runtime: RuntimeDep, t: Token) -> HTMLResponse:
    return _page(request, "confirm", await runtime.mail.confirm(t, commit=True), t)


@router.get("/email/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe_page(request: Request, runtime: RuntimeDep, t: Token) -> HTMLResponse:
    return _page(request, "unsubscribe", await runtime.mail.unsubscribe(t, commit=False), t)


@router.post("/email/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe(request: Request, runtime: RuntimeDep, t: Token) -> HTMLResponse:
    """RFC 8058 one-click: a mail provider POSTs here with no cookie; the token in the address is enough."""
    return _page(request, "unsubscribe", await runtime.mail.unsubscribe(t, commit=True), t)
