"""Every fact of a game is on its descriptor, and the descriptor tells the truth: what the game
hides (and whether its table may go round one device uncovered), its bots, its goal, its standing
and its winner rule, checked over random playouts of every registered game and the test games."""

from __future__ import annotations

import dataclasses
import json
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from engines.core import (
    Action,
    GameSpec,
    Goal,
    OptionalActionBot,
    RandomBot,
    Standing,
    descriptor_checks,
    game_ids,
    get_bots,
    get_engine,
    register,
    takes_optional_actions,
    unregister,
)
from engines.core.protocol import Options
from tests.app import bells_game, tiny_game

PLAYOUTS = 12
TEST_GAMES = {"tiny": "tests.app.tiny_game", "bells": "tests.app.bells_game"}


@pytest.fixture(scope="module", autouse=True)
def test_games() -> Iterator[None]:
    for game_id, module in TEST_GAMES.items():
        register(game_id, module)
    yield
    for game_id in TEST_GAMES:
        unregister(game_id)


def every_game() -> list[str]:
    return [*game_ids(), *(g for g in TEST_GAMES if g not in game_ids())]


def play(game: str, playouts: int = PLAYOUTS) -> descriptor_checks.Seen:
    engine = get_engine(game)
    counts = list(range(engine.spec.min_players, engine.spec.max_players + 1))
    seen = descriptor_checks.Seen()
    for seed in range(playouts):
        descriptor_checks.check_descriptor(engine, counts[seed % len(counts)], seed, seen=seen)
    descriptor_checks.check_hiding(engine, seen)
    return seen


@pytest.mark.parametrize("game", every_game())
def test_the_descriptor_tells_the_truth_over_random_playouts(game: str) -> None:
    seen = play(game)
    assert seen.finished == PLAYOUTS and seen.states > PLAYOUTS


@pytest.mark.parametrize("game", every_game())
def test_the_descriptor_is_json_and_names_bots_of_the_game(game: str) -> None:
    spec = get_engine(game).spec
    described = spec.describe()
    assert json.loads(json.dumps(described)) == described
    for key in (
        "hides_information",
        "open_table",
        "default_bot",
        "fallback_bot",
        "goal",
        "standing",
        "winner",
    ):
        assert key in described, key
    assert type(described["open_table"]) is bool
    bots = get_bots(game)
    assert spec.default_bot in bots and spec.fallback_bot in bots


def test_the_built_in_games_say_what_they_hide() -> None:
    facts = {g: (get_engine(g).spec.hides_information, get_engine(g).spec.open_table) for g in game_ids()}
    assert facts["mojo"] == facts["moby-trick"] == facts["mooki-island"] == (True, False)
    # Mokuru's decks are face down, but only the seat to act ever sees more than a spectator.
    assert facts["mokuru"] == (True, True)
    assert get_engine("bells").spec.hides_information is False and get_engine("bells").spec.open_table is True


# -- the checks catch a descriptor that lies ------------------------------------------------------


def lie(monkeypatch: pytest.MonkeyPatch, game: str, **facts: Any) -> None:
    engine = get_engine(game)
    monkeypatch.setattr(type(engine), "spec", dataclasses.replace(engine.spec, **facts))


def test_a_game_that_hides_cards_cannot_say_it_hides_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    lie(monkeypatch, "mojo", hides_information=False, open_table=True)
    with pytest.raises(AssertionError, match="says it hides nothing"):
        play("mojo", 2)


def test_a_game_that_hides_nothing_cannot_say_it_hides_something(monkeypatch: pytest.MonkeyPatch) -> None:
    lie(monkeypatch, "bells", hides_information=True, open_table=False)
    with pytest.raises(AssertionError, match="no view hid a card"):
        play("bells", 2)


def test_a_game_with_hands_cannot_say_its_table_is_open(monkeypatch: pytest.MonkeyPatch) -> None:
    lie(monkeypatch, "tiny", open_table=True)
    with pytest.raises(AssertionError, match="says its table is open"):
        play("tiny", 2)


def test_a_goal_must_be_in_the_view_and_mean_what_it_says(monkeypatch: pytest.MonkeyPatch) -> None:
    lie(monkeypatch, "mojo", goal=Goal(view_key="goal", reaching="ends_game"))
    with pytest.raises(AssertionError, match=r"view\['goal'\]"):
        play("mojo", 1)
    # Mojo's lowest total wins: reaching the target does not win.
    lie(monkeypatch, "mojo", goal=Goal(view_key="target", reaching="wins", option="target"))
    with pytest.raises(AssertionError, match="short of"):
        play("mojo", 3)


def test_a_standing_must_be_one_number_per_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    lie(monkeypatch, "mokuru", standing=Standing(view_key="seats", key="belt_name"))
    with pytest.raises(AssertionError, match="not integers"):
        play("mokuru", 1)
    lie(monkeypatch, "tiny", standing=Standing(view_key="hand_counts"))
    play("tiny", 2)  # one count per seat: a well-formed standing
    lie(monkeypatch, "tiny", standing=Standing(view_key="played"))
    with pytest.raises(AssertionError, match=r"one entry per seat|not integers"):
        play("tiny", 1)


def test_the_winner_rule_must_match_the_results(monkeypatch: pytest.MonkeyPatch) -> None:
    lie(monkeypatch, "moby-trick", winner="lowest_total")
    with pytest.raises(AssertionError, match="not lowest_total"):
        play("moby-trick", 2)


def test_the_descriptor_refuses_facts_that_contradict_each_other() -> None:
    with pytest.raises(ValueError, match="hides nothing"):
        GameSpec("x", "X", 2, 4, Options, hides_information=False, open_table=False)
    with pytest.raises(ValueError, match="goal option"):
        GameSpec("x", "X", 2, 4, Options, goal=Goal(view_key="target", reaching="wins", option="target"))
    with pytest.raises(ValueError, match="reaching"):
        GameSpec("x", "X", 2, 4, Options, goal=Goal(view_key="t", reaching="arrives"))  # type: ignore[arg-type]
    # Unsaid, the table is open exactly when nothing is hidden.
    assert GameSpec("x", "X", 2, 4, Options).open_table is False
    assert GameSpec("x", "X", 2, 4, Options, hides_information=False).open_table is True


# -- bots: named by the descriptor, checked when the game loads -------------------------------------


def fake_game(monkeypatch: pytest.MonkeyPatch, bots: dict[str, Any], **facts: Any) -> str:
    """A module `tests.fake_game` playing "fake": the tiny game with other facts and bots."""
    spec = dataclasses.replace(tiny_game.TinyEngine.spec, id="fake", **facts)
    engine_class = type("FakeEngine", (tiny_game.TinyEngine,), {"spec": spec})
    module = types.ModuleType("tests.fake_game")
    module.ENGINE = engine_class()  # type: ignore[attr-defined]
    module.BOTS = bots  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tests.fake_game", module)
    register("fake", "tests.fake_game")
    return "fake"


def test_the_default_and_fallback_bots_are_bots_of_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        fake_game(monkeypatch, {"random": RandomBot}, default_bot="strong")
        with pytest.raises(ValueError, match="default_bot 'strong' is not one of its BOTS"):
            get_engine("fake")
    finally:
        unregister("fake")
    try:
        fake_game(monkeypatch, {"steady": RandomBot}, default_bot="steady")
        with pytest.raises(ValueError, match="fallback_bot 'random'"):
            get_engine("fake")
    finally:
        unregister("fake")
    try:
        # No "random" needed: the descriptor names the bots the server seats.
        fake_game(monkeypatch, {"steady": RandomBot}, default_bot="steady", fallback_bot="steady")
        assert get_engine("fake").spec.default_bot == "steady"
    finally:
        unregister("fake")
    try:
        fake_game(monkeypatch, {"random": RandomBot, "broken": object()})
        with pytest.raises(TypeError, match="bot class"):
            get_engine("fake")
    finally:
        unregister("fake")


class _Base(RandomBot):
    pass


class _Optional(RandomBot):
    def optional(self, state: Any, seat: int) -> Action | None:
        return None


class _WithDefaults(RandomBot):
    def optional(self, state: Any, seat: int, depth: int = 1) -> Action | None:
        return None


class _Attribute(RandomBot):
    optional = None


class _WrongShape(RandomBot):
    def optional(self, state: Any) -> Action | None:
        return None


def test_bots_that_take_optional_actions_implement_the_protocol() -> None:
    from engines.mokuru.bots import RivalBot

    assert takes_optional_actions(_Optional) and takes_optional_actions(_WithDefaults)
    assert takes_optional_actions(RivalBot) and takes_optional_actions(bells_game.BellBot)
    assert isinstance(_Optional(get_engine("tiny")), OptionalActionBot)
    # Merely having something called `optional` is not enough: it must be optional(state, seat).
    for bot in (_Base, RandomBot, _Attribute, _WrongShape, None, "strong"):
        assert not takes_optional_actions(bot), bot
    assert not isinstance(RandomBot(get_engine("tiny")), OptionalActionBot)
