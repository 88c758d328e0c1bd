"""Checks every registered engine must pass, run over seeded random playouts."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from itertools import pairwise
from typing import Any, Self

from .bots import takes_optional_actions
from .errors import EngineError, InvalidOptions
from .protocol import Action, Engine, GameSpec, Options, is_listed
from .replay import replay as replay_match
from .takeback import SHOWED_YOU, why_not_reversible


@dataclass
class Playout:
    seed: int
    players: int
    options: Options
    actions: list[tuple[int, Action]]
    final: Any


def card_ids(view: Any) -> Iterator[int]:
    """Every card id in a view (card objects are the dicts with an "id" key)."""
    if isinstance(view, dict):
        if "id" in view:
            yield view["id"]
        for value in view.values():
            yield from card_ids(value)
    elif isinstance(view, list):
        for item in view:
            yield from card_ids(item)


def scramble(view: Any, top: bool = True) -> None:
    """Empty every list and object in `view`, innermost first; the logged events in the view's
    "events" list may be the state's own (they never change, and the server never edits a view),
    so only the list itself is emptied."""
    if isinstance(view, dict):
        for key, value in view.items():
            if top and key == "events" and isinstance(value, list):
                value.clear()
            else:
                scramble(value, top=False)
        view.clear()
    elif isinstance(view, list):
        for item in view:
            scramble(item, top=False)
        view.clear()


ENVELOPE = ("game", "seat", "players", "round", "events")


def check_envelope(
    engine: Engine[Any], state: Any, view: dict[str, Any], seat: int | None, players: int
) -> None:
    """The keys every view starts with, and the one event shape {"seq": int, "type": str, ...}."""
    missing = [k for k in ENVELOPE if k not in view]
    assert not missing, f"the view lacks {missing}"
    assert view["game"] == engine.spec.id, f"view game {view['game']!r} is not {engine.spec.id!r}"
    assert view["seat"] == seat and view["players"] == players
    assert type(view["round"]) is int and view["round"] == engine.round_number(state) >= 1
    events = view["events"]
    assert isinstance(events, list)
    for event in events:
        assert type(event.get("seq")) is int and event["seq"] >= 1, f"event without a seq: {event}"
        assert isinstance(event.get("type"), str) and event["type"], f"event without a type: {event}"
    seqs = [e["seq"] for e in events]
    assert all(a < b for a, b in pairwise(seqs)), f"event seqs not increasing: {seqs}"


def check_event_history(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> None:
    """Events seen by a viewer at two moments: numbers never go back, a logged event never changes."""
    if before and after:
        assert after[-1]["seq"] >= before[-1]["seq"], "the newest event seq went back"
    old = {e["seq"]: e for e in before}
    for event in after:
        if event["seq"] in old:
            assert old[event["seq"]] == event, f"event {event['seq']} changed after it was logged"


def check_views(engine: Engine[Any], state: Any, players: int) -> None:
    before = engine.dump(state)
    for outside in (-1, players, players + 7):
        # A seat out of range is refused: never a spectator view, never another seat's hand.
        try:
            engine.view(state, outside)
        except EngineError:
            pass
        else:
            raise AssertionError(f"view(state, {outside}) with {players} players was not refused")
    for seat in [*range(players), None]:
        view = engine.view(state, seat)
        assert json.loads(json.dumps(view)) == view, "a view must be plain JSON"
        check_envelope(engine, state, view, seat, players)
        leaked = set(card_ids(view)) & engine.hidden_ids(state, seat)
        assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)}"
        # A view must share no list or object with the state but its logged events, or an edit of
        # the view would rewrite the game.
        scramble(view)
        assert engine.dump(state) == before, f"editing seat {seat}'s view changed the state"
    # The fan-out builds the spectator's view once per move and only each seat's own keys: the two
    # together must be exactly the seat's view, and an own part shares nothing with the state either.
    public = engine.view(state, None)
    for seat in range(players):
        view = engine.view(state, seat)
        assert view.keys() == public.keys(), f"seat {seat}'s view has other keys than the spectator's"
        own = engine.own_view(state, seat, public)
        assert {**public, **own} == view, f"the public view and seat {seat}'s own part are not its view"
        scramble(own, top=True)
        assert engine.dump(state) == before, f"editing seat {seat}'s own part changed the state"
    scramble(public)
    assert engine.dump(state) == before, "editing the public view changed the state"
    # Every viewer sees the same stream of events: a view may redact an event's fields, never its
    # seq or type, and never leaves one out (the client counts new events by seq).
    streams = {
        seat: [(e["seq"], e["type"]) for e in engine.view(state, seat)["events"]]
        for seat in [*range(players), None]
    }
    assert all(s == streams[None] for s in streams.values()), f"viewers see different events: {streams}"


def seat_options(engine: Engine[Any]) -> list[str]:
    """Options naming a seat: the descriptor's starter and every option with the seat widget."""
    names = [engine.spec.starter.option] if engine.spec.starter is not None else []
    properties = engine.spec.options_schema().get("properties", {})
    names.extend(n for n, p in properties.items() if p.get("x-motable-widget") == "seat" and n not in names)
    return names


def check_seat_options(engine: Engine[Any], seed: int = 1) -> None:
    """Each seat option sets up with every seat at the table and with null (chosen from the seed),
    and a seat nobody sits in is refused with InvalidOptions, never another exception."""
    spec = engine.spec
    for name in seat_options(engine):
        for players in range(spec.min_players, spec.max_players + 1):
            for seat in [*range(players), None]:
                state = engine.setup(players, seed, spec.parse_options({name: seat}))
                again = engine.setup(players, seed, spec.parse_options({name: seat}))
                assert engine.dump(state) == engine.dump(again), f"{name}={seat}: the seed must decide"
            for seat in (players, spec.max_players, spec.max_players + 1, -1):
                try:
                    engine.setup(players, seed, spec.parse_options({name: seat}))
                except InvalidOptions as error:
                    assert error.code == "invalid_request"
                else:
                    raise AssertionError(f"{name}={seat} with {players} players was accepted")


def illegal_probes(engine: Engine[Any], state: Any, seat: int, players: int) -> list[tuple[int, Any]]:
    """Actions that must be refused now, with the seat that tries them."""
    probes: list[tuple[int, Any]] = [
        (seat, {"type": "no_such_action"}),
        (seat, "not an object"),
        (seat, {"no": "type"}),
    ]
    idle = [s for s in range(players) if s not in engine.to_act(state)]
    legal = engine.legal_actions(state, seat)
    if idle and legal and legal[0] not in engine.legal_actions(state, idle[0]):
        probes.append((idle[0], legal[0]))
    return probes


def optional_moves(engine: Engine[Any], state: Any, players: int) -> list[tuple[int, Action]]:
    """Actions of seats the game is not waiting for (optional, out of turn)."""
    acting = engine.to_act(state)
    return [(s, a) for s in range(players) if s not in acting for a in engine.legal_actions(state, s)]


# What each kind of placeholder reads from an action: a seat, a card id and a place are integers.
_WORD_VALUES: dict[str, type] = {"card": int, "seat": int, "position": int, "text": str}


def check_words(spec: GameSpec, actions: list[Action]) -> None:
    """Every action a seat may take has words on the descriptor (`spec.action_words`, how the log,
    "Since you left" and "Your games" say it), and each placeholder of those words that the action
    fills reads a value of its kind (a missing key is said by `otherwise`), one its `values` word
    if it has them."""
    for action in actions:
        words = spec.action_words.get(action["type"])
        assert words is not None, f"{spec.id}: no action_words for {action['type']!r} ({action})"
        for name, kind in words.params.items():
            value = action.get(name)
            if value is not None:
                assert type(value) is _WORD_VALUES[kind], f"{spec.id}: {{{name}}} of {action} is no {kind}"
            table = words.values.get(name)
            if table is not None and value is not None:
                assert value in table, f"{spec.id}: no words for {{{name}}} = {value!r} of {action}"


def check_placeholders_read(spec: GameSpec, actions: list[Action]) -> None:
    """Each placeholder of the words of the types among `actions` (a whole match's, say) is filled
    by one of them at least: a name no action carries is a typo, and would always say `otherwise`."""
    carried: dict[str, set[str]] = {}
    for action in actions:
        carried.setdefault(action["type"], set()).update(action)
    for kind, keys in carried.items():
        words = spec.action_words.get(kind)
        unread = sorted(set(words.params) - keys) if words is not None else []
        assert not unread, f"{spec.id}: the words of {kind!r} name {unread}, which no {kind!r} action has"


def check_waiting(engine: Engine[Any], state: Any, players: int) -> None:
    """The game waits only on to_act seats, each of which can act; over <=> nobody to wait for."""
    acting = engine.to_act(state)
    assert (not acting) == (engine.result(state) is not None), "to_act empty <=> result"
    assert acting <= set(range(players)), f"to_act {sorted(acting)} names no seat"
    for s in acting:
        assert engine.legal_actions(state, s), f"seat {s} must act but has no legal action"
    if not acting:
        assert not optional_moves(engine, state, players), "an optional action after the end"


def random_playout(
    engine: Engine[Any],
    players: int,
    seed: int,
    options: Options | None = None,
    *,
    max_actions: int = 20_000,
    check_every_step: bool = False,
    optional: float = 0.25,
) -> Playout:
    """Play random legal actions to the end, checking invariants on the way.

    When some seat outside to_act has optional actions, one of them is taken
    with probability `optional` (0: they are never taken, and the game must
    still reach its end without them)."""
    options = options if options is not None else engine.spec.parse_options({})
    state = engine.setup(players, seed, options)
    rng = random.Random(seed)
    log: list[tuple[int, Action]] = []
    seen: list[dict[str, Any]] = []  # the events a spectator saw before the last action
    for step in range(max_actions):
        acting = engine.to_act(state)
        check_waiting(engine, state, players)
        now = engine.view(state, None)["events"]
        check_event_history(seen, now)
        seen = now
        if check_every_step or step % 7 == 0:
            check_views(engine, state, players)
            assert engine.load(json.loads(json.dumps(engine.dump(state)))) == state
        if not acting:
            return Playout(seed, players, options, log, state)
        extra = optional_moves(engine, state, players)
        check_words(engine.spec, [a for _, a in extra])
        if extra and rng.random() < optional:
            seat, action = rng.choice(extra)
            state = engine.apply(state, seat, action)
            log.append((seat, action))
            continue
        seat = rng.choice(sorted(acting))
        legal = engine.legal_actions(state, seat)
        check_words(engine.spec, legal)
        if step % 11 == 0:
            before = engine.dump(state)
            for who, bad in illegal_probes(engine, state, seat, players):
                try:
                    engine.apply(state, who, bad)
                except EngineError:
                    pass
                else:
                    raise AssertionError(f"{bad!r} by seat {who} was accepted")
                assert engine.dump(state) == before, "a refused action changed the state"
        action = rng.choice(legal)
        state = engine.apply(state, seat, action)
        log.append((seat, action))
    raise AssertionError(f"no end after {max_actions} actions (seed {seed})")


def replay(engine: Engine[Any], playout: Playout) -> Any:
    return replay_match(engine, playout.players, playout.seed, playout.options, playout.actions)


# -- bots -------------------------------------------------------------------------------


def option_grid(engine: Engine[Any]) -> list[dict[str, Any]]:
    """A small grid of option combinations: both values of every switch, every listed choice,
    and each seat option both at its default and null (chosen from the seed)."""
    properties = engine.spec.options_schema().get("properties", {})
    seats = set(seat_options(engine))
    axes: list[list[tuple[str, Any]]] = []
    for name, prop in properties.items():
        if prop.get("type") == "boolean":
            axes.append([(name, False), (name, True)])
        elif "enum" in prop:
            axes.append([(name, value) for value in prop["enum"]])
        elif name in seats:
            axes.append([(name, prop.get("default", 0)), (name, None)])
    return [dict(combo) for combo in itertools.product(*axes)]


def action_kinds(engine: Engine[Any], state: Any) -> frozenset[str]:
    """What can be done now (the types of the legal actions of every seat that may act): the
    engine-independent stand-in for a game's phase."""
    return frozenset(a["type"] for seat in engine.to_act(state) for a in engine.legal_actions(state, seat))


def sample_positions(
    engine: Engine[Any],
    players: int,
    seed: int,
    options: Options,
    *,
    per_kind: int = 2,
    rate: float = 0.02,
    max_actions: int = 20_000,
) -> list[Any]:
    """Positions of one random match played to its end: the first `per_kind` positions of each
    kind of decision (so every phase is met), plus each other position with probability `rate`."""
    rng = random.Random(seed)
    state = engine.setup(players, seed, options)
    seen: dict[frozenset[str], int] = {}
    positions: list[Any] = []
    for _ in range(max_actions):
        acting = engine.to_act(state)
        if not acting:
            return positions
        kinds = action_kinds(engine, state)
        if seen.get(kinds, 0) < per_kind or rng.random() < rate:
            seen[kinds] = seen.get(kinds, 0) + 1
            positions.append(state)
        seat = rng.choice(sorted(acting))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    raise AssertionError(f"no end after {max_actions} actions (seed {seed})")


def check_bots_at(engine: Engine[Any], bots: dict[str, Any], state: Any, seed: int) -> int:
    """Every bot decides for every seat that may act: no exception, a legal action, the state
    left as it was. Returns the number of decisions checked."""
    decisions = 0
    before = engine.dump(state)
    for seat in sorted(engine.to_act(state)):
        legal = engine.legal_actions(state, seat)
        for name, bot_class in bots.items():
            where = f"{engine.spec.id} bot {name!r}, seat {seat}, seed {seed}"
            try:
                action = bot_class(engine, seed).choose(state, seat)
            except Exception as error:
                raise AssertionError(f"{where} raised {error!r}") from error
            assert is_listed(action, legal), f"{where} chose {action!r}"
            assert engine.dump(state) == before, f"{where} changed the state it was shown"
            decisions += 1
    return decisions


def bot_runs(engine: Engine[Any]) -> list[tuple[int, dict[str, Any]]]:
    """(players, options) pairs that meet every player count and every combination of the grid."""
    counts = list(range(engine.spec.min_players, engine.spec.max_players + 1))
    grid = option_grid(engine)
    return [(counts[i % len(counts)], grid[i % len(grid)]) for i in range(max(len(counts), len(grid)))]


def check_every_bot(engine: Engine[Any], bots: dict[str, Any], seed: int = 0) -> tuple[int, int]:
    """Every bot at positions sampled across whole random matches of `bot_runs`; returns
    (positions, decisions) checked."""
    positions = decisions = 0
    for run, (players, raw) in enumerate(bot_runs(engine)):
        match_seed = seed * 1000 + run
        for state in sample_positions(engine, players, match_seed, engine.spec.parse_options(raw)):
            positions += 1
            decisions += check_bots_at(engine, bots, state, match_seed)
    return positions, decisions


# -- resample: what a seat may not see, dealt again ------------------------------------------------


class Tally:
    """A check's report that adds up over runs (several seeds): numbers add, lists join, and a dict's
    values add key by key."""

    def absorb(self, other: Self) -> None:
        # Every Tally is a dataclass (mypy cannot know it of a mixin).
        for name in (f.name for f in fields(self)):  # type: ignore[arg-type]
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, dict):
                for key, value in theirs.items():
                    mine[key] = mine[key] + value if key in mine else value
            else:
                setattr(self, name, mine + theirs)


@dataclass
class ResampleReport(Tally):
    """What `check_resample` went through: positions, (position, seat) re-deals, the re-deals
    that changed the state at all (`differ`) and those that changed another viewer's view
    (`moved`: a card hidden from the seat but seen by someone else went elsewhere), and per bot
    the decisions compared and the ones that changed after a re-deal (each described)."""

    positions: int = 0
    resamples: int = 0
    differ: int = 0
    moved: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    changed: dict[str, list[str]] = field(default_factory=dict)


def check_resampled(
    engine: Engine[Any], state: Any, seat: int, seed: int, *, play_on: int = 20
) -> tuple[Any, bool]:
    """`engine.resample(state, seat, Random(seed))` is pure and deterministic, and gives a position
    `seat` cannot tell from `state` (same view, same legal actions, same public facts, the same
    cards) that round-trips through dump/load and, unless `play_on` is 0, is itself sound: its
    views leak nothing and random play goes on from it for `play_on` actions. Returns the re-dealt
    state and whether any other seat's view changed (some hidden card moved)."""
    players = engine.view(state, None)["players"]
    before = engine.dump(state)
    again = engine.resample(state, seat, random.Random(seed))
    other = engine.resample(state, seat, random.Random(seed))
    where = f"{engine.spec.id} resample for seat {seat} (seed {seed})"
    assert engine.dump(state) == before, f"{where} edited the state it was given"
    assert again is not state, f"{where} returned the state itself"
    assert engine.dump(again) == engine.dump(other), f"{where}: the same rng gave different states"
    assert engine.view(again, seat) == engine.view(state, seat), f"{where}: the seat can tell them apart"
    assert engine.legal_actions(again, seat) == engine.legal_actions(state, seat), f"{where}: other moves"
    assert engine.to_act(again) == engine.to_act(state), f"{where}: someone else to act"
    assert engine.scorepad(again).to_json() == engine.scorepad(state).to_json(), f"{where}: other scores"
    assert engine.round_number(again) == engine.round_number(state), f"{where}: another round"
    assert engine.view(again, None) == engine.view(state, None), f"{where}: a spectator can tell them apart"
    moved = False
    for viewer in [*range(players), None]:
        hidden = engine.hidden_ids(again, viewer)
        if viewer in (seat, None):
            assert hidden == engine.hidden_ids(state, viewer), f"{where}: other cards hidden from {viewer}"
        cards = set(card_ids(engine.view(again, viewer))) | hidden
        assert cards == set(card_ids(engine.view(state, viewer))) | engine.hidden_ids(state, viewer), (
            f"{where}: cards invented or dropped (as seat {viewer} counts them)"
        )
        moved = moved or engine.view(again, viewer) != engine.view(state, viewer)
    restored = engine.load(json.loads(json.dumps(engine.dump(again))))
    assert engine.dump(restored) == engine.dump(again), f"{where}: the state does not round-trip"
    if play_on:
        check_views(engine, again, players)
    rng = random.Random(seed)
    position = again
    for _ in range(play_on):
        check_waiting(engine, position, players)
        acting = engine.to_act(position)
        if not acting:
            break
        mover = rng.choice(sorted(acting))
        position = engine.apply(position, mover, rng.choice(engine.legal_actions(position, mover)))
    return again, moved


def check_resample(
    engine: Engine[Any],
    bots: dict[str, Any],
    seed: int = 0,
    *,
    per_kind: int = 2,
    rate: float = 0.02,
    runs: int | None = None,
    play_on: int = 20,
) -> ResampleReport:
    """Over positions sampled across whole random matches of `bot_runs` (every phase, every player
    count, the option grid; the first `runs` of them when given): every seat's re-deal passes
    `check_resampled`, and every bot of `bots`, built with the same seed, chooses the same for
    each acting seat in the real position and in its re-deal (each shown a deep copy), and a bot
    that takes optional actions offers the same `optional` one to every other seat that has some.
    A bot that reads what its seat may not see, or lets a floating-point tie or an iteration order
    decide, shows up in `changed`; the caller asserts it is empty."""
    report = ResampleReport(decisions={name: 0 for name in bots}, changed={name: [] for name in bots})
    chosen_runs = bot_runs(engine)[:runs] if runs is not None else bot_runs(engine)
    for run, (players, raw) in enumerate(chosen_runs):
        match_seed = seed * 1000 + run
        options = engine.spec.parse_options(raw)
        positions = sample_positions(engine, players, match_seed, options, per_kind=per_kind, rate=rate)
        for number, state in enumerate(positions):
            report.positions += 1
            acting = engine.to_act(state)
            for seat in range(players):
                resample_seed = (match_seed * 10_000 + number) * 16 + seat
                again, moved = check_resampled(engine, state, seat, resample_seed, play_on=play_on)
                report.resamples += 1
                report.differ += engine.dump(again) != engine.dump(state)
                report.moved += moved
                legal = engine.legal_actions(state, seat)
                if seat not in acting and not legal:
                    continue
                for name, bot_class in bots.items():
                    if seat in acting:
                        ask = "choose"
                    elif takes_optional_actions(bot_class):
                        ask = "optional"  # a seat outside to_act with optional actions
                    else:
                        continue
                    real = getattr(bot_class(engine, match_seed), ask)(copy.deepcopy(state), seat)
                    dealt = getattr(bot_class(engine, match_seed), ask)(copy.deepcopy(again), seat)
                    report.decisions[name] += 1
                    fine = is_listed(dealt, legal) or (ask == "optional" and dealt is None)
                    if real != dealt or not fine:
                        report.changed[name].append(
                            f"{engine.spec.id} bot {name!r}, {players} players {raw}, match seed"
                            f" {match_seed}, position {number}, seat {seat}, {ask}: {real} became {dealt}"
                        )
    return report


# -- foreseeable: a move whose outcome the mover could tell in advance ------------------------------


@dataclass
class ForeseeableReport(Tally):
    """What `check_foreseeable` went through: the moves of whole random matches, those the engine
    called foreseeable, and the re-deals each of those was replayed on."""

    moves: int = 0
    foreseeable: int = 0
    resamples: int = 0


@dataclass(frozen=True)
class RandomMove:
    """One move of a whole random match (`random_moves`): where it was, the state before and after,
    and the match's random source (a check that draws from it keeps the match repeatable)."""

    where: str
    players: int
    match_seed: int
    rng: random.Random
    state: Any
    seat: int
    action: Action
    after: Any


def random_moves(engine: Engine[Any], seed: int, runs: int | None) -> Iterator[RandomMove]:
    """Every move of whole random matches of `bot_runs` (every player count, the option grid; the
    first `runs` of them when given), out-of-turn actions taken a quarter of the time they are open."""
    chosen = bot_runs(engine)[:runs] if runs is not None else bot_runs(engine)
    number = 0
    for run, (players, raw) in enumerate(chosen):
        match_seed = seed * 1000 + run
        rng = random.Random(match_seed)
        state = engine.setup(players, match_seed, engine.spec.parse_options(raw))
        while engine.to_act(state):
            extra = optional_moves(engine, state, players)
            if extra and rng.random() < 0.25:
                seat, action = rng.choice(extra)
            else:
                seat = rng.choice(sorted(engine.to_act(state)))
                action = rng.choice(engine.legal_actions(state, seat))
            after = engine.apply(state, seat, action)
            number += 1
            where = f"{engine.spec.id} {players} players {raw}, seed {match_seed}, move {number}"
            yield RandomMove(where, players, match_seed, rng, state, seat, action, after)
            state = after


def check_foreseeable(
    engine: Engine[Any], seed: int = 0, *, resamples: int = 6, runs: int | None = None
) -> ForeseeableReport:
    """Over every move of whole random matches (`random_moves`), each move the engine calls
    foreseeable (`Engine.foreseeable`) is replayed on `resamples` re-deals of the mover's seat: each
    must accept it and show the mover and a spectator the same views after as the real move does."""
    report = ForeseeableReport()
    for move in random_moves(engine, seed, runs):
        state, seat, action, after = move.state, move.seat, move.action, move.after
        report.moves += 1
        if not engine.foreseeable(state, seat, action, after):
            continue
        report.foreseeable += 1
        seen = {viewer: engine.view(after, viewer) for viewer in (seat, None)}
        where = f"{move.where}: {action!r} by seat {seat} was called foreseeable"
        for _ in range(resamples):
            other = engine.resample(state, seat, move.rng)
            try:
                other_after = engine.apply(other, seat, action)
            except EngineError as error:
                raise AssertionError(f"{where}, but a re-deal refuses it ({error})") from error
            for viewer, view in seen.items():
                assert engine.view(other_after, viewer) == view, (
                    f"{where}, but on a re-deal {'a spectator' if viewer is None else 'its seat'}"
                    " sees another outcome"
                )
            report.resamples += 1
    return report


# -- what a move showed: moves the takeback may answer without its reveal test ------------------------


@dataclass
class RevealHooksReport(Tally):
    """What `check_reveal_hooks` went through: the moves of whole random matches, and those the engine
    said showed nothing (`Engine.shows_nothing`) or showed the mover a card
    (`Engine.shows_the_mover_a_card`), each confirmed by the reveal test."""

    moves: int = 0
    shows_nothing: int = 0
    shows_the_mover: int = 0


def check_reveal_hooks(engine: Engine[Any], seed: int = 0, *, runs: int | None = None) -> RevealHooksReport:
    """Over every move of whole random matches (`random_moves`), the takeback's whole reveal test
    (cards and re-deals, run without the game's word: engines/core/takeback.py) must pass every move
    the engine says showed nothing, and refuse every move it says showed the mover a card with the
    words `SHOWED_YOU`."""
    report = RevealHooksReport()
    for move in random_moves(engine, seed, runs):
        report.moves += 1
        state, seat, action, after = move.state, move.seat, move.action, move.after
        nothing = engine.shows_nothing(state, seat, action, after)
        to_mover = engine.shows_the_mover_a_card(state, seat, action, after)
        if not nothing and not to_mover:
            continue
        where = f"{move.where}: {action!r} by seat {seat}"
        assert not (nothing and to_mover), f"{where} was said to show nothing and to show the mover a card"
        why = why_not_reversible(
            engine,
            state,
            seat,
            action,
            after,
            move.players,
            move.match_seed + report.moves,
            trust_engine=False,
        )
        if nothing:
            assert why is None, f"{where} was said to show nothing, but the reveal test says {why}"
            report.shows_nothing += 1
        else:
            assert why == SHOWED_YOU, (
                f"{where} was said to show the mover a card, but the reveal test says {why}"
            )
            report.shows_the_mover += 1
    return report
