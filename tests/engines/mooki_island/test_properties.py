"""Property tests: any legal play keeps every card in one place and every hidden face out of every view."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.mooki_island import ENGINE, MookiIslandState
from engines.mooki_island.cards import BOX
from engines.mooki_island.engine import flip

from .helpers import faces_in, may_see


def places(state: MookiIslandState) -> list[int]:
    """The face each card shows where it lies (its upper face in a pile or in hand, its chosen face)."""
    held = [] if state.drawn is None else [state.drawn]
    return [*state.piles[0], *state.piles[1], *held, *state.collections[0], *state.collections[1]]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    youngest=st.sampled_from([None, 0, 1]),
    memory_aid=st.booleans(),
    choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=80),
)
def test_faces_are_conserved_and_views_hold_no_hidden_face(
    seed: int, youngest: int | None, memory_aid: bool, choices: list[int]
) -> None:
    state = ENGINE.setup(2, seed, ENGINE.spec.parse_options({"youngest": youngest, "memory_aid": memory_aid}))
    never_shown: set[int] = set()  # faces turned away when their card was placed
    for pick in choices:
        acting = ENGINE.to_act(state)
        if not acting:
            break
        seat = next(iter(acting))
        legal = ENGINE.legal_actions(state, seat)
        action = legal[pick % len(legal)]
        drawn = state.drawn
        state = ENGINE.apply(state, seat, action)
        if action["type"] == "place" and drawn is not None:
            chosen = drawn if action["side"] == "upper" else flip(drawn)
            never_shown.add(flip(chosen))

        shown = places(state)
        assert sorted(f // 2 for f in shown) == list(range(36)), "each card lies in exactly one place"
        assert sorted({f for s in shown for f in (s, flip(s))}) == list(range(72)), "72 faces"
        for viewer in (0, 1, None):
            view = ENGINE.view(state, viewer)
            allowed = {state.face_ids[f] for f in may_see(state, viewer)}
            for face in faces_in(view):
                assert face["id"] in allowed, (viewer, face)
                data_face = state.face_ids.index(face["id"])
                assert BOX.faces[data_face].to_json() == {k: v for k, v in face.items() if k != "id"}
            assert not {state.face_ids[f] for f in never_shown} & {f["id"] for f in faces_in(view)}
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state
