"""The Mokuru belts and cards, loaded from data/cards.json and checked on load.

Card ids are positions in one table: the tricks deck (trick and action cards,
one entry per copy) first, then the master tricks. Every card is face up the
moment it is drawn, so an id only names a card that everyone has seen.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CATEGORIES = ("Basic", "Advanced", "Battle", "Challenge")
MASTER = "Master"
SHAPES = ("line", "back", "triangle", "triangle_back", "square", "square_back", "crossroad", "relay")
EXTRAS = ("blind", "hold", "kiss", "both_hands", "race", "three_in_a_row", "catch", "relay", "twin")
ACTION_KEYS = (
    "duel",
    "immunity",
    "darkness",
    "mini_mokuru",
    "positive_boost",
    "swap",
    "negative_boost",
    "the_doom",
    "belt_steal",
    "give_a_trick",
    "steal_a_trick",
)
KEEP_IT = frozenset({"immunity", "give_a_trick", "steal_a_trick"})
MARATHON = "Marathon"

_DATA = Path(__file__).with_name("data") / "cards.json"


class CardDataError(ValueError):
    """The card table does not describe a playable Mokuru game."""


@dataclass(frozen=True)
class Belt:
    name: str
    colour: str
    short: bool


@dataclass(frozen=True)
class Card:
    id: int
    kind: str  # "trick", "master" or "action"
    name: str
    description: str
    category: str | None = None  # Basic, Advanced, Battle, Challenge; Master for master tricks
    mokuru: int = 0
    shape: str | None = None
    flips: int | None = None
    extras: tuple[str, ...] = ()
    action: str | None = None  # the action key, for action cards
    mode: str | None = None  # "play" or "keep", for action cards

    @property
    def is_trick(self) -> bool:
        return self.kind == "trick"

    @property
    def is_master(self) -> bool:
        return self.kind == "master"

    @property
    def is_action(self) -> bool:
        return self.kind == "action"

    @property
    def is_marathon(self) -> bool:
        return self.category == "Challenge" and self.shape == "relay"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "name": self.name}
        if self.is_action:
            out.update({"action": self.action, "mode": self.mode})
        else:
            out.update(
                {
                    "category": self.category,
                    "mokuru": self.mokuru,
                    "shape": self.shape,
                    "flips": self.flips,
                    "extras": list(self.extras),
                }
            )
        out["description"] = self.description
        return out


@dataclass(frozen=True)
class Table:
    belts: tuple[Belt, ...]
    grandmaster: Belt
    cards: tuple[Card, ...]
    deck: tuple[int, ...]  # ids of the tricks deck (tricks and actions)
    masters: tuple[int, ...]  # ids of the master tricks deck

    def belt_names(self, short: bool) -> list[str]:
        return [b.name for b in self.belts if b.short or not short]

    def to_json(self) -> dict[str, Any]:
        """The whole table for the rules page: one entry per distinct card, with its copies."""

        def entries(ids: tuple[int, ...]) -> list[dict[str, Any]]:
            seen: dict[tuple[str, str | None], dict[str, Any]] = {}
            for i in ids:
                card = self.cards[i].to_json()
                del card["id"]
                key = (card["name"], card.get("category") or card.get("action"))
                if key in seen:
                    seen[key]["copies"] += 1
                else:
                    seen[key] = {**card, "copies": 1}
            return list(seen.values())

        deck = entries(self.deck)
        return {
            "belts": [{"name": b.name, "colour": b.colour, "short": b.short} for b in self.belts],
            "grandmaster": {"name": self.grandmaster.name, "colour": self.grandmaster.colour},
            "tricks": [c for c in deck if c["kind"] == "trick"],
            "actions": [c for c in deck if c["kind"] == "action"],
            "masters": entries(self.masters),
        }


def _text(raw: dict[str, Any], key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CardDataError(f"{where}: {key} must be a non-empty string")
    return value


def _count(raw: dict[str, Any], key: str, where: str, low: int, high: int) -> int:
    value = raw.get(key)
    if type(value) is not int or not low <= value <= high:
        raise CardDataError(f"{where}: {key} must be an integer {low}-{high}")
    return value


def _belt(raw: Any, where: str) -> Belt:
    if not isinstance(raw, dict):
        raise CardDataError(f"{where}: a belt is an object")
    colour = _text(raw, "colour", where)
    if not (len(colour) == 7 and colour.startswith("#")):
        raise CardDataError(f"{where}: colour is #rrggbb")
    return Belt(_text(raw, "name", where), colour, bool(raw.get("short", True)))


def _trick(raw: Any, where: str, master: bool) -> tuple[dict[str, Any], int]:
    """The fields of a trick entry, and its number of copies."""
    keys = {"name", "category", "mokuru", "shape", "flips", "extras", "description", "copies"}
    if not isinstance(raw, dict) or set(raw) != keys:
        raise CardDataError(f"{where}: expected exactly the keys {sorted(keys)}")
    category = raw["category"]
    if master and category != MASTER:
        raise CardDataError(f"{where}: a master trick has category {MASTER}")
    if not master and category not in CATEGORIES:
        raise CardDataError(f"{where}: category must be one of {CATEGORIES}")
    if raw["shape"] not in SHAPES:
        raise CardDataError(f"{where}: shape must be one of {SHAPES}")
    flips = raw["flips"]
    if flips is not None and (type(flips) is not int or not 1 <= flips <= 9):
        raise CardDataError(f"{where}: flips is null or an integer 1-9")
    extras = raw["extras"]
    if not isinstance(extras, list) or not all(e in EXTRAS for e in extras):
        raise CardDataError(f"{where}: extras are some of {EXTRAS}")
    fields = {
        "kind": "master" if master else "trick",
        "name": _text(raw, "name", where),
        "description": _text(raw, "description", where),
        "category": category,
        "mokuru": _count(raw, "mokuru", where, 1, 2),
        "shape": raw["shape"],
        "flips": flips,
        "extras": tuple(extras),
    }
    return fields, _count(raw, "copies", where, 1, 9)


def _action(raw: Any, where: str) -> tuple[dict[str, Any], int]:
    keys = {"key", "name", "mode", "copies", "description"}
    if not isinstance(raw, dict) or set(raw) != keys:
        raise CardDataError(f"{where}: expected exactly the keys {sorted(keys)}")
    if raw["key"] not in ACTION_KEYS:
        raise CardDataError(f"{where}: key must be one of {ACTION_KEYS}")
    mode = "keep" if raw["key"] in KEEP_IT else "play"
    if raw["mode"] != mode:
        raise CardDataError(f"{where}: {raw['key']} is a '{mode} it' card")
    fields = {
        "kind": "action",
        "name": _text(raw, "name", where),
        "description": _text(raw, "description", where),
        "action": raw["key"],
        "mode": mode,
    }
    return fields, _count(raw, "copies", where, 1, 9)


def parse_table(data: Any) -> Table:
    """Check a card table (the JSON document) and number its cards."""
    if not isinstance(data, dict):
        raise CardDataError("expected an object")
    for key in ("belts", "tricks", "masters", "actions"):
        if not isinstance(data.get(key), list) or not data[key]:
            raise CardDataError(f'expected a non-empty "{key}" list')
    belts = tuple(_belt(b, f"belt {i}") for i, b in enumerate(data["belts"]))
    grandmaster = _belt({**data.get("grandmaster", {}), "short": True}, "grandmaster")
    names = [b.name for b in belts] + [grandmaster.name]
    if len(set(names)) != len(names):
        raise CardDataError("belt names must be distinct")
    if belts[0].name != "white" or belts[-1].name != "black" or not (belts[0].short and belts[-1].short):
        raise CardDataError("the belts run from white to black, both in the short game too")
    if sum(b.short for b in belts) < 3:
        raise CardDataError("the short game needs at least one belt between white and black")

    entries: list[tuple[dict[str, Any], int]] = []
    entries += [_trick(r, f"trick {i}", master=False) for i, r in enumerate(data["tricks"])]
    entries += [_action(r, f"action {i}") for i, r in enumerate(data["actions"])]
    masters = [_trick(r, f"master trick {i}", master=True) for i, r in enumerate(data["masters"])]
    keys_seen = {fields["action"] for fields, _ in entries if fields["kind"] == "action"}
    if keys_seen != set(ACTION_KEYS) or len(data["actions"]) != len(ACTION_KEYS):
        raise CardDataError(f"every action card appears exactly once: {ACTION_KEYS}")
    categories = {fields["category"] for fields, _ in entries if fields["kind"] == "trick"}
    if categories != set(CATEGORIES):
        raise CardDataError(f"the tricks deck needs tricks of every category {CATEGORIES}")
    if not any(fields["name"] == MARATHON and fields["shape"] == "relay" for fields, _ in entries):
        raise CardDataError("the tricks deck holds the Marathon (shape relay)")
    for fields, _ in entries:
        if (fields["kind"] == "trick") and (fields["shape"] == "relay") != (fields["name"] == MARATHON):
            raise CardDataError(f"{fields['name']}: only the Marathon is a relay")

    cards: list[Card] = []
    for fields, copies in [*entries, *masters]:
        for _ in range(copies):
            cards.append(Card(id=len(cards), **fields))
    deck = tuple(c.id for c in cards if not c.is_master)
    return Table(belts, grandmaster, tuple(cards), deck, tuple(c.id for c in cards if c.is_master))


def load_table(path: Path = _DATA) -> Table:
    with path.open(encoding="utf-8") as handle:
        return parse_table(json.load(handle))


TABLE = load_table()
CARDS = TABLE.cards
