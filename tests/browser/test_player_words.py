"""Player words only, on every page a player sees: the home page with each game's create options, each
rules page, the 404 page, and for every game a whole match (each seat's room page at every step, from
the waiting room to game over, the table screen, "Your games" after each kind of move, "Since you
left", and the replay stepped across). The visible text and the names a screen reader says (aria-label,
title, alt, placeholder) are read at each step and must hold no developer word (tests/player_words.py:
file paths, snake_case names, JSON, undefined/null/NaN), and a move said in words must not end on an
action's raw value ("answered as a witness: confirm")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.player_words import developer_words, raw_move_values
from tests.servers import ServeProcess

from .support import SCREENSHOTS
from .walk import MATCHES, walk_home_rules_and_missing, walk_match

pytestmark = pytest.mark.browser

# Everything a page says to a player at once: its title, its rendered text, and the names a screen
# reader gives its elements.
SAID = """() => {
  const said = [document.title, document.body.innerText];
  const names = ["aria-label", "title", "alt", "placeholder", "aria-description", "aria-valuetext",
    "aria-roledescription"];
  for (const node of document.querySelectorAll(names.map((n) => `[${n}]`).join(","))) {
    for (const name of names) if (node.hasAttribute(name)) said.push(node.getAttribute(name));
  }
  return said.join("\\n");
}"""
SHOTS = SCREENSHOTS / "words"
# Lines that each say one logged move in words: "Your games"' last move, "Since you left"'s list.
MOVE_LINES = ".game-row-last, .since-moves li"


class Reader:
    """Reads pages and keeps every developer word found, with the page and moment it was on."""

    def __init__(self) -> None:
        self.found: dict[str, str] = {}
        self.reads = 0

    def read(self, page: Page, where: str) -> None:
        self.reads += 1
        for word in developer_words(page.evaluate(SAID)):
            self.found.setdefault(word, where)
        for line in page.locator(MOVE_LINES).all_inner_texts():
            for word in raw_move_values(line.split(" · ")[0]):
                self.found.setdefault(word, where)

    def check(self) -> None:
        assert not self.found, "developer words on a player's page:\n" + "\n".join(
            f"{where}: {word}" for word, where in self.found.items()
        )


def test_the_home_rules_and_missing_pages_speak_like_players(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    reader = Reader()
    walk_home_rules_and_missing(server.base_url, new_player(375, 812), reader.read)
    reader.check()


def _witness_shot(home: Page, action: dict[str, Any]) -> None:
    if action["type"] == "witness":
        # Mokuru's witness move, as Your games says it.
        SHOTS.mkdir(parents=True, exist_ok=True)
        home.screenshot(
            path=str(SHOTS / f"your-games-witness-{action['verdict']}-375.png"), animations="disabled"
        )


@pytest.mark.parametrize("game", list(MATCHES))
def test_a_whole_match_speaks_like_players(
    server: ServeProcess, new_player: Callable[..., Page], game: str
) -> None:
    reader = Reader()
    moves = walk_match(server, new_player, game, reader.read, after_your_games=_witness_shot)
    assert reader.reads > moves
    reader.check()
