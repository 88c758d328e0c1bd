"""Mokuru bots. A bot holds no Mokuru: its tries succeed at random, as likely as its difficulty
and the trick's category make them, so a solo player still has rivals to climb against."""

from __future__ import annotations

import random
from typing import Any

from engines.core import Action, RandomBot

from .cards import CARDS, Card
from .engine import (
    BATTLE,
    CONFIRM,
    DARKNESS,
    DIFFICULTY,
    PERFORM,
    SPENT,
    TARGET,
    MokuruEngine,
    MokuruState,
)

# Chance that one try lands, by category, and how much harder each difficulty makes it.
BASE_CHANCE = {"Basic": 0.75, "Advanced": 0.5, "Battle": 0.55, "Challenge": 0.4, "Master": 0.3}
LEVEL_FACTOR = {"easy": 1.0, "normal": 0.9, "hard": 0.8, "extreme": 0.75}
MINI_FACTOR = 0.85


def success_chance(card: Card, level: str | None, mini: bool = False) -> float:
    chance = BASE_CHANCE[card.category or "Basic"] * LEVEL_FACTOR[level or "normal"]
    if card.mokuru == 2:
        chance *= 0.9
    return chance * (MINI_FACTOR if mini else 1.0)


def hardness(card: Card) -> float:
    """How unlikely a trick is to land (for choosing one to impose on the others)."""
    return 1.0 - success_chance(card, "normal") + 0.01 * (card.flips or 0)


class RivalBot:
    """Plays as a fair opponent: reports tries by chance, confirms what others report, and uses
    its action cards as a player would (Negative Boost and Belt Steal on the leader, The Doom on
    the leader, Immunity whenever something aimed at it or a spent trick makes it count)."""

    name = "rival"

    def __init__(self, engine: MokuruEngine, seed: int = 0, level: str = "normal") -> None:
        self.engine = engine
        self.rng = random.Random(seed)
        self.level = level

    def choose(self, state: MokuruState, seat: int) -> Action:
        legal = self.engine.legal_actions(state, seat)
        kinds = {a["type"] for a in legal}
        phase = state.phase
        if phase == DIFFICULTY:
            return {"type": "difficulty", "level": self.level}
        if "immunity" in kinds and (state.pending is not None or phase == SPENT):
            return {"type": "immunity"}
        if phase == TARGET:
            return self._target(state, seat, legal)
        if phase == DARKNESS:
            return max(legal, key=lambda a: (hardness(CARDS[a["card"]]), -a["card"]))
        if phase == CONFIRM:
            return {"type": "witness", "verdict": "confirm"}
        if phase == SPENT:
            return {"type": "accept_miss"}
        if phase in (PERFORM, BATTLE):
            give = self._give(state, seat, legal)
            if give is not None:
                return give
            trick = state.trick
            assert trick is not None
            chance = success_chance(CARDS[trick["card"]], state.difficulty[seat], trick["mini"])
            if phase == BATTLE:
                chance /= 2  # the other racer may be quicker
                return {"type": "report", "outcome": "done" if self.rng.random() < chance else "missed"}
            landed = self.rng.random() < chance
            return {"type": "report", "outcome": "landed" if landed else "missed"}
        return legal[0]

    def optional(self, state: MokuruState, seat: int) -> Action | None:
        """An out-of-turn action worth taking now: Immunity against an effect aimed at this seat,
        or stealing an easy trick. None: let the game go on."""
        for action in self.engine.legal_actions(state, seat):
            if action["type"] == "immunity" and seat not in self.engine.to_act(state):
                return action
            if action["type"] == "steal" and state.trick is not None:
                card = CARDS[state.trick["card"]]
                # A master trick is worth taking only on the black belt (it makes the Grandmaster);
                # below black any trick wins one belt, so take an easy one.
                black = state.belts[seat] >= state.black
                if card.is_master == black and (black or card.category == "Basic"):
                    return action
        return None

    def _leader(self, state: MokuruState, seats: list[int], me: int) -> int:
        others = [s for s in seats if s != me] or seats
        return max(others, key=lambda s: (state.belts[s], -((s - me) % state.players)))

    def _target(self, state: MokuruState, seat: int, legal: list[Action]) -> Action:
        seats = [a["seat"] for a in legal if a["type"] == "target"]
        choosing = state.choosing
        if choosing == "positive_boost":
            chosen = seat if seat in seats else min(seats, key=lambda s: state.belts[s])
        elif choosing in ("duel", "battle"):
            chosen = min((s for s in seats if s != seat), key=lambda s: state.belts[s], default=seats[0])
        elif choosing == "swap":
            chosen = self._leader(state, seats, seat)
        else:  # negative_boost, belt_steal, the_doom: the leader
            chosen = self._leader(state, seats, seat)
        return {"type": "target", "seat": chosen}

    def _give(self, state: MokuruState, seat: int, legal: list[Action]) -> Action | None:
        """Give away a hard trick, to the leader."""
        gives = [a for a in legal if a["type"] == "give"]
        if not gives or state.trick is None:
            return None
        card = CARDS[state.trick["card"]]
        if success_chance(card, state.difficulty[seat]) >= 0.45:
            return None
        leader = self._leader(state, [a["seat"] for a in gives], seat)
        return {"type": "give", "seat": leader}


# The server seats its "strong" bot when a game has one: for Mokuru that is the rival.
BOTS: dict[str, Any] = {"random": RandomBot, "rival": RivalBot, "strong": RivalBot}
