"""Mooki Island: the engine and its bots, as the registry finds them."""

from .bots import BOTS, CollectorBot
from .engine import MookiIslandEngine, MookiIslandOptions, MookiIslandState

ENGINE = MookiIslandEngine()

__all__ = ["BOTS", "ENGINE", "CollectorBot", "MookiIslandEngine", "MookiIslandOptions", "MookiIslandState"]
