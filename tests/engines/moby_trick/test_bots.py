"""Moby Trick bots: they play legal actions only and decide from what their seat can see."""

from __future__ import annotations

import pytest

from engines.moby_trick import BOTS
from engines.moby_trick.bots import MonteCarloBot
from engines.moby_trick.cards import CARDS

from .helpers import ENGINE, all_cards, build, card, five, play


def test_bots_are_exported_under_their_names() -> None:
    assert set(BOTS) == {"random", "strong"}
    assert BOTS["strong"] is MonteCarloBot


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_strong_bot_table_plays_a_whole_game(players: int) -> None:
    bots = [MonteCarloBot(ENGINE, seed=s, rollouts=12) for s in range(players)]
    state = ENGINE.setup(players, 40 + players, ENGINE.spec.parse_options({"target": 12}))
    while acting := ENGINE.to_act(state):
        seat = min(acting)
        action = bots[seat].choose(state, seat)
        assert action in ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, action)
    assert ENGINE.result(state) is not None


def test_the_choice_does_not_depend_on_cards_the_seat_cannot_see() -> None:
    mine = [card("orca", 2), card("orca", 7), card("narwhal", 9), five(0)]
    theirs = [
        [card("orca", 1), card("narwhal", 3), card("sperm_whale", 4), card("blue_whale", 6)],
        [card("orca", 9), card("narwhal", 1), card("sperm_whale", 8), five(1)],
    ]
    choices = []
    for hands in (theirs, theirs[::-1]):
        flip = card("sperm_whale", 1)
        state = build([mine, *hands], trump="narwhal", token=9, bonuses=[[flip], [], []], trick_number=5)
        choices.append(MonteCarloBot(ENGINE, seed=3, rollouts=60).choose(state, 0))
    assert choices[0] == choices[1]


def test_a_pearl_bonus_is_cashed_before_playing() -> None:
    pearl = card("orca", 3)
    state = build([[card("narwhal", 1), card("narwhal", 2)], [card("narwhal", 3)]], bonuses=[[pearl], []])
    assert MonteCarloBot(ENGINE, seed=1).choose(state, 0) == {"type": "use_bonus", "card": pearl}


def test_the_last_player_takes_a_trick_worth_taking() -> None:
    # Seat 2 can win with the trump 9 (token on 9) and collect the 3-pearl orca 3.
    state = build(
        [
            [card("orca", 3), card("sperm_whale", 1)],
            [card("orca", 6), card("sperm_whale", 2)],
            [card("blue_whale", 9), card("sperm_whale", 3)],
        ],
        trump="blue_whale",
        token=9,
        trick_number=7,
    )
    state = play(play(state, 0, card("orca", 3)), 1, card("orca", 6))
    assert MonteCarloBot(ENGINE, seed=5).choose(state, 2) == {"type": "play", "card": card("blue_whale", 9)}


def test_resampled_worlds_keep_what_the_seat_sees_and_the_known_voids() -> None:
    state = ENGINE.setup(3, 21, ENGINE.spec.parse_options({}))
    bot = MonteCarloBot(ENGINE, seed=2)
    while state.round_number == 1 and state.trick_number < 5:
        seat = min(ENGINE.to_act(state))
        state = ENGINE.apply(state, seat, bot.choose(state, seat))
    state.voids[1] = ["orca"]
    state.voids[2] = ["narwhal", "sperm_whale"]
    for _ in range(50):
        world = bot._world(state, 0)
        assert sorted(all_cards(world)) == sorted(all_cards(state))
        assert world.hands[0] == state.hands[0] and world.bonuses == state.bonuses
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        for s in (1, 2):
            assert not [c for c in world.hands[s] if CARDS[c].family in state.voids[s]]
