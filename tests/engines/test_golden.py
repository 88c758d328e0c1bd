"""Stored playthroughs must replay to the same views, scores and result."""

from __future__ import annotations

import json

import pytest

from .golden import CASES, path_for, replay


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_replay_is_unchanged(name: str) -> None:
    golden = json.loads(path_for(name).read_text(encoding="utf-8"))
    replayed = replay(golden)
    assert golden["result"] is not None, "a golden match is played to its end"
    assert replayed["result"] == golden["result"]
    for step, expected in golden["checkpoints"].items():
        assert replayed["checkpoints"][step] == expected, f"{name}: the position after {step} actions changed"
