"""Mokuru bots: whole matches without an illegal choice, and rival choices a player would make."""

from __future__ import annotations

import pytest

from engines.core import RandomBot
from engines.mokuru import BOTS, ENGINE
from engines.mokuru.bots import RivalBot, success_chance
from engines.mokuru.cards import CARDS
from engines.mokuru.engine import SPENT

from .helpers import act, action, draw, game, keep, report, stack, trick


def test_bots_are_exported_under_their_names() -> None:
    assert {"random": RandomBot, "rival": RivalBot, "strong": RivalBot} == BOTS


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("witness", ["on", "off"])
def test_whole_matches_between_rival_and_random_bots(players: int, witness: str) -> None:
    levels = ["easy", "normal", "hard", "extreme"]
    for seed in range(3):
        bots = [
            RivalBot(ENGINE, seed=seed + s, level=levels[s % 4])
            if s % 2 == 0
            else RandomBot(ENGINE, seed + s)
            for s in range(players)
        ]
        state = ENGINE.setup(players, seed, ENGINE.spec.parse_options({"witness": witness}))
        for _ in range(20_000):
            acting = ENGINE.to_act(state)
            if not acting:
                break
            for seat in range(players):
                bot = bots[seat]
                extra = bot.optional(state, seat) if isinstance(bot, RivalBot) else None
                if extra is not None and seat not in acting:
                    assert extra in ENGINE.legal_actions(state, seat)
                    state = ENGINE.apply(state, seat, extra)
                    break
            else:
                seat = min(acting)
                choice = bots[seat].choose(state, seat)
                assert choice in ENGINE.legal_actions(state, seat)
                state = ENGINE.apply(state, seat, choice)
        result = ENGINE.result(state)
        assert result is not None and state.belts[result.winners[0]] == state.grandmaster


def test_success_chance_falls_with_category_difficulty_and_the_mini_mokuru() -> None:
    basic, master = CARDS[trick("Flip")], CARDS[trick("5 Flips", "Master")]
    assert success_chance(basic, "easy") > success_chance(basic, "extreme") > 0
    assert success_chance(basic, "normal") > success_chance(master, "normal")
    assert success_chance(basic, "normal", mini=True) < success_chance(basic, "normal")


def test_the_rival_aims_negative_boost_and_belt_steal_at_the_leader() -> None:
    for key in ("negative_boost", "belt_steal", "the_doom"):
        state = game(4)
        state.belts = [1, 2, 5, 3]
        state = draw(stack(state, action(key), trick("Flip")))
        assert RivalBot(ENGINE).choose(state, 0) == {"type": "target", "seat": 2}, key


def test_the_rival_boosts_itself_and_duels_the_weakest() -> None:
    state = draw(stack(game(3), action("positive_boost"), trick("Flip")))
    assert RivalBot(ENGINE).choose(state, 0) == {"type": "target", "seat": 0}
    state = game(3)
    state.belts = [2, 4, 1]
    state = draw(stack(state, action("duel"), trick("Flip")))
    assert RivalBot(ENGINE).choose(state, 0) == {"type": "target", "seat": 2}


def test_the_rival_uses_immunity_when_it_matters() -> None:
    state = keep(game(3), 1, "immunity")
    state = act(draw(stack(state, action("negative_boost"), trick("Flip"))), 0, "target", seat=1)
    assert RivalBot(ENGINE).optional(state, 1) == {"type": "immunity"}
    state = draw(
        stack(
            keep(game(3, levels=["extreme", "normal", "normal"]), 0, "immunity"), trick("Square", "Advanced")
        )
    )
    assert RivalBot(ENGINE).choose(state, 0)["type"] == "report", "not while tries are left"
    spent = report(state, 0, "missed")
    assert spent.phase == SPENT and RivalBot(ENGINE).choose(spent, 0) == {"type": "immunity"}


def test_the_rival_imposes_a_hard_trick_under_darkness() -> None:
    state = draw(stack(game(3), action("darkness")))
    chosen = CARDS[RivalBot(ENGINE).choose(state, 0)["card"]]
    assert success_chance(chosen, "normal") <= min(
        success_chance(CARDS[c], "normal") for c in state.deck if CARDS[c].is_trick
    )


def test_the_rival_gives_away_a_hard_trick_to_the_leader() -> None:
    state = keep(game(3), 0, "give_a_trick")
    state.belts = [0, 1, 4]
    state = draw(stack(state, trick("Crossroad", "Challenge")))
    assert RivalBot(ENGINE).choose(state, 0) == {"type": "give", "seat": 2}
    easy = draw(stack(keep(game(3), 0, "give_a_trick"), trick("Flip")))
    assert RivalBot(ENGINE).choose(easy, 0)["type"] == "report"


def test_the_rival_steals_an_easy_trick_only() -> None:
    state = keep(game(3), 2, "steal_a_trick")
    assert RivalBot(ENGINE).optional(draw(stack(state, trick("Flip"))), 2) == {"type": "steal"}
    state = keep(game(3), 2, "steal_a_trick")
    assert RivalBot(ENGINE).optional(draw(stack(state, trick("Square", "Advanced"))), 2) is None
