"""Bot strength: each game's strong bot against random bots over seeded matches, and its fallbacks.

A fallback is a strong-bot decision that raised or named an action that is not legal; the
server then retries and finally lets the random bot play, so every fallback is a stalled,
weakened turn. The bench plays the random bot's move in its place, counts it and prints it.

    .venv/bin/python -m bench.bots --games 100
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engines.core import Action, Engine, game_ids, get_bots, get_engine, is_listed


@dataclass
class Fallbacks:
    decisions: int = 0
    raised: Counter[str] = field(default_factory=Counter)  # exception type -> count
    illegal: int = 0

    @property
    def total(self) -> int:
        return sum(self.raised.values()) + self.illegal

    def line(self) -> str:
        kinds = ", ".join(f"{n} {name}" for name, n in self.raised.most_common())
        return (
            f"fallbacks: {self.total} of {self.decisions} strong decisions"
            f" (raised: {sum(self.raised.values())}{f' [{kinds}]' if kinds else ''}; illegal: {self.illegal})"
        )


class Watched:
    """The strong bot, with the random bot's move instead whenever it raises or chooses illegally."""

    def __init__(self, engine: Engine[Any], strong: Any, seed: int, fallbacks: Fallbacks) -> None:
        self.engine = engine
        self.strong = strong
        self.rng = random.Random(seed)
        self.fallbacks = fallbacks

    def choose(self, state: Any, seat: int) -> Action:
        legal = self.engine.legal_actions(state, seat)
        self.fallbacks.decisions += 1
        try:
            action: Action = self.strong.choose(state, seat)
        except Exception as error:
            self.fallbacks.raised[type(error).__name__] += 1
            return self.rng.choice(legal)
        if not is_listed(action, legal):
            self.fallbacks.illegal += 1
            return self.rng.choice(legal)
        return action


def play_match(game: str, players: int, seed: int, strong_seat: int, fallbacks: Fallbacks) -> list[int]:
    engine = get_engine(game)
    bots = get_bots(game)
    seats: list[Any] = [bots["random"](engine, seed * 31 + s) for s in range(players)]
    seats[strong_seat] = Watched(engine, bots["strong"](engine, seed * 31 + strong_seat), seed, fallbacks)
    state = engine.setup(players, seed, engine.spec.parse_options({}))
    # When several seats may act (Moby Trick's first bonuses), they do so in any order, as at a table.
    order = random.Random(seed)
    while acting := engine.to_act(state):
        seat = order.choice(sorted(acting))
        state = engine.apply(state, seat, seats[seat].choose(state, seat))
    result = engine.result(state)
    assert result is not None
    return result.winners


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--game", action="append", help="game id (default: every game with a strong bot)")
    args = parser.parse_args()
    games = args.game or [g for g in game_ids() if "strong" in get_bots(g)]
    for game in games:
        spec = get_engine(game).spec
        players = max(spec.min_players, min(args.players, spec.max_players))
        wins = 0.0
        fallbacks = Fallbacks()
        start = time.perf_counter()
        for seed in range(args.games):
            strong_seat = seed % players
            winners = play_match(game, players, seed, strong_seat, fallbacks)
            if strong_seat in winners:
                wins += 1 / len(winners)  # a shared victory counts as a share
        elapsed = time.perf_counter() - start
        print(
            f"{game}: strong bot won {wins / args.games:.1%} of {args.games} {players}-player games "
            f"against random bots (a random seat's fair share is {1 / players:.1%}); {elapsed:.1f}s"
        )
        print(f"{game}: {fallbacks.line()}")


if __name__ == "__main__":
    main()
