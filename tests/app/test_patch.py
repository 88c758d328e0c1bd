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


def same_json(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@settings(max_examples=400, deadline=None)
@given(documents, documents)
def test_applying_the_diff_gives_the_new_document(old: Any, new: Any) -> None:
    patched = jsonpatch.apply_patch(old, diff(old, new))
    assert same_json(patched, new)


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


def test_true_is_not_one() -> None:
    assert diff({"a": [1]}, {"a": [True]}) == [{"op": "replace", "path": "/a/0", "value": True}]


def test_negative_zero_is_not_zero() -> None:
    assert diff([0.0], [-0.0]) == [{"op": "replace", "path": "/0", "value": -0.0}]
