"""Golden replays for Mooki Island, stored beside its tests (same format as tests/engines/golden).

Regenerate after an intended rule change with `python -m tests.engines.mooki_island.golden`,
then read the diff: every changed line is a behaviour change players will see.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engines.core import get_bots, get_engine
from tests.engines.golden import play, write_all

GOLDEN_DIR = Path(__file__).parent / "golden"
GAME = "mooki-island"
EVERY = 10

# name -> (seed, options, bots by seat)
CASES: dict[str, tuple[int, dict[str, Any], tuple[str, str]]] = {
    "mooki-island-strong-vs-random": (11, {}, ("strong", "random")),
    "mooki-island-youngest-1-memory-aid": (2024, {"youngest": 1, "memory_aid": True}, ("random", "strong")),
    "mooki-island-strong-vs-strong": (7, {"youngest": 0}, ("strong", "strong")),
}


def record(name: str) -> dict[str, Any]:
    seed, options, names = CASES[name]
    engine = get_engine(GAME)
    bots = get_bots(GAME)
    return play(GAME, 2, seed, options, [bots[n](engine, seed + s) for s, n in enumerate(names)], EVERY)


def path_for(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


if __name__ == "__main__":
    write_all(GOLDEN_DIR, CASES, record)
