"""Mojo's log as the other seats read it (a deck draw without its card) is a cache the state owns:
made once per logged draw, handed on from one position to the next, never stored."""

from __future__ import annotations

import json
import random

from engines.mojo import ENGINE, MojoState


def _deck_draws(state: MojoState, seat: int | None) -> list[dict[str, object]]:
    return [
        e for e in ENGINE.view(state, seat)["events"] if e["type"] == "draw" and e.get("source") == "deck"
    ]


def _positions(seed: int, moves: int) -> list[MojoState]:
    rng = random.Random(seed)
    state = ENGINE.setup(3, seed, ENGINE.spec.parse_options({}))
    positions = [state]
    for _ in range(moves):
        seat = min(ENGINE.to_act(state))
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        ENGINE.view(state, None)  # as the fan-out does after every move
        positions.append(state)
    return positions


def test_a_redacted_draw_is_the_same_object_from_one_position_to_the_next() -> None:
    before, after = _positions(3, 30)[-2:]
    assert _deck_draws(before, None)
    then = {e["seq"]: e for e in _deck_draws(before, None)}
    now = {e["seq"]: e for e in _deck_draws(after, None)}
    shared = then.keys() & now.keys()
    assert shared and all(then[seq] is now[seq] for seq in shared), "the next view redacted them again"
    assert all("card" not in e for e in now.values())


def test_the_public_log_is_never_stored_and_a_loaded_state_builds_it_again() -> None:
    state = _positions(5, 40)[-1]
    dump = ENGINE.dump(state)
    assert "public_events" not in dump
    loaded = ENGINE.load(json.loads(json.dumps(dump)))
    assert loaded == state
    for viewer in [None, 0, 1, 2]:
        assert ENGINE.view(loaded, viewer) == ENGINE.view(state, viewer)
    # A seat reads its own deck draws whole, the others' without the card.
    mine = [e for e in ENGINE.view(loaded, 0)["events"] if e["type"] == "draw" and e.get("source") == "deck"]
    assert all(("card" in e) == (e["seat"] == 0) for e in mine)
