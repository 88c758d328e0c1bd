"""Every rule of the Mojo rulebook, including its worked examples."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core import EngineError
from engines.mojo import ENGINE
from engines.mojo.cards import DECK, parse_deck
from engines.mojo.engine import CARDS, apply_mojo_card, score_cards

from .helpers import Picker, faces, play, position

FILLER = [("red", 12), ("red", 11), ("orange", 10), ("orange", 9)]  # keeps a hand above the limit; scores 22


# -- the deck and the deal -------------------------------------------------------
def test_deck_has_the_rulebooks_78_numbered_cards() -> None:
    counts = Counter(c.colour for c in CARDS)
    assert counts == {"blue": 8, "green": 15, "yellow": 18, "orange": 21, "red": 16}
    assert len(CARDS) + 1 == 79  # plus the Mojo card itself
    by_face = Counter((c.colour, c.value) for c in CARDS)
    assert by_face[("blue", 0)] == 4 and by_face[("green", 3)] == 5 and by_face[("red", 12)] == 8


def test_deck_data_is_validated_on_load() -> None:
    with pytest.raises(ValueError, match="two colours"):
        parse_deck(
            {
                "colours": [
                    {"colour": "blue", "values": [0], "copies": 1},
                    {"colour": "red", "values": [0], "copies": 1},
                ],
                "hand_size": 8,
                "mojo_time_limit": {"default": 3, "two_players": 2},
                "mojo_bonus": 10,
            }
        )


@pytest.mark.parametrize("players", range(2, 9))
def test_setup_deals_eight_each_and_turns_one_discard(players: int) -> None:
    state = ENGINE.setup(players, 42, ENGINE.spec.parse_options({}))
    assert all(len(h) == 8 for h in state.hands)
    assert [len(p) for p in state.discard_piles] == [1]
    assert len(state.draw_pile) == 78 - 8 * players - 1
    assert state.mojo_face == "zero" and state.current == 0


def test_first_round_starts_with_the_chosen_seat() -> None:
    state = ENGINE.setup(4, 3, ENGINE.spec.parse_options({"first_seat": 2}))
    assert ENGINE.to_act(state) == {2}
    with pytest.raises(EngineError) as err:
        ENGINE.setup(3, 3, ENGINE.spec.parse_options({"first_seat": 5}))
    assert err.value.code == "invalid_request"
    assert "first_seat names seat 5" in err.value.message and "seats 0 to 2" in err.value.message


def test_no_first_seat_lets_the_seed_choose_who_starts() -> None:
    random_start = ENGINE.spec.parse_options({"first_seat": None})
    starters = {seed: ENGINE.to_act(ENGINE.setup(4, seed, random_start)) for seed in range(40)}
    assert all(starters[seed] == ENGINE.to_act(ENGINE.setup(4, seed, random_start)) for seed in range(5))
    assert set().union(*starters.values()) == {0, 1, 2, 3}
    # A named seat deals exactly as before, so stored matches replay unchanged.
    named = ENGINE.spec.parse_options({"first_seat": 0})
    assert ENGINE.dump(ENGINE.setup(4, 9, named)) == ENGINE.dump(
        ENGINE.setup(4, 9, ENGINE.spec.parse_options({}))
    )


# -- one turn ------------------------------------------------------------------------
def test_playing_lower_ends_the_turn_without_drawing() -> None:
    state = position([[("orange", 8), *FILLER], FILLER], [("orange", 9)])
    after = play(state, ("orange", 8))
    assert len(after.hands[0]) == 4 and after.current == 1


def test_playing_higher_draws_a_card_and_ends_the_turn() -> None:
    state = position([[("red", 11), *FILLER], FILLER], [("green", 2)], draw_top=[("blue", 0)])
    after = play(state, ("red", 11))
    assert ("blue", 0) in faces(after.hands[0]) and len(after.hands[0]) == 5
    assert after.current == 1


def test_playing_equal_forces_another_play() -> None:
    state = position([[("yellow", 6), ("yellow", 6), ("blue", 1), *FILLER], FILLER], [("yellow", 6)])
    after = play(state, ("yellow", 6))
    assert ENGINE.to_act(after) == {0} and after.chaining
    after = play(after, ("yellow", 6))
    assert ENGINE.to_act(after) == {0}
    after = play(after, ("blue", 1))
    assert after.current == 1 and not after.chaining and len(after.hands[0]) == 4


def test_example_several_8s_then_a_7_leaves_the_other_7_in_hand() -> None:
    hand = [("orange", 8), ("orange", 8), ("yellow", 7), ("yellow", 7), *FILLER]
    state = position([hand, FILLER], [("orange", 8)])
    state = play(play(state, ("orange", 8)), ("orange", 8))
    state = play(state, ("yellow", 7))
    assert state.current == 1, "a card lower than the 8 ends the turn"
    assert ("yellow", 7) in faces(state.hands[0])
    with pytest.raises(EngineError) as err:
        play_seven = next(c for c in state.hands[0] if CARDS[c].value == 7)
        ENGINE.apply(state, 0, {"type": "play", "card": play_seven})
    assert err.value.code == "not_your_turn"


def test_a_chain_ending_on_a_higher_card_still_draws() -> None:
    hand = [("yellow", 5), ("red", 12), *FILLER]
    state = position([hand, FILLER], [("yellow", 5)], draw_top=[("green", 2)])
    state = play(play(state, ("yellow", 5)), ("red", 12))
    assert ("green", 2) in faces(state.hands[0]) and state.current == 1


def test_empty_draw_pile_reshuffles_all_discards_but_the_top() -> None:
    state = position([[("red", 11), *FILLER], FILLER], [("green", 2)], empty_draw_pile=True)
    under = len(state.discard_piles[0]) - 1
    after = play(state, ("red", 11))
    assert faces(after.discard_piles[0]) == [("red", 11)]
    assert len(after.draw_pile) == under  # the old top went under the 11 and into the shuffle
    assert len(after.hands[0]) == 5
    assert any(e["type"] == "reshuffle" for e in after.events)


# -- Mojo Time -------------------------------------------------------------------------
def test_three_cards_at_the_end_of_a_turn_go_face_down() -> None:
    state = position(
        [[("blue", 0), ("green", 2), ("green", 3), ("yellow", 5)], FILLER, FILLER], [("red", 12)]
    )
    after = play(state, ("yellow", 5))
    assert after.hands[0] == [] and faces(after.face_down[0]) == [("blue", 0), ("green", 2), ("green", 3)]
    seat0 = ENGINE.view(after, 0)
    seat1 = ENGINE.view(after, 1)
    assert len(seat0["face_down"]) == 3 and seat1["face_down"] == []
    assert seat1["seats"][0]["face_down_count"] == 3


def test_two_player_game_uses_two_cards_for_mojo_time() -> None:
    state = position([[("blue", 0), ("green", 2), ("yellow", 5), ("yellow", 6)], FILLER], [("red", 12)])
    after = play(state, ("yellow", 6))
    assert len(after.hands[0]) == 3 and after.face_down[0] == [], "3 cards is not Mojo Time with 2 players"
    state = position([[("blue", 0), ("green", 2), ("yellow", 5)], FILLER], [("red", 12)])
    after = play(state, ("yellow", 5))
    assert after.hands[0] == [] and len(after.face_down[0]) == 2


def test_mojo_time_reveals_one_card_per_turn_and_the_last_ends_the_round() -> None:
    state = position(
        [[], [*FILLER, ("blue", 1)], [*FILLER, ("blue", 1)]],
        [("red", 12)],
        face_down=[[("blue", 0), ("green", 2)], [], []],
    )
    legal = ENGINE.legal_actions(state, 0)
    assert {a["type"] for a in legal} == {"reveal"} and len(legal) == 2
    state = ENGINE.apply(state, 0, legal[0])
    assert len(state.revealed[0]) == 1 and state.current == 1
    state = play(play(state, ("blue", 1)), ("red", 12))
    assert state.round == 1 and state.current == 0
    state = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state.round == 2 and state.last_round is not None and state.last_round["ender"] == 0, (
        "revealing the last card ends the round"
    )
    assert state.last_round is not None and state.last_round["ender"] == 0


def test_playing_every_card_in_one_turn_ends_the_round() -> None:
    hand = [("yellow", 7), ("yellow", 7), ("yellow", 7), ("green", 4)]
    state = position([hand, FILLER, FILLER], [("yellow", 7)])
    for face in hand:
        state = play(state, face)
    assert state.round == 2 and state.last_round is not None and state.last_round["ender"] == 0
    assert state.round_scores[-1][0] == 0


# -- scoring ---------------------------------------------------------------------------------
def _ids(*cards: tuple[str, int]) -> list[int]:
    return Picker().take(cards)


def test_scoring_example_player_a_scores_10() -> None:
    assert score_cards(_ids(("orange", 9), ("blue", 1), ("orange", 8), ("blue", 0))) == 10


def test_scoring_example_player_b_scores_4() -> None:
    assert score_cards(_ids(("blue", 0), ("green", 4), ("green", 2), ("green", 4))) == 4


def test_scoring_example_player_c_scores_24_then_34_with_the_mojo_card() -> None:
    c = score_cards(_ids(("orange", 10), ("red", 11), ("green", 3), ("orange", 8), ("red", 11)))
    assert c == 24
    scores, face = apply_mojo_card([10, 4, c], holder=2)
    assert scores == [10, 4, 34] and face == "plus10"


def test_mojo_holder_scores_zero_when_lowest_or_tied() -> None:
    assert apply_mojo_card([4, 10, 12], holder=0) == ([0, 10, 12], "zero")
    assert apply_mojo_card([10, 10, 12], holder=0) == ([0, 10, 12], "zero")
    assert apply_mojo_card([11, 10, 12], holder=0) == ([21, 10, 12], "plus10")


def test_round_end_counts_hand_face_down_and_revealed_cards() -> None:
    state = position(
        [
            [],
            [("red", 11), ("red", 12), ("blue", 0), ("green", 2)],
            [("blue", 1), ("blue", 0), ("green", 3), ("green", 4)],
        ],
        [("orange", 10)],
        face_down=[[("green", 4)], [], []],
        revealed=[[("blue", 0)], [], []],
    )
    after = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert after.round_scores == [[0, 14, 5]]
    assert after.mojo_face == "zero"


# -- rounds, direction and the end of the game ---------------------------------------------------
def test_plus10_face_reverses_play_and_the_holder_starts_next_round() -> None:
    low = [("blue", 0), ("blue", 1), ("green", 2), ("green", 3)]
    state = position([[], low, low], [("orange", 10)], face_down=[[("red", 12)], [], []])
    after = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert after.round_scores == [[22, 4, 4]]
    assert after.mojo_face == "plus10" and after.current == 0
    assert ENGINE.view(after, 1)["direction"] == "counterclockwise"
    top = CARDS[after.discard_piles[0][-1]].value
    card = next(c for c in after.hands[0] if CARDS[c].value != top)
    nxt = ENGINE.apply(after, 0, {"type": "play", "card": card})
    assert nxt.current == 2, "counter-clockwise from seat 0 is the last seat"


def test_new_round_deals_from_the_remaining_draw_pile() -> None:
    state = position([[], FILLER, FILLER], [("orange", 10)], face_down=[[("blue", 0)], [], []])
    before = len(state.draw_pile)
    after = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert len(after.draw_pile) == before - 3 * 8 - 1
    assert all(len(h) == 8 for h in after.hands)
    assert sum(len(p) for p in after.discard_piles) == 78 - len(after.draw_pile) - 24


def test_game_ends_at_the_target_and_lowest_total_wins_with_shared_ties() -> None:
    state = position(
        [[], [("red", 12), *FILLER], [("red", 12), *FILLER]],
        [("orange", 10)],
        face_down=[[("blue", 0)], [], []],
        target=10,
    )
    after = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert ENGINE.to_act(after) == frozenset()
    result = ENGINE.result(after)
    assert result is not None and result.winners == [0] and result.scores == [0, 22, 22]
    low = [("blue", 0), ("blue", 1), ("green", 2), ("green", 3)]
    tie = position([[], low, low], [("orange", 10)], face_down=[[("red", 12)], [], []], target=10)
    tie_result = ENGINE.result(ENGINE.apply(tie, 0, ENGINE.legal_actions(tie, 0)[0]))
    assert tie_result is not None and tie_result.winners == [1, 2] and tie_result.scores == [22, 4, 4]


def test_the_game_continues_below_the_target() -> None:
    state = position(
        [[], [("red", 12), *FILLER], FILLER], [("orange", 10)], face_down=[[("blue", 0)], [], []]
    )
    after = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert ENGINE.to_act(after) == {0} and ENGINE.result(after) is None
    assert ENGINE.scorepad(after).totals == [0, 22, 22]


# -- Double Discard Piles variant -----------------------------------------------------------------
def test_double_discard_setup_turns_two_piles() -> None:
    state = ENGINE.setup(3, 5, ENGINE.spec.parse_options({"double_discard": True}))
    assert [len(p) for p in state.discard_piles] == [1, 1]
    legal = ENGINE.legal_actions(state, 0)
    assert {a["pile"] for a in legal} == {0, 1}


def test_double_discard_keeps_the_chain_on_the_chosen_pile() -> None:
    state = position(
        [[("green", 3), ("green", 3), ("blue", 0), *FILLER], FILLER],
        [[("green", 3)], [("red", 11)]],
        double_discard=True,
    )
    state = play(state, ("green", 3), pile=0)
    legal = ENGINE.legal_actions(state, 0)
    assert legal and all("pile" not in a for a in legal)
    state = play(state, ("green", 3))
    assert faces(state.discard_piles[0][-2:]) == [("green", 3)] * 2


def test_double_discard_draws_from_the_other_pile_and_refills_it() -> None:
    state = position([[("red", 12), *FILLER], FILLER], [[("blue", 0)], [("green", 2)]], double_discard=True)
    state = play(state, ("red", 12), pile=0)
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "draw", "source": "deck"},
        {"type": "draw", "source": "pile"},
    ]
    state = ENGINE.apply(state, 0, {"type": "draw", "source": "pile"})
    assert ("green", 2) in faces(state.hands[0])
    assert faces(state.discard_piles[1]) == [("red", 12)], "the empty pile takes the other pile's top"
    assert faces(state.discard_piles[0]) == [("blue", 0)]
    assert state.current == 1


def test_double_discard_may_draw_from_the_deck() -> None:
    state = position(
        [[("red", 12), *FILLER], FILLER],
        [[("blue", 0)], [("green", 2)]],
        double_discard=True,
        draw_top=[("yellow", 5)],
    )
    state = play(state, ("red", 12), pile=0)
    state = ENGINE.apply(state, 0, {"type": "draw", "source": "deck"})
    assert ("yellow", 5) in faces(state.hands[0]) and faces(state.discard_piles[1]) == [("green", 2)]


# -- hidden information ----------------------------------------------------------------------
def test_views_show_own_hand_and_only_counts_of_others() -> None:
    state = ENGINE.setup(4, 9, ENGINE.spec.parse_options({}))
    for seat in range(4):
        view = ENGINE.view(state, seat)
        assert sorted(c["id"] for c in view["hand"]) == sorted(state.hands[seat])
        assert [s["hand_count"] for s in view["seats"]] == [8, 8, 8, 8]
        assert "hand" not in view["seats"][0]
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] == [] and spectator["seat"] is None
    assert spectator["draw_pile"] == 78 - 33


def test_a_deck_draw_is_told_only_to_the_drawer() -> None:
    state = position([[("red", 11), *FILLER], FILLER], [("green", 2)], draw_top=[("blue", 0)])
    after = play(state, ("red", 11))
    mine = [e for e in ENGINE.view(after, 0)["events"] if e["type"] == "draw"]
    theirs = [e for e in ENGINE.view(after, 1)["events"] if e["type"] == "draw"]
    assert mine[0]["card"] == {"colour": "blue", "value": 0}
    assert "card" not in theirs[0]


def test_deck_data_matches_engine_constants() -> None:
    assert DECK.hand_size == 8 and DECK.mojo_time_limit == 3 and DECK.mojo_time_limit_two_players == 2
