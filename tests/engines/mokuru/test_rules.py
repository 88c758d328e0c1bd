"""Mokuru rules, one test per rule of the rulebook and per reading in docs/rules-decisions.md."""

from __future__ import annotations

import pytest

from engines.core import EngineError
from engines.mokuru import ENGINE
from engines.mokuru.cards import CARDS
from engines.mokuru.engine import BATTLE, CONFIRM, DARKNESS, DIFFICULTY, DRAW, OVER, PERFORM, SPENT, TARGET

from .helpers import act, action, conserved, draw, game, keep, report, stack, trick, types

FLIP = trick("Flip")
TWO_FLIPS = trick("2 Flips")
SQUARE = trick("Square", "Advanced")
MASTER = trick("5 Flips", "Master")
BATTLE_CARD = trick("3 Flips", "Battle")
MARATHON = trick("Marathon", "Challenge")
CROSSROAD = trick("Crossroad", "Challenge")


# -- set-up and difficulty -----------------------------------------------------
def test_every_player_picks_a_difficulty_before_the_first_turn() -> None:
    state = ENGINE.setup(3, 5, ENGINE.spec.parse_options({"first_seat": 2}))
    assert state.phase == DIFFICULTY and ENGINE.to_act(state) == {0, 1, 2}
    state = act(state, 1, "difficulty", level="extreme")
    assert ENGINE.to_act(state) == {0, 2}
    state = act(act(state, 0, "difficulty", level="easy"), 2, "difficulty", level="hard")
    assert state.phase == DRAW and ENGINE.to_act(state) == {2}
    seats = ENGINE.view(state, None)["seats"]
    assert [(s["difficulty"], s["hand"], s["tries_per_trick"]) for s in seats] == [
        ("easy", "one hand", 3),
        ("extreme", "one finger", 1),
        ("hard", "one finger", 3),
    ]


def test_pawns_start_on_white_and_the_decks_are_full() -> None:
    state = game(4)
    assert state.belts == [0, 0, 0, 0] and state.belt_names[0] == "white"
    assert len(state.deck) == 62 and len(state.masters) == 15 and conserved(state)


def test_the_short_game_has_fewer_belts_between_white_and_black() -> None:
    assert game(2, belts="short").belt_names == ["white", "orange", "blue", "brown", "black"]
    assert len(game(2).belt_names) == 8


def test_no_first_seat_means_the_seed_picks_one() -> None:
    starts = {ENGINE.setup(4, seed, ENGINE.spec.parse_options({})).turn for seed in range(30)}
    assert len(starts) > 1


# -- trick cards ---------------------------------------------------------------
def test_a_landed_trick_moves_up_one_belt_and_ends_the_turn() -> None:
    state = draw(stack(game(), FLIP))
    assert state.phase == PERFORM and state.trick is not None and state.trick["card"] == FLIP
    state = report(state, 0, "landed")
    assert state.belts == [1, 0, 0] and state.turn == 1 and state.phase == DRAW


def test_three_tries_then_the_turn_passes_without_moving() -> None:
    state = draw(stack(game(), FLIP))
    for _ in range(2):
        state = report(state, 0, "missed")
        assert state.turn == 0 and state.phase == PERFORM
    state = report(state, 0, "missed")
    assert state.belts == [0, 0, 0] and state.turn == 1


def test_a_success_on_the_last_try_still_counts() -> None:
    state = draw(stack(game(), FLIP))
    state = report(report(state, 0, "missed"), 0, "missed")
    assert report(state, 0, "landed").belts == [1, 0, 0]


def test_extreme_has_one_try() -> None:
    state = draw(stack(game(levels=["extreme", "normal", "normal"]), FLIP))
    assert state.trick is not None and state.trick["tries"] == [1]
    assert report(state, 0, "missed").turn == 1


def test_a_challenge_card_is_three_in_a_row_per_try_with_the_usual_tries() -> None:
    state = draw(stack(game(levels=["normal", "extreme", "normal"]), CROSSROAD))
    assert state.trick is not None and state.trick["mode"] == "solo" and state.trick["tries"] == [3]
    state = report(report(report(state, 0, "missed"), 0, "missed"), 0, "missed")
    state = draw(stack(state, CROSSROAD))
    assert state.turn == 1 and state.trick is not None and state.trick["tries"] == [1]


def test_only_the_seat_performing_may_report() -> None:
    state = draw(stack(game(), FLIP))
    with pytest.raises(EngineError) as err:
        report(state, 1, "landed")
    assert err.value.code == "not_your_turn"


# -- action cards: keep it / play it, one per turn --------------------------------
def test_a_keep_it_card_is_kept_and_the_drawer_draws_on_to_a_trick() -> None:
    state = draw(stack(game(), action("immunity"), FLIP))
    assert state.kept[0] == [action("immunity")] and state.trick is not None and state.trick["card"] == FLIP
    assert state.phase == PERFORM


def test_a_second_action_card_in_a_turn_is_discarded() -> None:
    state = draw(stack(game(), action("immunity"), action("steal_a_trick"), FLIP))
    assert state.kept[0] == [action("immunity")]
    assert action("steal_a_trick") in state.discard and "discarded" in types(state)
    assert state.trick is not None and state.trick["card"] == FLIP


def test_the_next_turn_may_use_an_action_card_again() -> None:
    state = report(draw(stack(game(), action("immunity"), FLIP)), 0, "landed")
    state = draw(stack(state, action("steal_a_trick"), TWO_FLIPS))
    assert state.kept[1] == [action("steal_a_trick")]


# -- black belt and Grandmaster --------------------------------------------------
def test_a_black_belt_draws_a_master_trick_and_a_success_ends_the_game() -> None:
    state = game()
    state.belts[0] = state.black
    state = draw(stack(state, MASTER))
    assert state.trick is not None and state.trick["card"] == MASTER and state.trick["source"] == "masters"
    state = report(state, 0, "landed")
    assert state.phase == OVER and state.winner == 0 and state.belts[0] == state.grandmaster
    assert ENGINE.to_act(state) == frozenset()
    result = ENGINE.result(state)
    assert result is not None and result.winners == [0]
    assert ENGINE.view(state, 1)["seats"][0]["belt_name"] == "grandmaster"


def test_a_failed_master_trick_leaves_the_pawn_on_black() -> None:
    state = game(levels=["extreme", "normal", "normal"])
    state.belts[0] = state.black
    state = report(draw(stack(state, MASTER)), 0, "missed")
    assert state.belts[0] == state.black and state.turn == 1 and MASTER in state.master_discard


def test_reaching_black_mid_game_does_not_win() -> None:
    state = game()
    state.belts[0] = state.black - 1
    state = report(draw(stack(state, FLIP)), 0, "landed")
    assert state.belts[0] == state.black and state.phase == DRAW and state.winner is None


# -- witness -----------------------------------------------------------------------
def test_witness_is_on_by_default_with_three_players_and_off_with_two() -> None:
    assert ENGINE.setup(3, 1, ENGINE.spec.parse_options({})).witness
    assert not ENGINE.setup(2, 1, ENGINE.spec.parse_options({})).witness
    assert ENGINE.setup(2, 1, ENGINE.spec.parse_options({"witness": "on"})).witness
    assert not ENGINE.setup(4, 1, ENGINE.spec.parse_options({"witness": "off"})).witness


def test_a_witnessed_success_counts_once_another_player_confirms() -> None:
    state = report(draw(stack(game(witness="on"), FLIP)), 0, "landed")
    assert state.phase == CONFIRM and ENGINE.to_act(state) == {1, 2}
    with pytest.raises(EngineError):
        act(state, 0, "witness", verdict="confirm")
    state = act(state, 2, "witness", verdict="confirm")
    assert state.belts == [1, 0, 0] and state.turn == 1
    assert [e for e in state.events if e["type"] == "witness"][-1]["verdict"] == "confirm"


def test_a_disputed_success_is_a_miss() -> None:
    state = report(draw(stack(game(2, witness="on"), FLIP)), 0, "landed")
    state = act(state, 1, "witness", verdict="dispute")
    assert state.belts == [0, 0] and state.phase == PERFORM and state.trick is not None
    assert state.trick["tries"] == [2]


# -- Duel --------------------------------------------------------------------------
def test_duel_alternates_tries_from_the_challenger_and_the_winner_moves_up() -> None:
    state = draw(stack(game(), action("duel"), action("immunity"), TWO_FLIPS))
    assert state.phase == TARGET and state.choosing == "duel"
    state = draw(act(state, 0, "target", seat=2))
    assert action("immunity") in state.discard, "action cards met while drawing the duel trick are discarded"
    assert state.trick is not None and state.trick["mode"] == "duel" and ENGINE.to_act(state) == {0}
    state = report(state, 0, "missed")
    assert ENGINE.to_act(state) == {2}
    state = report(state, 2, "landed")
    assert state.belts == [0, 0, 1] and state.turn == 1, "play goes on with the player after the challenger"


def test_a_duel_nobody_lands_has_no_winner() -> None:
    state = draw(
        act(
            draw(stack(game(levels=["extreme", "normal", "extreme"]), action("duel"), FLIP)),
            0,
            "target",
            seat=2,
        )
    )
    state = report(report(state, 0, "missed"), 2, "missed")
    assert state.belts == [0, 0, 0] and state.turn == 1


def test_duel_uses_each_players_tries() -> None:
    state = draw(
        act(
            draw(stack(game(levels=["extreme", "normal", "normal"]), action("duel"), FLIP)),
            0,
            "target",
            seat=1,
        )
    )
    state = report(state, 0, "missed")
    state = report(state, 1, "missed")
    assert ENGINE.to_act(state) == {1}, "the challenger's single try is spent: the victim tries on"
    state = report(state, 1, "landed")
    assert state.belts == [0, 1, 0]


def test_a_black_belt_who_wins_a_duel_does_not_move() -> None:
    state = game()
    state.belts[1] = state.black
    state = draw(act(draw(stack(state, action("duel"), FLIP)), 0, "target", seat=1))
    state = report(report(state, 0, "missed"), 1, "landed")
    assert state.belts[1] == state.black and state.winner is None


def test_a_marathon_drawn_for_a_duel_is_discarded() -> None:
    state = draw(act(draw(stack(game(), action("duel"), MARATHON, FLIP)), 0, "target", seat=1))
    assert state.trick is not None and state.trick["card"] == FLIP and MARATHON in state.discard


def test_a_battle_card_drawn_for_a_duel_is_dueled_like_any_trick() -> None:
    state = draw(act(draw(stack(game(), action("duel"), BATTLE_CARD)), 0, "target", seat=1))
    assert state.trick is not None and state.trick["mode"] == "duel" and state.phase == PERFORM


def test_immunity_refuses_a_duel_out_of_turn_and_the_challengers_turn_ends() -> None:
    state = keep(game(), 2, "immunity")
    state = act(draw(stack(state, action("duel"), FLIP)), 0, "target", seat=2)
    assert ENGINE.to_act(state) == {0} and ENGINE.legal_actions(state, 2) == [{"type": "immunity"}]
    state = act(state, 2, "immunity")
    assert state.turn == 1 and state.phase == DRAW and state.belts == [0, 0, 0] and state.kept[2] == []


def test_the_immunity_window_closes_when_the_challenger_draws() -> None:
    state = keep(game(), 2, "immunity")
    state = draw(act(draw(stack(state, action("duel"), FLIP)), 0, "target", seat=2))
    assert state.trick is not None and state.trick["mode"] == "duel"
    assert ENGINE.legal_actions(state, 2) == []
    with pytest.raises(EngineError) as err:
        act(state, 2, "immunity")
    assert err.value.code == "not_your_turn"


# -- Immunity ------------------------------------------------------------------------
def test_immunity_wins_your_own_trick() -> None:
    state = draw(stack(keep(game(), 0, "immunity"), SQUARE))
    assert {"type": "immunity"} in ENGINE.legal_actions(state, 0)
    state = act(state, 0, "immunity")
    assert state.belts == [1, 0, 0] and state.kept[0] == [] and state.turn == 1


def test_immunity_can_be_used_after_the_tries_are_spent() -> None:
    state = draw(stack(keep(game(levels=["extreme", "normal", "normal"]), 0, "immunity"), SQUARE))
    state = report(state, 0, "missed")
    assert state.phase == SPENT and ENGINE.legal_actions(state, 0) == [
        {"type": "immunity"},
        {"type": "accept_miss"},
    ]
    assert act(state, 0, "immunity").belts == [1, 0, 0]
    declined = act(state, 0, "accept_miss")
    assert declined.belts == [0, 0, 0] and declined.kept[0] == [state.kept[0][0]] and declined.turn == 1


def test_immunity_cannot_win_a_master_trick() -> None:
    state = keep(game(levels=["extreme", "normal", "normal"]), 0, "immunity")
    state.belts[0] = state.black
    state = draw(stack(state, MASTER))
    assert {"type": "immunity"} not in ENGINE.legal_actions(state, 0)
    assert report(state, 0, "missed").phase == DRAW, "no Immunity offer once the tries are spent"


def test_immunity_blocks_a_negative_boost_while_the_drawer_has_not_drawn_on() -> None:
    state = keep(game(), 1, "immunity")
    state.belts[1] = 3
    state = act(draw(stack(state, action("negative_boost"), FLIP)), 0, "target", seat=1)
    assert state.belts[1] == 3 and state.pending is not None
    blocked = act(state, 1, "immunity")
    assert blocked.belts[1] == 3 and blocked.pending is None and blocked.phase == DRAW
    assert draw(blocked).belts[1] == 3
    unblocked = draw(state)
    assert unblocked.belts[1] == 2 and unblocked.kept[1], "the window closed: the effect applies"


# -- Darkness ------------------------------------------------------------------------------
def test_darkness_imposes_a_trick_on_everyone_else_and_grants_a_belt() -> None:
    state = draw(stack(game(), action("darkness")))
    assert state.phase == DARKNESS and ENGINE.to_act(state) == {0}
    assert {"type": "impose", "card": SQUARE} in ENGINE.legal_actions(state, 0)
    assert all(CARDS[a["card"]].is_trick for a in ENGINE.legal_actions(state, 0))
    state = act(state, 0, "impose", card=SQUARE)
    assert state.belts == [1, 0, 0] and state.turn == 1 and SQUARE not in state.deck
    for seat in (1, 2):
        state = draw(stack(state, FLIP))
        assert (
            state.trick is not None and state.trick["card"] == SQUARE and state.trick["source"] == "darkness"
        )
        state = report(state, seat, "landed")
        assert conserved(state)
    assert SQUARE in state.discard and state.darkness == []
    assert state.belts == [1, 1, 1]
    state = draw(state)
    assert state.trick is not None and state.trick["card"] == FLIP, "the possessed player draws as usual"


def test_darkness_shows_the_deck_only_to_the_possessed_player() -> None:
    state = draw(stack(game(), action("darkness")))
    seen = ENGINE.view(state, 0)["darkness_deck"]
    assert seen is not None and {c["id"] for c in seen} == {c for c in state.deck if CARDS[c].is_trick}
    for seat in (1, 2, None):
        view = ENGINE.view(state, seat)
        assert view["darkness_deck"] is None
        assert not set(state.deck) - ENGINE.hidden_ids(state, seat)
    after = act(state, 0, "impose", card=SQUARE)
    assert ENGINE.view(after, 0)["darkness_deck"] is None


def test_a_black_belt_who_lands_the_darkness_trick_becomes_grandmaster() -> None:
    state = game()
    state.belts[1] = state.black
    state = act(draw(stack(state, action("darkness"))), 0, "impose", card=FLIP)
    state = report(draw(state), 1, "landed")
    assert state.phase == OVER and state.winner == 1


def test_darkness_reshuffles_the_deck() -> None:
    state = draw(stack(game(), action("darkness")))
    before = [c for c in state.deck if c != SQUARE]
    after = act(state, 0, "impose", card=SQUARE)
    assert sorted(after.deck) == sorted(before) and after.deck != before


# -- Mini Mokuru -------------------------------------------------------------------------------
def test_mini_mokuru_marks_this_turn_and_every_other_players_next_turn() -> None:
    state = draw(stack(game(), action("mini_mokuru"), FLIP))
    assert state.trick is not None and state.trick["mini"] and ENGINE.view(state, 1)["mini"]
    assert state.mini_next == [False, True, True]
    state = report(state, 0, "landed")
    state = draw(stack(state, TWO_FLIPS))
    assert state.trick is not None and state.trick["mini"]
    state = report(state, 1, "landed")
    state = report(draw(stack(state, SQUARE)), 2, "landed")
    state = draw(stack(state, FLIP))
    assert state.trick is not None and not state.trick["mini"], "the drawer's next turn is normal again"


# -- boosts, swap, belt steal --------------------------------------------------------------------
def test_positive_boost_moves_any_player_below_black_up_and_the_drawer_draws_on() -> None:
    state = game()
    state.belts[2] = state.black
    state = draw(stack(state, action("positive_boost"), FLIP))
    assert [a["seat"] for a in ENGINE.legal_actions(state, 0)] == [0, 1]
    state = act(state, 0, "target", seat=1)
    assert state.belts[1] == 1 and state.phase == DRAW
    state = draw(state)
    assert state.trick is not None and state.trick["card"] == FLIP


def test_negative_boost_hits_any_player_including_a_black_belt() -> None:
    state = game()
    state.belts[2] = state.black
    state = draw(stack(state, action("negative_boost"), FLIP))
    assert [a["seat"] for a in ENGINE.legal_actions(state, 0)] == [0, 1, 2]
    state = act(state, 0, "target", seat=2)
    assert state.belts[2] == state.black - 1


def test_negative_boost_on_a_white_belt_changes_nothing() -> None:
    state = act(draw(stack(game(), action("negative_boost"), FLIP)), 0, "target", seat=1)
    assert state.belts == [0, 0, 0]


def test_swap_trades_pawns_but_never_with_a_black_belt() -> None:
    state = game(4)
    state.belts = [1, 4, 0, state.black]
    state = draw(stack(state, action("swap"), FLIP))
    assert [a["seat"] for a in ENGINE.legal_actions(state, 0)] == [1, 2]
    state = act(state, 0, "target", seat=1)
    assert state.belts[:2] == [4, 1]


def test_belt_steal_takes_a_belt_from_the_victim() -> None:
    state = game()
    state.belts = [2, 3, 0]
    state = act(draw(stack(state, action("belt_steal"), FLIP)), 0, "target", seat=1)
    assert state.belts == [3, 2, 0]


def test_belt_steal_from_a_white_belt_still_gains_the_stealer_a_belt() -> None:
    state = act(draw(stack(game(), action("belt_steal"), FLIP)), 0, "target", seat=2)
    assert state.belts == [1, 0, 0]


def test_immunity_blocks_belt_steal_and_swap_entirely() -> None:
    for key in ("belt_steal", "swap"):
        state = keep(game(), 1, "immunity")
        state.belts = [1, 3, 0]
        state = act(act(draw(stack(state, action(key), FLIP)), 0, "target", seat=1), 1, "immunity")
        assert draw(state).belts == [1, 3, 0], key


# -- The Doom ------------------------------------------------------------------------------------
def test_the_doom_sends_the_victim_to_white_on_a_single_landed_try() -> None:
    state = game()
    state.belts = [2, 5, 1]
    state = draw(stack(state, action("the_doom"), action("swap"), TWO_FLIPS))
    assert state.phase == TARGET and state.choosing == "the_doom"
    state = draw(act(state, 0, "target", seat=1))
    assert state.trick is not None and state.trick["mode"] == "doom" and state.trick["tries"] == [1]
    assert action("swap") in state.discard
    assert {"type": "immunity"} not in ENGINE.legal_actions(keep(state, 0, "immunity"), 0)
    state = report(state, 0, "landed")
    assert state.belts == [2, 0, 1] and state.turn == 1


def test_the_doom_missed_sends_the_drawer_to_white() -> None:
    state = game()
    state.belts = [4, 5, 1]
    state = report(
        draw(act(draw(stack(state, action("the_doom"), TWO_FLIPS)), 0, "target", seat=1)), 0, "missed"
    )
    assert state.belts == [0, 5, 1] and state.turn == 1


def test_the_dooms_victim_with_immunity_sends_the_drawer_to_white() -> None:
    state = keep(game(), 2, "immunity")
    state.belts = [4, 0, 5]
    state = report(
        draw(act(draw(stack(state, action("the_doom"), TWO_FLIPS)), 0, "target", seat=2)), 0, "landed"
    )
    assert state.belts == [4, 0, 5] and state.turn == 1 and ENGINE.to_act(state) == {1}
    assert ENGINE.legal_actions(state, 2) == [{"type": "immunity"}]
    shielded = act(state, 2, "immunity")
    assert shielded.belts == [0, 0, 5]
    accepted = draw(state)
    assert accepted.belts == [4, 0, 0], "the window closes when the next player draws"


# -- Give a Trick / Steal a Trick --------------------------------------------------------------------
def test_give_a_trick_hands_the_drawn_trick_over_and_the_giver_draws_another() -> None:
    state = draw(stack(keep(game(), 0, "give_a_trick"), SQUARE, FLIP))
    assert {"type": "give", "seat": 2} in ENGINE.legal_actions(state, 0)
    state = act(state, 0, "give", seat=2)
    assert state.trick is not None and state.trick["card"] == FLIP and state.kept[0] == []
    assert [r["card"] for r in state.imposed[2]] == [SQUARE]
    state = report(report(report(state, 0, "missed"), 0, "missed"), 0, "missed")
    state = report(draw(stack(state, TWO_FLIPS)), 1, "missed")
    state = report(report(state, 1, "missed"), 1, "missed")
    state = draw(stack(state, TWO_FLIPS))
    assert state.trick is not None and state.trick["card"] == SQUARE and state.trick["source"] == "given"
    assert {"type": "give", "seat": 0} not in ENGINE.legal_actions(keep(state, 2, "give_a_trick"), 2)


def test_give_a_trick_is_gone_once_a_try_is_reported() -> None:
    state = report(draw(stack(keep(game(), 0, "give_a_trick"), SQUARE)), 0, "missed")
    assert not [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "give"]


def test_a_black_belt_gives_a_master_trick_only_to_another_black_belt() -> None:
    state = keep(game(4), 0, "give_a_trick")
    state.belts = [state.black, 2, state.black, 0]
    state = draw(stack(state, MASTER))
    assert [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "give"] == [{"type": "give", "seat": 2}]
    state = act(state, 0, "give", seat=2)
    assert state.trick is not None and CARDS[state.trick["card"]].is_master


def test_steal_a_trick_is_an_optional_action_of_a_seat_out_of_turn() -> None:
    state = draw(stack(keep(game(), 2, "steal_a_trick"), SQUARE, FLIP))
    assert ENGINE.to_act(state) == {0} and ENGINE.legal_actions(state, 2) == [{"type": "steal"}]
    assert ENGINE.legal_actions(state, 1) == []
    state = act(state, 2, "steal")
    assert state.trick is not None and state.trick["card"] == FLIP and state.turn == 0
    assert [r["card"] for r in state.imposed[2]] == [SQUARE] and state.kept[2] == []
    state = report(state, 0, "landed")
    state = report(draw(stack(state, TWO_FLIPS)), 1, "landed")
    state = draw(state)
    assert state.trick is not None and state.trick["card"] == SQUARE and state.trick["source"] == "stolen"


def test_the_steal_window_closes_at_the_first_try() -> None:
    state = report(draw(stack(keep(game(), 2, "steal_a_trick"), SQUARE)), 0, "missed")
    assert ENGINE.legal_actions(state, 2) == []
    with pytest.raises(EngineError) as err:
        act(state, 2, "steal")
    assert err.value.code == "not_your_turn"


def test_with_several_steal_holders_the_first_takes_it_and_the_new_trick_can_be_stolen() -> None:
    state = keep(keep(game(), 1, "steal_a_trick"), 2, "steal_a_trick")
    state = draw(stack(state, SQUARE, TWO_FLIPS))
    state = act(state, 2, "steal")
    assert ENGINE.legal_actions(state, 1) == [{"type": "steal"}] and ENGINE.legal_actions(state, 2) == []
    state = act(state, 1, "steal")
    assert [r["card"] for r in state.imposed[1]] == [TWO_FLIPS] and conserved(state)


def test_a_black_belt_steals_only_from_another_black_belt() -> None:
    state = keep(game(), 2, "steal_a_trick")
    state.belts[2] = state.black
    assert ENGINE.legal_actions(draw(stack(state, SQUARE)), 2) == []
    state.belts[0] = state.black
    assert ENGINE.legal_actions(draw(stack(state, MASTER)), 2) == [{"type": "steal"}]


def test_tricks_not_drawn_from_a_deck_cannot_be_stolen() -> None:
    state = keep(game(), 2, "steal_a_trick")
    state = draw(act(draw(stack(state, action("duel"), SQUARE)), 0, "target", seat=1))
    assert ENGINE.legal_actions(state, 2) == []


# -- Battle ---------------------------------------------------------------------------------------
def test_battle_names_an_opponent_and_the_first_done_wins() -> None:
    state = draw(stack(game(), BATTLE_CARD))
    assert state.phase == TARGET and state.choosing == "battle"
    state = act(state, 0, "target", seat=2)
    assert state.phase == BATTLE and ENGINE.to_act(state) == {0, 2}
    state = report(state, 2, "done")
    assert state.belts == [0, 0, 1] and state.turn == 1, "the opponent can win the battle"


def test_battle_racer_who_misses_drops_out_and_no_finisher_means_no_winner() -> None:
    state = act(draw(stack(game(), BATTLE_CARD)), 0, "target", seat=1)
    state = report(state, 0, "missed")
    assert ENGINE.to_act(state) == {1}
    state = report(state, 1, "missed")
    assert state.belts == [0, 0, 0] and state.turn == 1


def test_a_witnessed_battle_win_needs_a_confirmation() -> None:
    state = act(draw(stack(game(witness="on"), BATTLE_CARD)), 0, "target", seat=1)
    state = report(state, 0, "done")
    assert state.phase == CONFIRM and ENGINE.to_act(state) == {2}, "the opponent is no witness"
    state = act(state, 2, "witness", verdict="dispute")
    assert state.phase == BATTLE and ENGINE.to_act(state) == {1}


def test_a_black_belt_opponent_who_wins_a_battle_does_not_move() -> None:
    state = game()
    state.belts[1] = state.black
    state = report(act(draw(stack(state, BATTLE_CARD)), 0, "target", seat=1), 1, "done")
    assert state.belts[1] == state.black and state.winner is None


# -- Marathon ---------------------------------------------------------------------------------------
def test_marathon_eliminates_in_seat_order_from_the_drawer_until_one_is_left() -> None:
    state = game(4)
    state.turn = 0
    state = draw(stack(state, MARATHON))
    assert state.trick is not None and state.trick["players"] == [0, 1, 2, 3]
    order = []
    for outcome in ("landed", "missed", "landed", "landed", "landed", "missed", "missed"):
        seat = next(iter(ENGINE.to_act(state)))
        order.append(seat)
        state = report(state, seat, outcome)
    assert order == [0, 1, 2, 3, 0, 2, 3]
    assert state.belts == [1, 0, 0, 0] and state.turn == 1


def test_marathon_winner_who_is_not_the_drawer_moves_up() -> None:
    state = report(report(draw(stack(game(), MARATHON)), 0, "missed"), 1, "missed")
    assert state.belts == [0, 0, 1]


# -- decks running out ---------------------------------------------------------------------------
def test_an_empty_tricks_deck_is_refilled_from_the_discard_pile() -> None:
    state = game()
    state.discard.extend(state.deck)
    state.deck = []
    state = draw(state)
    assert state.trick is not None and "shuffle" in types(state) and conserved(state)


def test_with_no_trick_left_anywhere_the_turn_passes() -> None:
    state = game()
    tricks = [c for c in state.deck if CARDS[c].is_trick]
    state.kept[2] = [c for c in state.deck if not CARDS[c].is_trick]
    state.deck = []
    state.imposed[1] = [{"card": c, "source": "given", "from": 0} for c in tricks]
    state = draw(state)
    assert state.turn == 1 and "no_trick" in types(state) and conserved(state)


def test_an_empty_master_deck_is_refilled_and_with_none_left_the_turn_passes() -> None:
    state = game()
    state.belts[0] = state.black
    state.master_discard, state.masters = state.masters, []
    refilled = draw(state)
    assert refilled.trick is not None and refilled.trick["source"] == "masters"
    state.imposed[1] = [{"card": c, "source": "given", "from": 0} for c in state.master_discard]
    state.master_discard = []
    assert draw(state).turn == 1


# -- views and events -----------------------------------------------------------------------------------
def test_events_have_increasing_seq_and_a_type_and_never_a_card_id() -> None:
    state = report(draw(stack(game(), action("immunity"), FLIP)), 0, "landed")
    seqs = [e["seq"] for e in state.events]
    assert seqs == sorted(seqs) and seqs[0] == 1 and len(set(seqs)) == len(seqs)
    assert all(isinstance(e["type"], str) and "id" not in e for e in state.events)


def test_the_view_envelope() -> None:
    state = draw(stack(game(), FLIP))
    view = ENGINE.view(state, 1)
    assert view["game"] == "mokuru" and view["seat"] == 1 and view["players"] == 3 and view["round"] == 1
    assert view["trick"]["card"]["name"] == "Flip" and view["trick"]["current"] == 0
    assert view["deck_count"] == len(state.deck) and "deck" not in view
    with pytest.raises(EngineError):
        ENGINE.view(state, 3)


def test_the_round_counts_full_turns_of_the_table() -> None:
    state = game(2)
    for _ in range(2):
        state = report(
            report(report(draw(stack(state, FLIP)), state.turn, "missed"), state.turn, "missed"),
            state.turn,
            "missed",
        )
    assert ENGINE.round_number(state) == 2


def test_the_scorepad_has_the_belts_won_per_round_adding_up_to_the_belts() -> None:
    state = report(draw(stack(game(2), FLIP)), 0, "landed")
    assert ENGINE.scorepad(state).rounds == [] and ENGINE.scorepad(state).totals == [1, 0]
    state = report(report(report(draw(stack(state, FLIP)), 1, "missed"), 1, "missed"), 1, "missed")
    assert ENGINE.round_number(state) == 2 and ENGINE.scorepad(state).rounds == [[1, 0]]
    state.belts[0] = state.black
    state = report(draw(stack(state, MASTER)), 0, "landed")
    pad = ENGINE.scorepad(state)
    assert pad.rounds == [[1, 0], [state.grandmaster - 1, 0]]
    assert [sum(col) for col in zip(*pad.rounds, strict=True)] == pad.totals == state.belts
