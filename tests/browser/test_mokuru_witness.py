"""Mokuru's witness rule on screen, in real Chromium with a known deal: Ann and Bo alone, witness
on, Ann duels Bo. Nobody without a stake can witness Ann's landed try, so the table says that Bo,
the Duel opponent, decides, and Bo does.

SEED was found with the engine (`deal_fits`); the server deals from MOTABLE_TEST_SEEDS.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engines.mokuru.cards import CARDS
from engines.mokuru.engine import MokuruEngine
from tests.servers import ServeProcess

from .support import shoot
from .test_mokuru_duel import serve_seeded  # noqa: F401 (the seeded server fixture)

pytestmark = pytest.mark.browser

SEED = 26


def deal_fits(seed: int) -> bool:
    """Ann (seat 0, first) draws a Duel, then a Basic or Advanced trick for it."""
    engine = MokuruEngine()
    deck = engine.setup(2, seed, engine.spec.parse_options({"belts": "short", "first_seat": 0})).deck
    trick = CARDS[deck[1]]
    plain = not (trick.is_action or trick.is_master or trick.is_marathon)
    return CARDS[deck[0]].action == "duel" and plain and trick.category in ("Basic", "Advanced")


def key(action: dict[str, Any]) -> str:
    return f"#table button[data-key='{json.dumps(action, separators=(',', ':'))}']"


def test_with_no_neutral_player_the_table_says_the_duel_opponent_decides(
    serve_seeded: Callable[[int], ServeProcess],  # noqa: F811
    new_player: Callable[..., Page],
) -> None:
    assert deal_fits(SEED), "the engine's deal changed: search a new SEED with deal_fits"
    server = serve_seeded(SEED)
    ann, bo = new_player(1280, 800), new_player(375, 812)
    ann.goto(server.base_url + "/")
    ann.fill("#player-name", "Ann")
    ann.check('input[name="game"][value="mokuru"]')
    ann.select_option("#opt-belts", "short")
    ann.select_option("#opt-witness", "on")
    ann.click("#create-button")
    ann.wait_for_url("**/r/**")
    bo.goto(ann.url)
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    expect(ann.locator("#seat-list")).to_contain_text("Bo")
    ann.select_option("#starter-choice", "0")
    ann.click("#start-button")
    ann.locator(key({"type": "difficulty", "level": "normal"})).click()
    bo.locator(key({"type": "difficulty", "level": "normal"})).click()

    ann.locator(key({"type": "draw"})).click()
    ann.locator(key({"type": "target", "seat": 1})).click()
    ann.locator(key({"type": "draw"})).click()
    ann.locator(key({"type": "report", "outcome": "landed"})).click()
    rule = "Nobody without a stake can witness, so Bo (the Duel opponent) decides."
    for page in (ann, bo):
        expect(page.locator("#turn-status")).to_contain_text(rule)
    shoot(bo, "mokuru-witness-rule")
    shoot(ann, "mokuru-witness-rule")
    bo.locator(key({"type": "witness", "verdict": "confirm"})).click()
    expect(ann.locator("#game-log")).to_contain_text("Bo confirmed your success")
