"""The JSON API of CONTRACT.md: games, rooms, state, actions, log."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from app.deps import MasterDep, TokenDep
from app.ratelimit import address_digest, client_address, spend
from app.routes.replay import GZIP_TAG_SUFFIX, accepts_gzip, matches_etag
from app.schemas import AddBot, CreateRoom, JoinRoom, PostAction, StartRoom
from app.urls import join_url
from engines.core import game_ids, get_engine

router = APIRouter()


@router.get("/api/games")
async def list_games() -> list[dict[str, Any]]:
    return [get_engine(game).spec.describe() for game in game_ids()]


@router.post("/api/rooms", status_code=201)
async def create_room(body: CreateRoom, request: Request, master: MasterDep) -> dict[str, Any]:
    # Counted against the address's rooms per hour (429 when spent); a room that fails is not counted.
    async with spend(request, "rooms"):
        creator = address_digest(client_address(request.scope))
        created = await master.create_room(body.game, body.name, body.options, body.clock, creator)
    return {
        "room_id": created["room_id"],
        "join_url": join_url(request, created["room_id"]),
        "seat": created["seat"],
        "token": created["token"],
    }


@router.post("/api/rooms/{room_id}/rematch")
async def rematch(
    room_id: str, request: Request, response: Response, master: MasterDep, token: TokenDep
) -> dict[str, Any]:
    """201 with a seat and token for the player who opens the rematch (or the host, whose seat the
    table screen kept when it opened it); 200 with the room for the others and the table screen."""
    async with spend(request, "rooms") as spent:
        made = await master.rematch(room_id, token)
        spent.keep = made["created"]  # joining a rematch someone else opened makes no room
    body = {"room_id": made["room_id"], "join_url": join_url(request, made["room_id"])}
    if "token" not in made:
        return body
    response.status_code = 201
    return {**body, "seat": made["seat"], "token": made["token"]}


@router.get("/api/rooms/{room_id}")
async def get_room(room_id: str, master: MasterDep) -> dict[str, Any]:
    return await master.room(room_id)


@router.post("/api/rooms/{room_id}/join", status_code=201)
async def join_room(room_id: str, body: JoinRoom, master: MasterDep) -> dict[str, Any]:
    return await master.join(room_id, body.name)


@router.post("/api/rooms/{room_id}/bots", status_code=201)
async def add_bot(
    room_id: str, request: Request, master: MasterDep, token: TokenDep, body: AddBot | None = None
) -> dict[str, Any]:
    # Counted against the address's bots per hour; a bot that could not be seated is not counted.
    async with spend(request, "bots"):
        return await master.add_bot(room_id, token)


@router.post("/api/rooms/{room_id}/start")
async def start_room(
    room_id: str, master: MasterDep, token: TokenDep, body: StartRoom | None = None
) -> dict[str, Any]:
    if body is None:
        return await master.start(room_id, token)
    return await master.start(room_id, token, body.starter, one_device=body.one_device)


@router.get("/api/rooms/{room_id}/state")
async def get_state(room_id: str, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    return await master.state(room_id, token)


@router.post("/api/rooms/{room_id}/actions")
async def post_action(room_id: str, body: PostAction, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    return await master.play(room_id, token, body.action, body.version)


@router.get(
    "/api/rooms/{room_id}/log",
    response_model=dict[str, Any],
    responses={304: {"description": "The client's copy (If-None-Match) is current."}},
)
async def get_log(request: Request, room_id: str, master: MasterDep, token: TokenDep) -> Response:
    """The body kept for this match, version and viewer (app/playing/actionlog.py), sent as it is kept:
    gzip-compressed already to a client that accepts it, so the GZip middleware leaves it alone."""
    written = await master.log(room_id, token)
    gzip = accepts_gzip(request.headers.get("accept-encoding"))
    # The log grows with every move: a client may keep it, but asks each time whether it is current.
    headers = {"Cache-Control": "no-cache", "ETag": f'"{written.etag}{GZIP_TAG_SUFFIX if gzip else ""}"'}
    if matches_etag(request.headers.get("if-none-match"), written.etag):
        return Response(status_code=304, headers={**headers, "Vary": "Accept-Encoding"})
    if gzip:
        headers.update({"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        return Response(written.gzipped, media_type="application/json", headers=headers)
    # No Vary here: the GZip middleware adds it to every plain answer it might have compressed.
    return Response(written.body, media_type="application/json", headers=headers)
