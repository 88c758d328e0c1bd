"""Golden replays, one harness for every game: a recorded match and the positions it must produce.

Each case is one file, `tests/engines/golden/<game id>/<case>.json`, in one format:

    game, players, seed, options   how the match is set up (`engine.setup`)
    seats                          who played it: per seat {"bot": a key of the game's BOTS,
                                   "seed": the bot's seed, and any further constructor keywords}
    every                          a position is stored every `every` actions (and at the end)
    actions                        [[seat, action], ...] as the bots played them
    checkpoints                    {"<actions so far>": {"to_act", "scorepad", "views"}}
    result                         the match's result (a golden match is played to its end)

The test (tests/engines/test_golden.py) replays the stored actions and compares every stored
position and the result. After an intended rule change, record a game's cases again from their own
`seats`, then read the diff: every changed line is a behaviour change players will see.

    python -m tests.engines.golden --regenerate GAME   # or --regenerate all

A new case: write a file with the set-up keys, `seats` and `every` only, then regenerate its game.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engines.core import get_bots, get_engine, takes_optional_actions

GOLDEN_DIR = Path(__file__).parent / "golden"


def snapshot(engine: Any, state: Any, players: int) -> dict[str, Any]:
    return {
        "to_act": sorted(engine.to_act(state)),
        "scorepad": engine.scorepad(state).to_json(),
        "views": [engine.view(state, seat) for seat in [*range(players), None]],
    }


def case_paths(game: str | None = None) -> list[Path]:
    """Every case file, or one game's, in name order."""
    pattern = f"{game}/*.json" if game is not None else "*/*.json"
    return sorted(GOLDEN_DIR.glob(pattern))


def case_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def load(path: Path) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if case["game"] != path.parent.name:
        raise ValueError(f"{case_id(path)}: the file says game {case['game']!r}")
    return case


def _bots(case: dict[str, Any]) -> list[Any]:
    engine = get_engine(case["game"])
    kinds = get_bots(case["game"])
    bots = []
    for seat in case["seats"]:
        extra = {k: v for k, v in seat.items() if k not in ("bot", "seed")}
        bots.append(kinds[seat["bot"]](engine, seat["seed"], **extra))
    return bots


def _next(engine: Any, state: Any, bots: list[Any]) -> tuple[int, Any]:
    """The next action as the bot runner plays it: first, in seat order, an optional action of a
    seat out of turn whose bot kind takes them (Mokuru's Immunity, Steal a Trick); else the
    lowest acting seat's choice."""
    acting = engine.to_act(state)
    for seat, bot in enumerate(bots):
        if seat not in acting and takes_optional_actions(type(bot)):
            extra = bot.optional(state, seat)
            if extra is not None:
                return seat, extra
    seat = min(acting)
    return seat, bots[seat].choose(state, seat)


def record(case: dict[str, Any]) -> dict[str, Any]:
    """The case played again by its seats from the start, positions stored every `every` actions."""
    game, players, every = case["game"], case["players"], case["every"]
    engine = get_engine(game)
    bots = _bots(case)
    state = engine.setup(players, case["seed"], engine.spec.parse_options(case["options"]))
    actions: list[list[Any]] = []
    checkpoints = {"0": snapshot(engine, state, players)}
    while engine.to_act(state):
        seat, action = _next(engine, state, bots)
        state = engine.apply(state, seat, action)
        actions.append([seat, action])
        if len(actions) % every == 0:
            checkpoints[str(len(actions))] = snapshot(engine, state, players)
    checkpoints[str(len(actions))] = snapshot(engine, state, players)
    result = engine.result(state)
    return {
        **{k: case[k] for k in ("game", "players", "seed", "options", "seats", "every")},
        "actions": actions,
        "checkpoints": checkpoints,
        "result": result.to_json() if result else None,
    }


def replay(case: dict[str, Any]) -> dict[str, Any]:
    """The stored actions applied again, with positions taken at the stored steps."""
    engine = get_engine(case["game"])
    players = case["players"]
    state = engine.setup(players, case["seed"], engine.spec.parse_options(case["options"]))
    checkpoints = {"0": snapshot(engine, state, players)}
    for step, (seat, action) in enumerate(case["actions"], start=1):
        state = engine.apply(state, seat, action)
        if str(step) in case["checkpoints"]:
            checkpoints[str(step)] = snapshot(engine, state, players)
    result = engine.result(state)
    return {
        **case,
        "checkpoints": checkpoints,
        "over": not engine.to_act(state),
        "result": result.to_json() if result else None,
    }


def dumps(case: dict[str, Any]) -> str:
    return json.dumps(case, indent=1, sort_keys=True) + "\n"


def regenerate(game: str) -> list[Path]:
    """Record every case of `game` ("all": of every game) again, in place."""
    paths = case_paths(None if game == "all" else game)
    if not paths:
        raise SystemExit(f"no golden cases for {game!r} under {GOLDEN_DIR}")
    for path in paths:
        path.write_text(dumps(record(load(path))), encoding="utf-8")
    return paths


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.engines.golden", description="Golden replays.")
    parser.add_argument("--regenerate", metavar="GAME", required=True, help='a game id, or "all"')
    args = parser.parse_args(argv)
    for path in regenerate(args.regenerate):
        print(f"recorded {case_id(path)}")


if __name__ == "__main__":
    main()
