"""Shared engine machinery: protocol, errors, seeded RNG, registry, bots, conformance."""

from .bots import Bot, RandomBot
from .errors import EngineError, GameOver, IllegalAction, InvalidOptions, MalformedAction, NotYourTurn
from .protocol import SEAT_WIDGET, Action, Engine, GameSpec, Options, Result, Scorepad, json_copy
from .registry import all_engines, game_ids, get_bots, get_engine
from .rng import Rng

__all__ = [
    "SEAT_WIDGET",
    "Action",
    "Bot",
    "Engine",
    "EngineError",
    "GameOver",
    "GameSpec",
    "IllegalAction",
    "InvalidOptions",
    "MalformedAction",
    "NotYourTurn",
    "Options",
    "RandomBot",
    "Result",
    "Rng",
    "Scorepad",
    "all_engines",
    "game_ids",
    "get_bots",
    "get_engine",
    "json_copy",
]
