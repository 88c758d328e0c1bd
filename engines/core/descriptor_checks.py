"""Checks that a game's descriptor (its GameSpec) tells the truth about the engine, run over seeded
random playouts: what it hides, its open table, its goal, its standing and its winner rule.

The client acts on these facts alone (docs/client.md): a table handed round one device uncovered,
the goal drawn on the side panel, the leader marked. A fact that does not match the engine would
show a seat's cards to the next player or mark the wrong leader, so the conformance suite checks
them like any other invariant.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .conformance import card_ids, optional_moves
from .protocol import Engine, GameSpec, Options


@dataclass
class Seen:
    """What the playouts met: whether any view hid a card, and how the matches ended."""

    hid_something: bool = False
    states: int = 0
    finished: int = 0


def goal_of(spec: GameSpec, view: dict[str, Any]) -> int | None:
    """The goal a view carries, as the descriptor says where (None: the game has no goal)."""
    if spec.goal is None:
        return None
    value = view.get(spec.goal.view_key)
    assert type(value) is int and value >= 1, f"{spec.id}: view[{spec.goal.view_key!r}] is {value!r}"
    return value


def standing_of(spec: GameSpec, view: dict[str, Any], players: int) -> list[int] | None:
    """Each seat's standing a view carries, as the descriptor says where (None: the score pad's)."""
    if spec.standing is None:
        return None
    read = spec.standing.read(view)
    where = f"view[{spec.standing.view_key!r}]" + (f"[*][{spec.standing.key!r}]" if spec.standing.key else "")
    assert read is not None and len(read) == players, (
        f"{spec.id}: {where} is not one entry per seat: {read!r}"
    )
    assert all(type(v) is int for v in read), f"{spec.id}: {where} holds {read!r}, not integers"
    return [int(v) for v in read]


def check_state(engine: Engine[Any], state: Any, players: int, options: Options, seen: Seen) -> None:
    """The descriptor's facts at one position, for every seat and a spectator."""
    spec = engine.spec
    viewers: list[int | None] = [*range(players), None]
    views = {seat: engine.view(state, seat) for seat in viewers}
    hidden = {seat: engine.hidden_ids(state, seat) for seat in viewers}
    seen.states += 1
    if any(hidden.values()):
        seen.hid_something = True
    if not spec.hides_information:
        # Hiding nothing: no card is hidden from anyone, and so every seat sees what a spectator sees.
        assert not any(hidden.values()), f"{spec.id} says it hides nothing, yet hides {hidden}"
        spectator = {k: v for k, v in views[None].items() if k != "seat"}
        for seat in range(players):
            mine = {k: v for k, v in views[seat].items() if k != "seat"}
            assert mine == spectator, f"{spec.id} says it hides nothing, yet seat {seat} sees another view"
    if spec.open_table:
        # Handed round one device uncovered: a seat may see more than a spectator only while it
        # is to act (it holds the device then); once its turn is over, its table shows nothing private.
        acting = engine.to_act(state)
        for seat in range(players):
            if seat not in acting:
                private = (hidden[None] - hidden[seat]) & set(card_ids(views[seat]))
                assert hidden[seat] == hidden[None], (
                    f"{spec.id} says its table is open, yet seat {seat} (not to act) sees "
                    f"{sorted(private) or 'cards'} a spectator may not"
                )
    goals = {seat: goal_of(spec, view) for seat, view in views.items()}
    assert len(set(goals.values())) == 1, f"{spec.id}: viewers see different goals {goals}"
    goal = goals[None]
    if spec.goal is not None and spec.goal.option is not None:
        chosen = getattr(options, spec.goal.option)
        assert goal == chosen, (
            f"{spec.id}: the goal in the view is {goal}, the option {spec.goal.option} {chosen}"
        )
    standings = {seat: standing_of(spec, view, players) for seat, view in views.items()}
    assert all(s == standings[None] for s in standings.values()), f"{spec.id}: standings differ {standings}"
    result = engine.result(state)
    if result is None:
        return
    seen.finished += 1
    live = standings[None]
    totals = live if live is not None else engine.scorepad(state).totals
    winners = set(result.winners)
    assert winners, f"{spec.id}: a finished match without a winner"
    if spec.winner == "lowest_total":
        best = min(result.scores)
        assert all(result.scores[s] == best for s in winners), f"{spec.id}: {result} is not lowest_total"
    elif spec.winner == "highest_total":
        best = max(result.scores)
        assert all(result.scores[s] == best for s in winners), f"{spec.id}: {result} is not highest_total"
    if goal is not None and spec.goal is not None:
        if spec.goal.reaching == "wins":
            assert all(totals[s] >= goal for s in winners), (
                f"{spec.id}: winners {winners} short of {goal}: {totals}"
            )
        else:
            assert max(totals) >= goal, f"{spec.id}: the match ended with no total at {goal}: {totals}"


def check_descriptor(
    engine: Engine[Any],
    players: int,
    seed: int,
    options: Options | None = None,
    seen: Seen | None = None,
    *,
    max_actions: int = 20_000,
    every: int = 1,
) -> Seen:
    """Play one random match (optional actions taken now and then), checking the descriptor's facts
    at every `every`-th position and at the end. Returns what was seen (pass `seen` to add up)."""
    options = options if options is not None else engine.spec.parse_options({})
    seen = seen if seen is not None else Seen()
    rng = random.Random(seed)
    state = engine.setup(players, seed, options)
    for step in range(max_actions):
        acting = engine.to_act(state)
        if not acting or step % every == 0:
            check_state(engine, state, players, options, seen)
        if not acting:
            return seen
        extra = optional_moves(engine, state, players)
        if extra and rng.random() < 0.25:
            seat, action = rng.choice(extra)
        else:
            seat = rng.choice(sorted(acting))
            action = rng.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)
    raise AssertionError(f"{engine.spec.id}: no end after {max_actions} actions (seed {seed})")


def check_hiding(engine: Engine[Any], seen: Seen) -> None:
    """After the playouts: a game that says it hides information did hide a card at some point."""
    if engine.spec.hides_information:
        assert seen.hid_something, (
            f"{engine.spec.id} says it hides information, but no view hid a card in {seen.states} positions"
        )
