"""Replays of finished matches: the page `/r/{id}/replay` and the steps it plays."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, StreamingResponse

from app.deps import RuntimeDep
from app.errors import AppError
from app.replay import Found, StoredReplay, built_replay, find_replay, inflate, read_replay
from app.routes.pages import lobby_games, templates

router = APIRouter()

# A finished match never changes: browsers and proxies may keep its replay.
CACHE_CONTROL = "public, max-age=86400, immutable"
# The gzip-coded and the plain representation are different bytes, so they carry different strong
# ETags (RFC 9110 8.8.3); both name the same stored body.
GZIP_TAG_SUFFIX = "-gzip"


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether to send the stored gzip bytes. Deliberately the same test as Starlette's GZipMiddleware
    (a substring, q-values ignored): were they parsed here, a client sending `gzip;q=0` would get a
    plain stream that the middleware compresses anyway, under the plain body's ETag."""
    return "gzip" in (accept_encoding or "")


def matches_etag(if_none_match: str | None, etag: str) -> bool:
    """If-None-Match's weak comparison against the stored ETag, whichever representation's tag the
    client holds."""
    if if_none_match is None:
        return False
    for candidate in if_none_match.split(","):
        tag = candidate.strip()
        if tag == "*":
            return True
        tag = tag.removeprefix("W/").strip('"').removesuffix(GZIP_TAG_SUFFIX)
        if tag == etag:
            return True
    return False


@router.get(
    "/api/rooms/{room_id}/replay",
    response_model=dict[str, Any],
    responses={304: {"description": "The client's copy (If-None-Match) is current."}},
)
async def get_replay(
    request: Request, room_id: str, runtime: RuntimeDep, seat: str | None = None
) -> Response:
    """The finished match from `seat`'s place (seat number, `spectator`, `all`); refused before the end."""
    db = runtime.db
    gzip = accepts_gzip(request.headers.get("accept-encoding"))
    if_none_match = request.headers.get("if-none-match")

    def look() -> tuple[Found, StoredReplay | None]:
        """The replay asked for, with its stored body unless the client's copy is current (or none
        is stored yet): one worker thread and one transaction for a request the database answers."""
        with db.read() as session:
            found = find_replay(session, room_id, seat)
            if found.etag is None or matches_etag(if_none_match, found.etag):
                return found, None
            return found, read_replay(session, found.match_id, found.viewpoint)

    def headers(etag: str, **more: str) -> dict[str, str]:
        tag = f'"{etag}{GZIP_TAG_SUFFIX if gzip else ""}"'
        return {"Cache-Control": CACHE_CONTROL, "ETag": tag, **more}

    found, stored = await run_in_threadpool(look)
    if found.etag is not None and matches_etag(if_none_match, found.etag):
        return Response(status_code=304, headers=headers(found.etag, Vary="Accept-Encoding"))
    if stored is None:
        # Not built yet (or its match deleted just now, which the build answers with 404).
        stored = await built_replay(db, found.match_id, found.viewpoint)
        if matches_etag(if_none_match, stored.etag):
            return Response(status_code=304, headers=headers(stored.etag, Vary="Accept-Encoding"))
    if gzip:
        # Already compressed: the GZip middleware leaves an answer with a Content-Encoding alone.
        return Response(
            stored.body,
            media_type="application/json",
            headers=headers(stored.etag, Vary="Accept-Encoding", **{"Content-Encoding": "gzip"}),
        )
    # Decompressed a piece at a time as it is sent. No Vary here: the GZip middleware adds it to every
    # plain answer it might have compressed, this one included.
    return StreamingResponse(
        inflate(stored.body),
        media_type="application/json",
        headers=headers(stored.etag, **{"Content-Length": str(stored.size)}),
    )


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
