"""Mokuru: the engine and its bots, as the registry expects them."""

from .bots import BOTS
from .engine import MokuruEngine

ENGINE = MokuruEngine()

__all__ = ["BOTS", "ENGINE", "MokuruEngine"]
