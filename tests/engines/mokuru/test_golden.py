"""Golden Mokuru matches: a seed and the bots' actions, with the views they must produce.

Regenerate after an intended rule change with `python -m tests.engines.mokuru.test_golden`,
then read the diff: every changed line is a behaviour change players will see.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engines.core import RandomBot
from engines.mokuru import ENGINE
from engines.mokuru.bots import RivalBot

from ..golden import snapshot

GOLDEN_DIR = Path(__file__).parent / "golden"
EVERY = 25

# name -> (players, seed, options, levels). Rival bots on even seats, random bots on odd ones,
# each rival taking its out-of-turn chances (Immunity, Steal a Trick) before anyone acts.
CASES: dict[str, tuple[int, int, dict[str, Any], list[str]]] = {
    "mokuru-2p": (2, 8, {"first_seat": 1}, ["normal", "extreme"]),
    "mokuru-3p-witness": (3, 21, {"witness": "on"}, ["easy", "hard", "normal"]),
    "mokuru-5p-short": (5, 11, {"belts": "short", "witness": "off"}, ["normal"] * 5),
}


def _play(name: str, actions: list[list[Any]] | None) -> dict[str, Any]:
    players, seed, options, levels = CASES[name]
    state = ENGINE.setup(players, seed, ENGINE.spec.parse_options(options))
    bots: list[Any] = [
        RivalBot(ENGINE, seed + s, levels[s]) if s % 2 == 0 else RandomBot(ENGINE, seed + s)
        for s in range(players)
    ]
    recorded: list[list[Any]] = []
    checkpoints = {"0": snapshot(ENGINE, state, players)}
    steps = iter(actions) if actions is not None else None
    while ENGINE.to_act(state):
        if steps is not None:
            seat, action = next(steps)
        else:
            seat, action = _next(state, bots)
        state = ENGINE.apply(state, seat, action)
        recorded.append([seat, action])
        if len(recorded) % EVERY == 0:
            checkpoints[str(len(recorded))] = snapshot(ENGINE, state, players)
    checkpoints[str(len(recorded))] = snapshot(ENGINE, state, players)
    result = ENGINE.result(state)
    return {
        "game": "mokuru",
        "players": players,
        "seed": seed,
        "options": options,
        "actions": recorded,
        "checkpoints": checkpoints,
        "result": result.to_json() if result else None,
    }


def _next(state: Any, bots: list[Any]) -> tuple[int, Any]:
    acting = ENGINE.to_act(state)
    for seat, bot in enumerate(bots):
        if seat not in acting and isinstance(bot, RivalBot):
            extra = bot.optional(state, seat)
            if extra is not None:
                return seat, extra
    seat = min(acting)
    return seat, bots[seat].choose(state, seat)


def path_for(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_replay_is_unchanged(name: str) -> None:
    golden = json.loads(path_for(name).read_text(encoding="utf-8"))
    replayed = _play(name, golden["actions"])
    assert golden["result"] is not None and replayed["result"] == golden["result"]
    for step, expected in golden["checkpoints"].items():
        assert replayed["checkpoints"][step] == expected, f"{name}: the position after {step} actions changed"


def test_golden_matches_cover_the_optional_actions() -> None:
    kinds = set()
    for name in CASES:
        golden = json.loads(path_for(name).read_text(encoding="utf-8"))
        kinds.update(action["type"] for _, action in golden["actions"])
    assert {"steal", "immunity", "witness", "target", "report"} <= kinds


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name in CASES:
        path_for(name).write_text(
            json.dumps(_play(name, None), indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
