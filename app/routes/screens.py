"""The table screen's API: a pairing code for a screen, and the host marking it as the table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.deps import MasterDep, TokenDep
from app.errors import AppError
from app.i18n import N_
from app.ratelimit import LocalBuckets, SharedBuckets, Spend, address_key, client_address, retry_after
from app.schemas import MarkScreen
from app.services.screens import ADDRESS_BURST, ROOM_BURST

router = APIRouter()


def _pairing_spends(request: Request, room_id: str) -> list[Spend]:
    """The buckets a new pairing code is taken from: the room's, and the client address's across every
    room at half the rate (so one address alone cannot use up a room's codes). Empty: no limit. (The
    room id was checked to be one by app/guards.py before any route.)"""
    per_hour = request.app.state.runtime.settings.screen_codes_per_hour
    if per_hour <= 0:
        return []
    address = address_key(client_address(request.scope))
    return [
        (f"screen-codes:room:{room_id}", per_hour / 3600, ROOM_BURST),
        (f"screen-codes:address:{address}", per_hour / 7200, ADDRESS_BURST),
    ]


@router.post("/api/rooms/{room_id}/screens", status_code=201)
async def pair_screen(room_id: str, request: Request, master: MasterDep) -> dict[str, str]:
    """A code for a table screen to show large, and its token (it does nothing until marked). Limited
    per room and per client address; a refusal (429) writes nothing and pushes no code out."""
    buckets: SharedBuckets | LocalBuckets = request.app.state.buckets
    spends = _pairing_spends(request, room_id)
    wait = await buckets.take(spends)
    if wait > 0:
        raise AppError(
            "rate_limited",
            N_("this room's screens asked for many codes just now; the screen asks again in a moment"),
            retry_after=retry_after(wait),
        )
    try:
        return await master.pair_screen(room_id)
    except BaseException:
        # No code made (no such room, say): it costs nothing.
        await buckets.take(spends, cost=-1.0)
        raise


@router.get("/api/rooms/{room_id}/screens/me")
async def screen_status(room_id: str, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    """`{"marked", "code"}` for the screen holding this token; 401 once it is no screen of the room."""
    return await master.screen_status(room_id, token)


@router.post("/api/rooms/{room_id}/table-screen")
async def mark_screen(room_id: str, body: MarkScreen, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    """The host marks the screen showing `code` as the table: 200 with the room body."""
    return await master.mark_screen(room_id, token, body.code)


@router.delete("/api/rooms/{room_id}/table-screen")
async def unmark_screen(room_id: str, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    """The host takes the mark away: 200 with the room body."""
    return await master.unmark_screen(room_id, token)
