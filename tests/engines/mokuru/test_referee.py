"""Mokuru's referee in its edge cases (issue 21): each test is named after the rule or the reading
it holds to (docs/rules-decisions.md, "Mokuru referee (issue 21)")."""

from __future__ import annotations

from engines.mokuru import ENGINE
from engines.mokuru.cards import CARDS
from engines.mokuru.engine import BATTLE, CONFIRM, OVER, PERFORM, SPENT, MokuruState

from .helpers import act, action, conserved, draw, game, keep, report, stack, trick

FLIP = trick("Flip")
TWO_FLIPS = trick("2 Flips")
SQUARE = trick("Square", "Advanced")
MASTER = trick("5 Flips", "Master")
BATTLE_CARD = trick("3 Flips", "Battle")
MARATHON = trick("Marathon", "Challenge")


def darkness_on_black(card: int, players: int = 3, **options: object) -> MokuruState:
    """Seat 0 imposes `card` by Darkness; seat 1 is on the black belt and draws it next."""
    state = game(players, **options)  # type: ignore[arg-type]
    state.belts[1] = state.black
    state = act(draw(stack(state, action("darkness"))), 0, "impose", card=card)
    return draw(state)


def black_mid_turn(state: MokuruState) -> MokuruState:
    """Seat 0 reaches black during its turn (Belt Steal from seat 1), then draws a regular trick."""
    state.belts[0] = state.black - 1
    state = act(draw(stack(state, action("belt_steal"), FLIP)), 0, "target", seat=1)
    assert state.belts[0] == state.black
    return draw(state)


# -- 2. Darkness contests won on the black belt ---------------------------------------------------------
def test_a_black_belt_who_wins_a_darkness_battle_becomes_grandmaster() -> None:
    state = darkness_on_black(BATTLE_CARD)
    state = report(act(state, 1, "target", seat=2), 1, "done")
    assert state.phase == OVER and state.winner == 1 and state.belts[1] == state.grandmaster


def test_a_black_belt_who_wins_a_darkness_marathon_becomes_grandmaster() -> None:
    state = darkness_on_black(MARATHON)
    assert state.trick is not None and state.trick["players"] == [1, 2, 0]
    state = report(report(report(state, 1, "landed"), 2, "missed"), 0, "missed")
    assert state.phase == OVER and state.winner == 1


def test_a_black_belt_who_wins_another_players_darkness_battle_stays_black() -> None:
    state = game()
    state.belts[2] = state.black
    state = act(draw(stack(state, action("darkness"))), 0, "impose", card=BATTLE_CARD)
    state = report(act(draw(state), 1, "target", seat=2), 2, "done")
    assert state.winner is None and state.belts[2] == state.black


# -- 3. Give a Trick: the giver's belt decides -------------------------------------------------------------
def test_a_black_belt_giver_gives_a_regular_trick_only_to_another_black_belt() -> None:
    state = keep(game(4), 0, "give_a_trick")
    state.belts[2] = state.black
    state = black_mid_turn(state)
    assert state.trick is not None and not CARDS[state.trick["card"]].is_master
    gives = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "give"]
    assert gives == [{"type": "give", "seat": 2}], "a white or coloured belt may not receive it"


def test_a_giver_below_black_may_give_a_regular_trick_to_anyone_a_black_belt_included() -> None:
    state = keep(game(), 0, "give_a_trick")
    state.belts[2] = state.black
    state = draw(stack(state, SQUARE))
    gives = [a["seat"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "give"]
    assert gives == [1, 2]
    state = act(state, 0, "give", seat=2)
    assert [r["card"] for r in state.imposed[2]] == [SQUARE] and conserved(state)


# -- 4. Steal a Trick: the stealer's belt decides ----------------------------------------------------------
def test_a_black_belt_stealer_may_steal_a_regular_trick_from_another_black_belt() -> None:
    state = keep(game(), 2, "steal_a_trick")
    state.belts[2] = state.black
    state = black_mid_turn(state)
    assert ENGINE.legal_actions(state, 2) == [{"type": "steal"}]
    state = act(state, 2, "steal")
    assert [r["card"] for r in state.imposed[2]] == [FLIP] and conserved(state)


def test_a_stealer_below_black_may_steal_from_anyone_a_master_trick_included() -> None:
    state = keep(game(), 2, "steal_a_trick")
    state.belts[0] = state.black
    state = draw(stack(state, MASTER))
    assert ENGINE.legal_actions(state, 2) == [{"type": "steal"}]
    state = act(state, 2, "steal")
    assert state.trick is not None and CARDS[state.trick["card"]].is_master, "the victim draws a master again"


# -- 5. The Immunity card text -----------------------------------------------------------------------------
def test_the_immunity_card_says_it_shields_the_dooms_victim() -> None:
    (immunity,) = {c.description for c in CARDS if c.action == "immunity"}
    assert "Useless" not in immunity and "The Doom" in immunity and "white" in immunity


# -- 6. Witnesses ------------------------------------------------------------------------------------------
def test_the_duel_opponent_never_witnesses_while_a_neutral_player_can() -> None:
    state = draw(act(draw(stack(game(witness="on"), action("duel"), FLIP)), 0, "target", seat=1))
    state = report(state, 0, "landed")
    assert state.phase == CONFIRM and ENGINE.to_act(state) == {2}
    claim = ENGINE.view(state, 2)["claim"]
    assert claim["neutral"] and claim["interested"] == [{"seat": 1, "stake": "opponent"}]


def test_the_battle_opponent_who_dropped_out_still_never_witnesses() -> None:
    state = act(draw(stack(game(witness="on"), BATTLE_CARD)), 0, "target", seat=1)
    state = report(report(state, 1, "missed"), 0, "done")
    assert state.phase == CONFIRM and ENGINE.to_act(state) == {2}


def test_the_dooms_victim_never_witnesses_while_a_neutral_player_can() -> None:
    state = draw(act(draw(stack(game(witness="on"), action("the_doom"), FLIP)), 0, "target", seat=2))
    state = report(state, 0, "landed")
    assert ENGINE.to_act(state) == {1}


def test_the_giver_never_witnesses_the_given_trick_while_a_neutral_player_can() -> None:
    state = act(draw(stack(keep(game(witness="on"), 0, "give_a_trick"), SQUARE, FLIP)), 0, "give", seat=1)
    state = report(report(report(state, 0, "missed"), 0, "missed"), 0, "missed")
    state = report(draw(state), 1, "landed")
    assert state.trick is not None and state.trick["source"] == "given"
    assert ENGINE.to_act(state) == {2}


def test_with_no_neutral_player_the_interested_one_witnesses_and_the_view_says_so() -> None:
    state = draw(act(draw(stack(game(2, witness="on"), action("duel"), FLIP)), 0, "target", seat=1))
    state = report(state, 0, "landed")
    assert ENGINE.to_act(state) == {1}
    claim = ENGINE.view(state, 1)["claim"]
    assert claim == {
        "seat": 0,
        "witnesses": [1],
        "neutral": False,
        "interested": [{"seat": 1, "stake": "opponent"}],
        "disputed_by": None,
    }


def test_a_dispute_goes_to_a_second_neutral_witness_whose_word_is_final() -> None:
    claimed = report(draw(stack(game(4, witness="on"), FLIP)), 0, "landed")
    assert ENGINE.to_act(claimed) == {1, 2, 3}
    disputed = act(claimed, 2, "witness", verdict="dispute")
    assert disputed.phase == CONFIRM and ENGINE.to_act(disputed) == {1, 3}
    assert ENGINE.view(disputed, 0)["claim"]["disputed_by"] == 2
    upheld = act(disputed, 3, "witness", verdict="confirm")
    assert upheld.belts[0] == 1 and upheld.turn == 1
    refused = act(disputed, 1, "witness", verdict="dispute")
    assert refused.phase == PERFORM and refused.belts[0] == 0 and refused.trick is not None
    assert refused.trick["tries"] == [2]


def test_a_dispute_by_an_interested_witness_is_final() -> None:
    state = draw(act(draw(stack(game(2, witness="on"), action("duel"), FLIP)), 0, "target", seat=1))
    state = act(report(state, 0, "landed"), 1, "witness", verdict="dispute")
    assert state.phase == PERFORM and ENGINE.to_act(state) == {1}, "a miss: the victim's try"


def test_a_bot_never_witnesses_a_persons_try_while_a_person_can() -> None:
    state = report(draw(stack(game(witness="on"), FLIP)), 0, "landed")
    assert ENGINE.bot_leaves_to_people(state, 2, frozenset({0, 1}))
    assert not ENGINE.bot_leaves_to_people(state, 2, frozenset({0})), "only bots can: the bot answers"
    assert not ENGINE.bot_leaves_to_people(state, 1, frozenset({1})), "a bot's own try: people decide"
    battle = act(draw(stack(game(witness="on"), BATTLE_CARD)), 0, "target", seat=1)
    assert battle.phase == BATTLE and not ENGINE.bot_leaves_to_people(battle, 1, frozenset({0, 2}))


# -- 7. Readings offered as room options -------------------------------------------------------------------
def test_duel_tries_follow_each_difficulty_by_default_and_three_each_as_printed_by_option() -> None:
    levels = ["extreme", "normal", "normal"]
    for option, tries in (("difficulty", [1, 3]), ("three", [3, 3])):
        state = game(levels=levels, duel_tries=option)
        state = draw(act(draw(stack(state, action("duel"), FLIP)), 0, "target", seat=1))
        assert state.trick is not None and state.trick["tries"] == tries


def test_immunity_on_a_darkness_trick_at_black_belt_is_refused_unless_the_table_allows_it() -> None:
    for allowed in (False, True):
        state = game(darkness_immunity=allowed)
        state.belts[1] = state.black
        state = keep(state, 1, "immunity")
        state = draw(act(draw(stack(state, action("darkness"))), 0, "impose", card=FLIP))
        assert ({"type": "immunity"} in ENGINE.legal_actions(state, 1)) is allowed
        spent = report(report(report(state, 1, "missed"), 1, "missed"), 1, "missed")
        assert (spent.phase == SPENT) is allowed
        if allowed:
            assert act(state, 1, "immunity").winner == 1
