"""A tiny card game that lets the server tests know every rule: play your cards in turn, low total wins."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from engines.core import (
    Action,
    ActionWords,
    Engine,
    GameSpec,
    Options,
    RandomBot,
    Result,
    Rng,
    Scorepad,
    check_seat,
)

HAND = 2


class TinyOptions(Options):
    rounds: int = Field(default=2, ge=1, le=3)


@dataclass(frozen=True)
class TinyState:
    players: int
    rounds: int
    round: int
    turn: int
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    played: tuple[int, ...]
    scores: tuple[tuple[int, ...], ...]
    rng: tuple[int, ...]


def value(card: int) -> int:
    return card % 5


class TinyEngine(Engine[TinyState]):
    spec = GameSpec(
        "tiny",
        "Tiny",
        2,
        3,
        TinyOptions,
        blurb="Play your two cards in turn; the lowest total wins.",
        # Every fact of the game is said here: nothing else in the server or the client names it.
        winner="lowest_total",
        panel="points",
        starter=None,
        hides_information=True,  # the other hands and the deck: around one device, the table is covered
        default_bot="random",
        fallback_bot="random",
        goal=None,  # it ends after `rounds` rounds, not at a total
        standing=None,  # the score pad's totals
        action_words={
            "play": ActionWords(done="played {card}", otherwise="played a card", ask="play a card")
        },
    )

    def _deal(self, players: int, rng: Rng) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        deck = rng.shuffled(list(range(20)))
        hands = tuple(tuple(deck[i * HAND : (i + 1) * HAND]) for i in range(players))
        return hands, tuple(deck[players * HAND :])

    def deal(self, players: int, rng: Rng, options: Options, first: int | None) -> TinyState:
        assert isinstance(options, TinyOptions)
        hands, deck = self._deal(players, rng)
        return TinyState(players, options.rounds, 1, 0, hands, deck, (), (), tuple(rng.dump()))

    def to_act(self, state: TinyState) -> frozenset[int]:
        return frozenset() if state.round > state.rounds else frozenset({state.turn})

    def legal_actions(self, state: TinyState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "play", "card": card} for card in state.hands[seat]]

    def _apply(self, state: TinyState, seat: int, action: Action) -> TinyState:
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != action["card"])
        played = (*state.played, action["card"])
        turn = (seat + 1) % state.players
        if any(hands):
            return TinyState(**{**state.__dict__, "hands": tuple(hands), "played": played, "turn": turn})
        points = tuple(sum(value(c) for c in played[s :: state.players]) for s in range(state.players))
        rng = Rng.load(list(state.rng))
        new_hands, deck = self._deal(state.players, rng)
        return TinyState(
            state.players,
            state.rounds,
            state.round + 1,
            turn,
            new_hands,
            deck,
            (),
            (*state.scores, points),
            tuple(rng.dump()),
        )

    def view(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        check_seat(seat, state.players)
        # Every round has players * HAND plays and seat 0 opens each, so the numbering follows.
        first = (state.round - 1) * state.players * HAND
        return {
            "game": self.spec.id,
            "seat": seat,
            "players": state.players,
            "round": state.round,
            "events": [
                {"seq": first + i + 1, "type": "play", "seat": i % state.players, "value": value(c)}
                for i, c in enumerate(state.played)
            ],
            "hand": [{"id": c, "value": value(c)} for c in state.hands[seat]] if seat is not None else [],
            "hand_counts": [len(h) for h in state.hands],
            "played": [{"id": c, "value": value(c)} for c in state.played],
            "deck": len(state.deck),
        }

    def resample(self, state: TinyState, seat: int, rng: random.Random) -> TinyState:
        """The other hands and the deck dealt again from the cards `seat` cannot see, and a new
        secret seed for the deals to come (keeping its counter)."""
        unseen = [c for s, hand in enumerate(state.hands) if s != seat for c in hand] + list(state.deck)
        rng.shuffle(unseen)
        hands, taken = [], 0
        for s, hand in enumerate(state.hands):
            if s == seat:
                hands.append(hand)
            else:
                hands.append(tuple(unseen[taken : taken + len(hand)]))
                taken += len(hand)
        secret = (rng.getrandbits(63), state.rng[1])
        return TinyState(
            **{**state.__dict__, "hands": tuple(hands), "deck": tuple(unseen[taken:]), "rng": secret}
        )

    def hidden_ids(self, state: TinyState, seat: int | None) -> frozenset[int]:
        own = set(state.hands[seat]) if seat is not None else set()
        return frozenset(c for hand in state.hands for c in hand if c not in own) | frozenset(state.deck)

    def scorepad(self, state: TinyState) -> Scorepad:
        totals = [sum(r[s] for r in state.scores) for s in range(state.players)]
        return Scorepad([list(r) for r in state.scores], totals)

    def result(self, state: TinyState) -> Result | None:
        if state.round <= state.rounds:
            return None
        totals = self.scorepad(state).totals
        return Result([s for s, t in enumerate(totals) if t == min(totals)], totals)

    def round_number(self, state: TinyState) -> int:
        return state.round

    def dump(self, state: TinyState) -> dict[str, Any]:
        return {k: v for k, v in state.__dict__.items()}

    def load(self, data: dict[str, Any]) -> TinyState:
        def tuples(value: Any) -> Any:
            return tuple(tuples(v) for v in value) if isinstance(value, list) else value

        return TinyState(**{k: tuples(v) for k, v in data.items()})


ENGINE = TinyEngine()
BOTS = {"random": RandomBot}
