"""What the whole test suite shares: its own games, registered beside the built-in ones before any
test module is collected (tests/games.py says which)."""

from __future__ import annotations

from engines.core import register
from tests.games import TEST_GAMES

for _game, _module in TEST_GAMES.items():
    register(_game, _module)
