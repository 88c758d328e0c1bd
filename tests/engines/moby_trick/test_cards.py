"""The Moby Trick card table: the shipped data and the checks made when it is loaded."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from engines.moby_trick.cards import CARDS, FAMILIES, CardDataError, parse_cards, read_cards


def raw_table() -> dict[str, Any]:
    table: dict[str, Any] = read_cards()
    return table


def test_the_deck_has_36_cards_in_four_families_and_four_fives() -> None:
    assert len(CARDS) == 36 and [c.id for c in CARDS] == list(range(36))
    assert FAMILIES == ("orca", "narwhal", "blue_whale", "sperm_whale")
    per_family: dict[str | None, int] = {f: 8 for f in FAMILIES}
    per_family[None] = 4
    assert Counter(c.family for c in CARDS) == per_family
    fives = [c for c in CARDS if c.is_five]
    assert len(fives) == 4 and all(c.pearls == 1 and c.bonus_kind == "none" for c in fives)


def test_the_trick_examples_narwhal_2_has_three_pearls() -> None:
    narwhal_2 = next(c for c in CARDS if c.family == "narwhal" and c.value == 2)
    assert narwhal_2.pearls == 3


def test_every_whale_card_has_a_usable_bonus() -> None:
    for c in CARDS:
        if not c.is_five:
            assert c.bonus_kind in {"trump", "flip", "pearl"}
            assert (c.bonus_family in FAMILIES) == (c.bonus_kind == "trump")


def test_a_card_as_a_view_shows_it() -> None:
    trump = next(c for c in CARDS if c.bonus_kind == "trump")
    assert trump.to_json() == {
        "id": trump.id,
        "family": trump.family,
        "value": trump.value,
        "pearls": trump.pearls,
        "bonus": {"kind": "trump", "family": trump.bonus_family},
    }


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t["cards"].pop(), "exactly four 5s"),
        (lambda t: t["cards"][0].update(value=5), "a 5 has family null"),
        (lambda t: t["cards"][0].update(value=2), "exactly one card of each value"),
        (lambda t: t["cards"][0].update(pearls=0), "pearls"),
        (lambda t: t["cards"][0].update(bonus={"kind": "steal"}), "bonus.kind"),
        (lambda t: t["cards"][1].update(bonus={"kind": "trump", "family": "shark"}), "trump bonus"),
        (lambda t: t["cards"][0].update(bonus={"kind": "flip", "family": "orca"}), "only a trump bonus"),
        (lambda t: t["cards"][0].update(bonus={"kind": "none"}), "usable bonus"),
        (lambda t: t["cards"][-1].update(pearls=2), "1 pearl"),
        (lambda t: t["cards"][0].pop("pearls"), "exactly the keys"),
        (lambda t: t.update(families=["orca", "orca", "narwhal", "x"]), "four distinct families"),
    ],
)
def test_a_broken_table_is_refused_on_load(edit: Any, message: str) -> None:
    table = copy.deepcopy(raw_table())
    edit(table)
    with pytest.raises(CardDataError, match=message):
        parse_cards(table)


def test_the_shipped_table_parses() -> None:
    assert parse_cards(raw_table())[1] == CARDS
