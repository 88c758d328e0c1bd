"""Moby Trick: the strong bot's win rate against random bots, its decision time, its fallbacks
(decisions that raised or chose illegally) and engine actions/s.

    .venv/bin/python -m bench.bots_moby_trick --games 50
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bench.bots import Fallbacks, Watched
from engines.moby_trick import BOTS, ENGINE


def play_match(
    players: int, seed: int, strong_seat: int, decisions: list[float], fallbacks: Fallbacks
) -> list[int]:
    seats: list[Any] = [BOTS["random"](ENGINE, seed * 31 + s) for s in range(players)]
    seats[strong_seat] = Watched(ENGINE, BOTS["strong"](ENGINE, seed * 31 + strong_seat), seed, fallbacks)
    state = ENGINE.setup(players, seed, ENGINE.spec.parse_options({}))
    order = random.Random(seed)  # the first bonuses are picked in any order, as at a table
    while acting := ENGINE.to_act(state):
        seat = order.choice(sorted(acting))
        start = time.perf_counter()
        action = seats[seat].choose(state, seat)
        if seat == strong_seat:
            decisions.append(time.perf_counter() - start)
        state = ENGINE.apply(state, seat, action)
    result = ENGINE.result(state)
    assert result is not None
    return result.winners


def engine_speed(players: int, matches: int) -> tuple[float, int]:
    """Random matches timed on legal_actions + apply only; returns (actions/s, actions)."""
    spent = 0.0
    actions = 0
    for seed in range(matches):
        rng = random.Random(seed)
        state = ENGINE.setup(players, seed, ENGINE.spec.parse_options({}))
        while acting := ENGINE.to_act(state):
            seat = min(acting)
            start = time.perf_counter()
            legal = ENGINE.legal_actions(state, seat)
            state = ENGINE.apply(state, seat, legal[rng.randrange(len(legal))])
            spent += time.perf_counter() - start
            actions += 1
    return actions / spent, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--speed-matches", type=int, default=300)
    args = parser.parse_args()

    rate, actions = engine_speed(args.players, args.speed_matches)
    matches = f"{args.speed_matches} random {args.players}-player matches"
    print(f"engine: {rate:,.0f} actions/s ({actions} actions, {matches})")

    wins = 0.0
    decisions: list[float] = []
    fallbacks = Fallbacks()
    start = time.perf_counter()
    for seed in range(args.games):
        strong_seat = seed % args.players
        winners = play_match(args.players, seed, strong_seat, decisions, fallbacks)
        if strong_seat in winners:
            wins += 1 / len(winners)
    wall = time.perf_counter() - start
    decisions.sort()
    print(
        f"strong vs {args.players - 1} random, {args.games} games: win rate {wins / args.games:.1%} "
        f"(fair share {1 / args.players:.1%}), {wall:.0f} s"
    )
    print(
        f"strong decision: mean {statistics.fmean(decisions) * 1e3:.1f} ms, "
        f"median {statistics.median(decisions) * 1e3:.1f} ms, "
        f"p95 {decisions[int(len(decisions) * 0.95)] * 1e3:.1f} ms, max {decisions[-1] * 1e3:.1f} ms"
    )
    print(f"strong {fallbacks.line()}")


if __name__ == "__main__":
    main()
