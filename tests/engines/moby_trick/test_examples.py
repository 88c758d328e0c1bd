"""The Moby Trick rulebook's worked examples, replayed on the engine."""

from __future__ import annotations

from engines.moby_trick.cards import CARDS
from engines.moby_trick.engine import LEAD, MobyTrickState

from .helpers import ENGINE, build, card, five, play, use

ANDREY, TYOMA, LENA, ZHENYA = range(4)


def test_example_of_a_trick_andrey_tyoma_lena_zhenya() -> None:
    narwhal_2 = card("narwhal", 2)
    tyoma_flip = card("orca", 1)
    state: MobyTrickState = build(
        [
            [narwhal_2, card("orca", 7)],
            [card("narwhal", 6), card("orca", 3)],
            [card("blue_whale", 9), card("orca", 4)],
            [five(), card("narwhal", 8)],
        ],
        trump="blue_whale",
        token=1,
        leader=ANDREY,
        bonuses=[[], [tyoma_flip], [], []],
    )
    assert CARDS[narwhal_2].pearls == 3

    state = play(state, ANDREY, narwhal_2)
    # Tyoma flips the token before playing: now the highest value wins.
    assert {"type": "use_bonus", "card": tyoma_flip} in ENGINE.legal_actions(state, TYOMA)
    state = use(state, TYOMA, tyoma_flip)
    assert state.token == 9 and state.trump == "blue_whale"
    assert tyoma_flip in state.discard_pile
    assert ENGINE.legal_actions(state, TYOMA) == [{"type": "play", "card": card("narwhal", 6)}]
    state = play(state, TYOMA, card("narwhal", 6))
    # Lena has no narwhal, so any card goes: she plays the trump 9.
    assert len(ENGINE.legal_actions(state, LENA)) == 2
    state = play(state, LENA, card("blue_whale", 9))
    # Zhenya holds a narwhal but a 5 may be played at any moment.
    assert {"type": "play", "card": five()} in ENGINE.legal_actions(state, ZHENYA)
    state = play(state, ZHENYA, five())

    assert ENGINE.to_act(state) == {LENA}
    rewards = ENGINE.legal_actions(state, LENA)
    assert {"type": "reward", "card": narwhal_2} in rewards
    assert {"type": "reward", "card": card("blue_whale", 9)} not in rewards  # never her own card
    state = ENGINE.apply(state, LENA, {"type": "reward", "card": narwhal_2})

    assert sorted(state.pearl_piles[LENA]) == sorted([card("narwhal", 6), card("blue_whale", 9), five()])
    assert state.bonuses[ANDREY] == [narwhal_2]
    # Zhenya's 5 was not chosen, so Zhenya names the next leader.
    assert state.phase == LEAD and ENGINE.to_act(state) == {ZHENYA}
    state = ENGINE.apply(state, ZHENYA, {"type": "choose_leader", "seat": TYOMA})
    assert state.leader == TYOMA and ENGINE.to_act(state) == {TYOMA}
    # Andrey may use the narwhal 2's bonus before his next card, in the same round.
    state = play(state, TYOMA, card("orca", 3))
    state = play(state, LENA, card("orca", 4))
    state = play(state, ZHENYA, card("narwhal", 8))
    assert {"type": "use_bonus", "card": narwhal_2} in ENGINE.legal_actions(state, ANDREY)


def test_scoring_example_seven_pearls_and_three_unused_bonuses_make_eight() -> None:
    pearls = [card("orca", v) for v in (1, 2, 3, 4, 6, 7, 8)]
    unused = [card("narwhal", 1), card("narwhal", 3), card("narwhal", 4)]
    state = build(
        [
            [card("sperm_whale", 1)],
            [card("sperm_whale", 2)],
            [card("sperm_whale", 3)],
            [card("sperm_whale", 9)],
        ],
        trump="orca",
        token=1,
        trick_number=8,
        bonuses=[[], [], [], unused],
        pearl_piles=[[], [], [], pearls],
    )
    # The last trick: seat 0 wins with the sperm whale 1 and takes seat 1's card.
    for seat, value in enumerate((1, 2, 3, 9)):
        state = play(state, seat, card("sperm_whale", value))
    state = ENGINE.apply(state, 0, {"type": "reward", "card": card("sperm_whale", 2)})
    zhenya_points = ENGINE.scorepad(state).rounds[0][ZHENYA]
    assert zhenya_points == 7 + 1 == 8
