"""Phones and looks: Moby Trick's trump, trick and hand on one phone screen; long names that fit."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import add_bot_and_start, shoot, version
from .support import create_room as mojo_room
from .test_moby_trick import create_room

pytestmark = pytest.mark.browser

LONG = "Annabellemariannabellem"[:23] + "x"  # 24 characters, no space to break at

# Every badge of the seat list lies wholly inside its row, and no row is wider than the list.
BADGES_INSIDE = """() => [...document.querySelectorAll('#seat-list .seat-item')].every((row) => {
    const box = row.getBoundingClientRect();
    return [...row.querySelectorAll('.tag, .presence')].every((badge) => {
        const b = badge.getBoundingClientRect();
        return b.left >= box.left - 0.5 && b.right <= box.right + 0.5 && b.width > 0;
    });
})"""


def _fits(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# How many rows the hand's cards lie on (offsetTop: a card lifted by hover or still flying counts
# at its place in the layout).
HAND_ROWS = "new Set([...document.querySelectorAll('#hand .card')].map((c) => c.offsetTop)).size"


@pytest.mark.parametrize("width", [375, 1280])
def test_moby_trick_fits_a_phone_and_long_names_fit_everywhere(
    server: ServeProcess, new_player: Callable[..., Page], width: int
) -> None:
    assert len(LONG) == 24 and " " not in LONG
    ann = new_player(width, 812)
    create_room(ann, server.base_url, LONG, target=5)
    ann.click("#bot-button")
    ann.wait_for_function(
        "() => document.querySelectorAll('#seat-list .seat-item:not(.is-empty)').length === 2"
    )
    _fits(ann, width)
    assert ann.evaluate(BADGES_INSIDE), "a badge of the seat list is cut"
    list_box = ann.locator("#seat-list").bounding_box()
    assert list_box is not None and list_box["x"] + list_box["width"] <= width
    shoot(ann, "long-name-waiting")
    ann.click("#start-button")

    # The first bonus, then the first turn of the play.
    ann.wait_for_selector("#table[data-phase=set_aside][data-my-turn=true]")
    if width == 375:
        # Nine cards, whatever their families, lie on two rows of a phone (boxed families once took three).
        assert ann.locator("#hand .card").count() == 9
        assert ann.evaluate(HAND_ROWS) == 2
        # The families are still the hand's list items for a screen reader.
        assert "- 'listitem \"" in ann.locator("#hand").aria_snapshot()
    before = version(ann)
    ann.locator("#table button[data-action=set_aside]").first.click()
    ann.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    ann.wait_for_selector("#table[data-phase=play][data-my-turn=true]")
    _fits(ann, width)
    # The "playing" tag on the seat to act does not blink.
    expect(ann.locator("#table .turn-flag").first).to_be_visible()
    steady = "(n) => getComputedStyle(n).animationName === 'none'"
    assert ann.evaluate(f"[...document.querySelectorAll('#table .turn-flag')].every({steady})")
    if width == 375:
        assert ann.locator("#hand .card").count() == 8
        assert ann.evaluate(HAND_ROWS) == 2
        # Trump, trick and every card of the hand fit one 812 px screen, scrolled to the table.
        top = ann.evaluate("document.getElementById('trump').getBoundingClientRect().top + scrollY")
        trick = ann.evaluate("document.querySelector('.moby-trick').getBoundingClientRect().bottom + scrollY")
        bottom = ann.evaluate("document.getElementById('hand').getBoundingClientRect().bottom + scrollY")
        assert top < trick < bottom
        header = ann.evaluate("document.querySelector('.site-header').getBoundingClientRect().height")
        room = 812 - header  # the site header stays on screen
        assert bottom - top <= room, f"trump to the end of the hand takes {bottom - top:.0f} of {room:.0f} px"
        ann.evaluate(f"window.scrollTo(0, {top} - {header} - 4)")
        ann.screenshot(path=f"test-artifacts/screenshots/moby-trick-one-screen-{width}.png")
    shoot(ann, "long-name-moby-table")
    # The score pad holds the long name too.
    pad = ann.locator(".scorepad").first
    expect(pad).to_be_visible()
    box = pad.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width


# Every face-up card of the hand and the pile: red and orange ones were the cards whose corner the
# middle value once covered, and a deal may hold none of them, so every colour is looked at.
CORNERS_UNCOVERED = """() => [...document.querySelectorAll('#hand .card, .discard .card')]
    .filter((card) => card.querySelector('.card-corner i'))
    .map((card) => {
        const corner = card.querySelector('.card-corner');
        const symbol = corner.querySelector('i').getBoundingClientRect();
        const points = [[symbol.left + 1, symbol.top + 1], [symbol.right - 1, symbol.bottom - 1],
                        [(symbol.left + symbol.right) / 2, (symbol.top + symbol.bottom) / 2]];
        return points.every(([x, y]) => corner.contains(document.elementFromPoint(x, y)));
    })"""


@pytest.mark.parametrize("width", [375, 1280])
def test_mojo_corner_symbols_are_whole_on_red_and_orange_cards(
    server: ServeProcess, new_player: Callable[..., Page], width: int
) -> None:
    ann = new_player(width, 900)
    mojo_room(ann, server.base_url, "Ann")
    add_bot_and_start(ann, seats_before_bot=1)
    ann.wait_for_selector(".mojo-mine.is-current #hand .card")
    # Measured once the cards lie still (a dealt or drawn card slides in and may overlap another).
    settled = "(a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity"
    ann.wait_for_function(f"() => document.getAnimations().every({settled})")
    # Deals vary: every face-up card is looked at, red and orange among them when dealt.
    colours = ann.eval_on_selector_all("#hand .card", "cards => cards.map((c) => c.className)")
    seen = ann.evaluate(CORNERS_UNCOVERED)
    assert seen, f"no card with a corner symbol on the table (hand: {colours})"
    assert all(seen), f"covered corner symbols: {seen}"
    shoot(ann, "mojo-corners")
