"""Seeded randomness kept inside a game state, so seed + actions replay exactly."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


@dataclass
class Rng:
    """A counter-based generator: each draw is derived from (seed, counter).

    Only two integers live in the state, so dumping, loading and comparing a
    state stays cheap, and no global `random` is ever touched.
    """

    seed: int
    counter: int = 0

    def _next_stream(self) -> random.Random:
        self.counter += 1
        return random.Random((self.seed * 0x9E3779B97F4A7C15 + self.counter) & _MASK)

    def shuffled(self, items: list[T]) -> list[T]:
        out = list(items)
        self._next_stream().shuffle(out)
        return out

    def randrange(self, n: int) -> int:
        return self._next_stream().randrange(n)

    def dump(self) -> list[int]:
        return [self.seed, self.counter]

    @classmethod
    def load(cls, data: list[int]) -> Rng:
        return cls(seed=int(data[0]), counter=int(data[1]))
