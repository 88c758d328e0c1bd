"""Property tests: any sequence of legal Mojo actions keeps the game's invariants."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.mojo import ENGINE, MojoState


def _every_card(state: MojoState) -> list[int]:
    groups = [state.draw_pile, *state.discard_piles, *state.hands, *state.face_down, *state.revealed]
    return sorted(c for g in groups for c in g)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    double_discard=st.booleans(),
    choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=300),
)
def test_legal_play_conserves_cards_and_keeps_views_honest(
    players: int, seed: int, double_discard: bool, choices: list[int]
) -> None:
    state = ENGINE.setup(players, seed, ENGINE.spec.parse_options({"double_discard": double_discard}))
    for pick in choices:
        acting = ENGINE.to_act(state)
        if not acting:
            break
        seat = next(iter(acting))
        legal = ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, legal[pick % len(legal)])
        assert _every_card(state) == list(range(78)), "a card appeared or vanished"
        assert all(p for p in state.discard_piles), "a discard pile is never left empty"
        for other in range(players):
            assert not (state.hands[other] and state.face_down[other]), "Mojo Time takes the whole hand"
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state
    for viewer in [*range(players), None]:
        view = ENGINE.view(state, viewer)
        assert sum(s["hand_count"] for s in view["seats"]) == sum(len(h) for h in state.hands)
        shown = {c["id"] for c in view["hand"]} | {c["id"] for c in view["face_down"]}
        own = set(state.hands[viewer] + state.face_down[viewer]) if viewer is not None else set()
        assert shown == own
