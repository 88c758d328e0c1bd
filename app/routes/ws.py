"""The live room socket: a snapshot, then patches and room changes; actions in, acks or errors out."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from app import jsonsafe
from app.errors import AppError
from app.ratelimit import Buckets
from app.realtime.hub import CLOSE, Connection
from app.runtime import Runtime

router = APIRouter()

POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    runtime: Runtime = websocket.app.state.runtime
    token = websocket.query_params.get("token") or None
    # Accept first so a refused client sees close code 1008, not a failed handshake.
    await websocket.accept()
    try:
        seat = await run_in_threadpool(runtime.services.seat_of, room_id, token)
    except AppError as error:
        await websocket.close(code=POLICY_VIOLATION, reason=error.message)
        return
    conn = Connection(seat)
    sender: asyncio.Task[None] | None = None
    counted = False
    # Everything set up below is undone in `finally`, even when setting up fails part way.
    try:
        await runtime.hub.attach(room_id, conn)
        sender = asyncio.create_task(_send(websocket, conn))
        if seat is not None:
            counted = True
            await runtime.connect(room_id, seat)
        runtime.bots.kick(room_id)
        await _receive(websocket, runtime, room_id, token, conn)
    finally:
        runtime.hub.detach(room_id, conn)
        if sender is not None:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
        if seat is not None and counted:
            await runtime.disconnect(room_id, seat)


async def _send(websocket: WebSocket, conn: Connection) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await conn.outbox.get()
            if message is CLOSE:
                # Not 1008: the client reconnects on this one and starts from a fresh snapshot.
                await websocket.close(code=TRY_AGAIN_LATER, reason="too far behind; reconnect")
                return
            await websocket.send_text(json.dumps(message))


def _error(message_id: Any, code: str, text: str) -> dict[str, Any]:
    return {"type": "error", "id": message_id, "error": {"code": code, "message": text}}


async def _receive(
    websocket: WebSocket, runtime: Runtime, room_id: str, token: str | None, conn: Connection
) -> None:
    limit = runtime.settings.max_ws_message_bytes
    # One bucket per socket: a flood from one tab cannot starve the room.
    buckets = Buckets(runtime.settings.rate_per_second, runtime.settings.rate_burst)
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        raw: bytes = frame["bytes"] if frame.get("bytes") is not None else (frame.get("text") or "").encode()
        if len(raw) > limit:
            conn.send(_error(None, "too_large", f"a message may be at most {limit} bytes"))
            continue
        if not buckets.allow("socket"):
            conn.send(_error(None, "rate_limited", "too many messages; slow down and retry"))
            continue
        try:
            message = jsonsafe.loads(raw)
        except ValueError:
            conn.send(_error(None, "invalid_request", "a message is one JSON object"))
            continue
        if not isinstance(message, dict):
            conn.send(_error(None, "invalid_request", "a message is one JSON object"))
            continue
        message_id = message.get("id")
        version = message.get("version")
        if message.get("type") != "action" or "action" not in message:
            conn.send(
                _error(message_id, "invalid_request", 'send {"type": "action", "id", "action", "version"}')
            )
            continue
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            conn.send(_error(message_id, "invalid_request", "version is an integer"))
            continue
        try:
            applied = await run_in_threadpool(
                runtime.services.act, room_id, token, message["action"], version
            )
        except AppError as error:
            conn.send(_error(message_id, error.code, error.message))
            continue
        conn.send({"type": "ack", "id": message_id})
        await runtime.played(room_id, applied)
