"""Moby Trick golden replays: seeds and bot-chosen action lists with the views they must produce.

Regenerate after an intended rule change with `python -m tests.engines.moby_trick.regen_golden`,
then read the diff: every changed line is a behaviour change players will see.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engines.moby_trick import BOTS, ENGINE
from engines.moby_trick.engine import MobyTrickState

GOLDEN_DIR = Path(__file__).parent / "golden"
EVERY = 40  # actions between two stored positions

# name -> (players, seed, options)
CASES: dict[str, tuple[int, int, dict[str, Any]]] = {
    "moby-trick-2p": (2, 11, {}),
    "moby-trick-3p": (3, 2024, {"target": 30}),
    "moby-trick-4p-first-player-2": (4, 5, {"target": 20, "first_player": 2}),
}


def snapshot(state: MobyTrickState, players: int) -> dict[str, Any]:
    return {
        "to_act": sorted(ENGINE.to_act(state)),
        "scorepad": ENGINE.scorepad(state).to_json(),
        "views": [ENGINE.view(state, seat) for seat in [*range(players), None]],
    }


def record(name: str) -> dict[str, Any]:
    players, seed, options = CASES[name]
    # Strong and random bots alternate, so the actions cover bonuses, rewards and leader choices.
    seats = [(BOTS["strong"] if s % 2 == 0 else BOTS["random"])(ENGINE, seed + s) for s in range(players)]
    state = ENGINE.setup(players, seed, ENGINE.spec.parse_options(options))
    actions: list[list[Any]] = []
    checkpoints = {"0": snapshot(state, players)}
    while acting := ENGINE.to_act(state):
        seat = min(acting)
        action = seats[seat].choose(state, seat)
        state = ENGINE.apply(state, seat, action)
        actions.append([seat, action])
        if len(actions) % EVERY == 0:
            checkpoints[str(len(actions))] = snapshot(state, players)
    checkpoints[str(len(actions))] = snapshot(state, players)
    result = ENGINE.result(state)
    return {
        "game": ENGINE.spec.id,
        "players": players,
        "seed": seed,
        "options": options,
        "actions": actions,
        "checkpoints": checkpoints,
        "result": result.to_json() if result else None,
    }


def replay(golden: dict[str, Any]) -> dict[str, Any]:
    """Apply the stored actions and take snapshots at the stored steps."""
    players = golden["players"]
    state = ENGINE.setup(players, golden["seed"], ENGINE.spec.parse_options(golden["options"]))
    checkpoints = {"0": snapshot(state, players)}
    for step, (seat, action) in enumerate(golden["actions"], start=1):
        state = ENGINE.apply(state, seat, action)
        if str(step) in golden["checkpoints"]:
            checkpoints[str(step)] = snapshot(state, players)
    result = ENGINE.result(state)
    return {**golden, "checkpoints": checkpoints, "result": result.to_json() if result else None}


def path_for(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name in CASES:
        path_for(name).write_text(json.dumps(record(name), indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
