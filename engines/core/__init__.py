"""Shared engine machinery: protocol, errors, seeded RNG, registry, bots, conformance."""

from .bots import Bot, RandomBot
from .codec import StateCodec
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
from .events import Event, log_event, upgrade_events
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
    is_listed,
    json_copy,
    seat_option,
    seat_widget,
)
from .registry import all_engines, game_ids, get_bots, get_engine, register, unregister
from .replay import ReplayError, replay, replay_states, seed_commitment
from .rng import Rng

__all__ = [
    "SEAT_WIDGET",
    "Action",
    "Bot",
    "Engine",
    "EngineError",
    "Event",
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
    "ReplayError",
    "Result",
    "Rng",
    "Scorepad",
    "Starter",
    "StateCodec",
    "Winner",
    "all_engines",
    "check_seat",
    "game_ids",
    "get_bots",
    "get_engine",
    "is_listed",
    "json_copy",
    "log_event",
    "register",
    "replay",
    "replay_states",
    "seat_option",
    "seat_widget",
    "seed_commitment",
    "unregister",
    "upgrade_events",
]
