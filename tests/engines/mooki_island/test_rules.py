"""Mooki Island, one rule at a time."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core import EngineError
from engines.mooki_island import ENGINE
from engines.mooki_island.cards import BOX
from engines.mooki_island.engine import FACES, OVER, RETURN, flip

from .helpers import DOWN, UP, build, ids_in, play, take


def options(**values: object) -> object:
    return ENGINE.spec.parse_options(values)


# -- setup -------------------------------------------------------------------------
def test_setup_makes_two_piles_of_eighteen_from_all_36_cards() -> None:
    state = ENGINE.setup(2, 9, options())
    assert [len(p) for p in state.piles] == [18, 18]
    cards = sorted(f // 2 for p in state.piles for f in p)
    assert cards == list(range(36))
    assert state.collections == [[], []]


def test_each_card_lands_on_a_random_side() -> None:
    ups = Counter()
    for seed in range(40):
        state = ENGINE.setup(2, seed, options())
        ups.update(f % 2 for p in state.piles for f in p)
    assert ups[0] > 500 and ups[1] > 500


def test_the_youngest_starts() -> None:
    for youngest in (0, 1):
        state = ENGINE.setup(2, 3, options(youngest=youngest))
        assert ENGINE.to_act(state) == {youngest}
        assert ENGINE.view(state, None)["youngest"] == youngest


def test_without_a_youngest_the_seed_picks_one() -> None:
    picked = {ENGINE.setup(2, seed, options()).youngest for seed in range(30)}
    assert picked == {0, 1}
    assert ENGINE.setup(2, 4, options()).youngest == ENGINE.setup(2, 4, options()).youngest


def test_a_youngest_seat_outside_the_table_is_refused() -> None:
    with pytest.raises(EngineError) as err:
        options(youngest=2)
    assert err.value.code == "invalid_request"
    bad = ENGINE.spec.options_model.model_construct(youngest=5, memory_aid=False)
    with pytest.raises(EngineError) as err:
        ENGINE.setup(2, 1, bad)
    assert err.value.code == "invalid_request"


def test_only_two_players() -> None:
    for players in (1, 3):
        with pytest.raises(EngineError):
            ENGINE.setup(players, 1, options())


# -- ids ---------------------------------------------------------------------------
def test_face_ids_are_shuffled_per_match() -> None:
    first, second = ENGINE.setup(2, 1, options()), ENGINE.setup(2, 2, options())
    assert sorted(first.face_ids) == list(range(FACES))
    assert first.face_ids != second.face_ids
    # The two faces of a card do not get neighbouring or otherwise related ids.
    pairs = [abs(first.face_ids[2 * c] - first.face_ids[2 * c + 1]) for c in range(36)]
    assert pairs.count(1) < 10


# -- a turn --------------------------------------------------------------------------
def test_a_turn_is_take_then_place() -> None:
    state = build([["moon", "sun/spider"], ["leaf", "fossil"]])
    assert ENGINE.legal_actions(state, 0) == [take(0), take(1)]
    assert ENGINE.legal_actions(state, 1) == []
    state = play(state, take(0))
    assert ENGINE.legal_actions(state, 0) == [UP, DOWN]
    with pytest.raises(EngineError) as err:
        ENGINE.apply(state, 1, UP)
    assert err.value.code == "not_your_turn"


def test_before_drawing_only_the_upper_face_of_each_top_shows() -> None:
    state = build([["moon", "sun/spider"], ["leaf", "fossil/moon"]])
    sun, fossil = state.piles[0][-1], state.piles[1][-1]
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        assert [p["top"]["family"] for p in view["piles"]] == ["sun", "fossil"]
        assert [p["count"] for p in view["piles"]] == [2, 2]
        assert ids_in(view) == {state.face_ids[sun], state.face_ids[fossil]}
        assert state.face_ids[flip(sun)] in ENGINE.hidden_ids(state, seat)


def test_the_drawer_sees_both_faces_the_others_only_the_upper_one() -> None:
    state = play(build([["moon/leaf", "sun/spider"], ["leaf"]]), take(0))
    mine = ENGINE.view(state, 0)["drawn"]
    assert mine["seat"] == 0
    assert mine["upper"]["family"] == "sun" and mine["lower"] == {
        "id": state.face_ids[flip(state.drawn or 0)],
        "kind": "spider",
    }
    for seat in (1, None):
        seen = ENGINE.view(state, seat)["drawn"]
        assert seen["upper"]["family"] == "sun" and seen["lower"] is None
        assert state.face_ids[flip(state.drawn or 0)] not in ids_in(ENGINE.view(state, seat))


def test_taking_reveals_the_next_upper_face_to_both() -> None:
    state = play(build([["moon/leaf", "sun/spider"], ["leaf"]]), take(0))
    for seat in (0, 1, None):
        top = ENGINE.view(state, seat)["piles"][0]["top"]
        assert top["family"] == "moon"
        assert state.face_ids[flip(state.piles[0][-1])] in ENGINE.hidden_ids(state, seat)


def test_a_mooki_goes_on_your_own_collection() -> None:
    state = play(build([["moon", "sun/spider"], ["leaf"]]), take(0), UP)
    assert [len(c) for c in state.collections] == [1, 0]
    view = ENGINE.view(state, 1)
    assert view["collections"][0]["top"]["family"] == "sun"
    assert ENGINE.to_act(state) == {1}


def test_a_spider_goes_on_the_opponents_collection() -> None:
    state = play(build([["moon", "sun/spider"], ["leaf"]]), take(0), DOWN)
    assert [len(c) for c in state.collections] == [0, 1]
    assert ENGINE.view(state, 0)["collections"][1]["top"] == {
        "id": state.face_ids[state.collections[1][0]],
        "kind": "spider",
    }


def test_the_face_not_chosen_is_never_shown_again() -> None:
    state = play(build([["moon", "moon", "sun/spider"], ["leaf", "fossil"]]), take(0))
    unchosen = state.face_ids[state.drawn or 0]  # the Sun, seen by both while on the pile
    state = play(state, DOWN)
    for _ in range(3):
        for seat in (0, 1, None):
            assert unchosen in ENGINE.hidden_ids(state, seat)
            assert unchosen not in ids_in(ENGINE.view(state, seat))
        state = play(state, take(1), UP) if ENGINE.to_act(state) else state


# -- the memory rule ---------------------------------------------------------------
def test_a_collection_shows_its_top_and_height_only() -> None:
    state = build([["moon"] * 3, ["leaf"] * 3], [["sun", "fossil", "legendary leaf"], []])
    bottom = state.collections[0][:2]
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        assert view["collections"][0]["height"] == 3
        assert view["collections"][0]["top"]["kind"] == "legendary"
        assert not {state.face_ids[f] for f in bottom} & ids_in(view)
        assert view["aid"] is None


def test_the_view_keeps_no_placement_history() -> None:
    state = build([["moon"] * 8, ["leaf"] * 8])
    for _ in range(6):
        state = play(state, take(0), UP)
    view = ENGINE.view(state, 0)
    assert len(view["events"]) <= 4
    seqs = [e["seq"] for e in view["events"]]
    assert seqs == sorted(seqs) and seqs[-1] == 12
    # Events never name a face: which face went where is not kept, only who placed a card where.
    assert not ids_in(view["events"])
    assert {e["type"] for e in view["events"]} == {"take", "place"}
    assert all(set(e) <= {"seq", "type", "seat", "pile", "to"} for e in view["events"])


def test_the_log_hides_which_side_was_placed_until_the_end() -> None:
    assert ENGINE.public_action({"type": "place", "side": "lower"}, 0, 1) == {"type": "place"}
    assert ENGINE.public_action({"type": "place", "side": "upper"}, 0, 0) == {"type": "place"}
    assert ENGINE.public_action(take(1), 0, None) == take(1)


def test_memory_aid_shows_each_player_their_own_counts() -> None:
    state = build(
        [["moon"] * 3, ["leaf"] * 3], [["sun", "legendary fossil", "spider"], ["moon"]], memory_aid=True
    )
    aid = ENGINE.view(state, 0)["aid"]
    assert aid == {"sun": 1, "moon": 0, "fossil": 2, "seashell": 0, "leaf": 0, "spiders": 1}
    assert ENGINE.view(state, 1)["aid"]["moon"] == 1
    assert ENGINE.view(state, None)["aid"] is None


# -- the end -----------------------------------------------------------------------
def test_the_game_ends_when_the_last_card_of_a_pile_is_placed() -> None:
    state = build([["sun"], ["leaf", "moon"]])
    state = play(state, take(0))
    assert ENGINE.to_act(state) == {0}, "taking the last card does not end the game yet"
    state = play(state, UP)
    assert state.phase == OVER and ENGINE.result(state) is not None


def test_the_last_card_placed_as_a_spider_also_ends_the_game() -> None:
    state = build([["sun/spider"], ["leaf", "moon"]])
    state = play(state, take(0), DOWN)
    assert state.phase == OVER
    assert ENGINE.view(state, None)["end"]["sorted"][1]["spiders"] == 1


def test_trophies_go_to_the_most_mookies_legendary_counting_two_ties_to_nobody() -> None:
    state = build(
        [["sun"], ["moon", "moon"]],
        [["legendary fossil", "leaf", "seashell"], ["fossil", "fossil", "leaf", "moon"]],
    )
    state = play(state, take(0), UP)  # a Sun for seat 0; ends the game
    end = ENGINE.view(state, 1)["end"]
    owners = {t["family"]: t["owner"] for t in end["trophies"]}
    assert owners == {"sun": 0, "moon": 1, "fossil": None, "seashell": 0, "leaf": None}
    assert end["sorted"][0]["counts"]["fossil"] == 2
    stars = {t.family: t.stars for t in BOX.trophies}
    assert end["stars"] == [stars["sun"] + stars["seashell"], stars["moon"]]


def test_more_spiders_with_two_trophies_is_a_real_decision() -> None:
    state = build([["sun"], ["moon"]], [["moon", "leaf", "spider", "spider"], ["spider"]])
    state = play(state, take(0), UP)
    assert state.phase == RETURN
    assert ENGINE.to_act(state) == {0}
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "return", "family": "sun"},
        {"type": "return", "family": "moon"},
        {"type": "return", "family": "leaf"},
    ]
    assert ENGINE.result(state) is None
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        assert view["end"]["spider"] == {"seat": 0, "choosing": True, "returned": None}
        assert view["current"] == 0
    with pytest.raises(EngineError) as err:
        ENGINE.apply(state, 1, {"type": "return", "family": "sun"})
    assert err.value.code == "not_your_turn"
    with pytest.raises(EngineError):
        ENGINE.apply(state, 0, {"type": "return", "family": "fossil"})
    state = play(state, {"type": "return", "family": "leaf"})
    end = ENGINE.view(state, 1)["end"]
    assert end["spider"]["returned"] == "leaf"
    assert {t["family"]: t["owner"] for t in end["trophies"]}["leaf"] is None
    assert {t["family"]: t["awarded"] for t in end["trophies"]}["leaf"] == 0


def test_one_trophy_goes_back_without_a_question() -> None:
    state = build([["sun"], ["moon"]], [["spider", "spider"], ["moon"]])
    state = play(state, take(0), UP)
    assert state.phase == OVER and state.returned == "sun"
    assert state.stars == [0, BOX.stars("moon")]


def test_no_trophy_is_lost_when_spiders_are_tied_or_the_loser_has_none() -> None:
    tied = play(build([["sun"], ["moon"]], [["spider"], ["spider", "moon"]]), take(0), UP)
    assert tied.phase == OVER and tied.returned is None and tied.spider_seat is None
    empty = play(build([["moon"], ["moon"]], [["spider"], ["moon"]]), take(0), UP)
    assert empty.phase == OVER and empty.returned is None and empty.spider_seat == 0
    assert empty.trophies == [None, None, None, None, None]


def test_most_stars_win_and_a_tie_goes_to_the_youngest() -> None:
    for youngest in (0, 1):
        state = build([["sun"], ["moon"]], [[], ["sun"]], youngest=youngest, current=0)
        state = play(state, take(0), UP)  # Suns tied 1-1: no trophy at all, 0-0 in stars
        assert state.stars == [0, 0]
        result = ENGINE.result(state)
        assert result is not None and result.winners == [youngest]
    # More stars beat being the youngest.
    state = build([["sun"], ["moon"]], [[], ["fossil"]], youngest=0)
    state = play(state, take(0), UP)
    result = ENGINE.result(state)
    assert result is not None and result.winners == [1]
    assert result.scores == [BOX.stars("sun"), BOX.stars("fossil")]
    assert ENGINE.scorepad(state).to_json() == {"rounds": [result.scores], "totals": result.scores}


def test_at_the_end_every_chosen_face_is_shown_never_a_hidden_side() -> None:
    state = build([["sun/spider"], ["moon"]], [["leaf", "fossil"], ["moon"]])
    hidden_backs = {state.face_ids[flip(f)] for c in state.collections for f in c}
    state = play(state, take(0), DOWN)
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        shown = [f for s in view["end"]["sorted"] for f in s["faces"]]
        assert len(shown) == 4
        assert not hidden_backs & ids_in(view)
        assert state.face_ids[state.piles[1][-1]] in ids_in(view)


def test_refused_actions_change_nothing() -> None:
    state = build([["sun"], ["moon"]])
    before = ENGINE.dump(state)
    for bad in ({"type": "take", "pile": 2}, {"type": "place", "side": "upper"}, {"type": "take"}):
        with pytest.raises(EngineError):
            ENGINE.apply(state, 0, bad)
    assert ENGINE.dump(state) == before


def test_a_view_for_a_seat_outside_the_table_is_refused() -> None:
    state = build([["sun"], ["moon"]])
    with pytest.raises(EngineError):
        ENGINE.view(state, 2)
