"""Helpers that build Moby Trick positions by hand, for the rule and example tests."""

from __future__ import annotations

from typing import Any

from engines.core import Rng
from engines.moby_trick.cards import CARDS
from engines.moby_trick.engine import NO_CARD, PLAY, MobyTrickEngine, MobyTrickState

ENGINE = MobyTrickEngine()


def card(family: str | None, value: int, copy: int = 0) -> int:
    """The id of a card by family and value (5s: family None, copy 0-3)."""
    matches = [c.id for c in CARDS if c.family == family and c.value == value]
    return matches[copy]


def five(copy: int = 0) -> int:
    return card(None, 5, copy)


def build(
    hands: list[list[int]],
    *,
    trump: str = "blue_whale",
    token: int = 1,
    leader: int = 0,
    bonuses: list[list[int]] | None = None,
    pearl_piles: list[list[int]] | None = None,
    discard_pile: list[int] | None = None,
    trick_number: int = 1,
    totals: list[int] | None = None,
    target: int = 30,
    **extra: Any,
) -> MobyTrickState:
    """A state in the play phase, with every card not placed by hand left undealt."""
    players = len(hands)
    state = MobyTrickState(
        players=players,
        target=target,
        first_player=0,
        rng=Rng(7),
        round_number=1,
        round_leader=leader,
        trump=trump,
        token=token,
        phase=PLAY,
        hands=[sorted(h) for h in hands],
        set_aside=[NO_CARD] * players,
        bonuses=bonuses or [[] for _ in range(players)],
        pearl_piles=pearl_piles or [[] for _ in range(players)],
        pearl_points=[0] * players,
        discard_pile=discard_pile or [],
        leader=leader,
        turn=leader,
        trick_number=trick_number,
        voids=[[] for _ in range(players)],
        totals=totals or [0] * players,
        **extra,
    )
    placed = {c for group in (*state.hands, *state.bonuses, *state.pearl_piles) for c in group}
    placed.update(state.discard_pile)
    assert len(placed) == sum(len(g) for g in (*state.hands, *state.bonuses, *state.pearl_piles)) + len(
        state.discard_pile
    ), "a card is placed twice"
    deck = [c.id for c in CARDS if players > 2 or not c.is_five]
    state.undealt = [c for c in deck if c not in placed]
    return state


def play(state: MobyTrickState, seat: int, card_id: int) -> MobyTrickState:
    return ENGINE.apply(state, seat, {"type": "play", "card": card_id})


def use(state: MobyTrickState, seat: int, card_id: int) -> MobyTrickState:
    return ENGINE.apply(state, seat, {"type": "use_bonus", "card": card_id})


def all_cards(state: MobyTrickState) -> list[int]:
    """Every card of the round, wherever it lies (to check none is lost or doubled)."""
    out = [*state.undealt, *state.discard_pile, *state.trick_cards]
    for group in (*state.hands, *state.bonuses, *state.pearl_piles):
        out.extend(group)
    out.extend(c for c in state.set_aside if c != NO_CARD)
    return out
