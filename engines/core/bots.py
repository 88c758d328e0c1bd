"""The bot interface shared by every game, and the random bot that fits any engine."""

from __future__ import annotations

import inspect
import random
from typing import Any, Protocol, runtime_checkable

from .protocol import Action, Engine


class Bot(Protocol):
    """A bot picks one of `legal_actions(state, seat)`.

    It is handed the full state because it runs on the server, but a fair bot
    reads only what `engine.view(state, seat)` would show and what its seat saw
    before (strong bots resample the hidden cards before searching). The
    conformance suite holds every bot to it: `choose(state, seat)` must equal
    `choose(engine.resample(state, seat, rng), seat)` for a bot built with the
    same seed (`conformance.check_resample`, tests/engines/test_resample.py).
    """

    name: str

    def choose(self, state: Any, seat: int) -> Action: ...


@runtime_checkable
class OptionalActionBot(Protocol):
    """A bot that may act out of turn: besides `choose`, its `optional(state, seat)` returns one
    of the seat's optional actions (`legal_actions` of a seat outside `to_act`, e.g. Mokuru's
    Immunity) worth taking now, or None to let the game go on. The bot runner asks only bot kinds
    that implement this (see `takes_optional_actions`)."""

    def choose(self, state: Any, seat: int) -> Action: ...

    def optional(self, state: Any, seat: int) -> Action | None: ...


def _methods(protocol: type) -> dict[str, inspect.Signature]:
    """The methods a protocol class declares, with their signatures."""
    return {
        name: inspect.signature(value)
        for name, value in vars(protocol).items()
        if not name.startswith("_") and inspect.isfunction(value)
    }


def _fits(method: Any, wanted: inspect.Signature) -> bool:
    """`method` (looked up on a class) can be called as the protocol's method is: with as many
    positional arguments (self included); extra parameters need defaults."""
    if not callable(method):
        return False
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError):
        return False
    try:
        signature.bind(*[None] * len(wanted.parameters))
    except TypeError:
        return False
    return True


def takes_optional_actions(bot_class: Any) -> bool:
    """Whether a bot kind (a class in a game's BOTS) implements OptionalActionBot: every method
    of the protocol (`choose`, `optional`), callable with the protocol's arguments (state, seat).
    A kind without it is never offered optional actions.

    The check is made afresh each time, by shape: `issubclass(cls, OptionalActionBot)` only sees
    that attributes of those names exist, and ABCMeta caches its answer for the class."""
    if not isinstance(bot_class, type):
        return False
    return all(
        _fits(getattr(bot_class, name, None), wanted) for name, wanted in _methods(OptionalActionBot).items()
    )


def goes_on(bot_class: Any, action: Action) -> bool:
    """Whether a bot of this kind (a class in a game's BOTS), having just taken `action`, goes straight
    on with the same turn: the action's type is in the class's `turn_goes_on_after` (e.g. Mooki
    Island's take, whose place follows). The bot runner then waits only a short step before the rest
    of the turn instead of a bot's full delay (app/playing/bots.py GOES_ON), so a turn of several steps
    takes about as long as a turn of one. A kind without the attribute takes every step at the usual
    pace; the answer never changes what a bot may choose."""
    kinds = getattr(bot_class, "turn_goes_on_after", None)
    return isinstance(kinds, frozenset) and isinstance(action, dict) and action.get("type") in kinds


class RandomBot:
    name = "random"

    def __init__(self, engine: Engine[Any], seed: int = 0) -> None:
        self.engine = engine
        self.rng = random.Random(seed)

    def choose(self, state: Any, seat: int) -> Action:
        return self.rng.choice(self.engine.legal_actions(state, seat))
