"""Replaying a match from its seed and action log, and the seed commitment published at its start.

The server's verifier (`motable verify`), the public-log checker (app/fairness.py)
and the tests all replay through here, so a match means the same thing to each.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from .errors import EngineError
from .protocol import Action, Engine, Options
from .takeback import History


def seed_commitment(seed: int) -> str:
    """sha256 of the seed's decimal digits: published at the start, checked once the seed is revealed."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


class ReplayError(Exception):
    """An action of the log that the engine refuses on replay."""

    def __init__(self, number: int, seat: int, action: Any, error: EngineError) -> None:
        super().__init__(f"action {number} by seat {seat} is refused on replay: {error.message}")
        self.number = number  # 1-based position in the replayed actions
        self.seat = seat
        self.action = action
        self.error = error


def replay_states(
    engine: Engine[Any],
    players: int,
    seed: int,
    options: Options | dict[str, Any] | None,
    actions: Iterable[tuple[int, Action]],
) -> Iterator[Any]:
    """The state after setup, then the state after each action in turn (a takeback entry,
    engines/core/takeback.py, returns to the state before the action it follows).

    Raises ReplayError at the first action the engine refuses (an EngineError from
    setup, e.g. bad options, passes through as it is).
    """
    if not isinstance(options, Options):
        options = engine.spec.parse_options(options)
    history = History(engine, engine.setup(players, seed, options))
    yield history.state
    for number, (seat, action) in enumerate(actions, start=1):
        try:
            yield history.apply(seat, action)
        except EngineError as error:
            raise ReplayError(number, seat, action, error) from error


def replay(
    engine: Engine[Any],
    players: int,
    seed: int,
    options: Options | dict[str, Any] | None,
    actions: Iterable[tuple[int, Action]],
) -> Any:
    """The state a match reaches from its seed, options and actions (ReplayError if one is refused)."""
    return deque(replay_states(engine, players, seed, options, actions), maxlen=1)[0]
