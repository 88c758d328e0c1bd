"""Mooki Island bots: the generic random bot and a collector that weighs the trophy races.

The strong bot decides from its own view plus its memory of what it has seen. The
server builds a fresh bot for every turn, so the memory is rebuilt each time, from the
engine's `memory(state, seat)`: what this seat saw happen, the face each card was placed
on (every placement is public when it is made) and both faces of the cards the seat drew
itself (its own Mookies and the Spiders it sent). The bot reads nothing else of the state
than its view and that memory, so a position dealt again by `resample` for this seat leads
to the same choice (tests/engines/mooki_island/test_resample.py).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engines.core import Action, Engine, RandomBot

from .cards import BOX, FAMILIES, SPIDER, Face
from .engine import LOWER, UPPER, MookiIslandEngine, MookiIslandState, other

STARS = {t.family: t.stars for t in BOX.trophies}
PLACES = 9  # decimals a value is compared to: values closer than that are a tie, broken by a fixed key

Pair = tuple[Face, Face]


# A take is always followed by the same seat's place (and, for a Spider, its return): one turn, paced
# as one by the bot runner (engines.core.goes_on).
TURN_GOES_ON_AFTER = frozenset({"take", "place"})


class MookiRandomBot(RandomBot):
    """The generic random bot, paced through a turn's steps as one turn."""

    turn_goes_on_after = TURN_GOES_ON_AFTER


def face_order(face: Face) -> tuple[str, str]:
    return (face.kind, face.family or "")


def pair_of(a: Face, b: Face) -> Pair:
    """A card's two faces, in a fixed order (cards with the same two faces look alike)."""
    return (a, b) if face_order(a) <= face_order(b) else (b, a)


# Every kind of card in the box and its copies, in a fixed order.
BOX_PAIRS: list[tuple[Pair, int]] = sorted(
    Counter(pair_of(BOX.faces[2 * c], BOX.faces[2 * c + 1]) for c in range(BOX.cards)).items(),
    key=lambda item: (face_order(item[0][0]), face_order(item[0][1])),
)


@dataclass
class Memory:
    """What a seat knows about both collections and the cards still in play."""

    counts: list[dict[str, int]]  # Mookies per family in each collection
    spiders: list[int]
    own_cards: Counter[Pair]  # the cards this seat has held (both faces known), by their two faces


def face_of(shown: dict[str, Any]) -> Face:
    return Face(shown["kind"], shown.get("family"))


def remember(engine: Engine[Any], state: MookiIslandState, seat: int) -> Memory:
    """The seat's memory, from what the engine says it saw (never from the state itself)."""
    assert isinstance(engine, MookiIslandEngine)
    seen = engine.memory(state, seat)["collections"]
    counts = [dict.fromkeys(FAMILIES, 0) for _ in seen]
    spiders = [0 for _ in seen]
    own: Counter[Pair] = Counter()
    for owner, collection in enumerate(seen):
        for card in collection:
            face = face_of(card["face"])
            if face.family is not None:
                counts[owner][face.family] += face.worth
            else:
                spiders[owner] += 1
            if card["back"] is not None:
                own[pair_of(face, face_of(card["back"]))] += 1
    return Memory(counts=counts, spiders=spiders, own_cards=own)


def settled(value: float) -> float:
    """`value` as choices compare it: sums of the same terms in another order are equal."""
    return round(value, PLACES)


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
    turn_goes_on_after = TURN_GOES_ON_AFTER
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
        memory = remember(self.engine, state, seat)
        left = sum(p["count"] for p in view["piles"])
        shortest = min(p["count"] for p in view["piles"])
        to_come = min(left, 2 * shortest + 1)
        if kind == "place":
            faces = {UPPER: face_of(view["drawn"][UPPER]), LOWER: face_of(view["drawn"][LOWER])}
            return max(
                legal,
                key=lambda a: (
                    settled(self.value_after(memory, seat, faces[a["side"]], to_come)),
                    a["side"] == UPPER,
                ),
            )
        best: tuple[float, float] | None = None
        choice = legal[0]
        for action in legal:
            top = view["piles"][action["pile"]]["top"]
            score = settled(self.take_value(memory, seat, face_of(top), to_come))
            key = (score, self.rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice

    def take_value(self, memory: Memory, seat: int, upper: Face, to_come: int) -> float:
        """What taking a card with `upper` on top is worth: the best of keeping that face or the
        back, averaged over the backs it may have. The backs counted are the box's copies of each
        pair with `upper` on one side, less the cards of that pair this seat has held (it knows both
        their faces). Only those are taken out: a card the opponent placed, or one still face up on
        a pile, may hide any back as far as this seat knows, so it still counts as possible."""
        # A fixed order of the box's pairs (never the order the cards happen to lie in the state,
        # which would change a sum's last digits).
        backs: Counter[Face] = Counter()
        for (a, b), copies in BOX_PAIRS:
            free = copies - memory.own_cards[a, b]
            if free <= 0:
                continue
            if a == upper:
                backs[b] += free
            if b == upper:
                backs[a] += free
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


BOTS: dict[str, Any] = {"random": MookiRandomBot, "strong": CollectorBot}
