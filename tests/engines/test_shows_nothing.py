"""`Engine.shows_nothing`: a move a game says showed nobody anything passes the takeback's whole reveal
test (cards and re-deals) in every registered game, so the server may skip the test for it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.core import Engine, conformance, game_ids, get_engine
from engines.core.takeback import why_not_reversible
from engines.mojo import MojoEngine, MojoState

MOVES = 2000  # at least this many moves of whole random matches per game


@pytest.mark.parametrize("game", list(game_ids()))
def test_a_move_said_to_show_nothing_passes_the_whole_reveal_test(game: str) -> None:
    engine = get_engine(game)
    total = conformance.ShowsNothingReport()
    seed = 0
    while total.moves < MOVES:
        report = conformance.check_shows_nothing(engine, seed)
        total.moves += report.moves
        total.shows_nothing += report.shows_nothing
        total.reversible += report.reversible
        seed += 1
    print(f"{game}: {total.moves} moves, {total.shows_nothing} said to show nothing")
    if type(engine).shows_nothing is not Engine.shows_nothing:
        # A game that answers the question answers yes somewhere, or the hook is dead code.
        assert total.shows_nothing > total.moves // 10
        assert total.reversible == total.shows_nothing


class _Boastful(MojoEngine):
    """Says every move showed nothing, a draw from a face-up pile (it uncovers the card beneath) too."""

    def shows_nothing(self, state: MojoState, seat: int, action: Any, after: MojoState) -> bool:
        return True


def test_a_game_that_says_a_revealing_move_showed_nothing_is_caught() -> None:
    with pytest.raises(AssertionError, match="was said to show nothing, but the reveal test says"):
        conformance.check_shows_nothing(_Boastful())


def test_mojo_a_play_shows_nothing_and_a_draw_from_the_pile_is_left_to_the_test() -> None:
    engine = MojoEngine()
    state = engine.setup(3, 5, engine.spec.parse_options({"double_discard": True}))
    said: dict[tuple[str, bool], int] = {}
    rng = random.Random(2)
    while engine.to_act(state):
        seat = state.current
        action = rng.choice(engine.legal_actions(state, seat))
        after = engine.apply(state, seat, action)
        if engine.round_number(after) == engine.round_number(state) and not after.over:
            nothing = engine.shows_nothing(state, seat, action, after)
            whole = why_not_reversible(engine, state, seat, action, after, 3, 1, trust_engine=False)
            said[(action["type"], nothing)] = said.get((action["type"], nothing), 0) + 1
            if nothing:
                assert whole is None
            if action["type"] == "draw":
                # Whatever its source, a draw brings a card into the hand: never said to show nothing.
                assert not nothing
        state = after
    assert ("play", True) in said and ("draw", False) in said
