"""Shared engine machinery: protocol, errors, seeded RNG, registry, bots, conformance."""

from .bots import Bot, RandomBot
from .errors import (
    EngineError,
    GameOver,
    IllegalAction,
    InvalidOptions,
    InvalidSeat,
    MalformedAction,
    NotYourTurn,
    check_seat,
)
from .protocol import (
    SEAT_WIDGET,
    Action,
    Engine,
    GameSpec,
    Options,
    Panel,
    Result,
    Scorepad,
    Starter,
    Winner,
    json_copy,
    seat_option,
    seat_widget,
)
from .registry import all_engines, game_ids, get_bots, get_engine, register, unregister
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
    "InvalidSeat",
    "MalformedAction",
    "NotYourTurn",
    "Options",
    "Panel",
    "RandomBot",
    "Result",
    "Rng",
    "Scorepad",
    "Starter",
    "Winner",
    "all_engines",
    "check_seat",
    "game_ids",
    "get_bots",
    "get_engine",
    "json_copy",
    "register",
    "seat_option",
    "seat_widget",
    "unregister",
]
