"""Mojo: the engine and its bots, as the registry finds them."""

from .bots import BOTS
from .engine import MojoEngine, MojoOptions, MojoState

ENGINE = MojoEngine()

__all__ = ["BOTS", "ENGINE", "MojoEngine", "MojoOptions", "MojoState"]
