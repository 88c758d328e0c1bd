"""The JSON API of CONTRACT.md: games, rooms, state, actions, log."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from app.deps import RuntimeDep, ServicesDep, TokenDep
from app.schemas import AddBot, CreateRoom, JoinRoom, PostAction
from app.urls import join_url
from engines.core import game_ids, get_engine

router = APIRouter()


@router.get("/api/games")
async def list_games() -> list[dict[str, Any]]:
    specs = [get_engine(game).spec for game in game_ids()]
    return [
        {
            "id": spec.id,
            "title": spec.title,
            "min_players": spec.min_players,
            "max_players": spec.max_players,
            "options_schema": spec.options_schema(),
        }
        for spec in specs
    ]


@router.post("/api/rooms", status_code=201)
async def create_room(body: CreateRoom, request: Request, services: ServicesDep) -> dict[str, Any]:
    created = await run_in_threadpool(services.create_room, body.game, body.name, body.options)
    return {
        "room_id": created["room_id"],
        "join_url": join_url(request, created["room_id"]),
        "seat": created["seat"],
        "token": created["token"],
    }


@router.post("/api/rooms/{room_id}/rematch")
async def rematch(
    room_id: str,
    request: Request,
    response: Response,
    services: ServicesDep,
    runtime: RuntimeDep,
    token: TokenDep,
) -> dict[str, Any]:
    """201 with a seat and token for the player who opens the rematch; 200 with the room for the others."""
    made = await run_in_threadpool(services.rematch, room_id, token)
    body = {"room_id": made["room_id"], "join_url": join_url(request, made["room_id"])}
    if not made["created"]:
        return body
    response.status_code = 201
    await runtime.room_changed(room_id)
    return {**body, "seat": made["seat"], "token": made["token"]}


@router.get("/api/rooms/{room_id}")
async def get_room(room_id: str, services: ServicesDep) -> dict[str, Any]:
    return await run_in_threadpool(services.room, room_id)


@router.post("/api/rooms/{room_id}/join", status_code=201)
async def join_room(
    room_id: str, body: JoinRoom, services: ServicesDep, runtime: RuntimeDep
) -> dict[str, Any]:
    joined = await run_in_threadpool(services.join, room_id, body.name)
    await runtime.room_changed(room_id)
    return joined


@router.post("/api/rooms/{room_id}/bots", status_code=201)
async def add_bot(
    room_id: str, services: ServicesDep, runtime: RuntimeDep, token: TokenDep, body: AddBot | None = None
) -> dict[str, Any]:
    added = await run_in_threadpool(services.add_bot, room_id, token)
    await runtime.room_changed(room_id)
    return added


@router.post("/api/rooms/{room_id}/start")
async def start_room(
    room_id: str, services: ServicesDep, runtime: RuntimeDep, token: TokenDep
) -> dict[str, Any]:
    room = await run_in_threadpool(services.start, room_id, token)
    await runtime.room_changed(room_id)
    await runtime.state_changed(room_id)
    return room


@router.get("/api/rooms/{room_id}/state")
async def get_state(room_id: str, services: ServicesDep, token: TokenDep) -> dict[str, Any]:
    return await run_in_threadpool(services.state, room_id, token)


@router.post("/api/rooms/{room_id}/actions")
async def post_action(
    room_id: str, body: PostAction, services: ServicesDep, runtime: RuntimeDep, token: TokenDep
) -> dict[str, Any]:
    applied = await run_in_threadpool(services.act, room_id, token, body.action, body.version)
    await runtime.played(room_id, applied)
    return applied.body()


@router.get("/api/rooms/{room_id}/log")
async def get_log(room_id: str, services: ServicesDep, token: TokenDep) -> dict[str, Any]:
    return await run_in_threadpool(services.log, room_id, token)
