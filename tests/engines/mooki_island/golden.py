"""Golden replays for Mooki Island, stored beside its tests (same format as tests/engines/golden).

Regenerate after an intended rule change with `python -m tests.engines.mooki_island.golden`,
then read the diff: every changed line is a behaviour change players will see.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engines.core import get_bots, get_engine
from tests.engines.golden import snapshot

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
    seats = [bots[n](engine, seed + s) for s, n in enumerate(names)]
    state = engine.setup(2, seed, engine.spec.parse_options(options))
    actions: list[list[Any]] = []
    checkpoints = {"0": snapshot(engine, state, 2)}
    while acting := engine.to_act(state):
        seat = min(acting)
        action = seats[seat].choose(state, seat)
        state = engine.apply(state, seat, action)
        actions.append([seat, action])
        if len(actions) % EVERY == 0:
            checkpoints[str(len(actions))] = snapshot(engine, state, 2)
    checkpoints[str(len(actions))] = snapshot(engine, state, 2)
    result = engine.result(state)
    return {
        "game": GAME,
        "players": 2,
        "seed": seed,
        "options": options,
        "actions": actions,
        "checkpoints": checkpoints,
        "result": result.to_json() if result else None,
    }


def path_for(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name in CASES:
        path_for(name).write_text(json.dumps(record(name), indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
