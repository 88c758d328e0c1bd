"""Mooki Island bots: the generic random bot and a collector that weighs the trophy races.

The strong bot decides from its own view plus its memory of what it has seen. The
server builds a fresh bot for every turn, so the memory is rebuilt each time from the
state, limited to what this seat saw happen: the face each card was placed on (every
placement is public when it is made) and both faces of the cards the seat drew itself
(its own Mookies and the Spiders it sent). It never reads a pile below its top or the
face of a card the opponent drew and did not show.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engines.core import Action, Engine, RandomBot

from .cards import BOX, FAMILIES, SPIDER, Face
from .engine import LOWER, UPPER, MookiIslandState, family_counts, flip, other, spider_count

STARS = {t.family: t.stars for t in BOX.trophies}


@dataclass
class Memory:
    """What a seat knows about both collections and the cards still in play."""

    counts: list[dict[str, int]]  # Mookies per family in each collection
    spiders: list[int]
    own_cards: set[int]  # data card numbers this seat has held (both faces known)


def remember(state: MookiIslandState, seat: int) -> Memory:
    mine, theirs = state.collections[seat], state.collections[other(seat)]
    drawn_by_me = [f for f in mine if BOX.faces[f].kind != SPIDER] + [
        f for f in theirs if BOX.faces[f].kind == SPIDER
    ]
    return Memory(
        counts=[family_counts(c) for c in state.collections],
        spiders=[spider_count(c) for c in state.collections],
        own_cards={f // 2 for f in drawn_by_me},
    )


def face_of(shown: dict[str, Any]) -> Face:
    return Face(shown["kind"], shown.get("family"))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class CollectorBot:
    """One-ply lookahead over a hand-made estimate of the final stars.

    Per family, the chance of taking the trophy grows with the lead in Mookies and
    shrinks with the cards still to come; the Spider race costs the smaller trophy of
    whoever is behind in it. A take is judged by its upper face and the likely faces
    on its back (the cards of the box that show that face and are not known placed).
    """

    name = "strong"
    # How fast the uncertainty of a race grows with the cards still to come (tuned with bench/bots.py).
    spread = (0.5, 0.2)
    spider_spread = (0.5, 0.2)

    def __init__(self, engine: Engine[Any], seed: int = 0) -> None:
        self.engine = engine
        self.rng = random.Random(seed)

    def choose(self, state: MookiIslandState, seat: int) -> Action:
        legal = self.engine.legal_actions(state, seat)
        kind = legal[0]["type"]
        if kind == "return":
            # The Spider takes the trophy that costs the fewest stars.
            return min(legal, key=lambda a: (STARS[a["family"]], FAMILIES.index(a["family"])))
        view = self.engine.view(state, seat)
        memory = remember(state, seat)
        left = sum(p["count"] for p in view["piles"])
        shortest = min(p["count"] for p in view["piles"])
        to_come = min(left, 2 * shortest + 1)
        if kind == "place":
            faces = {UPPER: face_of(view["drawn"][UPPER]), LOWER: face_of(view["drawn"][LOWER])}
            return max(
                legal,
                key=lambda a: (self.value_after(memory, seat, faces[a["side"]], to_come), a["side"] == UPPER),
            )
        best: tuple[float, float] | None = None
        choice = legal[0]
        for action in legal:
            top = view["piles"][action["pile"]]["top"]
            score = self.take_value(memory, seat, face_of(top), to_come)
            key = (score, self.rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice

    def take_value(self, memory: Memory, seat: int, upper: Face, to_come: int) -> float:
        backs: Counter[Face] = Counter()
        for card in range(BOX.cards):
            if card in memory.own_cards:
                continue
            for face in (2 * card, 2 * card + 1):
                if BOX.faces[face] == upper:
                    backs[BOX.faces[flip(face)]] += 1
        stay = self.value_after(memory, seat, upper, to_come)
        if not backs:
            return stay
        total = sum(backs.values())
        return (
            sum(n * max(stay, self.value_after(memory, seat, back, to_come)) for back, n in backs.items())
            / total
        )

    def value_after(self, memory: Memory, seat: int, face: Face, to_come: int) -> float:
        counts = [dict(c) for c in memory.counts]
        spiders = list(memory.spiders)
        if face.kind == SPIDER:
            spiders[other(seat)] += 1
        else:
            assert face.family is not None
            counts[seat][face.family] += face.worth
        return self.evaluate(counts, spiders, seat, max(to_come - 1, 0))

    def evaluate(self, counts: list[dict[str, int]], spiders: list[int], seat: int, to_come: int) -> float:
        """Expected stars of `seat` minus the opponent's, from the counts so far."""
        spread = self.spread[0] + self.spread[1] * math.sqrt(to_come)
        mine, theirs = counts[seat], counts[other(seat)]
        p_me: dict[str, float] = {}
        p_them: dict[str, float] = {}
        for family in FAMILIES:
            lead = mine[family] - theirs[family]
            p_me[family] = _sigmoid((lead - 0.5) / spread)
            p_them[family] = _sigmoid((-lead - 0.5) / spread)
        value = sum(STARS[f] * (p_me[f] - p_them[f]) for f in FAMILIES)
        # The Spider race: the loser gives up (at best) their least valuable trophy.
        spider_spread = self.spider_spread[0] + self.spider_spread[1] * math.sqrt(to_come)
        extra = spiders[seat] - spiders[other(seat)]
        lose_me = _sigmoid((extra - 0.5) / spider_spread)
        lose_them = _sigmoid((-extra - 0.5) / spider_spread)
        value -= lose_me * _cheapest(p_me) - lose_them * _cheapest(p_them)
        return value


def _cheapest(chances: dict[str, float]) -> float:
    """Stars the Spider would take: the smallest trophy this side is likely to hold."""
    likely = [STARS[f] for f, p in chances.items() if p > 0.5]
    return float(min(likely)) if likely else 0.5


BOTS: dict[str, Any] = {"random": RandomBot, "strong": CollectorBot}
