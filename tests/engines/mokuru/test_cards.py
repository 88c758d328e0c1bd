"""The Mokuru card table: every card of the rulebook, checked on load, and a bad table refused."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from engines.mokuru import ENGINE
from engines.mokuru.cards import _DATA, ACTION_KEYS, CARDS, TABLE, CardDataError, parse_table

RAW: dict[str, Any] = json.loads(_DATA.read_text(encoding="utf-8"))

# Card names as the rulebook lists them, per category (our copy counts are ours to choose).
RULEBOOK = {
    "Basic": ["Flip", "2 Flips", "3 Flips", "4 Flips", "Flip back", "2 Flips back", "3 Flips back",
              "4 Flips back", "Triangle", "Blind Flip"],
    "Advanced": ["Flip & Hold", "2 Flips & Hold", "3 Flips & Hold", "4 Flips & Hold", "Flip back & Hold",
                 "2 Flips back & Hold", "3 Flips back & Hold", "4 Flips back & Hold", "Flip & Kiss",
                 "2 Flips & Kiss", "3 Flips & Kiss", "4 Flips & Kiss", "Flip back & Kiss",
                 "2 Flips back & Kiss", "3 Flips back & Kiss", "4 Flips back & Kiss", "Double Triangle",
                 "Square"],
    "Battle": ["2 Flips", "3 Flips", "4 Flips", "2 Flips back", "3 Flips back", "4 Flips back", "Triangle",
               "Triangle back", "Square", "Square back"],
    "Challenge": ["Flip & Hold", "Flip & Catch", "Crossroad", "Marathon"],
    "Master": ["5 Flips", "5 Flips Back", "2 Blinds Flip", "Blind Flip Back", "Double Square",
               "Triangle Back", "Triangle & Hold", "Triangle Back & Hold", "5 Flips Back & Hold",
               "Twin Flip", "2 Twin Flip", "3 Twin Flip", "Twin Flip Back", "2 Twin Flip Back",
               "3 Twin Flip Back"],
}  # fmt: skip


@pytest.mark.parametrize("category", sorted(RULEBOOK))
def test_every_trick_of_the_rulebook_is_in_the_table(category: str) -> None:
    names = sorted({c.name for c in CARDS if c.category == category})
    assert names == sorted(RULEBOOK[category])


def test_every_action_card_is_in_the_deck_with_its_mode() -> None:
    actions = Counter(c.action for c in CARDS if c.is_action)
    assert set(actions) == set(ACTION_KEYS)
    modes = {c.action: c.mode for c in CARDS if c.is_action}
    assert {k for k, m in modes.items() if m == "keep"} == {"immunity", "give_a_trick", "steal_a_trick"}


def test_mokuru_counts_follow_the_rulebook() -> None:
    two = {(c.category, c.name) for c in CARDS if c.mokuru == 2}
    assert ("Advanced", "2 Flips & Kiss") in two and ("Advanced", "Square") in two
    assert ("Master", "Double Square") in two and ("Master", "3 Twin Flip Back") in two
    assert ("Basic", "Flip") not in two and ("Challenge", "Marathon") not in two
    assert all(c.mokuru == 2 for c in CARDS if c.category == "Battle")


def test_ids_are_positions_and_the_decks_split_tricks_from_master_tricks() -> None:
    assert [c.id for c in CARDS] == list(range(len(CARDS)))
    assert {CARDS[i].kind for i in TABLE.deck} == {"trick", "action"}
    assert {CARDS[i].kind for i in TABLE.masters} == {"master"}


def test_the_rules_page_table_counts_copies() -> None:
    data = ENGINE.spec.data()
    assert json.loads(json.dumps(data)) == data
    assert sum(a["copies"] for a in data["actions"]) == sum(c.is_action for c in CARDS)
    assert data["belts"][0]["name"] == "white" and data["grandmaster"]["name"] == "grandmaster"
    assert all("id" not in c for c in data["tricks"])


def _broken(edit: Any) -> dict[str, Any]:
    raw = copy.deepcopy(RAW)
    edit(raw)
    return raw


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r["tricks"][0].update(category="Easy"), "category"),
        (lambda r: r["tricks"][0].update(mokuru=3), "mokuru"),
        (lambda r: r["tricks"][0].update(copies=0), "copies"),
        (lambda r: r["tricks"][0].pop("description"), "keys"),
        (lambda r: r["tricks"][0].update(description=" "), "description"),
        (lambda r: r["masters"][0].update(category="Basic"), "master"),
        (lambda r: r["actions"].pop(), "every action card"),
        (lambda r: r["actions"][1].update(mode="play"), "keep it"),
        (lambda r: r["belts"].pop(0), "white to black"),
        (lambda r: r["belts"].append(dict(r["belts"][0])), "distinct"),
        (lambda r: [b.update(short=False) for b in r["belts"][1:-1]], "short game"),
        (lambda r: r["tricks"].pop(-1), "Marathon"),
        (lambda r: r["tricks"][0].update(shape="spiral"), "shape"),
    ],
)
def test_a_broken_table_is_refused_with_the_reason(edit: Any, message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        parse_table(_broken(edit))


def test_the_shipped_table_parses() -> None:
    assert parse_table(copy.deepcopy(RAW)).cards == CARDS
