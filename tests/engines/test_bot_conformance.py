"""Every bot of every registered game, at positions sampled across whole random matches
(every kind of decision, every player count, each combination of a small option grid):
no exception, never an illegal choice, never an edit of the state it is shown."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core import RandomBot, conformance, game_ids, get_bots, get_engine
from engines.core.bots import goes_on
from engines.moby_trick import BOTS as MOBY_BOTS
from engines.moby_trick import ENGINE as MOBY


@pytest.mark.parametrize("game", game_ids())
def test_every_bot_chooses_a_legal_action_everywhere(game: str) -> None:
    engine = get_engine(game)
    positions, decisions = conformance.check_every_bot(engine, get_bots(game))
    runs = conformance.bot_runs(engine)
    assert {players for players, _ in runs} == set(
        range(engine.spec.min_players, engine.spec.max_players + 1)
    )
    assert len(runs) >= len(conformance.option_grid(engine))
    assert positions >= 2 * len(runs) and decisions >= positions


def test_the_strong_moby_trick_bot_picks_every_first_bonus() -> None:
    """Issue 13's reproduction: seeds 0-9, three players, each seat's first bonus."""
    for seed in range(10):
        state = MOBY.setup(3, seed, MOBY.spec.parse_options({}))
        for seat in range(3):
            action = MOBY_BOTS["strong"](MOBY, seed).choose(state, seat)
            assert action in MOBY.legal_actions(state, seat)


class _Cheat:
    """A bot that plays out of turn order: the check must catch it."""

    name = "cheat"

    def __init__(self, engine: Any, seed: int = 0) -> None:
        self.engine = engine

    def choose(self, state: Any, seat: int) -> dict[str, Any]:
        return {"type": "no_such_action"}


class _Crash(RandomBot):
    def choose(self, state: Any, seat: int) -> dict[str, Any]:
        raise IndexError("Cannot choose from an empty sequence")


@pytest.mark.parametrize(("bot", "message"), [(_Cheat, "chose"), (_Crash, "raised IndexError")])
def test_the_check_fails_on_a_bad_bot(bot: type, message: str) -> None:
    engine = get_engine("mojo")
    state = engine.setup(2, 1, engine.spec.parse_options({}))
    with pytest.raises(AssertionError, match=message):
        conformance.check_bots_at(engine, {"random": RandomBot, "bad": bot}, state, 1)


@pytest.mark.parametrize("game", game_ids())
def test_a_bot_kind_goes_on_only_after_actions_its_game_has(game: str) -> None:
    """`turn_goes_on_after` (engines.core.goes_on) names action types the game offers: a misspelt
    one would silently leave a turn paced step by step."""
    engine = get_engine(game)
    offered: set[str] = set()
    for players, options in conformance.bot_runs(engine):
        state = engine.setup(players, 3, engine.spec.parse_options(options))
        bot = RandomBot(engine, 3)
        for _ in range(2000):
            acting = sorted(engine.to_act(state))
            if not acting:
                break
            offered.update(a["type"] for a in engine.legal_actions(state, acting[0]) if isinstance(a, dict))
            state = engine.apply(state, acting[0], bot.choose(state, acting[0]))
    for kind, bot_class in get_bots(game).items():
        named: frozenset[str] = getattr(bot_class, "turn_goes_on_after", frozenset())
        assert isinstance(named, frozenset) and named <= offered, (kind, named - offered)


def test_the_turns_that_go_on() -> None:
    mooki, moby, mojo = (get_bots(g) for g in ("mooki-island", "moby-trick", "mojo"))
    for bots in (mooki, moby):
        assert all(goes_on(bot, {"type": "take" if bots is mooki else "reward"}) for bot in bots.values())
    # A Moby Trick card (the one that ends a 2-player trick, say) is its own turn: the next one
    # waits the full delay, so the table sees the trick.
    assert not any(goes_on(bot, {"type": "play", "card": 1}) for bot in moby.values())
    assert not any(goes_on(bot, {"type": "play", "card": 1}) for bot in mojo.values())
    assert not goes_on(RandomBot, {"type": "take"}) and not goes_on(None, {"type": "take"})
