"""Moby Trick's resample: the other hands, the face-down first bonuses and the undealt cards are
dealt again within the public deductions; every card the seat saw stays where it is."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.core import conformance
from engines.moby_trick.cards import CARDS, FAMILIES
from engines.moby_trick.engine import NO_CARD, SET_ASIDE, MobyTrickState, _deal_hidden

from .helpers import ENGINE, all_cards, build, card, five


def _public(state: MobyTrickState, seat: int) -> dict[str, Any]:
    """What the seat sees or remembers, card ids included (every pearl pile: it watched each fill)."""
    return {
        "hand": state.hands[seat],
        "set_aside": state.set_aside[seat],
        "asides": [c != NO_CARD for c in state.set_aside],
        "bonuses": state.bonuses,
        "pearl_piles": state.pearl_piles,
        "discard_pile": state.discard_pile,
        "trick": (state.trick_seats, state.trick_cards),
        "sizes": [len(h) for h in state.hands] + [len(state.undealt)],
        "voids": state.voids,
        "events": state.events,
        "facts": (state.trump, state.token, state.phase, state.turn, state.totals, state.rounds),
    }


def _true_voids(state: MobyTrickState) -> MobyTrickState:
    """Every family a hand lacks noted as shown lacking: the tightest deductions the deal allows."""
    for s, hand in enumerate(state.hands):
        held = {CARDS[c].family for c in hand}
        state.voids[s] = [f for f in FAMILIES if f not in held]
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_redeal_keeps_every_card_and_everything_the_seat_knows(players: int) -> None:
    positions = conformance.sample_positions(
        ENGINE, players, players, ENGINE.spec.parse_options({}), rate=0.3
    )
    moved = 0
    for state in positions:
        for seat in range(players):
            again = ENGINE.resample(state, seat, random.Random(seat))
            assert sorted(all_cards(again)) == sorted(all_cards(state))
            assert _public(again, seat) == _public(state, seat)
            assert all(h == sorted(h) for h in again.hands) and again.undealt == sorted(again.undealt)
            for s in range(players):
                assert not [c for c in again.hands[s] if CARDS[c].family in state.voids[s]]
                if again.set_aside[s] != NO_CARD:
                    assert not CARDS[again.set_aside[s]].is_five
            moved += again.hands != state.hands
    assert moved > len(positions)


def test_the_tightest_deductions_still_deal_and_are_kept() -> None:
    for seed in range(30):
        state = _true_voids(ENGINE.setup(3 + seed % 2, seed, ENGINE.spec.parse_options({})))
        seat = seed % state.players
        for n in range(10):
            again = ENGINE.resample(state, seat, random.Random(n))
            for s in range(state.players):
                # A 5 belongs to no family: no void keeps it out.
                families = {CARDS[c].family for c in again.hands[s]} - {None}
                assert families <= {CARDS[c].family for c in state.hands[s]}


def test_first_bonuses_still_face_down_are_never_5s() -> None:
    state = ENGINE.setup(4, 3, ENGINE.spec.parse_options({}))
    for s in (1, 2, 3):
        pick = next(c for c in state.hands[s] if not CARDS[c].is_five)
        state = ENGINE.apply(state, s, {"type": "set_aside", "card": pick})
    assert state.phase == SET_ASIDE
    asides: set[int] = set()
    for n in range(200):
        again = ENGINE.resample(state, 0, random.Random(n))
        for s in (1, 2, 3):
            assert again.set_aside[s] != NO_CARD and not CARDS[again.set_aside[s]].is_five
            asides.add(again.set_aside[s])
        assert ENGINE.view(again, 0) == ENGINE.view(state, 0)
    assert len(asides) > 20


def test_a_deal_without_limits_is_even() -> None:
    """Each hidden card lands in a place with odds by its size: 9 of 23 in the other hand."""
    state = ENGINE.setup(2, 5, ENGINE.spec.parse_options({}))
    target = state.undealt[0]
    in_hand = sum(target in ENGINE.resample(state, 0, random.Random(n)).hands[1] for n in range(2000))
    assert abs(in_hand / 2000 - 9 / 23) < 0.04


def test_the_dealer_needs_a_deal_that_fits() -> None:
    hidden = [card("orca", 1), card("orca", 2), five()]
    # One place takes no orca but has room for two: no deal fits.
    with pytest.raises(ValueError, match="fit no deal"):
        _deal_hidden(hidden, [(2, frozenset({None})), (1, frozenset(FAMILIES))], random.Random(1))
    dealt = _deal_hidden(hidden, [(1, frozenset({None})), (2, frozenset(FAMILIES))], random.Random(1))
    assert dealt[0] == [five()] and sorted(dealt[1]) == sorted(hidden[:2])


def test_pearl_piles_of_others_stay_put() -> None:
    state = build(
        [[card("orca", 1)], [card("orca", 2)], [card("narwhal", 3)]],
        pearl_piles=[[card("orca", 9)], [card("narwhal", 9)], [card("blue_whale", 9)]],
        trick_number=8,
    )
    for n in range(20):
        again = ENGINE.resample(state, 0, random.Random(n))
        assert again.pearl_piles == state.pearl_piles
        assert again.hands[0] == state.hands[0]
