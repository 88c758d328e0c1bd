"""Check a finished match from its public log alone: the seed commitment and a full replay."""

from __future__ import annotations

import hashlib
from typing import Any

from engines.core import EngineError, get_engine


def check_public_log(room: dict[str, Any], log: dict[str, Any], state: dict[str, Any]) -> list[str]:
    """Problems found replaying `log` (GET /log) against `room` (GET /api/rooms) and `state` (GET /state)."""
    if "seed" not in log:
        return ["the match is not finished, so its seed is not revealed yet"]
    problems = []
    if hashlib.sha256(str(log["seed"]).encode()).hexdigest() != log["seed_commitment"]:
        problems.append("sha256(seed) does not match the seed commitment published at the start")
    engine = get_engine(room["game"])
    replayed = engine.setup(log["players"], log["seed"], engine.spec.parse_options(log["options"]))
    for entry in log["entries"]:
        try:
            replayed = engine.apply(replayed, entry["seat"], entry["action"])
        except EngineError as error:
            problems.append(f"action {entry['seq']} does not replay: {error.message}")
            return problems
    if engine.scorepad(replayed).to_json() != room["scorepad"]:
        problems.append("the replayed score pad differs from the room's score pad")
    result = engine.result(replayed)
    if (result.to_json() if result else None) != state["result"]:
        problems.append("the replayed result differs from the published result")
    return problems
