"""Refused options and moves are said in a player's words: the field's label and what to enter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engines.core import game_ids, get_engine
from engines.core.errors import EngineError


def _refusal(game: str, raw: dict[str, Any]) -> str:
    with pytest.raises(EngineError) as caught:
        get_engine(game).spec.parse_options(raw)
    assert caught.value.code == "invalid_request"
    return caught.value.message


@pytest.mark.parametrize(
    ("game", "raw", "expected"),
    [
        ("mojo", {"target": "abc"}, "“Play to”: enter a whole number from 1 to 1000"),
        ("mojo", {"target": 0}, "“Play to”: enter a whole number from 1 to 1000"),
        ("mojo", {"double_discard": "maybe"}, "“Double discard piles”: choose yes or no"),
        ("moby-trick", {"target": 999}, "“Play to”: enter a whole number from 1 to 300"),
        ("mojo", {"colour": 3}, "“colour” is not an option of this game"),
    ],
)
def test_option_errors_name_the_field_and_what_to_enter(
    game: str, raw: dict[str, Any], expected: str
) -> None:
    message = _refusal(game, raw)
    assert expected in message
    assert "Input should" not in message and "{" not in message


def test_an_illegal_move_is_refused_without_a_python_repr() -> None:
    engine = get_engine("mojo")
    state = engine.setup(2, 1, engine.spec.parse_options({}))
    seat = min(engine.to_act(state))
    with pytest.raises(EngineError) as caught:
        engine.apply(state, seat, {"type": "play", "card": 10_000})
    assert caught.value.code == "illegal_action"
    assert "{" not in caught.value.message and "'" not in caught.value.message


# What the lobby shows of an option (static/js/lobby.js): a short title, a hint of one line on a
# phone, and the fine print on the rules page, linked.
TITLE_CHARS = 48
HINT_CHARS = 64
RULES = Path(__file__).resolve().parents[2] / "templates" / "rules"


@pytest.mark.parametrize("game", game_ids())
def test_the_lobby_shows_each_option_short_with_its_fine_print_on_the_rules_page(game: str) -> None:
    schema = get_engine(game).spec.options_schema()
    page = RULES / f"{game}.html"
    for name, prop in schema.get("properties", {}).items():
        if prop.get("x-motable-widget") == "seat":
            continue  # asked on the start screen, not in the lobby
        assert len(prop.get("title", "")) <= TITLE_CHARS, (name, prop.get("title"))
        assert len(prop.get("description", "")) <= HINT_CHARS, (name, prop.get("description"))
        choices = prop.get("x-motable-choices")
        if choices is not None:
            assert set(choices) == {str(value) for value in prop["enum"]}, (name, choices)
        section = prop.get("x-motable-rules")
        if section is not None:
            assert page.exists() and f'id="{section}"' in page.read_text(), (game, name, section)
    if game == "mokuru":
        # Its choices are codes ("auto", "difficulty"): each has words, and every option a section.
        lobby = {n: p for n, p in schema["properties"].items() if p.get("x-motable-widget") != "seat"}
        assert all("x-motable-rules" in p for p in lobby.values())
        assert all("x-motable-choices" in p for p in lobby.values() if "enum" in p)
