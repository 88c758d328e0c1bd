"""Golden replays: a seed and an action list with the views they must produce.

Regenerate after an intended rule change with `python -m tests.engines.golden`,
then read the diff: every changed line is a behaviour change players will see.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engines.core import get_bots, get_engine

GOLDEN_DIR = Path(__file__).parent / "golden"

EVERY = 40  # actions between two stored positions

# name -> (game, players, seed, options). Strong and random bots alternate seats, so the
# actions are realistic play and still reach the rarer moves (chains, bonuses, leader choices).
CASES: dict[str, tuple[str, int, int, dict[str, Any]]] = {
    "mojo-3p": ("mojo", 3, 2024, {"target": 30}),
    "mojo-2p-double-discard": ("mojo", 2, 77, {"double_discard": True, "target": 25}),
    "mojo-5p": ("mojo", 5, 5, {"target": 40, "first_seat": 3}),
    "moby-trick-2p": ("moby-trick", 2, 11, {}),
    "moby-trick-3p": ("moby-trick", 3, 2024, {"target": 30}),
    "moby-trick-4p-first-player-2": ("moby-trick", 4, 5, {"target": 20, "first_player": 2}),
}


def snapshot(engine: Any, state: Any, players: int) -> dict[str, Any]:
    return {
        "to_act": sorted(engine.to_act(state)),
        "scorepad": engine.scorepad(state).to_json(),
        "views": [engine.view(state, seat) for seat in [*range(players), None]],
    }


def play(
    game: str, players: int, seed: int, options: dict[str, Any], seats: list[Any], every: int = EVERY
) -> dict[str, Any]:
    """A whole match of `seats` (one bot per seat), with a stored position every `every` actions."""
    engine = get_engine(game)
    state = engine.setup(players, seed, engine.spec.parse_options(options))
    actions: list[list[Any]] = []
    checkpoints = {"0": snapshot(engine, state, players)}
    while acting := engine.to_act(state):
        seat = min(acting)
        action = seats[seat].choose(state, seat)
        state = engine.apply(state, seat, action)
        actions.append([seat, action])
        if len(actions) % every == 0:
            checkpoints[str(len(actions))] = snapshot(engine, state, players)
    checkpoints[str(len(actions))] = snapshot(engine, state, players)
    result = engine.result(state)
    return {
        "game": game,
        "players": players,
        "seed": seed,
        "options": options,
        "actions": actions,
        "checkpoints": checkpoints,
        "result": result.to_json() if result else None,
    }


def record(name: str) -> dict[str, Any]:
    game, players, seed, options = CASES[name]
    engine = get_engine(game)
    bots = get_bots(game)
    strong = bots.get("strong", bots["random"])
    seats = [
        strong(engine, seed + s) if s % 2 == 0 else bots["random"](engine, seed + s) for s in range(players)
    ]
    return play(game, players, seed, options, seats)


def replay(golden: dict[str, Any]) -> dict[str, Any]:
    """Apply the stored actions and take snapshots at the stored steps."""
    engine = get_engine(golden["game"])
    players = golden["players"]
    state = engine.setup(players, golden["seed"], engine.spec.parse_options(golden["options"]))
    checkpoints = {"0": snapshot(engine, state, players)}
    for step, (seat, action) in enumerate(golden["actions"], start=1):
        state = engine.apply(state, seat, action)
        if str(step) in golden["checkpoints"]:
            checkpoints[str(step)] = snapshot(engine, state, players)
    result = engine.result(state)
    return {**golden, "checkpoints": checkpoints, "result": result.to_json() if result else None}


def path_for(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


def write_all(directory: Path, names: Iterable[str], record: Callable[[str], dict[str, Any]]) -> None:
    """Record each case again into `directory`/<name>.json."""
    directory.mkdir(exist_ok=True)
    for name in names:
        text = json.dumps(record(name), indent=1, sort_keys=True) + "\n"
        (directory / f"{name}.json").write_text(text, encoding="utf-8")


def main() -> None:
    write_all(GOLDEN_DIR, CASES, record)


if __name__ == "__main__":
    main()
