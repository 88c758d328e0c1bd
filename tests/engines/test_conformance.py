"""The shared conformance suite, run over every engine in the registry."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.core import (
    EngineError,
    all_engines,
    conformance,
    game_ids,
    get_bots,
    get_engine,
    register,
    unregister,
)

PLAYOUTS_PER_ENGINE = 200


def _player_counts(engine: Any) -> list[int]:
    return list(range(engine.spec.min_players, engine.spec.max_players + 1))


@pytest.mark.parametrize("game", game_ids())
def test_random_playouts_keep_every_invariant(game: str) -> None:
    engine = get_engine(game)
    counts = _player_counts(engine)
    for seed in range(PLAYOUTS_PER_ENGINE):
        players = counts[seed % len(counts)]
        playout = conformance.random_playout(engine, players, seed, check_every_step=seed < 10)
        assert engine.result(playout.final) is not None
        assert not engine.to_act(playout.final)
        if seed % 10 == 0:
            assert engine.dump(conformance.replay(engine, playout)) == engine.dump(playout.final)


@pytest.mark.parametrize("game", game_ids())
def test_the_words_of_every_action_read_keys_its_actions_carry(game: str) -> None:
    """(That every listed action has words is checked at every step of the playouts above.)"""
    engine = get_engine(game)
    actions = [
        action
        for seed, players in enumerate(_player_counts(engine))
        for _, action in conformance.random_playout(engine, players, seed).actions
    ]
    conformance.check_placeholders_read(engine.spec, actions)


@pytest.mark.parametrize("game", game_ids())
def test_same_seed_same_deal(game: str) -> None:
    engine = get_engine(game)
    options = engine.spec.parse_options({})
    players = engine.spec.min_players
    first = engine.setup(players, 1234, options)
    assert engine.dump(engine.setup(players, 1234, options)) == engine.dump(first)
    assert engine.dump(engine.setup(players, 1235, options)) != engine.dump(first)


@pytest.mark.parametrize("game", game_ids())
def test_options_schema_is_json_and_defaults_validate(game: str) -> None:
    spec = get_engine(game).spec
    schema = spec.options_schema()
    assert json.loads(json.dumps(schema)) == schema
    assert schema.get("type") == "object"
    spec.parse_options({})
    with pytest.raises(EngineError) as err:
        spec.parse_options({"no_such_option": 1})
    assert err.value.code == "invalid_request"


@pytest.mark.parametrize("game", game_ids())
def test_finished_game_refuses_actions_with_game_over(game: str) -> None:
    engine = get_engine(game)
    playout = conformance.random_playout(engine, engine.spec.min_players, 7)
    with pytest.raises(EngineError) as err:
        engine.apply(playout.final, 0, {"type": "play", "card": 0})
    assert err.value.code == "game_over"


def test_registry_lists_every_engine_once() -> None:
    ids = [e.spec.id for e in all_engines()]
    assert ids == game_ids()
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("game", game_ids())
def test_look_alike_json_values_are_refused(game: str) -> None:
    """1.0 or true equal a listed 1 in Python but are other JSON: only the listed action applies."""
    engine = get_engine(game)
    state = engine.setup(engine.spec.min_players, 3, engine.spec.parse_options({}))
    seat = min(engine.to_act(state))
    for action in engine.legal_actions(state, seat):
        numbers = [k for k, v in action.items() if type(v) is int]
        for key in numbers:
            for twin in (float(action[key]), bool(action[key]) if action[key] in (0, 1) else None):
                if twin is None:
                    continue
                before = engine.dump(state)
                with pytest.raises(EngineError) as err:
                    engine.apply(state, seat, {**action, key: twin})
                assert err.value.code == "illegal_action"
                assert engine.dump(state) == before


@pytest.mark.parametrize("game", game_ids())
def test_player_counts_outside_the_box_are_refused(game: str) -> None:
    engine = get_engine(game)
    options = engine.spec.parse_options({})
    for players in (engine.spec.min_players - 1, engine.spec.max_players + 1):
        with pytest.raises(EngineError) as err:
            engine.setup(players, 1, options)
        assert err.value.code == "invalid_request"


@pytest.mark.parametrize("game", game_ids())
def test_seat_options_name_a_seat_at_the_table(game: str) -> None:
    engine = get_engine(game)
    conformance.check_seat_options(engine)


@pytest.mark.parametrize("game", game_ids())
def test_views_refuse_seats_outside_the_match(game: str) -> None:
    engine = get_engine(game)
    for players in _player_counts(engine):
        state = engine.setup(players, 5, engine.spec.parse_options({}))
        for seat in (-1, players, True):
            with pytest.raises(EngineError) as err:
                engine.view(state, seat)
            assert err.value.code == "invalid_request"


def test_the_tiny_test_game_conforms_too() -> None:
    """The test game the server tests and the generic renderer use keeps the same envelope and events."""
    register("tiny", "tests.app.tiny_game")
    try:
        engine = get_engine("tiny")
        for seed in range(6):
            playout = conformance.random_playout(engine, 2 + seed % 2, seed, check_every_step=True)
            assert engine.result(playout.final) is not None
        conformance.check_seat_options(engine)
        positions, decisions = conformance.check_every_bot(engine, get_bots("tiny"))
        assert positions and decisions >= positions
    finally:
        unregister("tiny")
