"""Refused options and moves are said in a player's words: the field's label and what to enter."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core import get_engine
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
