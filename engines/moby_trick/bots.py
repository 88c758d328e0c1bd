"""Moby Trick bots: the generic random bot and a determinized Monte Carlo player."""

from __future__ import annotations

import math
import random
from typing import Any

from engines.core import Action, RandomBot, Rng

from .cards import CARDS
from .engine import (
    LEAD,
    NO_CARD,
    OVER,
    PLAY,
    REWARD,
    SET_ASIDE,
    MobyTrickEngine,
    MobyTrickState,
    playable_cards,
    trick_winner,
)

# A chosen 5 pays one pearl whatever it shows.
_REWARD_PEARLS = [1 if c.is_five else c.pearls for c in CARDS]
_IS_PEARL_BONUS = [c.bonus_kind == "pearl" for c in CARDS]


# The winner's reward is followed by its lead (the completed trick has shown through the reward's
# wait), a bonus by the same seat's card: each one turn, paced as one by the bot runner
# (engines.core.goes_on), so a trick's end does not take two full bot delays.
TURN_GOES_ON_AFTER = frozenset({"reward", "use_bonus"})


class MobyRandomBot(RandomBot):
    """The generic random bot, paced through a turn's steps as one turn."""

    turn_goes_on_after = TURN_GOES_ON_AFTER


class MonteCarloBot:
    """Flat Monte Carlo over "bonus then card" plans, on worlds resampled from its own view.

    Each rollout deals the cards this seat cannot see at random (respecting the
    families others have shown they lack), applies one plan and plays the round
    out with a quick policy; the plan with the best mean round margin (own points
    minus the others' average) wins. Plans pair at most one trump or flip bonus
    with a card, since a bonus alone is only worth what the card after it makes
    of it; pearl bonuses are always cashed at once, as one pearl card beats half
    of an unused pair.
    """

    name = "strong"
    turn_goes_on_after = TURN_GOES_ON_AFTER

    def __init__(self, engine: MobyTrickEngine, seed: int = 0, rollouts: int = 120) -> None:
        self.engine = engine
        self.rng = random.Random(seed)
        self.rollouts = rollouts

    # -- deciding ---------------------------------------------------------
    def choose(self, state: MobyTrickState, seat: int) -> Action:
        legal = self.engine.legal_actions(state, seat)
        if state.phase == PLAY:
            for action in legal:
                if action["type"] == "use_bonus" and _IS_PEARL_BONUS[action["card"]]:
                    return action
        if len(legal) == 1:
            return legal[0]
        plans = self._plans(state, seat, legal)
        return self._search(state, seat, plans)[0]

    def _plans(self, state: MobyTrickState, seat: int, legal: list[Action]) -> list[list[Action]]:
        if state.phase != PLAY:
            return [[a] for a in legal]
        plays = [a for a in legal if a["type"] == "play"]
        plans = [[a] for a in plays]
        for bonus in legal:
            if bonus["type"] != "use_bonus":
                continue
            after = state.clone()
            self.engine.advance(after, seat, bonus)
            # A flip or trump change can alter which card is best, so every card is paired with it.
            plans.extend([bonus, {"type": "play", "card": c}] for c in playable_cards(after, seat))
        return plans

    def _search(self, state: MobyTrickState, seat: int, plans: list[list[Action]]) -> list[Action]:
        """UCB1 over the plans, one fresh world per rollout; returns the plan with the best mean."""
        count = [0] * len(plans)
        total = [0.0] * len(plans)
        budget = max(self.rollouts, 2 * len(plans))
        for n in range(budget):
            if n < len(plans):
                pick = n
            else:
                log_n = math.log(n)
                pick = max(
                    range(len(plans)),
                    key=lambda i: total[i] / count[i] + 3.0 * math.sqrt(log_n / count[i]),
                )
            world = self._world(state, seat)
            for action in plans[pick]:
                self.engine.advance(world, seat, action)
            total[pick] += self._rollout(world, seat, len(state.rounds))
            count[pick] += 1
        best = max(range(len(plans)), key=lambda i: (total[i] / count[i], count[i]))
        return plans[best]

    # -- worlds consistent with what the seat can see ---------------------
    def _world(self, state: MobyTrickState, seat: int) -> MobyTrickState:
        world = state.clone()
        # Rollouts may reach the next deal; a fresh seed keeps the real one out of the search.
        world.rng = Rng(self.rng.getrandbits(48))
        players = state.players
        seen = set(state.hands[seat])
        seen.update(state.pearl_piles[seat])
        seen.update(state.discard_pile)
        seen.update(state.trick_cards)
        for bonuses in state.bonuses:
            seen.update(bonuses)
        if state.set_aside[seat] != NO_CARD:
            seen.add(state.set_aside[seat])
        deck = [c.id for c in CARDS if players > 2 or not c.is_five]
        unseen = [c for c in deck if c not in seen]
        others = [s for s in range(players) if s != seat]
        self.rng.shuffle(unseen)
        self._deal(state, world, others, unseen)
        return world

    @staticmethod
    def _deal(state: MobyTrickState, world: MobyTrickState, others: list[int], pool: list[int]) -> None:
        """Fill the hidden places of `world` from the shuffled `pool`, then swap cards so that
        no hand holds a family its owner has shown it lacks (when some swap allows it)."""
        pool = list(pool)
        for s in others:
            if state.set_aside[s] != NO_CARD:
                # A first bonus still face down cannot be a 5; a 5 always leaves some whale card.
                aside = next(c for c in pool if not CARDS[c].is_five)
                pool.remove(aside)
                world.set_aside[s] = aside
        for s in others:
            size = len(state.hands[s])
            world.hands[s], pool = pool[:size], pool[size:]
        for s in others:
            size = len(state.pearl_piles[s])
            world.pearl_piles[s], pool = pool[:size], pool[size:]
        world.undealt = pool
        free = [world.undealt, *(world.pearl_piles[s] for s in others)]
        for s in others:
            voids = state.voids[s]
            if not voids:
                continue
            for i, c in enumerate(world.hands[s]):
                if CARDS[c].family in voids:
                    _swap_out(state, world, others, s, i, free)
        for s in others:
            world.hands[s].sort()

    # -- playing a round out ----------------------------------------------
    def _rollout(self, world: MobyTrickState, seat: int, rounds_before: int) -> float:
        engine = self.engine
        rng = self.rng
        while len(world.rounds) == rounds_before and world.phase != OVER:
            phase = world.phase
            if phase == PLAY:
                mover = world.turn
                for c in [c for c in world.bonuses[mover] if _IS_PEARL_BONUS[c]]:
                    engine.advance(world, mover, {"type": "use_bonus", "card": c})
                engine.advance(world, mover, {"type": "play", "card": self._quick_card(world, mover)})
            elif phase == REWARD:
                winner = world.turn
                options = [
                    c for s, c in zip(world.trick_seats, world.trick_cards, strict=True) if s != winner
                ]
                engine.advance(
                    world, winner, {"type": "reward", "card": max(options, key=_REWARD_PEARLS.__getitem__)}
                )
            elif phase == LEAD:
                engine.advance(world, world.turn, {"type": "choose_leader", "seat": world.turn})
            elif phase == SET_ASIDE:
                # The seats still to pick, listed first: the last pick turns every first bonus face up
                # and clears set_aside, so testing set_aside inside the loop would make a seat that
                # had already picked pick again (and hold a card too few for the round).
                waiting = [s for s in range(world.players) if world.set_aside[s] == NO_CARD]
                for s in waiting:
                    choices = [c for c in world.hands[s] if not CARDS[c].is_five]
                    engine.advance(world, s, {"type": "set_aside", "card": rng.choice(choices)})
        points = world.rounds[rounds_before]
        others = (sum(points) - points[seat]) / (world.players - 1)
        return points[seat] - others

    def _quick_card(self, world: MobyTrickState, mover: int) -> int:
        """Rollout policy: the last player takes a won trick cheaply, otherwise a random legal card."""
        cards = playable_cards(world, mover)
        if len(cards) == 1 or len(world.trick_cards) != world.players - 1 or self.rng.random() < 0.3:
            return self.rng.choice(cards)
        winning = []
        for c in cards:
            world.trick_seats.append(mover)
            world.trick_cards.append(c)
            if trick_winner(world) == mover:
                winning.append(c)
            world.trick_seats.pop()
            world.trick_cards.pop()
        return self.rng.choice(winning or cards)


def _swap_out(
    state: MobyTrickState,
    world: MobyTrickState,
    others: list[int],
    seat: int,
    index: int,
    free: list[list[int]],
) -> None:
    """Swap world.hands[seat][index] for a card that seat may hold: from an unconstrained
    place first, else from another hand that may hold the card given away."""
    hand = world.hands[seat]
    card = hand[index]
    voids = state.voids[seat]
    places = free + [world.hands[t] for t in others if t != seat and CARDS[card].family not in state.voids[t]]
    for place in places:
        for j, partner in enumerate(place):
            if CARDS[partner].family not in voids:
                hand[index], place[j] = partner, card
                return


BOTS: dict[str, Any] = {"random": MobyRandomBot, "strong": MonteCarloBot}
