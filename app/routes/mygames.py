"""`POST /api/my-games`: the home page's "Your games" list in one request (docs/people.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from app.deps import RuntimeDep
from app.playing.mygames import MyGames

router = APIRouter()

# Seats one request may ask about: far more than anyone plays at once, few enough to answer quickly.
MAX_SEATS = 50


class HeldSeat(BaseModel):
    room_id: Annotated[str, Field(max_length=64)]
    token: Annotated[str, Field(min_length=1, max_length=256)]


class HeldSeats(BaseModel):
    seats: Annotated[list[HeldSeat], Field(max_length=MAX_SEATS)]


@router.post("/api/my-games")
async def my_games(body: HeldSeats, runtime: RuntimeDep) -> JSONResponse:
    """A summary per seat this browser holds; a token that holds no seat gets `found: false` only.
    The tokens ride in the body (never in a URL), and the answer is never cached."""
    reader = MyGames(runtime.db, runtime.cache, runtime.times)
    games: list[dict[str, Any]] = await run_in_threadpool(
        reader.summaries, [(held.room_id, held.token) for held in body.seats]
    )
    return JSONResponse({"games": games}, headers={"Cache-Control": "no-store"})
