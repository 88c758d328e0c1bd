"""The Moby Trick whale cards, loaded from data/cards.json and checked on load."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

FIVE = 5
VALUES = (1, 2, 3, 4, 6, 7, 8, 9)
BONUS_KINDS = ("trump", "flip", "pearl", "none")


class CardDataError(ValueError):
    """The card table does not describe a playable Moby Trick deck."""


@dataclass(frozen=True)
class Card:
    id: int
    family: str | None
    value: int
    pearls: int
    bonus_kind: str
    bonus_family: str | None

    @property
    def is_five(self) -> bool:
        return self.value == FIVE

    def to_json(self) -> dict[str, Any]:
        bonus: dict[str, Any] = {"kind": self.bonus_kind}
        if self.bonus_family is not None:
            bonus["family"] = self.bonus_family
        return {
            "id": self.id,
            "family": self.family,
            "value": self.value,
            "pearls": self.pearls,
            "bonus": bonus,
        }


def _card(index: int, raw: Any, families: list[str]) -> Card:
    where = f"card {index}"
    if not isinstance(raw, dict) or set(raw) != {"family", "value", "pearls", "bonus"}:
        raise CardDataError(f"{where}: expected exactly the keys family, value, pearls, bonus")
    value, pearls, bonus, family = raw["value"], raw["pearls"], raw["bonus"], raw["family"]
    if not isinstance(value, int) or not (1 <= value <= 9):
        raise CardDataError(f"{where}: value must be an integer 1-9")
    if not isinstance(pearls, int) or not (1 <= pearls <= 9):
        raise CardDataError(f"{where}: pearls must be an integer 1-9")
    if not isinstance(bonus, dict) or bonus.get("kind") not in BONUS_KINDS:
        raise CardDataError(f"{where}: bonus.kind must be one of {BONUS_KINDS}")
    kind = bonus["kind"]
    bonus_family = bonus.get("family")
    if kind == "trump":
        if set(bonus) != {"kind", "family"} or bonus_family not in families:
            raise CardDataError(f"{where}: a trump bonus names one of the families {families}")
    elif set(bonus) != {"kind"}:
        raise CardDataError(f"{where}: only a trump bonus carries a family")
    if value == FIVE:
        # A 5 is never kept as a bonus and a chosen 5 is worth exactly one pearl.
        if family is not None or kind != "none" or pearls != 1:
            raise CardDataError(f"{where}: a 5 has family null, 1 pearl and bonus kind none")
    elif family not in families or kind == "none":
        raise CardDataError(f"{where}: a whale card has a family from {families} and a usable bonus")
    return Card(index, family, value, pearls, kind, bonus_family)


def parse_cards(data: Any) -> tuple[tuple[str, ...], tuple[Card, ...]]:
    """Check a card table (the JSON document) and return (families, cards by id)."""
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CardDataError('expected an object with a "cards" list')
    families = data.get("families")
    if not isinstance(families, list) or len(families) != 4 or len(set(families)) != 4:
        raise CardDataError("expected four distinct families")
    if not all(isinstance(f, str) and f for f in families):
        raise CardDataError("family names are non-empty strings")
    cards = tuple(_card(i, raw, families) for i, raw in enumerate(data["cards"]))
    seen = sorted((c.family or "", c.value) for c in cards if not c.is_five)
    expected = sorted((f, v) for f in families for v in VALUES)
    if seen != expected:
        raise CardDataError("each family needs exactly one card of each value 1-4 and 6-9")
    if sum(c.is_five for c in cards) != 4:
        raise CardDataError("the deck has exactly four 5s")
    return tuple(families), cards


def read_cards() -> Any:
    """The card file as JSON, unchecked."""
    text = resources.files("engines.moby_trick").joinpath("data/cards.json").read_text(encoding="utf-8")
    return json.loads(text)


def load_cards() -> tuple[tuple[str, ...], tuple[Card, ...]]:
    return parse_cards(read_cards())


def rules_data() -> dict[str, Any]:
    """The card table for the rules page: the same file the engine deals from, checked the same way."""
    raw = read_cards()
    parse_cards(raw)
    return {"cards": raw}


FAMILIES, CARDS = load_cards()
