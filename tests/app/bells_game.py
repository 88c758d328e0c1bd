"""A test game with optional actions and simultaneous turns, for the bot runner's tests.

Seats take `step`s in turn; any seat that is not to act may `ring` its bell once (an optional
action, out of turn). After every full lap of steps all seats `vote` at once. The match ends after
`laps` laps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from pydantic import Field

from engines.core import (
    Action,
    ActionWords,
    Engine,
    GameSpec,
    Options,
    RandomBot,
    Result,
    Rng,
    Scorepad,
    check_seat,
)


class BellsOptions(Options):
    laps: int = Field(default=2, ge=1, le=5)


@dataclass(frozen=True)
class BellsState:
    players: int
    laps: int
    lap: int = 0
    turn: int = 0
    steps: int = 0
    voting: tuple[int, ...] = ()  # seats still to vote; empty outside a vote
    rung: tuple[int, ...] = ()  # seats that rang, in order
    log: tuple[tuple[str, int], ...] = ()  # (type, seat), oldest first


class BellsEngine(Engine[BellsState]):
    spec = GameSpec(
        "bells",
        "Bells",
        2,
        3,
        BellsOptions,
        blurb="Step in turn, ring once, vote together.",
        hides_information=False,
        default_bot="strong",
        fallback_bot="random",
        action_words={
            "step": ActionWords(done="took a step", ask="take a step"),
            "ring": ActionWords(done="rang the bell", ask="ring the bell"),
            "vote": ActionWords(done="voted", ask="vote"),
        },
    )

    def deal(self, players: int, rng: Rng, options: Options, first: int | None) -> BellsState:
        assert isinstance(options, BellsOptions)
        return BellsState(players, options.laps)

    def to_act(self, state: BellsState) -> frozenset[int]:
        if state.lap >= state.laps:
            return frozenset()
        return frozenset(state.voting) if state.voting else frozenset({state.turn})

    def legal_actions(self, state: BellsState, seat: int) -> list[Action]:
        acting = self.to_act(state)
        if seat in acting:
            return [{"type": "vote"}] if state.voting else [{"type": "step"}]
        if acting and not state.voting and seat not in state.rung:
            return [{"type": "ring"}]
        return []

    def _apply(self, state: BellsState, seat: int, action: Action) -> BellsState:
        kind = action["type"]
        state = replace(state, log=(*state.log, (kind, seat)))
        if kind == "ring":
            return replace(state, rung=(*state.rung, seat))
        if kind == "vote":
            voting = tuple(s for s in state.voting if s != seat)
            return replace(state, voting=voting, lap=state.lap + (0 if voting else 1))
        steps = state.steps + 1
        turn = (state.turn + 1) % state.players
        if steps % state.players == 0:
            return replace(state, steps=steps, turn=turn, voting=tuple(range(state.players)))
        return replace(state, steps=steps, turn=turn)

    def view(self, state: BellsState, seat: int | None) -> dict[str, Any]:
        check_seat(seat, state.players)
        return {
            "game": self.spec.id,
            "seat": seat,
            "players": state.players,
            "round": 1,
            "events": [{"seq": i + 1, "type": t, "seat": s} for i, (t, s) in enumerate(state.log)],
        }

    def resample(self, state: BellsState, seat: int, rng: random.Random) -> BellsState:
        """Nothing is hidden in Bells: every seat knows the whole state."""
        return replace(state)

    def hidden_ids(self, state: BellsState, seat: int | None) -> frozenset[int]:
        return frozenset()

    def scorepad(self, state: BellsState) -> Scorepad:
        return Scorepad([], [0] * state.players)

    def result(self, state: BellsState) -> Result | None:
        return Result(list(range(state.players)), [0] * state.players) if state.lap >= state.laps else None

    def dump(self, state: BellsState) -> dict[str, Any]:
        return {k: [list(e) for e in v] if k == "log" else v for k, v in state.__dict__.items()}

    def load(self, data: dict[str, Any]) -> BellsState:
        def tuples(value: Any) -> Any:
            return tuple(tuples(v) for v in value) if isinstance(value, list) else value

        return BellsState(**{k: tuples(v) for k, v in data.items()})


class BellBot(RandomBot):
    """Rings its bell whenever it may (the tests replace `optional` to decline or misbehave)."""

    def optional(self, state: BellsState, seat: int) -> Action | None:
        return {"type": "ring"} if {"type": "ring"} in ENGINE.legal_actions(state, seat) else None


ENGINE = BellsEngine()
BOTS: dict[str, Any] = {"random": RandomBot, "strong": BellBot}
