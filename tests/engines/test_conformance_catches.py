"""The conformance checks fail on engines that break the shared decisions (they can fail)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from pydantic import Field

from engines.core import ActionWords, Options, Rng, Starter, conformance, seat_option, seat_widget
from tests.app.tiny_game import TinyEngine, TinyOptions, TinyState


class _NoSeatCheck(TinyEngine):
    def view(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        # Python's negative indexing hands seat -1 the last seat's hand.
        hand = [{"id": c, "value": c % 5} for c in state.hands[seat]] if seat is not None else []
        view = super().view(state, None)
        return {**view, "seat": seat, "hand": hand}


class _NoEnvelope(TinyEngine):
    def view(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        del view["players"]
        return view


class _SeqBackwards(TinyEngine):
    def view(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        view["events"] = [{**e, "seq": 100 - e["seq"]} for e in view["events"]]
        return view


class _HidesEvents(TinyEngine):
    def view(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        if seat is not None:
            view["events"] = [e for e in view["events"] if e["seat"] == seat]
        return view


def _state_with_events(engine: TinyEngine) -> TinyState:
    state = engine.setup(3, 1, engine.spec.parse_options({}))
    for _ in range(2):
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    return state


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        (_NoSeatCheck(), "was not refused"),
        (_NoEnvelope(), "lacks"),
        (_SeqBackwards(), "not increasing"),
        (_HidesEvents(), "different events"),
    ],
)
def test_check_views_catches(engine: TinyEngine, message: str) -> None:
    conformance.check_views(TinyEngine(), _state_with_events(TinyEngine()), 3)  # the honest one passes
    with pytest.raises(AssertionError, match=message):
        conformance.check_views(engine, _state_with_events(engine), 3)


def test_event_history_catches_a_rewritten_event() -> None:
    before = [{"seq": 1, "type": "play", "value": 2}]
    conformance.check_event_history(before, [*before, {"seq": 2, "type": "play", "value": 3}])
    with pytest.raises(AssertionError, match="changed"):
        conformance.check_event_history(before, [{"seq": 1, "type": "play", "value": 4}])
    with pytest.raises(AssertionError, match="went back"):
        conformance.check_event_history([{"seq": 5, "type": "x"}], [{"seq": 4, "type": "x"}])


class _StarterOptions(TinyOptions):
    starter: int | None = Field(0, ge=0, le=2, json_schema_extra=seat_widget(2))


_STARTER_SPEC = replace(
    TinyEngine.spec, options_model=_StarterOptions, starter=Starter("starter", "Who starts?")
)


class _SeatBlind(TinyEngine):
    """Accepts any starting seat, whoever sits there (it skips the shared `setup`'s seat check)."""

    spec = _STARTER_SPEC

    def setup(self, players: int, seed: int, options: Options) -> TinyState:
        return self.deal(players, Rng(seed), options, None)


class _SeatCrash(TinyEngine):
    """Looks the starting seat up without checking it."""

    spec = _STARTER_SPEC

    def setup(self, players: int, seed: int, options: Options) -> TinyState:
        assert isinstance(options, _StarterOptions)
        if options.starter is not None:
            _ = list(range(players))[options.starter]
        return super().setup(players, seed, options)


class _SeatChecked(TinyEngine):
    spec = _STARTER_SPEC

    def setup(self, players: int, seed: int, options: Options) -> TinyState:
        seat_option(options, "starter", players)
        return super().setup(players, seed, options)


def test_check_seat_options_catches_unchecked_and_crashing_seats() -> None:
    conformance.check_seat_options(_SeatChecked())
    with pytest.raises(AssertionError, match="was accepted"):
        conformance.check_seat_options(_SeatBlind())
    with pytest.raises(IndexError):
        conformance.check_seat_options(_SeatCrash())


def _tiny_saying(**action_words: ActionWords) -> TinyEngine:
    engine = TinyEngine()
    engine.spec = replace(TinyEngine.spec, action_words=action_words)
    return engine


def test_a_playout_catches_an_action_without_words_or_with_a_value_of_another_kind() -> None:
    conformance.random_playout(TinyEngine(), 2, 1)  # the honest one passes
    with pytest.raises(AssertionError, match="no action_words for 'play'"):
        conformance.random_playout(_tiny_saying(), 2, 1)
    as_seat = ActionWords(
        done="played {card}", otherwise="played a card", ask="play", params={"card": "text"}
    )
    with pytest.raises(AssertionError, match="is no text"):
        conformance.random_playout(_tiny_saying(play=as_seat), 2, 1)


def test_a_coded_value_without_its_words_is_caught() -> None:
    """A value a game's words have no words for would be said as its code ("confirm"): caught."""
    verdict = ActionWords(
        done="{verdict} as a witness",
        otherwise="answered",
        ask="answer",
        values={"verdict": {"confirm": "confirmed it"}},
    )
    spec = replace(TinyEngine.spec, action_words={"witness": verdict})
    conformance.check_words(spec, [{"type": "witness", "verdict": "confirm"}])
    with pytest.raises(AssertionError, match=r"no words for \{verdict\} = 'dispute'"):
        conformance.check_words(spec, [{"type": "witness", "verdict": "dispute"}])


def test_a_placeholder_no_action_fills_is_caught() -> None:
    actions = [a for _, a in conformance.random_playout(TinyEngine(), 2, 1).actions]
    conformance.check_placeholders_read(TinyEngine.spec, actions)
    typo = ActionWords(done="played {crad}", otherwise="played a card", ask="play a card")
    with pytest.raises(AssertionError, match=r"name \['crad'\]"):
        conformance.check_placeholders_read(_tiny_saying(play=typo).spec, actions)
