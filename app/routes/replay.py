"""Replays of finished matches: the page `/r/{id}/replay` and the steps it plays."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from app.deps import RuntimeDep
from app.errors import AppError
from app.replay import replay_body
from app.routes.pages import lobby_games, templates

router = APIRouter()


@router.get("/api/rooms/{room_id}/replay")
async def get_replay(
    room_id: str, response: Response, runtime: RuntimeDep, seat: str | None = None
) -> dict[str, Any]:
    """The finished match from `seat`'s place (seat number, `spectator`, `all`); refused before the end."""
    db = runtime.db

    def build() -> dict[str, Any]:
        with db.read() as session:
            return replay_body(session, room_id, seat)

    body = await run_in_threadpool(build)
    # A finished match never changes: browsers and proxies may keep its replay.
    response.headers["Cache-Control"] = "public, max-age=86400, immutable"
    return body


@router.get("/r/{room_id}/replay", response_class=HTMLResponse, include_in_schema=False)
async def replay_page(request: Request, room_id: str, runtime: RuntimeDep) -> HTMLResponse:
    try:
        room = await runtime.master.room(room_id)
    except AppError as error:
        if error.code != "not_found":
            raise
        what = "This room does not exist, so there is no replay to watch."
        return templates.TemplateResponse(request, "not_found.html", {"what": what}, status_code=404)
    titles = {g["id"]: g["title"] for g in lobby_games()}
    return templates.TemplateResponse(
        request,
        "replay.html",
        {
            "room_id": room_id,
            "title": titles.get(room["game"], room["game"]),
            "finished": room["status"] == "finished",
        },
    )
