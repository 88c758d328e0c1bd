"""Server-rendered pages: the lobby, a room, and each game's rules."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import TemplateNotFound
from starlette.types import Scope

from app import i18n
from app.delivery import static_url
from app.deps import MasterDep
from app.errors import AppError
from app.playing.master import Master
from app.roomids import is_room_id
from app.urls import join_url
from engines.core import registry

ROOT = Path(__file__).resolve().parents[2]
templates = Jinja2Templates(directory=ROOT / "templates")
templates.env.globals["static"] = static_url
i18n.install_jinja(templates.env)

router = APIRouter()


def _players(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}\N{EN DASH}{high}"


def _rules_template(game: str) -> str | None:
    """`rules/<id>.html` when the game ships one (ids are checked, so no path reaches the disk)."""
    if not registry.GAME_ID.match(game):
        return None
    name = f"rules/{game}.html"
    try:
        templates.env.get_template(name)
    except TemplateNotFound:
        return None
    return name


def lobby_games() -> list[dict[str, Any]]:
    """Every registered game as the lobby and the rules pages show it, read from its GameSpec."""
    games: list[dict[str, Any]] = []
    for game_id in registry.game_ids():
        spec = registry.get_engine(game_id).spec
        games.append(
            {
                **spec.describe(),
                "line": spec.blurb,
                "players": _players(spec.min_players, spec.max_players),
                "playable": True,
                "has_rules": _rules_template(spec.id) is not None,
            }
        )
    return games


@functools.lru_cache(maxsize=2048)
def qr_svg(url: str) -> str:
    """The share link as an inline SVG QR code (no image files, no client code); drawn once per room."""
    qr = segno.make(url, error="m")
    return str(qr.svg_inline(scale=5, dark="#10261b", light="#ffffff", border=2, omitsize=True))


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def lobby(request: Request) -> HTMLResponse:
    games = lobby_games()
    return templates.TemplateResponse(request, "lobby.html", {"games": games, "games_json": games})


def _no_room(request: Request) -> HTMLResponse:
    what = i18n.gettext("This room does not exist. The link may be mistyped, or the room was removed.")
    return templates.TemplateResponse(request, "not_found.html", {"what": what}, status_code=404)


def not_found_page(scope: Scope) -> HTMLResponse:
    """The page answered for an address that cannot name anything (app/guards.py refuses it)."""
    request = Request(scope)
    if str(scope["path"]).startswith("/r/"):
        return _no_room(request)
    what = i18n.gettext("There is nothing at this address. The link may be mistyped.")
    return templates.TemplateResponse(request, "not_found.html", {"what": what}, status_code=404)


async def _room_or_none(room_id: str, master: Master) -> dict[str, Any] | None:
    """The room's body, or None for an id that is no room (checked before any work: no QR code
    is drawn for a made-up id)."""
    if not is_room_id(room_id):
        return None
    try:
        return await master.room(room_id)
    except AppError as error:
        if error.code == "not_found":
            return None
        raise


@router.get("/r/{room_id}", response_class=HTMLResponse, include_in_schema=False)
async def room(request: Request, room_id: str, master: MasterDep) -> HTMLResponse:
    body = await _room_or_none(room_id, master)
    if body is None:
        return _no_room(request)
    settings = request.app.state.runtime.settings
    share_url = join_url(request, room_id)
    games = lobby_games()
    titles = {g["id"]: g["title"] for g in games}
    has_rules = any(g["id"] == body["game"] and g["has_rules"] for g in games)
    return templates.TemplateResponse(
        request,
        "room.html",
        {
            "room_id": room_id,
            "share_url": share_url,
            "qr_svg": qr_svg(share_url),
            # Typed on the TV that becomes the table: the address without its scheme.
            "screen_url": f"{share_url}/screen".split("://", 1)[-1],
            "titles": titles,
            "rules_url": f"/rules/{body['game']}" if has_rules else None,
            "loopback_only": settings.loopback_only and settings.public_url is None,
        },
    )


@router.get("/r/{room_id}/screen", response_class=HTMLResponse, include_in_schema=False)
async def table_screen(request: Request, room_id: str, master: MasterDep) -> HTMLResponse:
    """The room as the table on a TV or laptop: a spectator's public view, drawn large
    (static/js/screen.js), with a QR code for each open seat."""
    body = await _room_or_none(room_id, master)
    if body is None:
        return _no_room(request)
    share_url = join_url(request, room_id)
    titles = {g["id"]: g["title"] for g in lobby_games()}
    return templates.TemplateResponse(
        request,
        "screen.html",
        {
            "room_id": room_id,
            "title": titles.get(body["game"], body["game"]),
            "titles": titles,
            "share_url": share_url,
            # Short enough to type from across the room: the address without its scheme.
            "short_url": share_url.split("://", 1)[-1],
            # The QR code says the phone comes from the table screen (`?hand`): it shows its hand view.
            "qr_svg": qr_svg(f"{share_url}?hand"),
        },
    )


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
def rules(request: Request, game: str) -> HTMLResponse:
    name = _rules_template(game) if game in registry.game_ids() else None
    if name is None:
        return templates.TemplateResponse(
            request,
            "not_found.html",
            {"what": i18n.gettext("No rules page for “%(game)s” yet.", game=game)},
            status_code=404,
        )
    spec = registry.get_engine(game).spec
    blurb = next(g for g in lobby_games() if g["id"] == game)
    return templates.TemplateResponse(request, name, {"game": blurb, "data": spec.data()})
