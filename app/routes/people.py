"""The people endpoints (docs/people.md): seat links, seat requests, clocks, bots standing in for absent
players, leaving, and the table chat. They only parse, call the playing layer and shape the answer."""

from __future__ import annotations

import io
from typing import Annotated, Any

import segno
from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, StrictBool, StrictInt

from app.deps import MasterDep, TokenDep
from app.errors import AppError
from app.i18n import N_
from app.ratelimit import client_address
from app.schemas import ClockSeconds, Name
from app.urls import join_url

router = APIRouter()

# A seat number as the database holds it (no game seats more than a few players).
MAX_SEAT = 63
SeatNumber = Annotated[int, Path(ge=0, le=MAX_SEAT)]


class SetClock(BaseModel):
    seconds: ClockSeconds = None


class AskSeat(BaseModel):
    seat: Annotated[StrictInt, Field(ge=0, le=MAX_SEAT)]


class Say(BaseModel):
    text: Annotated[str, Field(max_length=2000)]
    # A spectator's name, when the host lets spectators write.
    name: Name | None = None


class ChatSettings(BaseModel):
    spectators: StrictBool


def standalone_qr_svg(url: str) -> str:
    """The QR code as a standalone SVG document (with its namespace), so a page may show it as an
    image without ever parsing it as markup."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        nl=False,
        scale=5,
        dark="#10261b",
        light="#ffffff",
        border=2,
    )
    return out.getvalue().decode()


def _client(request: Request) -> str:
    """The client's address, as the rate limit sees it (behind a trusted proxy, the forwarded one)."""
    return client_address(request.scope)


@router.get("/api/rooms/{room_id}/seat-link")
async def seat_link(room_id: str, request: Request, master: MasterDep, token: TokenDep) -> JSONResponse:
    """The caller's private seat link (the token rides in the fragment, which never reaches a server)
    and its QR code. Whoever opens it plays as this seat."""
    seat = await master.seat_of(room_id, token)
    if seat is None or token is None:
        raise AppError("unauthorized", N_("send the seat's token as 'Authorization: Bearer <token>'"))
    url = f"{join_url(request, room_id)}#seat={token}"
    body = {"seat": seat, "url": url, "qr_svg": standalone_qr_svg(url)}
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@router.post("/api/rooms/{room_id}/clock")
async def set_clock(room_id: str, body: SetClock, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    return await master.people.set_clock(room_id, token, body.seconds)


@router.post("/api/rooms/{room_id}/seats/{seat}/bot")
async def stand_in(room_id: str, seat: SeatNumber, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    return await master.people.stand_in(room_id, token, seat)


@router.delete("/api/rooms/{room_id}/seats/{seat}/bot")
async def come_back(room_id: str, seat: SeatNumber, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    return await master.people.come_back(room_id, token, seat)


@router.post("/api/rooms/{room_id}/seats/{seat}/remove")
async def remove(room_id: str, seat: SeatNumber, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    return await master.people.remove(room_id, token, seat)


@router.post("/api/rooms/{room_id}/leave")
async def leave(room_id: str, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    return await master.people.leave(room_id, token)


@router.post("/api/rooms/{room_id}/seat-requests", status_code=201)
async def ask_for_seat(room_id: str, body: AskSeat, request: Request, master: MasterDep) -> dict[str, Any]:
    return await master.people.ask(room_id, body.seat, _client(request))


@router.get("/api/rooms/{room_id}/seat-check")
async def seat_check(room_id: str, master: MasterDep, token: TokenDep) -> JSONResponse:
    """What the caller's token is for here: a seat, a seat that moved on (and why), a request."""
    body = await master.people.seat_check(room_id, token)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@router.get("/api/rooms/{room_id}/seat-requests/{request_id}")
async def seat_request(room_id: str, request_id: str, master: MasterDep) -> dict[str, Any]:
    return await master.people.request_status(room_id, request_id)


@router.post("/api/rooms/{room_id}/seat-requests/{request_id}/approve")
async def approve(room_id: str, request_id: str, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    return await master.people.answer(room_id, token, request_id, approve=True)


@router.post("/api/rooms/{room_id}/seat-requests/{request_id}/refuse")
async def refuse(room_id: str, request_id: str, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    return await master.people.answer(room_id, token, request_id, approve=False)


@router.get("/api/rooms/{room_id}/chat")
async def chat(room_id: str, master: MasterDep) -> dict[str, Any]:
    return await master.people.chat(room_id)


@router.post("/api/rooms/{room_id}/chat", status_code=201)
async def say(
    room_id: str, body: Say, request: Request, master: MasterDep, token: TokenDep
) -> dict[str, Any]:
    return await master.people.say(room_id, token, body.text, body.name, _client(request))


@router.post("/api/rooms/{room_id}/chat/settings")
async def chat_settings(
    room_id: str, body: ChatSettings, master: MasterDep, token: TokenDep
) -> dict[str, Any]:
    return await master.people.set_chat_spectators(room_id, token, body.spectators)
