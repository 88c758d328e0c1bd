"""Mooki Island's cards and trophies, loaded from data/cards.json and checked on load.

A card has two faces. Faces are numbered `2 * card + side` in data order (side 0 is the
first face listed). These numbers are data positions and never leave the engine: views
name faces by per-match ids shuffled from the seed (see engine.py).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from typing import Any

FAMILIES = ("sun", "moon", "fossil", "seashell", "leaf")
MOOKI, LEGENDARY, SPIDER = "mooki", "legendary", "spider"
MOOKIES_PER_FAMILY = 12
SPIDERS = 7
CARDS_IN_BOX = 36


@dataclass(frozen=True)
class Face:
    kind: str  # MOOKI, LEGENDARY or SPIDER
    family: str | None  # None for a Spider

    @property
    def worth(self) -> int:
        """How many Mookies of its family this face counts for when sorting."""
        return 2 if self.kind == LEGENDARY else 1 if self.kind == MOOKI else 0

    def to_json(self) -> dict[str, Any]:
        if self.family is None:
            return {"kind": self.kind}
        return {"kind": self.kind, "family": self.family}

    def label(self) -> str:
        if self.kind == SPIDER:
            return "spider"
        return f"legendary {self.family}" if self.kind == LEGENDARY else str(self.family)


@dataclass(frozen=True)
class Trophy:
    family: str
    name: str
    stars: int


@dataclass(frozen=True)
class BoxData:
    faces: tuple[Face, ...]  # 72 faces; face 2c and 2c+1 share card c
    trophies: tuple[Trophy, ...]  # in FAMILIES order

    @property
    def cards(self) -> int:
        return len(self.faces) // 2

    def stars(self, family: str) -> int:
        return next(t.stars for t in self.trophies if t.family == family)

    def to_json(self) -> dict[str, Any]:
        """The tables as the rules page shows them: trophies, and each kind of card with its copies."""
        kinds: Counter[tuple[str, str]] = Counter(
            (self.faces[2 * c].label(), self.faces[2 * c + 1].label()) for c in range(self.cards)
        )
        by_label = {f.label(): f for f in self.faces}
        return {
            "trophies": [{"family": t.family, "name": t.name, "stars": t.stars} for t in self.trophies],
            "cards": [
                {"faces": [by_label[a].to_json(), by_label[b].to_json()], "copies": n}
                for (a, b), n in kinds.items()
            ],
            "total": self.cards,
        }


def parse_face(text: Any) -> Face:
    if not isinstance(text, str):
        raise ValueError(f"a face is a string, not {text!r}")
    words = text.split()
    if words == [SPIDER]:
        return Face(SPIDER, None)
    if len(words) == 1 and words[0] in FAMILIES:
        return Face(MOOKI, words[0])
    if len(words) == 2 and words[0] == LEGENDARY and words[1] in FAMILIES:
        return Face(LEGENDARY, words[1])
    raise ValueError(f"unknown face {text!r} (a family, 'legendary <family>' or 'spider')")


def parse_box(raw: dict[str, Any]) -> BoxData:
    trophies = raw.get("trophies")
    if not isinstance(trophies, list):
        raise ValueError("'trophies' must be a list")
    by_family: dict[str, Trophy] = {}
    for entry in trophies:
        family, stars = entry.get("family"), entry.get("stars")
        if family not in FAMILIES:
            raise ValueError(f"unknown trophy family {family!r}")
        if family in by_family:
            raise ValueError(f"two trophies for {family}")
        if not isinstance(stars, int) or isinstance(stars, bool) or not 1 <= stars <= 20:
            raise ValueError(f"{family}: stars must be a whole number from 1 to 20, not {stars!r}")
        by_family[family] = Trophy(family, str(entry.get("name") or family.title()), stars)
    if set(by_family) != set(FAMILIES):
        raise ValueError(f"one trophy per family is needed; missing {sorted(set(FAMILIES) - set(by_family))}")
    cards = raw.get("cards")
    if not isinstance(cards, list) or len(cards) != CARDS_IN_BOX:
        raise ValueError(f"the box holds {CARDS_IN_BOX} cards")
    faces: list[Face] = []
    for number, card in enumerate(cards):
        if not isinstance(card, list) or len(card) != 2:
            raise ValueError(f"card {number} must list exactly two faces")
        faces.extend(parse_face(f) for f in card)
    counts = Counter(faces)
    if counts[Face(SPIDER, None)] != SPIDERS:
        raise ValueError(f"{counts[Face(SPIDER, None)]} Spiders, expected {SPIDERS}")
    for family in FAMILIES:
        if counts[Face(MOOKI, family)] != MOOKIES_PER_FAMILY:
            raise ValueError(
                f"{family}: {counts[Face(MOOKI, family)]} Mookies, expected {MOOKIES_PER_FAMILY}"
            )
        if counts[Face(LEGENDARY, family)] != 1:
            raise ValueError(f"{family}: exactly one Legendary Mooki expected")
    return BoxData(faces=tuple(faces), trophies=tuple(by_family[f] for f in FAMILIES))


def read_box() -> dict[str, Any]:
    text = resources.files("engines.mooki_island").joinpath("data/cards.json").read_text(encoding="utf-8")
    raw: dict[str, Any] = json.loads(text)
    return raw


def load_box() -> BoxData:
    return parse_box(read_box())


def rules_data() -> dict[str, Any]:
    """The card and trophy tables for the rules page, read and checked like the engine's."""
    return parse_box(read_box()).to_json()


BOX = load_box()
