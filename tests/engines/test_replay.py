"""The one replay verifier and the seed commitment."""

from __future__ import annotations

import hashlib

import pytest

from engines.core import ReplayError, conformance, get_engine, replay, replay_states, seed_commitment


def test_seed_commitment_is_sha256_of_the_decimal_seed() -> None:
    assert seed_commitment(1234) == hashlib.sha256(b"1234").hexdigest()
    assert seed_commitment(1234) != seed_commitment(1235)


@pytest.mark.parametrize("game", ["mojo", "moby-trick"])
def test_replay_reaches_the_played_state(game: str) -> None:
    engine = get_engine(game)
    playout = conformance.random_playout(engine, 3, 8)
    raw_options = playout.options.model_dump()
    final = replay(engine, 3, 8, raw_options, playout.actions)
    assert engine.dump(final) == engine.dump(playout.final)
    states = list(replay_states(engine, 3, 8, playout.options, playout.actions[:5]))
    assert len(states) == 6
    assert engine.dump(states[0]) == engine.dump(engine.setup(3, 8, playout.options))


def test_a_refused_action_names_its_position() -> None:
    engine = get_engine("mojo")
    playout = conformance.random_playout(engine, 2, 3)
    seat, _action = playout.actions[4]
    forged = [*playout.actions[:4], (seat, {"type": "play", "card": 999}), *playout.actions[5:]]
    with pytest.raises(ReplayError) as err:
        replay(engine, 2, 3, None, forged)
    assert err.value.number == 5 and err.value.seat == seat
    assert err.value.error.code == "illegal_action"
