"""The games Motable knows, by their public ids.

A game is a module exposing `ENGINE` (an Engine whose `spec.id` is the game id)
and `BOTS` (bot name -> bot class). Modules are imported on first use, so
registering costs nothing and the registry never imports a game at start-up.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from .protocol import Engine, GameSpec

# Game ids are public URL segments and file names (templates/rules/<id>.html).
GAME_ID = re.compile(r"^[a-z][a-z0-9-]{0,40}$")

_MODULES: dict[str, str] = {}
_LOADED: dict[str, Any] = {}


def register(game_id: str, module: str) -> None:
    """Make `game_id` playable from `module`. Registering the same pair again is a no-op."""
    if not GAME_ID.match(game_id):
        raise ValueError(f"game id {game_id!r} must be lowercase letters, digits and dashes")
    if not module or not all(part.isidentifier() for part in module.split(".")):
        raise ValueError(f"{module!r} is not a Python module name")
    known = _MODULES.get(game_id)
    if known is not None and known != module:
        raise ValueError(f"game {game_id!r} is already registered from {known}")
    _MODULES[game_id] = module


def unregister(game_id: str) -> None:
    """Forget `game_id` (tests register games of their own and remove them afterwards)."""
    if game_id not in _MODULES:
        raise KeyError(f"unknown game {game_id!r}")
    del _MODULES[game_id]
    _LOADED.pop(game_id, None)


def parse_games(value: str | None) -> dict[str, str]:
    """Parse "id=module,id2=module2" (spaces and empty items allowed) into {id: module}."""
    games: dict[str, str] = {}
    for item in (value or "").split(","):
        item = item.strip()
        if not item:
            continue
        game_id, sep, module = (part.strip() for part in item.partition("="))
        if not sep or not game_id or not module:
            raise ValueError(f"MOTABLE_GAMES items look like id=package.module, not {item!r}")
        games[game_id] = module
    return games


def register_from_env(value: str | None) -> list[str]:
    """Register the games of a MOTABLE_GAMES value and load each one, so a typo fails at start.

    Returns the ids registered.
    """
    games = parse_games(value)
    for game_id, module in games.items():
        fresh = game_id not in _MODULES
        register(game_id, module)
        try:
            get_engine(game_id)
        except Exception:
            if fresh:
                unregister(game_id)
            raise
    return list(games)


def game_ids() -> list[str]:
    return list(_MODULES)


def check_bots(spec: GameSpec, bots: dict[str, Any]) -> None:
    """The descriptor's bot kinds are bots of the game: every BOTS entry a class with `choose`,
    and `default_bot` and `fallback_bot` among them."""
    for kind, bot_class in bots.items():
        if (
            not isinstance(kind, str)
            or not isinstance(bot_class, type)
            or not callable(getattr(bot_class, "choose", None))
        ):
            raise TypeError(f"{spec.id}: BOTS[{kind!r}] must be a bot class with choose(state, seat)")
    for field, kind in (("default_bot", spec.default_bot), ("fallback_bot", spec.fallback_bot)):
        if kind not in bots:
            raise ValueError(f"{spec.id}: {field} {kind!r} is not one of its BOTS ({', '.join(bots)})")


def _module(game_id: str) -> Any:
    loaded = _LOADED.get(game_id)
    if loaded is not None:
        return loaded
    try:
        name = _MODULES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}") from None
    module = importlib.import_module(name)
    engine = getattr(module, "ENGINE", None)
    if not isinstance(engine, Engine) or not isinstance(getattr(module, "BOTS", None), dict):
        raise TypeError(f"{name} must define ENGINE (an Engine) and BOTS (a dict of bot classes)")
    if engine.spec.id != game_id:
        raise ValueError(f"{name} plays {engine.spec.id!r}, registered as {game_id!r}")
    check_bots(engine.spec, module.BOTS)
    _LOADED[game_id] = module
    return module


def get_engine(game_id: str) -> Engine[Any]:
    engine: Engine[Any] = _module(game_id).ENGINE
    return engine


def get_bots(game_id: str) -> dict[str, Any]:
    bots: dict[str, Any] = _module(game_id).BOTS
    return bots


def all_engines() -> list[Engine[Any]]:
    return [get_engine(g) for g in game_ids()]


# The built-in games, one line each.
register("mojo", "engines.mojo")
register("moby-trick", "engines.moby_trick")
register("mooki-island", "engines.mooki_island")
register("mokuru", "engines.mokuru")
