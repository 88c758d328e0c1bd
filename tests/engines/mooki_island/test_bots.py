"""Mooki Island bots: legal moves only, decisions from what the seat could know."""

from __future__ import annotations

import pytest

from engines.mooki_island import BOTS, ENGINE, CollectorBot

from .helpers import UP, build, play, take


def test_bots_are_exported_under_their_names() -> None:
    assert set(BOTS) == {"random", "strong"}
    assert BOTS["strong"] is CollectorBot


@pytest.mark.parametrize(
    ("first", "second"), [("strong", "random"), ("random", "strong"), ("strong", "strong")]
)
def test_bots_play_whole_matches_legally(first: str, second: str) -> None:
    for seed in range(15):
        bots = [BOTS[first](ENGINE, seed), BOTS[second](ENGINE, seed + 1)]
        state = ENGINE.setup(2, seed, ENGINE.spec.parse_options({}))
        while acting := ENGINE.to_act(state):
            (seat,) = acting
            action = bots[seat].choose(state, seat)
            assert action in ENGINE.legal_actions(state, seat)
            state = ENGINE.apply(state, seat, action)
        assert ENGINE.result(state) is not None


def test_the_collector_keeps_the_mooki_that_wins_a_race() -> None:
    # Seat 0 leads the Fossil race 2-1; a Fossil or a Spider on seat 1 who has no spiders yet.
    state = build([["moon"] * 5, ["leaf"] * 5 + ["fossil/spider"]], [["fossil", "fossil"], ["fossil"]])
    state = play(state, take(1))
    assert CollectorBot(ENGINE).choose(state, 0) == UP


def test_the_collector_sends_a_spider_rather_than_a_useless_mooki() -> None:
    # Seat 1 holds more Seashells than seat 0 could catch up with; the Spider hurts seat 1 instead.
    state = build(
        [["moon"] * 2, ["leaf"] * 2 + ["seashell/spider"]],
        [["sun", "sun", "moon"], ["seashell"] * 5],
    )
    state = play(state, take(1))
    assert CollectorBot(ENGINE).choose(state, 0) == {"type": "place", "side": "lower"}


def test_the_spider_takes_the_cheapest_trophy() -> None:
    state = build([["sun"], ["moon"]], [["moon", "fossil", "seashell", "spider", "spider"], []])
    state = play(state, take(0), UP)
    assert CollectorBot(ENGINE).choose(state, 0) == {"type": "return", "family": "seashell"}


def test_the_choice_does_not_depend_on_cards_it_cannot_see() -> None:
    base = [["moon", "sun", "leaf", "fossil"], ["seashell", "leaf", "moon", "sun"]]
    collections = [["fossil", "moon"], ["leaf"]]
    first = build([p[:] for p in base], collections)
    shuffled = [[p[2], p[0], p[1], p[3]] for p in base]  # the same tops, other cards beneath
    second = build(shuffled, collections)
    assert CollectorBot(ENGINE, seed=4).choose(first, 0) == CollectorBot(ENGINE, seed=4).choose(second, 0)
