"""The takeback endpoints (docs/playing.md, "Takeback"): ask to take back your last action, withdraw
the asking, and answer another seat's asking. They only parse, call the playing layer and shape the
answer."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, StrictInt

from app.deps import MasterDep, TokenDep

router = APIRouter()

TakebackId = Annotated[str, Path(min_length=1, max_length=32)]


class AskTakeback(BaseModel):
    # The version of the state just after the action to take back (the current one).
    version: StrictInt


@router.post("/api/rooms/{room_id}/takeback", status_code=201)
async def ask_takeback(room_id: str, body: AskTakeback, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    return {"takeback_id": await master.ask_takeback(room_id, token, body.version)}


@router.post("/api/rooms/{room_id}/takeback/{takeback_id}/approve")
async def approve_takeback(
    room_id: str, takeback_id: TakebackId, master: MasterDep, token: TokenDep
) -> dict[str, Any]:
    await master.answer_takeback(room_id, token, takeback_id, True)
    return {"takeback_id": takeback_id, "approved": True}


@router.post("/api/rooms/{room_id}/takeback/{takeback_id}/refuse")
async def refuse_takeback(
    room_id: str, takeback_id: TakebackId, master: MasterDep, token: TokenDep
) -> dict[str, Any]:
    await master.answer_takeback(room_id, token, takeback_id, False)
    return {"takeback_id": takeback_id, "approved": False}


@router.post("/api/rooms/{room_id}/takeback/{takeback_id}/withdraw")
async def withdraw_takeback(
    room_id: str, takeback_id: TakebackId, master: MasterDep, token: TokenDep
) -> dict[str, Any]:
    await master.withdraw_takeback(room_id, token, takeback_id)
    return {"takeback_id": takeback_id, "withdrawn": True}
