"""The JSON Patch diff: checked against the reference implementation on arbitrary JSON."""

from __future__ import annotations

import json
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from app.realtime.patch import diff

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False, allow_infinity=False)
keys = st.sampled_from(["a", "b", "id", "~", "/", "a/b", "~1", ""])
documents = st.recursive(
    scalars | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(documents, documents)
def test_applying_the_diff_gives_the_new_document(old: Any, new: Any) -> None:
    assert jsonpatch.apply_patch(old, diff(old, new)) == new


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(keys, documents, max_size=6), st.dictionaries(keys, documents, max_size=6))
def test_an_unchanged_document_needs_no_ops(old: dict[str, Any], new: dict[str, Any]) -> None:
    assert diff(old, json.loads(json.dumps(old))) == []
    assert jsonpatch.apply_patch(old, diff(old, new)) == new


def test_pointers_escape_tilde_and_slash() -> None:
    assert diff({"a/b": 1, "~x": 1}, {"a/b": 2, "~x": 2}) == [
        {"op": "replace", "path": "/a~1b", "value": 2},
        {"op": "replace", "path": "/~0x", "value": 2},
    ]


def test_appends_are_adds_at_the_end() -> None:
    assert diff({"pile": [1, 2]}, {"pile": [1, 2, 3, 4]}) == [
        {"op": "add", "path": "/pile/-", "value": 3},
        {"op": "add", "path": "/pile/-", "value": 4},
    ]


def test_equal_length_lists_diff_by_index() -> None:
    assert diff([{"id": 1, "up": False}, 2], [{"id": 1, "up": True}, 2]) == [
        {"op": "replace", "path": "/0/up", "value": True}
    ]


def test_a_leaf_that_changes_type_is_replaced() -> None:
    assert diff({"on": 1, "n": 0}, {"on": True, "n": 1}) == [
        {"op": "replace", "path": "/on", "value": True},
        {"op": "replace", "path": "/n", "value": 1},
    ]


def test_a_sliding_window_patches_as_a_shift() -> None:
    events = [{"kind": "play", "card": n} for n in range(5)]
    new = [*events[2:], {"kind": "draw"}, {"kind": "play", "card": 9}]
    assert diff({"events": events}, {"events": new}) == [
        {"op": "remove", "path": "/events/0"},
        {"op": "remove", "path": "/events/0"},
        {"op": "add", "path": "/events/-", "value": {"kind": "draw"}},
        {"op": "add", "path": "/events/-", "value": {"kind": "play", "card": 9}},
    ]


def test_negative_zero_is_not_zero() -> None:
    assert diff({"x": 0.0, "v": 1}, {"x": -0.0, "v": 2}) == [
        {"op": "replace", "path": "/x", "value": -0.0},
        {"op": "replace", "path": "/v", "value": 2},
    ]
