"""`Engine.foreseeable`: a move a game calls foreseeable has the same outcome, for its mover and for a
spectator, on every re-deal of what the mover cannot see, in every registered game; the takeback's
reveal test then skips its re-deals and still decides as it would with them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.core import Engine, conformance, game_ids, get_engine
from engines.core.takeback import RESAMPLES, why_not_reversible
from engines.mojo import MojoEngine, MojoState

MOVES = 3000  # at least this many moves of whole random matches per game


def _report(engine: Engine[Any], moves: int = MOVES) -> conformance.ForeseeableReport:
    total = conformance.ForeseeableReport()
    seed = 0
    while total.moves < moves:
        total.absorb(conformance.check_foreseeable(engine, seed))
        seed += 1
    return total


@pytest.mark.parametrize("game", list(game_ids()))
def test_a_move_called_foreseeable_has_one_outcome_on_every_redeal(game: str) -> None:
    engine = get_engine(game)
    report = _report(engine)
    print(f"{game}: {report.moves} moves, {report.foreseeable} foreseeable, {report.resamples} re-deals")
    if type(engine).foreseeable is not Engine.foreseeable:
        # A game that answers the question answers yes somewhere, or the hook is dead code.
        assert report.foreseeable > report.moves // 10
        assert report.resamples == 6 * report.foreseeable


class _OverconfidentMojo(MojoEngine):
    """Calls every move foreseeable, a draw from the deck included."""

    def foreseeable(self, state: MojoState, seat: int, action: Any, after: MojoState) -> bool:
        return True


def test_a_game_that_calls_a_deck_draw_foreseeable_is_caught() -> None:
    with pytest.raises(AssertionError, match="called foreseeable, but on a re-deal"):
        conformance.check_foreseeable(_OverconfidentMojo(), runs=2)


def test_the_reveal_test_skips_its_redeals_for_a_foreseeable_move_and_decides_the_same() -> None:
    class Counting(MojoEngine):
        redeals = 0

        def resample(self, state: MojoState, seat: int, rng: random.Random) -> MojoState:
            Counting.redeals += 1
            return super().resample(state, seat, rng)

    class Unsure(Counting):
        def foreseeable(self, state: MojoState, seat: int, action: Any, after: MojoState) -> bool:
            return False

    engine, unsure = Counting(), Unsure()
    rng = random.Random(4)
    state = engine.setup(4, 11, engine.spec.parse_options({}))
    compared = 0
    while engine.to_act(state) and compared < 30:
        seat = state.current
        action = rng.choice(engine.legal_actions(state, seat))
        after = engine.apply(state, seat, action)
        if engine.foreseeable(state, seat, action, after):
            Counting.redeals = 0
            verdict = why_not_reversible(engine, state, seat, action, after, 4, seed=7)
            assert Counting.redeals == 0
            # The same move decided with its re-deals: they run, and agree.
            assert why_not_reversible(unsure, state, seat, action, after, 4, seed=7) == verdict
            assert Counting.redeals == (RESAMPLES if verdict is None else 0)
            compared += verdict is None
        state = after
    assert compared == 30
