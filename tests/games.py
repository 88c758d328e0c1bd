"""The games only the test suite plays, beside the built-in ones: one line each (docs/adding-a-game.md).

tests/conftest.py registers them in the test process, so every check that loops over the registry
(conformance, descriptor, the server's per-game tests, the browser's accessibility and phone-first
checks) plays them too; the browser tests' server registers the same through MOTABLE_GAMES.
"""

from __future__ import annotations

TEST_GAMES = {"pebbles": "tests.pebbles"}


def motable_games() -> str:
    """The test games as a server process registers them (its MOTABLE_GAMES)."""
    return ",".join(f"{game}={module}" for game, module in TEST_GAMES.items())
