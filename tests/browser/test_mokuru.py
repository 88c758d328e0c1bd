"""Mokuru in real Chromium: two people and a rival bot play a whole witnessed match by clicking
the table's big buttons, one on a phone-sized page; the screenshots are looked at."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.servers import ServeProcess

from .support import game_over, shoot, version

pytestmark = pytest.mark.browser

MOVES = ", ".join(
    f"#table .{box} button[data-action]:not([disabled])" for box in ("mokuru-moves", "mokuru-extra")
)


def click_some_move(page: Page, rng: random.Random) -> bool:
    buttons = page.locator(MOVES)
    count = buttons.count()
    if not count:
        return False
    labels = buttons.all_inner_texts()
    # People mostly confirm each other and land a trick now and then.
    preferred = [i for i, text in enumerate(labels) if text.startswith(("Confirm", "Landed", "Done"))]
    index = rng.choice(preferred) if preferred and rng.random() < 0.6 else rng.randrange(count)
    before = version(page)
    try:
        buttons.nth(index).click(timeout=2000)
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=5000)
    except PlaywrightTimeout:  # a bot or the other player moved first: the page redraws with fresh moves
        return False
    return True


def start_match(server: ServeProcess, ann: Page, bo: Page, first: int | None = None) -> None:
    """Ann hosts a short-belts room, Bo joins, a rival bot sits in seat 2; `first` starts (None:
    the deal decides)."""
    ann.goto(server.base_url + "/")
    expect(ann.locator(".game-choice[data-game=mokuru]")).to_be_visible()
    ann.fill("#player-name", "Ann")
    ann.check('input[name="game"][value="mokuru"]')
    ann.select_option("#opt-belts", "short")
    ann.click("#create-button")
    ann.wait_for_url("**/r/**")
    bo.goto(ann.url)
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    expect(ann.locator("#seat-list")).to_contain_text("Bo")
    ann.click("#bot-button")
    expect(ann.locator("#seat-list .presence.is-bot")).to_have_count(1)
    if first is not None:
        ann.select_option("#starter-choice", str(first))
    ann.click("#start-button")


def test_two_people_and_a_rival_bot_play_mokuru_to_a_grandmaster(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo = new_player(1280, 900), new_player(375, 800)
    start_match(server, ann, bo)

    for page in (ann, bo):
        expect(page.locator("#table .mokuru-board")).to_be_visible()
        expect(page.locator("#table .mokuru-belt")).to_have_count(6)  # the short game: 5 belts + Grandmaster
        expect(page.locator("#table .mokuru-moves button")).to_have_count(4)
    expect(bo.locator("#table .mokuru-moves")).to_contain_text("Extreme: one finger, 1 try")
    shoot(bo, "mokuru-difficulty")
    ann.click("text=Normal: two fingers, 3 tries")
    # Bo uses the keyboard: Tab reaches the moves, Enter makes one.
    easy = bo.locator("#table .mokuru-moves button", has_text="Easy: one hand, 3 tries")
    easy.focus()
    expect(easy).to_be_focused()
    bo.keyboard.press("Enter")
    expect(bo.locator("#table .mokuru-seat[data-seat='1']")).to_contain_text("Easy · one hand · 3 tries")

    rng = random.Random(3)
    seen_trick = False
    deadline = time.monotonic() + 240
    while not (game_over(ann) and game_over(bo)):
        assert time.monotonic() < deadline, "the match did not finish in time"
        acted = False
        for page in (ann, bo):
            if not seen_trick and page.locator("#table .mokuru-card .mokuru-diagram").count():
                seen_trick = True
                expect(page.locator("#table .mokuru-card .mokuru-card-name")).not_to_be_empty()
                shoot(ann, "mokuru-trick")
                shoot(bo, "mokuru-trick")
            acted = click_some_move(page, rng) or acted
        if not acted:
            time.sleep(0.05)
    assert seen_trick
    for page in (ann, bo):
        expect(page.locator("#table .mokuru-celebration")).to_contain_text("Grandmaster")
        expect(page.locator("#table .mokuru-board li[data-belt] .mokuru-pawn")).to_have_count(3)
        # Witnessed: the winning success was confirmed by another player, as the log says.
        expect(page.locator("#game-log")).to_contain_text("confirmed")
        expect(page.locator("#game-log")).to_contain_text("Grandmaster!")
        # The progress panel counts belts up to the Grandmaster (5 steps in the short game).
        expect(page.locator("#scorepad")).to_contain_text("5/5")
    shoot(ann, "mokuru-grandmaster")
    shoot(bo, "mokuru-grandmaster")
