"""`Engine.shows_nothing` and `Engine.shows_the_mover_a_card`: in every registered game, a move a game
says showed nobody anything passes the takeback's whole reveal test (cards and re-deals), and a move
it says showed its mover a card is refused by that test for just that, so the server may take the
game's word for either."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.core import Engine, conformance, game_ids, get_engine
from engines.core.takeback import SHOWED_YOU, why_not_reversible
from engines.mojo import MojoEngine, MojoState

MOVES = 2000  # at least this many moves of whole random matches per game


@pytest.mark.parametrize("game", list(game_ids()))
def test_the_game_word_on_what_a_move_showed_agrees_with_the_whole_reveal_test(game: str) -> None:
    engine = get_engine(game)
    total = conformance.RevealHooksReport()
    seed = 0
    while total.moves < MOVES:
        total.absorb(conformance.check_reveal_hooks(engine, seed))
        seed += 1
    print(
        f"{game}: {total.moves} moves, {total.shows_nothing} showed nothing, {total.shows_the_mover} a card"
    )
    # A game that answers a question answers yes somewhere, or the hook is dead code.
    if type(engine).shows_nothing is not Engine.shows_nothing:
        assert total.shows_nothing > total.moves // 10
    if type(engine).shows_the_mover_a_card is not Engine.shows_the_mover_a_card:
        assert total.shows_the_mover > total.moves // 20


class _Boastful(MojoEngine):
    """Says every move showed nothing, a draw from a face-up pile (it uncovers the card beneath) too."""

    def shows_nothing(self, state: MojoState, seat: int, action: Any, after: MojoState) -> bool:
        return True

    def shows_the_mover_a_card(self, state: MojoState, seat: int, action: Any, after: MojoState) -> bool:
        return False


class _Gloomy(MojoEngine):
    """Says every move showed its mover a card, a card played from the hand too."""

    def shows_nothing(self, state: MojoState, seat: int, action: Any, after: MojoState) -> bool:
        return False

    def shows_the_mover_a_card(self, state: MojoState, seat: int, action: Any, after: MojoState) -> bool:
        return True


def test_a_game_that_says_a_revealing_move_showed_nothing_is_caught() -> None:
    with pytest.raises(AssertionError, match="was said to show nothing, but the reveal test says"):
        conformance.check_reveal_hooks(_Boastful())


def test_a_game_that_says_a_play_showed_the_mover_a_card_is_caught() -> None:
    with pytest.raises(AssertionError, match="was said to show the mover a card, but the reveal test says"):
        conformance.check_reveal_hooks(_Gloomy())


def test_mojo_a_play_shows_nothing_a_deck_draw_shows_the_mover_and_a_pile_draw_is_left_to_the_test() -> None:
    engine = MojoEngine()
    state = engine.setup(3, 5, engine.spec.parse_options({"double_discard": True}))
    said: dict[tuple[str, str], int] = {}
    rng = random.Random(2)
    while engine.to_act(state):
        seat = state.current
        action = rng.choice(engine.legal_actions(state, seat))
        after = engine.apply(state, seat, action)
        if engine.round_number(after) == engine.round_number(state) and not after.over:
            nothing = engine.shows_nothing(state, seat, action, after)
            to_mover = engine.shows_the_mover_a_card(state, seat, action, after)
            whole = why_not_reversible(engine, state, seat, action, after, 3, 1, trust_engine=False)
            word = "nothing" if nothing else "a card" if to_mover else "unsaid"
            said[(action["type"], word)] = said.get((action["type"], word), 0) + 1
            if nothing:
                assert whole is None
            if to_mover:
                assert whole == SHOWED_YOU
            if action["type"] == "draw" and action["source"] == "pile":
                # It uncovers the pile's next card: the game leaves it to the test.
                assert not nothing and not to_mover
        state = after
    assert ("play", "nothing") in said and ("draw", "a card") in said and ("draw", "unsaid") in said
