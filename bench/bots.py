"""Bot strength: each game's strong bot against random bots over seeded matches."""

from __future__ import annotations

import argparse
import time
from typing import Any

from engines.core import game_ids, get_bots, get_engine


def play_match(game: str, players: int, seed: int, strong_seat: int) -> list[int]:
    engine = get_engine(game)
    bots = get_bots(game)
    seats: list[Any] = [
        (bots["strong"] if s == strong_seat else bots["random"])(engine, seed * 31 + s)
        for s in range(players)
    ]
    state = engine.setup(players, seed, engine.spec.parse_options({}))
    while acting := engine.to_act(state):
        seat = min(acting)
        state = engine.apply(state, seat, seats[seat].choose(state, seat))
    result = engine.result(state)
    assert result is not None
    return result.winners


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--game", action="append", help="game id (default: every game with a strong bot)")
    args = parser.parse_args()
    games = args.game or [g for g in game_ids() if "strong" in get_bots(g)]
    for game in games:
        players = max(get_engine(game).spec.min_players, min(args.players, get_engine(game).spec.max_players))
        wins = 0.0
        start = time.perf_counter()
        for seed in range(args.games):
            strong_seat = seed % players
            winners = play_match(game, players, seed, strong_seat)
            if strong_seat in winners:
                wins += 1 / len(winners)  # a shared victory counts as a share
        elapsed = time.perf_counter() - start
        print(
            f"{game}: strong bot won {wins / args.games:.1%} of {args.games} {players}-player games "
            f"against random bots (a random seat's fair share is {1 / players:.1%}); {elapsed:.1f}s"
        )


if __name__ == "__main__":
    main()
