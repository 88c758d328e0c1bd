"""Engine throughput: actions/s, full matches/s and view cost, one core, every engine."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from engines.core import all_engines


def _playout(engine: Any, players: int, seed: int) -> tuple[int, float, Any]:
    """One random match; returns actions taken, seconds in legal_actions + apply, final state."""
    rng = random.Random(seed)
    state = engine.setup(players, seed, engine.spec.parse_options({}))
    actions = 0
    spent = 0.0
    while True:
        acting = engine.to_act(state)
        if not acting:
            return actions, spent, state
        seat = min(acting)
        t0 = time.perf_counter()
        legal = engine.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        state = engine.apply(state, seat, action)
        spent += time.perf_counter() - t0
        actions += 1


def bench_engine(engine: Any, seconds: float) -> dict[str, float]:
    players = min(4, engine.spec.max_players)
    total_actions = 0
    action_time = 0.0
    matches = 0
    start = time.perf_counter()
    views: list[float] = []
    states: list[Any] = []
    while time.perf_counter() - start < seconds:
        n, spent, final = _playout(engine, players, matches)
        total_actions += n
        action_time += spent
        matches += 1
        states.append(final)
    wall = time.perf_counter() - start
    # View cost on a live position: a fresh deal of each seed, every seat.
    for seed in range(200):
        state = engine.setup(players, seed, engine.spec.parse_options({}))
        for seat in range(players):
            t0 = time.perf_counter()
            engine.view(state, seat)
            views.append(time.perf_counter() - t0)
    return {
        "players": players,
        "actions_per_s": total_actions / action_time,
        "matches_per_s": matches / wall,
        "actions_per_match": total_actions / matches,
        "view_median_us": statistics.median(views) * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time spent per engine")
    args = parser.parse_args()
    print(f"{'game':<14}{'players':>8}{'actions/s':>12}{'matches/s':>11}{'actions/match':>15}{'view µs':>9}")
    for engine in all_engines():
        r = bench_engine(engine, args.seconds)
        print(
            f"{engine.spec.id:<14}{r['players']:>8}{r['actions_per_s']:>12,.0f}{r['matches_per_s']:>11.1f}"
            f"{r['actions_per_match']:>15.0f}{r['view_median_us']:>9.1f}"
        )


if __name__ == "__main__":
    main()
