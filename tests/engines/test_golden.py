"""Stored playthroughs of every game must replay to the same views, scores and result
(one harness and one case format: tests/engines/golden.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.core import game_ids, get_engine

from .golden import case_id, case_paths, load, replay

CASES = case_paths()


@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_golden_replay_is_unchanged(path: Path) -> None:
    golden = load(path)
    replayed = replay(golden)
    name = case_id(path)
    assert golden["result"] is not None, "a golden match is played to its end"
    assert replayed["over"], f"{name}: the match no longer ends after the stored actions"
    assert replayed["result"] == golden["result"]
    for step, expected in golden["checkpoints"].items():
        assert replayed["checkpoints"][step] == expected, f"{name}: the position after {step} actions changed"


def test_every_game_has_golden_cases() -> None:
    """Every built-in game (a package of engines/; tests register games of their own) has cases,
    and every case directory names a registered game."""
    games = {path.parent.name for path in CASES}
    built_in = {g for g in game_ids() if type(get_engine(g)).__module__.startswith("engines.")}
    assert built_in <= games <= set(game_ids())


def _kinds(game: str) -> set[str]:
    return {action["type"] for path in case_paths(game) for _, action in load(path)["actions"]}


def test_golden_mokuru_matches_cover_the_optional_actions() -> None:
    assert {"steal", "immunity", "witness", "target", "report"} <= _kinds("mokuru")


def test_a_golden_mooki_island_match_reaches_the_spider_decision() -> None:
    assert _kinds("mooki-island") == {"take", "place", "return"}
