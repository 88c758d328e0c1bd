"""The bot interface shared by every game, and the random bot that fits any engine."""

from __future__ import annotations

import random
from typing import Any, Protocol

from .protocol import Action, Engine


class Bot(Protocol):
    """A bot picks one of `legal_actions(state, seat)`.

    It is handed the full state because it runs on the server, but a fair bot
    reads only what `engine.view(state, seat)` would show (strong bots resample
    the hidden cards before searching).
    """

    name: str

    def choose(self, state: Any, seat: int) -> Action: ...


class RandomBot:
    name = "random"

    def __init__(self, engine: Engine[Any], seed: int = 0) -> None:
        self.engine = engine
        self.rng = random.Random(seed)

    def choose(self, state: Any, seat: int) -> Action:
        return self.rng.choice(self.engine.legal_actions(state, seat))
