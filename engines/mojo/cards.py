"""The Mojo deck, loaded from data/deck.json and checked on load."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

COLOURS = ("blue", "green", "yellow", "orange", "red")


@dataclass(frozen=True)
class Card:
    id: int
    colour: str
    value: int

    def face(self) -> dict[str, Any]:
        """Colour and value without the id: for scoring lines and the event log."""
        return {"colour": self.colour, "value": self.value}

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "colour": self.colour, "value": self.value}


@dataclass(frozen=True)
class DeckData:
    cards: tuple[Card, ...]
    hand_size: int
    mojo_time_limit: int
    mojo_time_limit_two_players: int
    mojo_bonus: int


def parse_deck(raw: dict[str, Any]) -> DeckData:
    cards: list[Card] = []
    seen_values: set[int] = set()
    for entry in raw["colours"]:
        colour = entry["colour"]
        if colour not in COLOURS:
            raise ValueError(f"unknown colour {colour!r}")
        copies = int(entry["copies"])
        if copies < 1:
            raise ValueError(f"{colour}: copies must be positive")
        for value in entry["values"]:
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"{colour}: bad value {value!r}")
            if value in seen_values:
                raise ValueError(f"value {value} appears in two colours")
            seen_values.add(value)
            cards.extend(Card(len(cards), colour, value) for _ in range(copies))
    limits = raw["mojo_time_limit"]
    deck = DeckData(
        cards=tuple(Card(i, c.colour, c.value) for i, c in enumerate(cards)),
        hand_size=int(raw["hand_size"]),
        mojo_time_limit=int(limits["default"]),
        mojo_time_limit_two_players=int(limits["two_players"]),
        mojo_bonus=int(raw["mojo_bonus"]),
    )
    if deck.hand_size < 1 or deck.mojo_time_limit >= deck.hand_size:
        raise ValueError("the Mojo Time limit must be below the hand size")
    return deck


def read_deck() -> dict[str, Any]:
    """The deck file as JSON, unchecked."""
    text = resources.files("engines.mojo").joinpath("data/deck.json").read_text(encoding="utf-8")
    raw: dict[str, Any] = json.loads(text)
    return raw


def load_deck() -> DeckData:
    return parse_deck(read_deck())


def rules_data() -> dict[str, Any]:
    """The deck table for the rules page: the same file the engine deals from, checked the same way."""
    raw = read_deck()
    parse_deck(raw)
    return {"deck": raw}


DECK = load_deck()
