"""The registry's public API and the game descriptor it hands out."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from engines.core import (
    ActionWords,
    GameSpec,
    Options,
    Starter,
    game_ids,
    get_bots,
    get_engine,
    register,
    unregister,
)
from engines.core.registry import parse_games, register_from_env


@pytest.fixture
def tiny() -> Iterator[str]:
    register("tiny", "tests.app.tiny_game")
    yield "tiny"
    if "tiny" in game_ids():
        unregister("tiny")


def test_built_in_games_are_registered_in_order() -> None:
    assert game_ids()[:2] == ["mojo", "moby-trick"]


def test_register_and_unregister_a_game(tiny: str) -> None:
    assert tiny in game_ids()
    assert get_engine(tiny).spec.title == "Tiny"
    assert set(get_bots(tiny)) == {"random"}
    register(tiny, "tests.app.tiny_game")  # the same pair again changes nothing
    assert game_ids().count(tiny) == 1
    unregister(tiny)
    assert tiny not in game_ids()
    with pytest.raises(KeyError):
        get_engine(tiny)
    with pytest.raises(KeyError):
        unregister(tiny)


def test_register_refuses_bad_ids_modules_and_clashes(tiny: str) -> None:
    for bad_id in ("Tiny", "", "a/b", "../x", "x" * 60):
        with pytest.raises(ValueError):
            register(bad_id, "tests.app.tiny_game")
    with pytest.raises(ValueError):
        register("other", "not a module")
    with pytest.raises(ValueError, match="already registered"):
        register(tiny, "engines.mojo")


def test_a_module_playing_another_id_is_refused_on_load() -> None:
    register("not-mojo", "engines.mojo")
    try:
        with pytest.raises(ValueError, match="registered as 'not-mojo'"):
            get_engine("not-mojo")
    finally:
        unregister("not-mojo")


def test_motable_games_value_is_parsed() -> None:
    assert parse_games(None) == {}
    assert parse_games(" ") == {}
    assert parse_games("tiny=tests.app.tiny_game, x = a.b ,") == {"tiny": "tests.app.tiny_game", "x": "a.b"}
    for bad in ("tiny", "=a.b", "tiny="):
        with pytest.raises(ValueError, match=r"id=package\.module"):
            parse_games(bad)


def test_register_from_env_loads_each_game() -> None:
    try:
        assert register_from_env("tiny=tests.app.tiny_game") == ["tiny"]
        assert get_engine("tiny").spec.id == "tiny"
    finally:
        unregister("tiny")
    with pytest.raises(ModuleNotFoundError):
        register_from_env("ghost=tests.no_such_module")
    assert "ghost" not in game_ids()


class _Opts(Options):
    first: int | None = 0


def test_game_spec_checks_its_descriptor() -> None:
    with pytest.raises(ValueError, match="winner"):
        GameSpec("x", "X", 2, 4, _Opts, winner="most_cards")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="panel"):
        GameSpec("x", "X", 2, 4, _Opts, panel="dice")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="starter"):
        GameSpec("x", "X", 2, 4, _Opts, starter=Starter("second", "Who?"))
    with pytest.raises(ValueError, match="player counts"):
        GameSpec("x", "X", 3, 2, _Opts)
    spec = GameSpec("x", "X", 2, 4, _Opts, starter=Starter("first", "Who?"))
    assert spec.data() == {}
    assert spec.describe()["starter"] == {"option": "first", "question": "Who?"}


def test_action_words_are_whole_sentences_with_named_placeholders() -> None:
    take = ActionWords(
        done="took the card on pile {pile}",
        otherwise="took a card",
        ask="take a card",
        params={"pile": "position"},
    )
    play = ActionWords(done="played {card} to {seat}", otherwise="played a card", ask="play a card")
    spec = GameSpec(
        "x",
        "X",
        2,
        4,
        _Opts,
        action_words={"take": take, "play": play, "pass": ActionWords("passed", "pass")},
    )
    assert spec.describe()["action_words"] == {
        "take": {
            "done": "took the card on pile {pile}",
            "otherwise": "took a card",
            "ask": "take a card",
            "params": {"pile": "position"},
            "values": {},
        },
        # A placeholder named card is a card, one named seat a seat; said in the JSON all the same.
        "play": {
            "done": "played {card} to {seat}",
            "otherwise": "played a card",
            "ask": "play a card",
            "params": {"card": "card", "seat": "seat"},
            "values": {},
        },
        "pass": {"done": "passed", "otherwise": None, "ask": "pass", "params": {}, "values": {}},
    }
    with pytest.raises(ValueError, match="otherwise"):
        ActionWords(done="played {card}", ask="play a card")
    with pytest.raises(ValueError, match="plain"):
        ActionWords(done="played {card!r}", otherwise="played", ask="play")
    with pytest.raises(ValueError, match="plain"):
        ActionWords(done="took {pile:>3}", otherwise="took", ask="take")
    with pytest.raises(ValueError, match="only `done`"):
        ActionWords(done="played", ask="play {card}")
    with pytest.raises(ValueError, match="not placeholders"):
        ActionWords(done="played", ask="play", params={"card": "card"})
    with pytest.raises(ValueError, match="placeholder is one of"):
        ActionWords(done="took {pile}", otherwise="took", ask="take", params={"pile": "dice"})  # type: ignore[dict-item]
    # A word placeholder's coded values said as players say them; only a word has them, each worded.
    verdict = {"confirm": "confirmed the success", "dispute": "disputed the success"}
    witness = ActionWords(
        done="{verdict} as a witness", otherwise="answered", ask="answer", values={"verdict": verdict}
    )
    assert witness.to_json()["values"] == {"verdict": verdict}
    with pytest.raises(ValueError, match="word placeholders"):
        ActionWords(done="gave {seat}", otherwise="gave", ask="give", values={"seat": {"1": "Bo"}})
    with pytest.raises(ValueError, match="word placeholders"):
        ActionWords(done="passed", ask="pass", values={"verdict": verdict})
    with pytest.raises(ValueError, match="words for each value"):
        ActionWords(
            done="{verdict}", otherwise="answered", ask="answer", values={"verdict": {"confirm": " "}}
        )
    with pytest.raises(TypeError, match="ActionWords"):
        GameSpec("x", "X", 2, 4, _Opts, action_words={"play": "played a card"})  # type: ignore[dict-item]


@pytest.mark.parametrize("game", ["mojo", "moby-trick"])
def test_built_in_descriptors_are_complete(game: str) -> None:
    spec = get_engine(game).spec
    described = spec.describe()
    assert json.loads(json.dumps(described)) == described
    assert spec.blurb and spec.starter is not None
    assert described["winner"] == {"mojo": "lowest_total", "moby-trick": "highest_total"}[game]
    assert described["panel"] == "points"
    # The rules page's card table is the engine's own data, and each call hands out a fresh copy.
    data = spec.data()
    assert data and json.loads(json.dumps(data)) == data
    data.clear()
    assert spec.data()


def test_card_data_matches_what_the_engines_deal() -> None:
    from engines.moby_trick.cards import CARDS as WHALES
    from engines.mojo.cards import DECK

    deck = get_engine("mojo").spec.data()["deck"]
    assert sum(row["copies"] * len(row["values"]) for row in deck["colours"]) == len(DECK.cards)
    assert deck["hand_size"] == DECK.hand_size
    cards = get_engine("moby-trick").spec.data()["cards"]["cards"]
    assert [(c["family"], c["value"]) for c in cards] == [(c.family, c.value) for c in WHALES]
