"""The Pebbles rules: place a pebble on the cairn, higher than the one on top to score it, or draw one
from the bag; when no hand and no bag holds a pebble, the highest total wins."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field

from engines.core import (
    Action,
    ActionWords,
    Engine,
    GameSpec,
    Options,
    Result,
    Rng,
    Scorepad,
    StateCodec,
    check_seat,
    log_event,
)

COLOURS = ("grey", "white", "black")
VALUES = (1, 2, 3, 4, 5)
# A pebble's id is its place in this list; every id is in play in every match.
PEBBLES: tuple[tuple[str, int], ...] = tuple((colour, value) for colour in COLOURS for value in VALUES)
EVENTS_KEPT = 30


class PebblesOptions(Options):
    hand: int = Field(
        3, ge=2, le=3, title="Pebbles in hand", description="How many pebbles each player starts with."
    )


@dataclass
class PebblesState:
    players: int
    hands: list[list[int]]
    bag: list[int]  # drawn from the end
    cairn: list[int] = field(default_factory=list)  # the top is the last
    scores: list[int] = field(default_factory=list)
    turn: int = 0
    over: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    event_seq: int = 0


CODEC = StateCodec(PebblesState)


def pebble(card: int) -> dict[str, Any]:
    colour, value = PEBBLES[card]
    return {"id": card, "colour": colour, "value": value}


def points(state: PebblesState, card: int) -> int:
    """A pebble higher than the top of the cairn scores its value; any other scores nothing."""
    top = PEBBLES[state.cairn[-1]][1] if state.cairn else 0
    return PEBBLES[card][1] if PEBBLES[card][1] > top else 0


class PebblesEngine(Engine[PebblesState]):
    spec = GameSpec(
        "pebbles",
        "Pebbles",
        2,
        4,
        PebblesOptions,
        blurb="Build the cairn higher than the last pebble to score it, or draw from the bag.",
        winner="highest_total",
        panel="points",
        hides_information=True,  # the other hands and the bag
        default_bot="random",
        fallback_bot="random",
        action_words={
            "place": ActionWords(
                done="placed {card} on the cairn", otherwise="placed a pebble", ask="place a pebble"
            ),
            "draw": ActionWords(done="drew a pebble", ask="draw a pebble"),
        },
    )

    def deal(self, players: int, rng: Rng, options: Options, first: int | None) -> PebblesState:
        assert isinstance(options, PebblesOptions)
        bag = rng.shuffled(list(range(len(PEBBLES))))
        hands = [[bag.pop() for _ in range(options.hand)] for _ in range(players)]
        return PebblesState(players=players, hands=hands, bag=bag, scores=[0] * players)

    def to_act(self, state: PebblesState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn})

    def legal_actions(self, state: PebblesState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        actions: list[Action] = [{"type": "place", "card": card} for card in sorted(state.hands[seat])]
        if state.bag:
            actions.append({"type": "draw"})
        return actions

    def _apply(self, state: PebblesState, seat: int, action: Action) -> PebblesState:
        s = CODEC.clone(state)
        if action["type"] == "place":
            card = action["card"]
            scored = points(s, card)
            s.hands[seat].remove(card)
            s.cairn.append(card)
            s.scores[seat] += scored
            colour, value = PEBBLES[card]
            event = {"seat": seat, "card": {"colour": colour, "value": value}, "points": scored}
            s.event_seq = log_event(s.events, s.event_seq, "place", event, EVENTS_KEPT)
        else:
            s.hands[seat].append(s.bag.pop())
            s.event_seq = log_event(s.events, s.event_seq, "draw", {"seat": seat}, EVENTS_KEPT)
        # The next seat that can do anything: one with a pebble in hand, or any while the bag has one.
        for step in range(1, s.players + 1):
            nxt = (seat + step) % s.players
            if s.hands[nxt] or s.bag:
                s.turn = nxt
                return s
        s.over = True
        return s

    def view(self, state: PebblesState, seat: int | None) -> dict[str, Any]:
        check_seat(seat, state.players)
        return {
            "game": self.spec.id,
            "seat": seat,
            "players": state.players,
            "round": 1,
            "events": list(state.events),
            "hand": [pebble(c) for c in sorted(state.hands[seat])] if seat is not None else [],
            "hand_counts": [len(hand) for hand in state.hands],
            "bag": len(state.bag),
            "cairn": [pebble(c) for c in state.cairn],
            "scores": list(state.scores),
            "turn": None if state.over else state.turn,
        }

    def hidden_ids(self, state: PebblesState, seat: int | None) -> frozenset[int]:
        others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
        return frozenset(others | set(state.bag))

    def resample(self, state: PebblesState, seat: int, rng: random.Random) -> PebblesState:
        """The other hands and the bag dealt again from the pebbles `seat` cannot see, each place
        keeping its count (nobody saw a pebble go into a hand: draws come face down)."""
        check_seat(seat, state.players)
        s = CODEC.clone(state)
        places = [s.bag, *(hand for other, hand in enumerate(s.hands) if other != seat)]
        unseen = sorted(c for place in places for c in place)
        rng.shuffle(unseen)
        for place in places:
            place[:], unseen = unseen[: len(place)], unseen[len(place) :]
        return s

    def scorepad(self, state: PebblesState) -> Scorepad:
        return Scorepad([list(state.scores)] if state.over else [], list(state.scores))

    def result(self, state: PebblesState) -> Result | None:
        if not state.over:
            return None
        best = max(state.scores)
        return Result([s for s, total in enumerate(state.scores) if total == best], list(state.scores))

    def dump(self, state: PebblesState) -> dict[str, Any]:
        return CODEC.dump(state)

    def load(self, data: dict[str, Any]) -> PebblesState:
        return CODEC.load(data)
