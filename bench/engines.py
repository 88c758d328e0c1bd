"""Engine throughput: actions/s, full matches/s and view cost, one core, every engine."""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import time
import tracemalloc
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


def _midgame(engine: Any, players: int, seed: int) -> Any:
    """A state some way into a random match."""
    rng = random.Random(seed)
    state = engine.setup(players, seed, engine.spec.parse_options({}))
    for _ in range(40):
        acting = engine.to_act(state)
        if not acting:
            break
        seat = min(acting)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


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
    # Memory a live match costs a server that caches its state, and the size of its stored dump.
    middles = [_midgame(engine, players, seed) for seed in range(100)]
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [engine.load(engine.dump(m)) for m in middles]
    grown = sum(stat.size_diff for stat in tracemalloc.take_snapshot().compare_to(before, "filename"))
    tracemalloc.stop()
    dump_bytes = statistics.median(len(json.dumps(engine.dump(m))) for m in kept)
    return {
        "state_kb": grown / len(kept) / 1024,
        "dump_kb": dump_bytes / 1024,
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
    print(
        f"{'game':<14}{'players':>8}{'actions/s':>12}{'matches/s':>11}{'actions/match':>15}"
        f"{'view µs':>9}{'state KiB':>11}{'dump KiB':>10}"
    )
    for engine in all_engines():
        r = bench_engine(engine, args.seconds)
        print(
            f"{engine.spec.id:<14}{r['players']:>8}{r['actions_per_s']:>12,.0f}{r['matches_per_s']:>11.1f}"
            f"{r['actions_per_match']:>15.0f}{r['view_median_us']:>9.1f}{r['state_kb']:>11.1f}{r['dump_kb']:>10.1f}"
        )
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process: {peak_mib:.0f} MiB")


if __name__ == "__main__":
    main()
