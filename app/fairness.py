"""Check a finished match from its public log alone: the seed commitment and a full replay."""

from __future__ import annotations

from typing import Any

from engines.core import ReplayError, get_engine, replay, seed_commitment


def check_public_log(room: dict[str, Any], log: dict[str, Any], state: dict[str, Any]) -> list[str]:
    """Problems found replaying `log` (GET /log) against `room` (GET /api/rooms) and `state` (GET /state)."""
    if "seed" not in log:
        return ["the match is not finished, so its seed is not revealed yet"]
    problems = []
    if seed_commitment(log["seed"]) != log["seed_commitment"]:
        problems.append("sha256(seed) does not match the seed commitment published at the start")
    engine = get_engine(room["game"])
    entries = log["entries"]
    try:
        replayed = replay(
            engine, log["players"], log["seed"], log["options"], [(e["seat"], e["action"]) for e in entries]
        )
    except ReplayError as error:
        problems.append(f"action {entries[error.number - 1]['seq']} does not replay: {error.error.message}")
        return problems
    if engine.scorepad(replayed).to_json() != room["scorepad"]:
        problems.append("the replayed score pad differs from the room's score pad")
    result = engine.result(replayed)
    if (result.to_json() if result else None) != state["result"]:
        problems.append("the replayed result differs from the published result")
    return problems
