"""What the whole test suite shares: its own games, registered beside the built-in ones before any
test module is collected (tests/games.py says which)."""

from __future__ import annotations

import pytest

from engines.core import register
from tests.games import TEST_GAMES

for _game, _module in TEST_GAMES.items():
    register(_game, _module)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked slow run first (in their order; the rest keep theirs). Spread over xdist's workers
    (`make test`), a minute-long test handed out last would run alone while the other workers wait."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
