"""Optional actions out of turn: the protocol accepts them, conformance checks them."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from engines.core import (
    Action,
    ActionWords,
    Engine,
    EngineError,
    GameSpec,
    Options,
    Result,
    Rng,
    Scorepad,
    check_seat,
)
from engines.core.conformance import check_waiting, optional_moves, random_playout


@dataclass
class CountState:
    count: int = 0
    turn: int = 0
    bells: int = 0  # rung out of turn by the seat that is not counting


class CountEngine(Engine[CountState]):
    """Two seats count to 6 in turn; whoever is not counting may ring a bell once per number."""

    spec = GameSpec(
        id="count",
        title="Count",
        min_players=2,
        max_players=2,
        options_model=Options,
        action_words={
            "count": ActionWords(done="counted", ask="count"),
            "bell": ActionWords(done="rang the bell", ask="ring the bell"),
        },
    )

    def __init__(self, stall: bool = False) -> None:
        self.stall = stall

    def deal(self, players: int, rng: Rng, options: Options, first: int | None) -> CountState:
        return CountState()

    def to_act(self, state: CountState) -> frozenset[int]:
        if state.count >= 6:
            return frozenset()
        if self.stall and state.bells < state.count:
            return frozenset()  # a broken engine: it waits for the optional bell
        return frozenset((state.turn,))

    def legal_actions(self, state: CountState, seat: int) -> list[Action]:
        if state.count >= 6:
            return []
        if seat == state.turn:
            return [{"type": "count"}]
        return [{"type": "bell"}] if state.bells < state.count else []

    def _apply(self, state: CountState, seat: int, action: Action) -> CountState:
        if action["type"] == "bell":
            return CountState(state.count, state.turn, state.count)
        return CountState(state.count + 1, 1 - state.turn, state.bells)

    def view(self, state: CountState, seat: int | None) -> dict[str, Any]:
        check_seat(seat, 2)
        return {"game": "count", "seat": seat, "players": 2, "round": 1, "events": [], "count": state.count}

    def hidden_ids(self, state: CountState, seat: int | None) -> frozenset[int]:
        return frozenset()

    def resample(self, state: CountState, seat: int, rng: random.Random) -> CountState:
        return CountState(**state.__dict__)  # nothing is hidden

    def scorepad(self, state: CountState) -> Scorepad:
        return Scorepad(totals=[0, 0])

    def result(self, state: CountState) -> Result | None:
        return Result([0], [0, 0]) if state.count >= 6 else None

    def dump(self, state: CountState) -> dict[str, Any]:
        return {"count": state.count, "turn": state.turn, "bells": state.bells}

    def load(self, data: dict[str, Any]) -> CountState:
        return CountState(**data)


ENGINE = CountEngine()


def test_a_seat_out_of_turn_may_take_its_optional_action() -> None:
    state = ENGINE.apply(ENGINE.setup(2, 1, Options()), 0, {"type": "count"})
    assert ENGINE.to_act(state) == {1}
    rung = ENGINE.apply(state, 0, {"type": "bell"})
    assert rung.bells == 1 and rung.turn == 1
    assert optional_moves(ENGINE, rung, 2) == []


def test_an_action_out_of_turn_that_is_not_listed_is_not_your_turn() -> None:
    state = ENGINE.setup(2, 1, Options())
    with pytest.raises(EngineError) as err:
        ENGINE.apply(state, 1, {"type": "bell"})  # nothing counted yet: no bell to ring
    assert err.value.code == "not_your_turn"
    state = ENGINE.apply(state, 0, {"type": "count"})
    with pytest.raises(EngineError) as err:
        ENGINE.apply(state, 0, {"type": "count"})
    assert err.value.code == "not_your_turn"


def test_a_seat_in_turn_sending_an_unlisted_action_is_illegal() -> None:
    state = ENGINE.setup(2, 1, Options())
    with pytest.raises(EngineError) as err:
        ENGINE.apply(state, 0, {"type": "bell"})
    assert err.value.code == "illegal_action"


@pytest.mark.parametrize("optional", [0.0, 0.5, 1.0])
def test_random_playouts_take_optional_actions_and_still_end(optional: float) -> None:
    playout = random_playout(ENGINE, 2, 3, optional=optional, check_every_step=True)
    bells = [a for _, a in playout.actions if a["type"] == "bell"]
    assert (len(bells) > 0) == (optional > 0)
    assert ENGINE.result(playout.final) is not None


def test_conformance_catches_a_game_waiting_on_an_optional_action() -> None:
    stalling = CountEngine(stall=True)
    state = stalling.apply(stalling.setup(2, 1, Options()), 0, {"type": "count"})
    with pytest.raises(AssertionError, match="to_act empty <=> result"):
        check_waiting(stalling, state, 2)
