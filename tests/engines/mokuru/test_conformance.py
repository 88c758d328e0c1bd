"""Mokuru under the shared conformance checks, with and without the optional out-of-turn actions."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core.conformance import check_seat_options, random_playout, replay
from engines.mokuru import ENGINE
from engines.mokuru.engine import OVER


@pytest.mark.parametrize("optional", [0.0, 0.3, 1.0])
def test_random_playouts_conform_whether_or_not_optional_actions_are_taken(optional: float) -> None:
    taken: Counter[str] = Counter()
    for seed in range(24):
        players = 2 + seed % 5
        options = ENGINE.spec.parse_options({"belts": "short" if seed % 2 else "full"})
        playout = random_playout(ENGINE, players, seed, options, optional=optional, check_every_step=seed < 2)
        assert playout.final.phase == OVER
        taken.update(a["type"] for _, a in playout.actions)
        if seed % 6 == 0:
            assert ENGINE.dump(replay(ENGINE, playout)) == ENGINE.dump(playout.final)
    if optional > 0:
        assert taken["steal"] > 0 and taken["immunity"] > 0, "optional actions were never taken"
    assert taken["impose"] > 0 and taken["give"] > 0 and taken["target"] > 0


def test_seat_options_are_checked() -> None:
    check_seat_options(ENGINE)


def test_witnessed_playouts_conform() -> None:
    options = ENGINE.spec.parse_options({"witness": "on"})
    for seed in range(6):
        playout = random_playout(ENGINE, 2 + seed % 3, seed, options)
        assert any(a["type"] == "witness" for _, a in playout.actions)
