"""`Engine.resample`: a seat cannot tell its re-deal from the real position, and no bot chooses
differently after one (bots see only what their seat may see), for every registered game and
every bot of its BOTS, over positions sampled across whole random matches."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.core import RandomBot, conformance, game_ids, get_bots, get_engine
from engines.mojo import ENGINE as MOJO
from engines.mojo import MojoEngine, MojoState

# Games where some card hidden from one seat is seen by another (a hand): a re-deal for a seat
# must change what the others see most of the time.
MOVES_SEEN_CARDS = frozenset({"mojo", "moby-trick"})

POSITIONS = 150  # at least this many positions per game for the view check
DECISIONS = 200  # at least this many compared choices per bot
SLOW_DECISIONS = 1500  # the slow variant


GAMES = list(game_ids())
GAME_BOTS = [pytest.param(game, name, id=f"{game}-{name}") for game in game_ids() for name in get_bots(game)]


def _enough(engine: Any, bots: dict[str, Any], positions: int = 0, decisions: int = 0, **kw: Any) -> Any:
    """check_resample over seeds 0, 1, ... until the positions and every bot's decisions suffice."""
    total = conformance.ResampleReport(decisions={n: 0 for n in bots}, changed={n: [] for n in bots})
    seed = 0
    while total.positions < positions or any(n < decisions for n in total.decisions.values()):
        total.absorb(conformance.check_resample(engine, bots, seed, **kw))
        seed += 1
    return total


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_cannot_tell_its_redeal_from_the_real_position(game: str) -> None:
    engine = get_engine(game)
    report = _enough(engine, {}, positions=POSITIONS)
    print(
        f"{game}: {report.positions} positions, {report.resamples} re-deals, {report.differ} changed"
        f" the state, {report.moved} another seat's view"
    )
    # A re-deal that never changes anything would pass every other check.
    if engine.spec.hides_information:
        assert report.differ > report.resamples // 2, "resample hardly deals anything again"
    if game in MOVES_SEEN_CARDS:
        assert report.moved > report.resamples // 2, "resample hardly moves another seat's cards"


def _bot_check(game: str, name: str, decisions: int) -> None:
    engine = get_engine(game)
    report = _enough(engine, {name: get_bots(game)[name]}, decisions=decisions, play_on=0)
    changed = report.changed[name]
    print(f"{game} {name}: {report.decisions[name]} decisions compared, {len(changed)} changed")
    assert not changed, f"{len(changed)} of {report.decisions[name]} choices changed:\n" + "\n".join(changed)


@pytest.mark.parametrize(("game", "name"), GAME_BOTS)
def test_every_bot_chooses_the_same_after_a_redeal(game: str, name: str) -> None:
    _bot_check(game, name, DECISIONS)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "name"), GAME_BOTS)
def test_every_bot_chooses_the_same_after_a_redeal_over_many_matches(game: str, name: str) -> None:
    _bot_check(game, name, SLOW_DECISIONS)


# -- the checks catch what they are for ---------------------------------------------------------


class _LeakyMojo(MojoEngine):
    """Deals the seat's own hand again too: the seat can tell."""

    def resample(self, state: MojoState, seat: int, rng: random.Random) -> MojoState:
        again = super().resample(state, seat, rng)
        pool = again.hands[seat] + again.draw_pile
        rng.shuffle(pool)
        size = len(again.hands[seat])
        again.hands[seat], again.draw_pile = pool[:size], pool[size:]
        return again


class _LazyMojo(MojoEngine):
    """Returns a copy: passes every check of the view, deals nothing."""

    def resample(self, state: MojoState, seat: int, rng: random.Random) -> MojoState:
        return state.clone()


class _DroppingMojo(MojoEngine):
    """Loses a hidden card (the draw pile's bottom one goes under the discard pile instead)."""

    def resample(self, state: MojoState, seat: int, rng: random.Random) -> MojoState:
        again = super().resample(state, seat, rng)
        again.discard_piles[0].insert(0, again.draw_pile.pop(0))
        return again


class _PeekingBot(RandomBot):
    """Plays its lowest card, unless the next card of the draw pile is high: reads the deck."""

    def choose(self, state: Any, seat: int) -> dict[str, Any]:
        legal = self.engine.legal_actions(state, seat)
        if state.draw_pile and state.draw_pile[-1] % 2:
            return legal[-1]
        return legal[0]


class _LogReadingBot(RandomBot):
    """Plays its highest card when the last card someone else drew blind was high: reads the log
    of the state, where the view hides that card."""

    def choose(self, state: Any, seat: int) -> dict[str, Any]:
        legal = self.engine.legal_actions(state, seat)
        drawn = [e for e in state.events if e["type"] == "draw" and e["seat"] != seat and "card" in e]
        if drawn and drawn[-1]["card"]["value"] > 6:
            return legal[-1]
        return legal[0]


def _first_positions(engine: Any, count: int = 40) -> list[MojoState]:
    return conformance.sample_positions(engine, 3, 5, engine.spec.parse_options({}))[:count]


def test_a_leaky_resample_is_caught() -> None:
    engine = _LeakyMojo()
    with pytest.raises(AssertionError, match="the seat can tell them apart"):
        for state in _first_positions(engine):
            conformance.check_resampled(engine, state, state.current, 1)


def test_a_resample_that_drops_a_card_is_caught() -> None:
    engine = _DroppingMojo()
    with pytest.raises(AssertionError, match=r"can tell them apart|invented or dropped"):
        conformance.check_resampled(engine, _first_positions(engine)[0], 0, 1)


def test_a_resample_that_deals_nothing_is_caught() -> None:
    report = conformance.check_resample(_LazyMojo(), {}, runs=2)
    assert report.resamples and report.differ == report.moved == 0


@pytest.mark.parametrize("peek", [_PeekingBot, _LogReadingBot])
def test_a_bot_that_reads_hidden_cards_is_caught(peek: type) -> None:
    report = conformance.check_resample(MOJO, {"peek": peek, "random": RandomBot}, runs=4)
    assert report.decisions["peek"] == report.decisions["random"] > 10
    assert report.changed["peek"], "reading what the seat may not see went unnoticed"
    assert not report.changed["random"]
