"""Pebbles, the test game of docs/adding-a-game.md: a whole game in one folder, registered by one line
(`TEST_GAMES` in tests/conftest.py), with no file of its own anywhere else. It proves that a new game
needs nothing more: the conformance suite, the descriptor checks, the server's per-game tests and
the browser's accessibility and phone-first checks all take it from the registry, and it plays on
the generic table."""

from engines.core import RandomBot

from .engine import PebblesEngine

ENGINE = PebblesEngine()
BOTS = {"random": RandomBot}
