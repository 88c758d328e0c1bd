"""Moby Trick: the engine and its bots, as the registry expects them."""

from .bots import BOTS
from .engine import MobyTrickEngine

ENGINE = MobyTrickEngine()

__all__ = ["BOTS", "ENGINE", "MobyTrickEngine"]
