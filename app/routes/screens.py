"""The table screen's API: a pairing code for a screen, and the host marking it as the table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.deps import MasterDep, TokenDep
from app.schemas import MarkScreen

router = APIRouter()


@router.post("/api/rooms/{room_id}/screens", status_code=201)
async def pair_screen(room_id: str, master: MasterDep) -> dict[str, str]:
    """A code for a table screen to show large, and its token (it does nothing until marked)."""
    return await master.pair_screen(room_id)


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
