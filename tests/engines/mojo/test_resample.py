"""Mojo's resample: what a seat never saw is dealt again, what it saw or remembers stays."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engines.core import conformance
from engines.mojo import ENGINE, MojoState
from engines.mojo.engine import CARDS, PUBLIC

from .helpers import play, position


def _every_card(state: MojoState) -> list[int]:
    groups = [state.draw_pile, *state.discard_piles, *state.hands, *state.face_down, *state.revealed]
    return sorted(c for g in groups for c in g)


def _seen_by(state: MojoState, seat: int) -> dict[str, Any]:
    """Every place the seat may see or remember, card ids included."""
    return {
        "hand": state.hands[seat],
        "face_down": state.face_down[seat],
        "discard_piles": state.discard_piles,
        "revealed": state.revealed,
        "public": {
            o: sorted(c for c in state.hands[o] if state.origin[c] == PUBLIC) for o in range(state.players)
        },
        "public_face_down": {
            o: sorted(c for c in state.face_down[o] if state.origin[c] == PUBLIC)
            for o in range(state.players)
        },
        "counts": [(len(h), len(f)) for h, f in zip(state.hands, state.face_down, strict=True)],
        "draw_pile": len(state.draw_pile),
        "events": ENGINE.view(state, seat)["events"],
        "round_scores": state.round_scores,
    }


def _origins_by_place(state: MojoState, seat: int) -> list[Counter[int]]:
    others = [o for o in range(state.players) if o != seat]
    places = [state.draw_pile, *(state.hands[o] for o in others), *(state.face_down[o] for o in others)]
    return [Counter(state.origin[c] for c in place) for place in places]


def _positions(players: int, seed: int, **options: Any) -> list[MojoState]:
    return conformance.sample_positions(ENGINE, players, seed, ENGINE.spec.parse_options(options), rate=0.2)


def test_a_redeal_keeps_every_card_and_everything_the_seat_knows() -> None:
    moved = 0
    for players, seed in ((2, 1), (4, 2), (8, 3)):
        for state in _positions(players, seed, double_discard=seed % 2 == 0):
            for seat in range(players):
                again = ENGINE.resample(state, seat, random.Random(seed))
                assert _every_card(again) == _every_card(state) == list(range(len(CARDS)))
                assert _seen_by(again, seat) == _seen_by(state, seat)
                assert _origins_by_place(again, seat) == _origins_by_place(state, seat)
                assert again.origin == state.origin
                moved += again.draw_pile != state.draw_pile
    assert moved > 100


def test_a_card_drawn_from_the_other_pile_stays_in_the_hand_that_took_it() -> None:
    state = position(
        [[("red", 12), ("red", 11), ("blue", 0)], [("green", 2), ("yellow", 5), ("orange", 8)]],
        [[("green", 3)], [("blue", 1)]],
        double_discard=True,
    )
    taken = state.discard_piles[1][-1]
    # Seat 0 plays high on pile 0, then takes pile 1's top instead of drawing blind.
    state = play(state, ("red", 12), pile=0)
    state = ENGINE.apply(state, 0, {"type": "draw", "source": "pile"})
    assert taken in state.hands[0] and state.origin[taken] == PUBLIC
    for n in range(50):
        again = ENGINE.resample(state, 1, random.Random(n))
        assert taken in again.hands[0]
        assert len(again.hands[0]) == len(state.hands[0])
    assert any(ENGINE.resample(state, 1, random.Random(n)).hands[0] != state.hands[0] for n in range(20))


def test_after_a_reshuffle_a_hand_that_has_not_drawn_holds_none_of_its_cards() -> None:
    state = position(
        [[("red", 12), ("red", 11), ("blue", 0), ("green", 4)], [("green", 2), ("yellow", 5), ("orange", 8)]],
        [("green", 3)],
        empty_draw_pile=True,
    )
    before = set(state.hands[1])
    state = play(state, ("red", 12))  # higher: seat 0 draws, and the draw pile is the discard pile shuffled
    assert state.events[-2]["type"] == "reshuffle"
    shuffled = {c for c in range(len(CARDS)) if state.origin[c] == max(state.origin)}
    assert set(state.draw_pile) < shuffled and not shuffled & before
    for n in range(30):
        again = ENGINE.resample(state, 0, random.Random(n))
        assert set(again.hands[1]) == before, "seat 1 drew nothing since the reshuffle"
        assert set(again.draw_pile) <= shuffled
    # Seat 1's view of seat 0: the card seat 0 drew came from the reshuffle, its older ones did not.
    for n in range(30):
        again = ENGINE.resample(state, 1, random.Random(n))
        assert Counter(again.origin[c] for c in again.hands[0]) == Counter(
            state.origin[c] for c in state.hands[0]
        )
    assert any(ENGINE.resample(state, 1, random.Random(n)).hands[0] != state.hands[0] for n in range(30))


def test_every_hidden_card_can_land_anywhere_hidden() -> None:
    state = ENGINE.setup(3, 9, ENGINE.spec.parse_options({}))
    places: dict[int, set[str]] = {c: set() for c in state.draw_pile + state.hands[1] + state.hands[2]}
    for n in range(300):
        again = ENGINE.resample(state, 0, random.Random(n))
        for name, cards in (("deck", again.draw_pile), ("1", again.hands[1]), ("2", again.hands[2])):
            for c in cards:
                places[c].add(name)
    assert all(seen == {"deck", "1", "2"} for seen in places.values())


def test_the_seed_of_later_shuffles_is_dealt_again_too() -> None:
    state = ENGINE.setup(3, 9, ENGINE.spec.parse_options({}))
    again = ENGINE.resample(state, 0, random.Random(4))
    assert again.rng.counter == state.rng.counter and again.rng.seed != state.rng.seed


def test_states_stored_before_origins_load_as_one_shuffle() -> None:
    state = _positions(3, 4)[-1]
    data = ENGINE.dump(state)
    del data["origin"]
    loaded = ENGINE.load(data)
    assert loaded.origin == [0] * len(CARDS)
    again = ENGINE.resample(loaded, 0, random.Random(1))
    assert ENGINE.view(again, 0) == ENGINE.view(loaded, 0)


def test_the_log_of_a_redeal_names_no_card_another_seat_drew_blind() -> None:
    """The real log names each drawn card (the drawer's view shows it); after a re-deal for seat 0
    it would no longer match the hands, and a bot reading it would read what seat 0 never saw."""
    named = 0
    for state in _positions(3, 11):
        again = ENGINE.resample(state, 0, random.Random(2))
        assert again.events == ENGINE.view(state, 0)["events"]
        for event in again.events:
            if event["type"] == "draw" and event["source"] == "deck":
                assert ("card" in event) == (event["seat"] == 0)
        named += sum(e["type"] == "draw" and e.get("seat") != 0 and "card" in e for e in state.events)
    assert named
