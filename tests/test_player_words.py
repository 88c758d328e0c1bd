"""The detector of developer words (tests/player_words.py) catches each kind and lets a player's
ordinary English through: what the browser walk of every page (tests/browser/test_player_words.py)
relies on."""

from __future__ import annotations

import pytest

from tests.player_words import developer_words, raw_move_values


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("See engines/mokuru/engine.py for the rules", "a file path"),
        ("Written up in docs/rules", "a file path"),
        ("The card list (mokuru.json) failed", "a file name"),
        ("Loaded from table-kit.js", "a file name"),
        ("Run engine.py again", "a file name"),
        ("Bo: accept_miss", "a snake_case name"),
        ("Double discard (double_discard)", "a snake_case name"),
        ('Options {"target": 10}', "a JSON fragment"),
        ('"verdict": "confirm"', "a JSON fragment"),
        ("Card: [object Object]", "a JSON fragment"),
        ("Score undefined", "an empty script value"),
        ("Bo has null points", "an empty script value"),
        ("NaN tricks left", "an empty script value"),
    ],
)
def test_each_kind_is_caught(text: str, kind: str) -> None:
    found = developer_words(text)
    assert found and found[0].startswith(kind + ":"), found


@pytest.mark.parametrize(
    "text",
    [
        "A well-known, two-player game: Bo's turn.",
        "The round ends at 10:30; it is 12-3 to Ann.",
        "Scores: 12 - 3 - 0. Target: 100 points.",
        "Share this link: http://127.0.0.1:8123/r/k3x9a#seat — or the code K3X9.",
        "The room's link, 127.0.0.1:57775/r/Z1uPcVhM_P2e, or motable.example/r/ab_cd",
        "Mooki Island. Moby Trick (3-6 players), e.g. a red 5; 1st, 2nd and 3rd.",
        "Your turn: play a card or draw.",
        "Nothing here. This room does not exist (404).",
        "Why not? Because — as the rules say — “a trick is won by the highest card”.",
        "Ann's hand: 7 cards. Bo's: 6.",
    ],
)
def test_ordinary_english_passes(text: str) -> None:
    assert developer_words(text) == []


def test_a_move_line_ending_on_a_raw_value_is_caught() -> None:
    assert raw_move_values("Bo answered as a witness: confirm.")
    assert raw_move_values("Cy: accept miss.")
    assert not raw_move_values("Bo confirmed the trick as a witness.")
    assert not raw_move_values("You played a red 5.")
    assert not raw_move_values("Bo drew a card.")
