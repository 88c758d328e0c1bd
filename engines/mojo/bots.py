"""Mojo bots: the generic random bot and a heuristic player."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engines.core import Action, Engine, RandomBot

from .engine import CARDS, COLOUR, DECK, VALUE, MojoState, score_cards


class HeuristicBot:
    """Plays the card that leaves the lowest expected hand score.

    It reads only what its own view shows: its hand, the discard tops and the
    public counts. A draw is priced at the average score a random unseen card
    would add; a card count at or under the Mojo Time limit is welcome only
    when the hand already scores low, since ending the round with a high score
    earns the Mojo card's +10.
    """

    name = "strong"

    def __init__(self, engine: Engine[Any], seed: int = 0) -> None:
        self.engine = engine
        self.rng = random.Random(seed)

    def choose(self, state: MojoState, seat: int) -> Action:
        legal = self.engine.legal_actions(state, seat)
        kind = legal[0]["type"]
        if kind == "reveal":
            # Face-down cards all count anyway; show the least telling (lowest) first.
            return min(legal, key=lambda a: (VALUE[a["card"]], a["card"]))
        unseen = self._unseen(state, seat)
        hand = state.hands[seat]
        if kind == "draw":
            other = state.discard_piles[1 - (state.turn_pile or 0)]
            pile_cost = score_cards([*hand, other[-1]]) - score_cards(hand) if other else 99.0
            return {"type": "draw", "source": "pile" if pile_cost < self._draw_cost(hand, unseen) else "deck"}
        limit = DECK.mojo_time_limit_two_players if state.players == 2 else DECK.mojo_time_limit
        best: tuple[float, float] | None = None
        choice = legal[0]
        for action in legal:
            pile = action.get("pile", state.turn_pile or 0)
            top = state.discard_piles[pile]
            covered = VALUE[top[-1]] if top else None
            cost = self._cost(hand, action["card"], covered, unseen, limit)
            key = (cost, self.rng.random())
            if best is None or key < best:
                best, choice = key, action
        return choice

    def _unseen(self, state: MojoState, seat: int) -> Counter[tuple[str, int]]:
        seen = {*state.hands[seat], *state.face_down[seat]}
        for pile in state.discard_piles:
            if pile:
                seen.add(pile[-1])
        for revealed in state.revealed:
            seen.update(revealed)
        return Counter((COLOUR[c], VALUE[c]) for c in range(len(CARDS)) if c not in seen)

    @staticmethod
    def _draw_cost(hand: list[int], unseen: Counter[tuple[str, int]]) -> float:
        total = sum(unseen.values()) or 1
        best: dict[str, int] = {}
        for c in hand:
            best[COLOUR[c]] = max(best.get(COLOUR[c], -1), VALUE[c])
        added = sum(n * max(0, value - max(best.get(colour, 0), 0)) for (colour, value), n in unseen.items())
        return added / total

    def _cost(
        self,
        hand: list[int],
        card: int,
        covered: int | None,
        unseen: Counter[tuple[str, int]],
        limit: int,
        depth: int = 0,
    ) -> float:
        rest = list(hand)
        rest.remove(card)
        if not rest:
            return -5.0  # emptying the hand ends the round with nothing left to count
        value = VALUE[card]
        if covered is not None and value == covered and depth < 4:
            return min(self._cost(rest, nxt, value, unseen, limit, depth + 1) for nxt in set(rest))
        cost = float(score_cards(rest)) + 0.4 * len(rest)
        if covered is not None and value > covered:
            cost += self._draw_cost(rest, unseen) + 0.4
        if len(rest) <= limit:
            # Entering Mojo Time starts the countdown: good with a low hand, risky with a high one.
            cost += (score_cards(rest) - 8) * 0.5
        return cost


BOTS: dict[str, Any] = {"random": RandomBot, "strong": HeuristicBot}
