"""The card and trophy table: checked on load, and consistent with the rulebook's examples."""

from __future__ import annotations

import copy
import json
from collections import Counter
from importlib import resources
from typing import Any

import pytest

from engines.mooki_island.cards import BOX, FAMILIES, Face, parse_box


def raw() -> dict[str, Any]:
    text = resources.files("engines.mooki_island").joinpath("data/cards.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def test_the_box_holds_72_faces_as_the_rulebook_counts_them() -> None:
    counts = Counter(BOX.faces)
    assert len(BOX.faces) == 72 and BOX.cards == 36
    for family in FAMILIES:
        assert counts[Face("mooki", family)] == 12
        assert counts[Face("legendary", family)] == 1
    assert counts[Face("spider", None)] == 7


def test_the_table_agrees_with_the_rulebook_examples() -> None:
    pairs = {frozenset((BOX.faces[2 * c].label(), BOX.faces[2 * c + 1].label())) for c in range(36)}
    assert frozenset(("fossil", "legendary leaf")) in pairs
    assert BOX.stars("sun") + BOX.stars("leaf") == 6
    assert BOX.stars("moon") == 4
    assert BOX.stars("seashell") < BOX.stars("moon")


def test_the_rules_page_table_is_plain_json() -> None:
    table = BOX.to_json()
    assert json.loads(json.dumps(table)) == table
    assert sum(kind["copies"] for kind in table["cards"]) == 36 == table["total"]
    assert [t["family"] for t in table["trophies"]] == list(FAMILIES)
    assert {
        "faces": [{"kind": "mooki", "family": "fossil"}, {"kind": "legendary", "family": "leaf"}],
        "copies": 1,
    } in (table["cards"])


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (lambda d: d["cards"].pop(), "36 cards"),
        (lambda d: d["cards"][12].__setitem__(0, "moon"), "Mookies"),
        (lambda d: d["cards"][12].__setitem__(0, "spider"), "Spiders"),
        (lambda d: d["cards"][0].__setitem__(1, "legendary dragon"), "unknown face"),
        (lambda d: d["cards"][0].append("moon"), "exactly two faces"),
        (lambda d: d["trophies"][0].__setitem__("stars", 0), "stars"),
        (lambda d: d["trophies"][0].__setitem__("stars", "3"), "stars"),
        (lambda d: d["trophies"].pop(), "missing"),
        (lambda d: d["trophies"][1].__setitem__("family", "sun"), "two trophies"),
    ],
)
def test_a_broken_table_is_refused_on_load(edit: Any, problem: str) -> None:
    data = copy.deepcopy(raw())
    edit(data)
    with pytest.raises(ValueError, match=problem):
        parse_box(data)


def test_the_shipped_table_loads() -> None:
    assert parse_box(raw()) == BOX
