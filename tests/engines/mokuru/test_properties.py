"""Properties over random Mokuru play: no card is lost or doubled, every pawn stays on the board."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core.conformance import optional_moves
from engines.mokuru import ENGINE

from .helpers import conserved


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    belts=st.sampled_from(["full", "short"]),
    witness=st.sampled_from(["on", "off"]),
    choices=st.lists(st.integers(0, 1000), min_size=1, max_size=400),
)
def test_cards_are_conserved_and_pawns_stay_on_the_board(
    players: int, seed: int, belts: str, witness: str, choices: list[int]
) -> None:
    state = ENGINE.setup(players, seed, ENGINE.spec.parse_options({"belts": belts, "witness": witness}))
    for pick in choices:
        assert conserved(state)
        assert all(0 <= b <= state.black for s, b in enumerate(state.belts) if s != state.winner)
        if state.winner is not None:
            assert state.belts[state.winner] == state.grandmaster
            return
        moves = [(s, a) for s in sorted(ENGINE.to_act(state)) for a in ENGINE.legal_actions(state, s)]
        moves += optional_moves(ENGINE, state, players)
        seat, action = moves[pick % len(moves)]
        state = ENGINE.apply(state, seat, action)
