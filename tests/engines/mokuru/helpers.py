"""Helpers that set up Mokuru positions by hand: a started game and a stacked deck."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.mokuru import ENGINE
from engines.mokuru.cards import CARDS, TABLE
from engines.mokuru.engine import MokuruState


def trick(name: str, category: str = "Basic") -> int:
    """The id of the first copy of a trick (or master trick, category "Master")."""
    return next(c.id for c in CARDS if c.name == name and c.category == category)


def action(key: str, copy: int = 0) -> int:
    return [c.id for c in CARDS if c.action == key][copy]


def game(
    players: int = 3,
    levels: list[str] | None = None,
    witness: str = "off",
    seed: int = 1,
    **options: Any,
) -> MokuruState:
    """A game past the difficulty choice, seat 0 to draw."""
    state = ENGINE.setup(
        players, seed, ENGINE.spec.parse_options({"witness": witness, "first_seat": 0, **options})
    )
    for seat, level in enumerate(levels or ["normal"] * players):
        state = ENGINE.apply(state, seat, {"type": "difficulty", "level": level})
    return state


def stack(state: MokuruState, *cards: int) -> MokuruState:
    """Put these cards on top of their deck, in this order (taken from wherever they lie)."""
    for card_id in cards:
        for pile in (state.deck, state.discard, state.masters, state.master_discard, *state.kept):
            if card_id in pile:
                pile.remove(card_id)
    masters = [c for c in cards if CARDS[c].is_master]
    state.deck[:0] = [c for c in cards if not CARDS[c].is_master]
    state.masters[:0] = masters
    return state


def act(state: MokuruState, who: int, kind: str, **fields: Any) -> MokuruState:
    return ENGINE.apply(state, who, {"type": kind, **fields})


def draw(state: MokuruState, seat: int | None = None) -> MokuruState:
    return act(state, state.turn if seat is None else seat, "draw")


def report(state: MokuruState, seat: int, outcome: str) -> MokuruState:
    return act(state, seat, "report", outcome=outcome)


def keep(state: MokuruState, seat: int, key: str) -> MokuruState:
    """Give `seat` a kept action card of that kind."""
    card_id = next(c.id for c in CARDS if c.action == key and c.id in state.deck)
    state.deck.remove(card_id)
    state.kept[seat].append(card_id)
    return state


def all_cards(state: MokuruState) -> list[int]:
    """Every card wherever it lies; a Darkness trick being performed is counted once, on the table."""
    out = [*state.deck, *state.discard, *state.masters, *state.master_discard]
    for group in state.kept:
        out.extend(group)
    for queue in state.imposed:
        out.extend(r["card"] for r in queue)
    out.extend(d["card"] for d in state.darkness)
    if state.trick is not None and state.trick["source"] != "darkness":
        out.append(state.trick["card"])
    return out


def conserved(state: MokuruState) -> bool:
    cards = all_cards(state)
    return Counter(cards) == Counter(range(len(TABLE.cards)))


def types(state: MokuruState) -> list[str]:
    return [e["type"] for e in state.events]
