"""Moby Trick in a real browser: two friends and a bot play a whole match by clicking, bonuses included."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.servers import ServeProcess

from .support import SUMMARY, add_bot_and_start, close_summary, game_over, join_room, shoot, version

pytestmark = pytest.mark.browser

# Any move the table offers now except a bonus, which the test uses on purpose once.
MOVE = "#table [data-action]:not([disabled]):not([data-action=use_bonus])"
USE_BONUS = "#table button[data-action=use_bonus]"
# A flip or pearl bonus can be used whatever the trump is, so it is the first bonus the players keep.
ALWAYS_USABLE = "[aria-label*='flip the token'], [aria-label*='take 1 pearl']"


def create_room(page: Page, base_url: str, name: str, target: int) -> str:
    page.goto(base_url + "/")
    page.fill("#player-name", name)
    page.check('input[name="game"][value="moby-trick"]')
    page.fill("#opt-target", str(target))
    page.click("#create-button")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("#waiting-panel:not([hidden])")
    return page.url


def room_id_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def my_turn(page: Page) -> bool:
    return page.locator("#table[data-my-turn=true]").count() > 0


def click_and_wait(page: Page, selector: str) -> None:
    """Click the first match and wait until the page shows the state after that move."""
    close_summary(page)
    before = version(page)
    target = page.locator(selector).first
    described = target.get_attribute("aria-label")
    target.click()
    try:
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    except PlaywrightTimeout as error:
        said = page.inner_text("#announcer")
        raise AssertionError(f"clicking {described!r} sent no move; page said {said!r}") from error


def test_two_friends_and_a_bot_play_moby_trick_to_the_end(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo = new_player(1280, 900), new_player(375, 800)
    url = create_room(ann, server.base_url, "Ann", target=5)
    join_room(bo, url, "Bo")
    add_bot_and_start(ann, seats_before_bot=2)
    pages = (ann, bo)
    for page in pages:
        expect(page.locator("#game-panel")).to_be_visible()
        expect(page.locator(".moby-seat")).to_have_count(2)
        expect(page.locator("#trump")).to_contain_text(re.compile("orcas|narwhals|blue whales|sperm whales"))
        expect(page.locator("#token")).to_contain_text(re.compile("lowest wins|highest wins"))

    # The first bonus: every human sets aside a card by clicking it.
    for page in pages:
        expect(page.locator("#table[data-phase=set_aside][data-my-turn=true]")).to_be_attached()
        expect(page.locator("#turn-status")).to_contain_text("first bonus")
        expect(page.locator("#hand .family-group").first).to_be_visible()
    shoot(ann, "moby-trick-set-aside")
    shoot(bo, "moby-trick-set-aside")
    usable = f"#hand button[data-action=set_aside]:is({ALWAYS_USABLE})"
    for page in pages:
        click_and_wait(page, usable if page.locator(usable).count() else MOVE)
    expect(ann.locator("#table[data-phase=play]")).to_be_attached()

    # Click whatever each page offers until the end: once a bonus, once a card by keyboard.
    used_bonus = False
    shots: set[str] = set()
    deadline = time.monotonic() + 150
    while not (game_over(ann) and game_over(bo)):
        assert time.monotonic() < deadline, "the match did not finish in time"
        acted = False
        for page in pages:
            if not my_turn(page) or not page.locator(MOVE).count():
                continue
            width = page.viewport_size["width"] if page.viewport_size else 0
            if not used_bonus and page.locator(USE_BONUS).count():
                expect(page.locator(USE_BONUS).first).to_contain_text("Use")
                click_and_wait(page, USE_BONUS)
                expect(page.locator("#game-log")).to_contain_text("used a")
                used_bonus = True
            if page.locator("#table button[data-action=reward]").count() and f"reward-{width}" not in shots:
                shots.add(f"reward-{width}")
                shoot(page, "moby-trick-reward")
            if page.locator(".trick-slot:not(.is-open)").count() and f"table-{width}" not in shots:
                shots.add(f"table-{width}")
                shoot(page, "moby-trick-table")
            if "keyboard" not in shots and page.locator("#hand button[data-action=play]").count():
                # Cards are buttons, so a focused card plays with Enter.
                shots.add("keyboard")
                before = version(page)
                page.locator("#hand button[data-action=play]").first.focus()
                page.keyboard.press("Enter")
                page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
            else:
                click_and_wait(page, MOVE)
            acted = True
        if not acted:
            time.sleep(0.05)
    assert used_bonus, "no player ever had a bonus to use"
    assert {"table-1280", "table-375"} <= shots

    room = httpx.get(f"{server.base_url}/api/rooms/{room_id_of(url)}").json()
    state = httpx.get(f"{server.base_url}/api/rooms/{room_id_of(url)}/state").json()
    assert room["status"] == "finished"
    totals = room["scorepad"]["totals"]
    winners = state["result"]["winners"]
    # Moby Trick is won by the highest total, and the end screen must say so.
    assert all(totals[w] == max(totals) for w in winners)
    names = [seat["name"] for seat in room["seats"]]
    for page in pages:
        final = page.locator(SUMMARY)
        expect(final).to_contain_text("Game over")
        expect(final).to_contain_text("1st")
        expect(final).to_contain_text("pearl")
        expect(final).to_contain_text("The highest total wins.")
        shoot(page, "moby-trick-final-summary")
        close_summary(page)
    for seat, page in enumerate(pages):
        expect(page.locator("#game-over")).to_be_visible()
        for winner in winners:
            expect(page.locator("#game-over h2")).to_contain_text("You" if winner == seat else names[winner])
        shown = page.locator(".scorepad tfoot td").all_inner_texts()
        assert [int(re.sub(r"\D", "", text)) for text in shown] == totals
        expect(page.locator(".scorepad tfoot td.is-winner")).to_have_count(len(winners))
        # Anyone else marked as leading must share the highest total, never the lowest.
        for text in page.locator(".scorepad tfoot td.is-leading").all_inner_texts():
            assert int(re.sub(r"\D", "", text)) == max(totals)
        expect(page.locator(".score-chart")).to_be_visible()
        expect(page.locator("#game-log")).to_contain_text("played")
        expect(page.locator("#game-log")).to_contain_text("won the trick")
        expect(page.locator("#turn-status")).to_contain_text(f"with {max(totals)} points")
    shoot(ann, "moby-trick-game-over")
    shoot(bo, "moby-trick-game-over")

    # The rules page shows the engine's own card table: 32 whale cards and four 5s.
    for page in pages:
        page.goto(server.base_url + "/rules/moby-trick")
        expect(page.locator(".whale-table tbody tr")).to_have_count(36)
        expect(page.locator(".rules")).to_contain_text("our reconstruction")
    expect(page.locator(".rules")).not_to_contain_text("engines/")
    shoot(ann, "moby-trick-rules")
    shoot(bo, "moby-trick-rules")
