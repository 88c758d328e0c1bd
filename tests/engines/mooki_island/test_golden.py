"""Stored Mooki Island matches must replay to the same views, scores and result."""

from __future__ import annotations

import json

import pytest

from tests.engines.golden import replay

from .golden import CASES, path_for


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_replay_is_unchanged(name: str) -> None:
    golden = json.loads(path_for(name).read_text(encoding="utf-8"))
    replayed = replay(golden)
    assert golden["result"] is not None, "a golden match is played to its end"
    assert replayed["result"] == golden["result"]
    for step, expected in golden["checkpoints"].items():
        assert replayed["checkpoints"][step] == expected, f"{name}: the position after {step} actions changed"


def test_a_golden_match_reaches_the_spider_decision() -> None:
    kinds = {a["type"] for name in CASES for _, a in json.loads(path_for(name).read_text("utf-8"))["actions"]}
    assert kinds == {"take", "place", "return"}
