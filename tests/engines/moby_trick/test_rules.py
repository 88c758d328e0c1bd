"""One test (or more) per Moby Trick rule, on hand-built positions and fresh deals."""

from __future__ import annotations

import json

import pytest

from engines.core import EngineError, IllegalAction, InvalidOptions, NotYourTurn
from engines.core.conformance import card_ids
from engines.moby_trick.cards import CARDS
from engines.moby_trick.engine import LEAD, OVER, PLAY, REWARD, SET_ASIDE, MobyTrickState

from .helpers import ENGINE, all_cards, build, card, five, play, use


def fresh(players: int, seed: int = 1, **options: int | bool) -> MobyTrickState:
    return ENGINE.setup(players, seed, ENGINE.spec.parse_options(options))


def set_aside_all(state: MobyTrickState) -> MobyTrickState:
    for seat in sorted(ENGINE.to_act(state)):
        state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    return state


# -- setup ---------------------------------------------------------------------------------------


def test_two_players_play_without_the_fives() -> None:
    state = fresh(2)
    assert len(all_cards(state)) == 32
    assert not any(CARDS[c].is_five for c in all_cards(state))
    assert [len(h) for h in state.hands] == [9, 9] and len(state.undealt) == 14


@pytest.mark.parametrize(("players", "undealt"), [(3, 9), (4, 0)])
def test_three_and_four_players_use_all_36_cards(players: int, undealt: int) -> None:
    state = fresh(players)
    assert sorted(all_cards(state)) == list(range(36))
    assert all(len(h) == 9 for h in state.hands) and len(state.undealt) == undealt


def test_the_drawn_card_sets_trump_and_token_and_a_five_is_redrawn() -> None:
    for seed in range(60):
        state = fresh(3, seed)
        start = state.events[0]
        assert start["type"] == "round_start" and start["drawn"]["value"] != 5
        assert state.trump == start["drawn"]["family"]
        assert state.token == (1 if start["drawn"]["value"] < 5 else 9)


def test_bad_player_counts_and_first_player_are_refused() -> None:
    with pytest.raises(InvalidOptions):
        fresh(5)
    with pytest.raises(InvalidOptions):
        fresh(1)
    with pytest.raises(InvalidOptions, match="first_player names seat 2"):
        fresh(2, first_player=2)
    with pytest.raises(InvalidOptions):
        ENGINE.spec.parse_options({"target": 30, "bogus": 1})


# -- first bonus ---------------------------------------------------------------------------------


def test_everyone_sets_a_first_bonus_aside_at_once_and_a_five_cannot_be_one() -> None:
    state = fresh(4, 3)
    assert state.phase == SET_ASIDE and ENGINE.to_act(state) == {0, 1, 2, 3}
    for seat in range(4):
        offered = [a["card"] for a in ENGINE.legal_actions(state, seat)]
        assert offered == [c for c in state.hands[seat] if not CARDS[c].is_five]


def test_a_first_bonus_stays_hidden_until_all_have_chosen() -> None:
    state = fresh(3, 5)
    pick = ENGINE.legal_actions(state, 1)[0]
    state = ENGINE.apply(state, 1, pick)
    assert ENGINE.to_act(state) == {0, 2}
    assert pick["card"] in ENGINE.hidden_ids(state, 0)
    assert pick["card"] not in set(card_ids(ENGINE.view(state, 0)))
    assert ENGINE.view(state, 1)["set_aside"]["id"] == pick["card"]
    assert ENGINE.view(state, 0)["seats"][1]["has_set_aside"] is True
    assert ENGINE.public_action(pick, 1, 0) == {"type": "set_aside"}
    assert ENGINE.public_action(pick, 1, 1) == pick
    state = set_aside_all(state)
    assert state.phase == PLAY and state.bonuses[1] == [pick["card"]]
    assert pick["card"] in set(card_ids(ENGINE.view(state, 0)))
    assert all(len(h) == 8 for h in state.hands)


def test_no_first_player_lets_the_seed_choose_the_leader() -> None:
    random_start = ENGINE.spec.parse_options({"first_player": None})
    leaders = [ENGINE.setup(3, seed, random_start).round_leader for seed in range(30)]
    assert leaders[:5] == [ENGINE.setup(3, seed, random_start).round_leader for seed in range(5)]
    assert set(leaders) == {0, 1, 2}


def test_view_of_a_seat_outside_the_match_is_refused() -> None:
    state = fresh(3)
    for seat in (-1, 3):
        with pytest.raises(EngineError) as err:
            ENGINE.view(state, seat)
        assert err.value.code == "invalid_request"


def test_first_player_option_leads_the_first_trick_and_later_rounds_rotate() -> None:
    state = set_aside_all(fresh(3, 2, first_player=2))
    assert state.leader == 2 and ENGINE.to_act(state) == {2}
    state = finish_round(state)
    assert state.round_number == 2 and state.round_leader == 0


def finish_round(state: MobyTrickState) -> MobyTrickState:
    """Play the first legal action of whoever acts until the next round starts."""
    start = state.round_number
    while state.round_number == start and ENGINE.to_act(state):
        seat = min(ENGINE.to_act(state))
        plays = [a for a in ENGINE.legal_actions(state, seat) if a["type"] != "use_bonus"]
        state = ENGINE.apply(state, seat, plays[0])
    return state


# -- following ------------------------------------------------------------------------------------


def test_follow_the_led_family_if_you_can_and_a_five_always_goes() -> None:
    state = build(
        [[card("orca", 3)], [card("orca", 8), card("narwhal", 1), five()], [card("sperm_whale", 2)]],
        trump="narwhal",
    )
    state = play(state, 0, card("orca", 3))
    assert [a["card"] for a in ENGINE.legal_actions(state, 1)] == sorted([card("orca", 8), five()])
    state = play(state, 1, five())
    # Seat 2 has no orca: anything goes, and the failure to follow is remembered publicly.
    state = play(state, 2, card("sperm_whale", 2))
    assert state.voids[2] == ["orca"]


def test_a_led_five_takes_the_family_of_the_first_whale_after_it() -> None:
    state = build(
        [[five(0)], [five(1), card("narwhal", 4), card("orca", 2)], [card("orca", 6), card("narwhal", 9)]],
        trump="sperm_whale",
    )
    state = play(state, 0, five(0))
    assert len(ENGINE.legal_actions(state, 1)) == 3  # nothing to follow yet
    state = play(state, 1, card("narwhal", 4))
    assert ENGINE.view(state, 2)["led_family"] == "narwhal"
    assert ENGINE.legal_actions(state, 2) == [{"type": "play", "card": card("narwhal", 9)}]


# -- winning a trick ------------------------------------------------------------------------------


def trick(plays: list[int], *, trump: str, token: int, fives_can_win: bool = False) -> int:
    players = len(plays)
    state = build([[c] for c in plays], trump=trump, token=token, fives_can_win=fives_can_win)
    for seat, c in enumerate(plays):
        state = play(state, seat, c)
    assert state.phase == REWARD or players == 2
    return state.turn if state.phase == REWARD else state.events[-1]["winner"]


def test_token_on_1_the_lowest_trump_wins() -> None:
    plays = [card("orca", 2), card("narwhal", 7), card("narwhal", 3), card("orca", 1)]
    assert trick(plays, trump="narwhal", token=1) == 2


def test_token_on_9_the_highest_trump_wins() -> None:
    plays = [card("orca", 2), card("narwhal", 7), card("narwhal", 3), card("orca", 9)]
    assert trick(plays, trump="narwhal", token=9) == 1


def test_without_trump_the_led_family_decides_and_off_family_cards_never_win() -> None:
    plays = [card("orca", 4), card("orca", 8), card("sperm_whale", 9), card("orca", 2)]
    assert trick(plays, trump="blue_whale", token=9) == 1
    assert trick(plays, trump="blue_whale", token=1) == 3


def test_a_five_never_wins_unless_all_cards_are_fives() -> None:
    plays = [five(0), card("orca", 4), five(1)]
    assert trick(plays, trump="narwhal", token=1) == 1
    assert trick(plays, trump="narwhal", token=9) == 1


def test_option_fives_can_win_a_five_is_a_card_of_value_5_in_the_family_it_joins() -> None:
    led_orca = [card("orca", 6), five(0), card("orca", 9)]
    assert trick(led_orca, trump="narwhal", token=1) == 0, "by default a 5 never wins"
    assert trick(led_orca, trump="narwhal", token=1, fives_can_win=True) == 1
    assert trick(led_orca, trump="narwhal", token=9, fives_can_win=True) == 2
    # A led 5 joins the first whale's family; between two equal 5s the earlier one wins.
    led_five = [five(0), card("orca", 2), five(1)]
    assert trick(led_five, trump="narwhal", token=9, fives_can_win=True) == 0
    # Led by the trump family, a 5 is a trump whale; led by another family it loses to any trump.
    assert (
        trick([card("narwhal", 7), five(0), card("orca", 1)], trump="narwhal", token=1, fives_can_win=True)
        == 1
    )
    assert (
        trick([card("orca", 7), five(0), card("narwhal", 9)], trump="narwhal", token=1, fives_can_win=True)
        == 2
    )
    # Only 5s: the first player still wins.
    assert trick([five(0), five(1), five(2)], trump="narwhal", token=1, fives_can_win=True) == 0


def test_option_fives_can_win_is_set_up_and_survives_a_dump() -> None:
    state = fresh(3, 4, fives_can_win=True)
    assert state.fives_can_win
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))).fives_can_win
    assert not fresh(3, 4).fives_can_win
    # A match stored before the option existed loads with the rule it was played under.
    old = ENGINE.dump(fresh(3, 4))
    del old["fives_can_win"]
    assert not ENGINE.load(old).fives_can_win


def test_all_fives_the_first_player_wins_and_leads_next() -> None:
    state = build([[five(i), card("orca", i + 1)] for i in range(4)], leader=2)
    for seat in (2, 3, 0, 1):
        state = play(state, seat, five(seat))
    assert state.phase == REWARD and state.turn == 2
    state = ENGINE.apply(state, 2, {"type": "reward", "card": five(0)})
    # The winner took a 5, so nobody else names the leader.
    assert state.phase == PLAY and state.leader == 2
    assert state.pearl_piles[2] == [five(0)]


# -- the reward -----------------------------------------------------------------------------------


def test_the_chosen_card_becomes_its_owners_bonus_and_pays_its_pearls() -> None:
    chosen = card("orca", 3)  # three pearls
    plays = [card("orca", 1), chosen, card("orca", 9), card("orca", 6)]
    state = build([[c] for c in plays], trump="narwhal", token=1)
    for seat, c in enumerate(plays):
        state = play(state, seat, c)
    assert [a["card"] for a in ENGINE.legal_actions(state, 0)] == plays[1:]
    state = ENGINE.apply(state, 0, {"type": "reward", "card": chosen})
    assert state.bonuses[1] == [chosen]
    assert sorted(state.pearl_piles[0]) == sorted([plays[0], plays[2], plays[3]])
    assert state.discard_pile == []
    assert state.leader == 0 and state.phase == PLAY


def test_a_short_trick_takes_the_rest_of_the_reward_from_the_discard_pile() -> None:
    discard = [card("sperm_whale", 1), card("sperm_whale", 2), card("sperm_whale", 3)]
    state = build(
        [[card("orca", 1)], [card("orca", 3)]], trump="narwhal", token=1, discard_pile=list(discard)
    )
    state = play(state, 0, card("orca", 1))
    state = play(state, 1, card("orca", 3))
    # Two players: the only other card is chosen without asking; 3 pearls = own card + 2 discards.
    assert state.bonuses[1] == [card("orca", 3)]
    assert sorted(state.pearl_piles[0]) == sorted([card("orca", 1), *discard[1:]])
    assert state.discard_pile == discard[:1]
    assert state.events[-1]["from_discard"] == 2 and state.events[-1]["points"] == 3


def test_a_reward_larger_than_all_cards_left_is_still_paid_in_full() -> None:
    # "The winner receives as many victory points as there are pearls shown": with no
    # card left to take, the two missing pearls are noted as points.
    state = build(
        [[card("orca", 1), card("narwhal", 1)], [card("orca", 3), card("narwhal", 2)]],
        trump="narwhal",
        token=1,
    )
    state = play(play(state, 0, card("orca", 1)), 1, card("orca", 3))
    assert state.pearl_piles[0] == [card("orca", 1)] and state.pearl_points == [2, 0]
    assert state.events[-1]["points"] == 3 and state.events[-1]["from_discard"] == 0
    assert ENGINE.view(state, 1)["seats"][0]["pearl_count"] == 3
    assert ENGINE.view(state, 1)["seats"][0]["round_points"] == 3
    assert sorted(all_cards(state)) == sorted(build([[], []]).undealt), "no card is made up"


def test_option_full_reward_off_pays_only_the_cards_there_are() -> None:
    state = build([[card("orca", 1)], [card("orca", 3)]], trump="narwhal", token=1, full_reward=False)
    state = play(play(state, 0, card("orca", 1)), 1, card("orca", 3))
    assert state.pearl_piles[0] == [card("orca", 1)] and state.events[-1]["points"] == 1
    assert [s["round_points"] for s in ENGINE.view(state, 0)["seats"]] == [1, 0]


def test_pearls_noted_for_a_short_reward_score_once_and_the_option_survives_a_dump() -> None:
    state = build(
        [[card("orca", 1)], [card("orca", 3)]], trump="narwhal", token=1, trick_number=8, totals=[5, 0]
    )
    state = play(play(state, 0, card("orca", 1)), 1, card("orca", 3))
    assert ENGINE.scorepad(state).rounds == [[3, 0]] and ENGINE.scorepad(state).totals == [8, 0]
    assert state.round_number == 2 and state.pearl_points == [0, 0]
    assert fresh(2, full_reward=True).full_reward and not fresh(2, full_reward=False).full_reward
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state
    # A match stored before the option existed loads with the rule it was played under.
    old = ENGINE.dump(state)
    del old["full_reward"], old["pearl_points"]
    loaded = ENGINE.load(old)
    assert not loaded.full_reward and loaded.pearl_points == [0, 0]


def test_a_chosen_five_pays_one_pearl_goes_to_the_winner_and_gives_no_bonus() -> None:
    plays = [card("orca", 1), five(), card("orca", 9)]
    state = build([[c] for c in plays], trump="narwhal", token=1)
    for seat, c in enumerate(plays):
        state = play(state, seat, c)
    state = ENGINE.apply(state, 0, {"type": "reward", "card": five()})
    assert state.pearl_piles[0] == [five()]
    assert state.bonuses == [[], [], []]
    assert sorted(state.discard_pile) == sorted([card("orca", 1), card("orca", 9)])
    assert state.phase == PLAY and state.leader == 0


def test_an_unchosen_five_lets_the_first_five_player_name_the_leader() -> None:
    plays = [card("orca", 4), five(0), card("orca", 9), five(1)]
    state = build([[c, card("narwhal", i + 1)] for i, c in enumerate(plays)], trump="narwhal", token=9)
    for seat, c in enumerate(plays):
        state = play(state, seat, c)
    state = ENGINE.apply(state, 2, {"type": "reward", "card": card("orca", 4)})
    assert state.phase == LEAD and ENGINE.to_act(state) == {1}
    assert ENGINE.legal_actions(state, 1) == [{"type": "choose_leader", "seat": s} for s in range(4)]
    state = ENGINE.apply(state, 1, {"type": "choose_leader", "seat": 3})
    assert state.phase == PLAY and ENGINE.to_act(state) == {3} and state.trick_number == 2


def test_no_leader_choice_after_the_last_trick_of_a_round() -> None:
    plays = [card("orca", 4), five(0), card("orca", 9)]
    state = build([[c] for c in plays], trump="narwhal", token=9, trick_number=8)
    for seat, c in enumerate(plays):
        state = play(state, seat, c)
    state = ENGINE.apply(state, 2, {"type": "reward", "card": card("orca", 4)})
    assert state.round_number == 2 and state.phase == SET_ASIDE


# -- bonuses --------------------------------------------------------------------------------------


def test_bonuses_are_used_only_by_the_seat_about_to_play() -> None:
    flip = card("orca", 1)
    state = build([[card("narwhal", 1)], [card("narwhal", 2)]], bonuses=[[], [flip]])
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(NotYourTurn):
        use(state, 1, flip)
    state = play(state, 0, card("narwhal", 1))
    assert {"type": "use_bonus", "card": flip} in ENGINE.legal_actions(state, 1)


def test_change_trump_moves_to_the_family_of_the_bonus_symbol() -> None:
    to_sperm = card("orca", 7)
    assert CARDS[to_sperm].bonus_kind == "trump" and CARDS[to_sperm].bonus_family == "sperm_whale"
    state = build([[card("narwhal", 1)], []], trump="blue_whale", bonuses=[[to_sperm], []])
    state = use(state, 0, to_sperm)
    assert state.trump == "sperm_whale" and state.discard_pile == [to_sperm] and state.bonuses[0] == []
    assert state.events[-1]["trump"] == "sperm_whale"
    assert ENGINE.to_act(state) == {0}  # still about to play


def test_a_change_trump_to_the_current_trump_is_not_offered() -> None:
    to_sperm = card("orca", 7)
    state = build([[card("narwhal", 1)], []], trump="sperm_whale", bonuses=[[to_sperm], []])
    assert ENGINE.legal_actions(state, 0) == [{"type": "play", "card": card("narwhal", 1)}]


def test_flip_turns_the_token_and_keeps_the_trump() -> None:
    flip = card("orca", 1)
    state = use(build([[card("narwhal", 1)], []], trump="narwhal", token=1, bonuses=[[flip], []]), 0, flip)
    assert state.token == 9 and state.trump == "narwhal" and state.discard_pile == [flip]
    state = use(build([[card("narwhal", 1)], []], token=9, bonuses=[[flip], []]), 0, flip)
    assert state.token == 1


def test_pearl_bonus_goes_into_the_pearl_pile_for_one_point() -> None:
    pearl = card("orca", 3)
    assert CARDS[pearl].bonus_kind == "pearl"
    state = use(build([[card("narwhal", 1)], []], bonuses=[[pearl], []]), 0, pearl)
    assert state.pearl_piles[0] == [pearl] and state.discard_pile == []


def test_several_bonuses_may_be_used_before_one_card() -> None:
    bonuses = [card("orca", 1), card("orca", 3), card("orca", 7)]
    state = build([[card("narwhal", 1)], []], bonuses=[list(bonuses), []])
    for b in bonuses:
        state = use(state, 0, b)
    assert state.bonuses[0] == [] and state.phase == PLAY and ENGINE.to_act(state) == {0}


def test_no_bonus_while_choosing_a_reward_or_a_leader() -> None:
    plays = [card("orca", 4), five(0), card("orca", 9)]
    state = build(
        [[c, card("narwhal", i + 1)] for i, c in enumerate(plays)],
        token=9,
        bonuses=[[], [card("orca", 6)], [card("orca", 1)]],
    )
    for seat, c in enumerate(plays):
        state = play(state, seat, c)
    assert ENGINE.to_act(state) == {2}
    assert all(a["type"] == "reward" for a in ENGINE.legal_actions(state, 2))
    # Seat 2 wins and passes over the 5: seat 1, who played it, names the leader without a bonus.
    state = ENGINE.apply(state, 2, {"type": "reward", "card": card("orca", 4)})
    assert state.phase == LEAD and ENGINE.to_act(state) == {1}
    assert all(a["type"] == "choose_leader" for a in ENGINE.legal_actions(state, 1))
    with pytest.raises(IllegalAction):
        use(state, 1, card("orca", 6))


# -- scoring and the end --------------------------------------------------------------------------


def last_trick(totals: list[int], target: int = 30) -> MobyTrickState:
    """Trick 8, seat 0 wins taking the 3-pearl orca 3 of seat 1; seat 0 holds 4 pearl cards.

    The trick holds two other cards and the discard pile none, so the third pearl is noted."""
    state = build(
        [[card("orca", 1)], [card("orca", 3)], [card("narwhal", 2)]],
        trump="orca",
        token=1,
        trick_number=8,
        totals=totals,
        target=target,
        pearl_piles=[[card("sperm_whale", v) for v in (1, 2, 3, 4)], [], []],
        bonuses=[[], [card("blue_whale", 1), card("blue_whale", 2)], []],
    )
    for seat, c in enumerate((card("orca", 1), card("orca", 3), card("narwhal", 2))):
        state = play(state, seat, c)
    return ENGINE.apply(state, 0, {"type": "reward", "card": card("orca", 3)})


def test_round_score_is_pearl_cards_plus_one_per_pair_of_unused_bonuses() -> None:
    state = last_trick([0, 0, 0])
    # Seat 0: 4 + 2 pearl cards + 1 noted pearl. Seat 1: 3 bonuses = 1 pair.
    assert ENGINE.scorepad(state).rounds == [[7, 1, 0]]
    assert ENGINE.scorepad(state).totals == [7, 1, 0]


def test_the_game_ends_when_someone_reaches_the_target_alone() -> None:
    state = last_trick([25, 0, 0])
    assert state.phase == OVER and ENGINE.to_act(state) == frozenset()
    result = ENGINE.result(state)
    assert result is not None and result.winners == [0] and result.scores == [32, 1, 0]


def test_a_tie_for_the_top_at_the_target_plays_another_round() -> None:
    state = last_trick([23, 29, 0])
    assert ENGINE.scorepad(state).totals == [30, 30, 0]
    assert state.phase == SET_ASIDE and state.round_number == 2 and ENGINE.result(state) is None
    assert state.events[-2]["type"] == "tie"


def test_the_target_is_an_option() -> None:
    state = last_trick([0, 0, 0], target=6)
    assert state.phase == OVER


def test_unused_bonuses_do_not_carry_over_to_the_next_round() -> None:
    state = last_trick([0, 0, 0])
    assert state.round_number == 2
    assert state.bonuses == [[], [], []] and state.pearl_piles == [[], [], []]
    assert sorted(all_cards(state)) == list(range(36))


# -- engine contract ------------------------------------------------------------------------------


def test_apply_leaves_the_given_state_untouched_and_rejects_illegal_moves() -> None:
    state = set_aside_all(fresh(3, 9))
    before = ENGINE.dump(state)
    seat = min(ENGINE.to_act(state))
    foreign = state.hands[(seat + 1) % 3][0]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, seat, {"type": "play", "card": foreign})
    with pytest.raises(EngineError) as caught:
        ENGINE.apply(state, seat, {"type": "choose_leader", "seat": 0})
    assert caught.value.code == "illegal_action"
    ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[-1])
    assert ENGINE.dump(state) == before


def test_dump_load_round_trips_through_json() -> None:
    state = set_aside_all(fresh(4, 11))
    state = ENGINE.apply(state, state.turn, ENGINE.legal_actions(state, state.turn)[-1])
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state


def test_views_show_cards_with_the_contract_shape_and_hide_other_hands() -> None:
    state = set_aside_all(fresh(3, 4))
    view = ENGINE.view(state, 0)
    assert set(view["hand"][0]) == {"id", "family", "value", "pearls", "bonus"}
    assert {c["id"] for c in view["hand"]} == set(state.hands[0])
    assert view["seats"][1]["hand_count"] == 8 and view["seats"][1]["pearl_pile"] is None
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] == [] and set(card_ids(spectator)).isdisjoint(state.hands[0])
    assert ENGINE.hidden_ids(state, 0) >= set(state.hands[1]) | set(state.undealt)


def test_events_name_cards_by_family_and_value_only() -> None:
    state = set_aside_all(fresh(4, 8))
    state = finish_round(state)
    events = ENGINE.view(state, None)["events"]
    assert events and not list(card_ids(events))
    assert {"play", "trick", "round_end", "round_start"} <= {e["type"] for e in events}


def test_round_number_and_scorepad_follow_the_rounds() -> None:
    state = set_aside_all(fresh(2, 6))
    assert ENGINE.round_number(state) == 1
    state = finish_round(state)
    assert ENGINE.round_number(state) == 2
    pad = ENGINE.scorepad(state)
    assert len(pad.rounds) == 1 and pad.totals == pad.rounds[0]


def test_own_pearl_pile_is_visible_to_its_owner_only() -> None:
    pearl = card("orca", 3)
    state = use(build([[card("narwhal", 1)], [card("narwhal", 2)]], bonuses=[[pearl], []]), 0, pearl)
    assert [c["id"] for c in ENGINE.view(state, 0)["seats"][0]["pearl_pile"]] == [pearl]
    assert ENGINE.view(state, 1)["seats"][0]["pearl_pile"] is None
    assert ENGINE.view(state, 1)["seats"][0]["pearl_count"] == 1
    assert pearl in ENGINE.hidden_ids(state, 1) and pearl in ENGINE.hidden_ids(state, None)
    assert pearl not in ENGINE.hidden_ids(state, 0)
