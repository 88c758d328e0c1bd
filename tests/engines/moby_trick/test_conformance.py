"""Moby Trick under the shared conformance checks: seeded random playouts for 2, 3 and 4 players."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.core.conformance import random_playout, replay
from engines.moby_trick.engine import OVER

from .helpers import ENGINE, all_cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_conform(players: int) -> None:
    for seed in range(34):
        playout = random_playout(ENGINE, players, seed, check_every_step=seed < 3)
        final = playout.final
        assert final.phase == OVER
        result = ENGINE.result(final)
        assert result is not None and max(result.scores) >= final.target
        assert result.winners == [result.scores.index(max(result.scores))]
        if seed % 10 == 0:
            assert ENGINE.dump(replay(ENGINE, playout)) == ENGINE.dump(final)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cards_are_conserved_at_every_step(players: int) -> None:
    rng = random.Random(players)
    deck_size = 32 if players == 2 else 36
    state = ENGINE.setup(players, 99, ENGINE.spec.parse_options({}))
    while ENGINE.to_act(state):
        cards = all_cards(state)
        assert len(cards) == deck_size and not [c for c, n in Counter(cards).items() if n > 1]
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("raw", [{"fives_can_win": True}, {"full_reward": False}])
def test_random_playouts_conform_with_the_rule_options(players: int, raw: dict[str, bool]) -> None:
    options = ENGINE.spec.parse_options(raw)
    for seed in range(8):
        playout = random_playout(ENGINE, players, seed, options, check_every_step=seed < 2)
        assert playout.final.phase == OVER
        assert all(getattr(playout.final, key) == value for key, value in raw.items())
        assert ENGINE.dump(replay(ENGINE, playout)) == ENGINE.dump(playout.final)
