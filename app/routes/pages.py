"""Server-rendered pages: the lobby, a room, and each game's rules."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import TemplateNotFound

from app.roomids import is_room_id
from app.urls import join_url
from engines.core import registry

ROOT = Path(__file__).resolve().parents[2]
templates = Jinja2Templates(directory=ROOT / "templates")

router = APIRouter()

# Game ids are public URL segments; anything else never reaches the file system.
_GAME_ID = re.compile(r"^[a-z][a-z0-9-]{0,40}$")


@dataclass(frozen=True)
class GameBlurb:
    """How the lobby introduces a game, whether or not its engine exists yet."""

    id: str
    title: str
    line: str
    min_players: int
    max_players: int | None  # None: "or more"


# The four games Motable is built for. Player counts here are the rulebooks'
# own; a game with an engine shows its engine's counts instead.
CATALOGUE: tuple[GameBlurb, ...] = (
    GameBlurb("mojo", "Mojo", "Shed your high cards, chain equal values, and dodge the +10 Mojo card.", 2, 5),
    GameBlurb(
        "moby-trick",
        "Moby Trick",
        "A whale of a trick-taking game: the token decides whether high or low wins.",
        2,
        4,
    ),
    GameBlurb("mooki-island", "Mooki Island", "Two collectors, double-sided cards, and spiders.", 2, 2),
    GameBlurb("mokuru", "Mokuru", "Flip a wooden Mokuru for real; Motable keeps the belts.", 2, None),
)


def _players(low: int, high: int | None) -> str:
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}\N{EN DASH}{high}"


def lobby_games() -> list[dict[str, Any]]:
    """The catalogue, with the games the registry can play marked playable."""
    playable = set(registry.game_ids())
    games: list[dict[str, Any]] = []
    for blurb in CATALOGUE:
        game: dict[str, Any] = {
            "id": blurb.id,
            "title": blurb.title,
            "line": blurb.line,
            "players": _players(blurb.min_players, blurb.max_players),
            "playable": blurb.id in playable,
            "has_rules": _rules_template(blurb.id) is not None,
        }
        if game["playable"]:
            spec = registry.get_engine(blurb.id).spec
            game["title"] = spec.title
            game["players"] = _players(spec.min_players, spec.max_players)
            game["min_players"] = spec.min_players
            game["max_players"] = spec.max_players
            game["options_schema"] = spec.options_schema()
        games.append(game)
    return games


def _rules_template(game: str) -> str | None:
    name = f"rules/{game}.html"
    try:
        templates.env.get_template(name)
    except TemplateNotFound:
        return None
    return name


def engine_data(game: str) -> dict[str, Any]:
    """Every JSON data file of a game's engine, keyed by file stem, so a rules
    page shows the same card table the engine plays with."""
    folder = ROOT / "engines" / game.replace("-", "_") / "data"
    if not folder.is_dir():
        return {}
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))}


@functools.lru_cache(maxsize=2048)
def qr_svg(url: str) -> str:
    """The share link as an inline SVG QR code (no image files, no client code); drawn once per room."""
    qr = segno.make(url, error="m")
    return str(qr.svg_inline(scale=5, dark="#10261b", light="#ffffff", border=2, omitsize=True))


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def lobby(request: Request) -> HTMLResponse:
    games = lobby_games()
    return templates.TemplateResponse(request, "lobby.html", {"games": games, "games_json": games})


@router.get("/r/{room_id}", response_class=HTMLResponse, include_in_schema=False)
def room(request: Request, room_id: str) -> HTMLResponse:
    if not is_room_id(room_id):  # before any work: no QR code is drawn for a made-up id
        return templates.TemplateResponse(
            request, "not_found.html", {"what": "There is no room at this address."}, status_code=404
        )
    settings = request.app.state.runtime.settings
    share_url = join_url(request, room_id)
    titles = {g["id"]: g["title"] for g in lobby_games()}
    return templates.TemplateResponse(
        request,
        "room.html",
        {
            "room_id": room_id,
            "share_url": share_url,
            "qr_svg": qr_svg(share_url),
            "titles": titles,
            "loopback_only": settings.loopback_only and settings.public_url is None,
        },
    )


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
def rules(request: Request, game: str) -> HTMLResponse:
    blurb = next((g for g in lobby_games() if g["id"] == game), None)
    name = _rules_template(game) if _GAME_ID.match(game) else None
    if name is None or blurb is None:
        return templates.TemplateResponse(
            request, "not_found.html", {"what": f"No rules page for “{game}” yet."}, status_code=404
        )
    return templates.TemplateResponse(request, name, {"game": blurb, "data": engine_data(game)})
