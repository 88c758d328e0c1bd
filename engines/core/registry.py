"""The games Motable knows, by their public ids."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from .protocol import Engine

# Public game id -> module exposing ENGINE (an Engine) and BOTS (name -> bot class).
_MODULES: dict[str, str] = {
    "mojo": "engines.mojo",
    "moby-trick": "engines.moby_trick",
    "mooki-island": "engines.mooki_island",
}


def game_ids() -> list[str]:
    return list(_MODULES)


@cache
def _module(game_id: str) -> Any:
    try:
        name = _MODULES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}") from None
    return importlib.import_module(name)


def get_engine(game_id: str) -> Engine[Any]:
    engine: Engine[Any] = _module(game_id).ENGINE
    return engine


def get_bots(game_id: str) -> dict[str, Any]:
    bots: dict[str, Any] = _module(game_id).BOTS
    return bots


def all_engines() -> list[Engine[Any]]:
    return [get_engine(g) for g in game_ids()]
