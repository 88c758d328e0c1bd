"""Phone first: on a 375x812 phone your hand and the choices of your turn are on the first screen
for every registered game (the test suite's own games too, tests/games.py), at the start and when
your turn comes; the seat link stays one line until asked. Every page fails its test on a console
error (a blocked inline style among them; tests/browser/conftest.py `new_player`)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from engines.core import game_ids, get_engine
from tests.servers import ServeProcess

from .contrast import LOW_CONTRAST
from .support import shoot

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 375, 812

# The hand and every enabled move of the table, in viewport coordinates: all of it lies below the
# sticky site header and above the bottom of the screen.
IN_VIEW = """() => {
    const nodes = [...document.querySelectorAll('#table [data-action]:not([disabled]), #table #hand')]
        .filter((n) => n.getBoundingClientRect().height > 0);
    if (!nodes.length) return false;
    const header = document.querySelector('.site-header').getBoundingClientRect().bottom;
    const top = Math.min(...nodes.map((n) => n.getBoundingClientRect().top));
    const bottom = Math.max(...nodes.map((n) => n.getBoundingClientRect().bottom));
    return top >= header - 1 && bottom <= innerHeight + 1;
}"""

# The host's first move on offer, whatever the game: every table marks its moves with data-action.
FIRST_MOVE = "#table [data-action]:not([disabled])"


def host_room(page: Page, base_url: str, game: str, bots: int) -> None:
    page.goto(base_url + "/")
    page.fill("#player-name", "Ann")
    page.check(f'input[name="game"][value="{game}"]')
    page.click("#create-button")
    page.wait_for_selector("#waiting-panel:not([hidden])")
    for seated in range(2, bots + 2):
        page.click("#bot-button")
        expect(page.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(seated)


@pytest.mark.parametrize("game", game_ids())
def test_your_first_move_is_on_the_first_phone_screen(
    server: ServeProcess, new_player: Callable[..., Page], game: str
) -> None:
    # Three at the table where the game seats three (the phone's table more crowded), else two.
    bots = min(3, get_engine(game).spec.max_players) - 1
    ann = new_player(WIDTH, HEIGHT)
    host_room(ann, server.base_url, game, bots)
    ann.click("#start-button")  # scrolled to the button, low on the start screen
    ann.wait_for_selector(FIRST_MOVE)
    ann.wait_for_function(IN_VIEW)
    # Really on screen, whole. (A retrying check: the bots' first moves may still redraw the buttons
    # between two reads, and a button taken out of the page has no box.)
    expect(ann.locator(FIRST_MOVE).first).to_be_in_viewport(ratio=1)
    if game == "moby-trick":
        # Your own name is whole beside the turn flag.
        title = ann.locator(".moby-mine .mine-head .seat-title")
        expect(title).to_have_text("Ann (you)")
        assert title.evaluate("n => n.scrollWidth <= n.clientWidth + 1"), "your own name is cut"
    # Small words on the felt read at 4.5:1 or better (large ones at 3:1).
    if game == "mokuru":
        expect(ann.locator("#table .mokuru-seat .muted").first).to_be_visible()
    faint = ann.evaluate(LOW_CONTRAST, ".felt")
    assert faint == [], f"text too faint on the felt: {faint}"
    ann.screenshot(path=f"test-artifacts/screenshots/first-screen-{game}-{WIDTH}.png")
    shoot(ann, f"first-screen-{game}")


def test_a_friend_who_joins_sees_a_one_line_seat_chip_and_then_the_hand(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(1280, 800)
    host_room(ann, server.base_url, "mojo", 0)
    bo = new_player(WIDTH, HEIGHT)
    bo.goto(ann.url)
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    chip = bo.locator("#seat-keep-chip")
    expect(chip).to_be_visible()
    box = bo.locator("#seat-keep").bounding_box()
    assert box is not None and box["height"] < 64, "the seat link takes more than one line"
    expect(bo.locator("#seat-keep-body")).to_be_hidden()
    # Tapping the chip opens the link and its QR code in place.
    chip.click()
    expect(bo.locator("#seat-keep .seat-qr")).to_be_visible()
    expect(bo.locator("#seat-keep .seat-link-url")).to_have_value(re.compile(r"/r/"))
    chip.click()
    expect(bo.locator("#seat-keep-body")).to_be_hidden()
    expect(ann.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(2)
    ann.click("#start-button")
    bo.wait_for_selector("#hand button.card")
    bo.wait_for_function(IN_VIEW)


def test_mokuru_around_one_phone_opens_on_the_difficulty_choice(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    phone = new_player(WIDTH, HEIGHT)
    phone.goto(server.base_url + "/")
    phone.fill("#player-name", "Ann")
    phone.check('input[name="game"][value="mokuru"]')
    phone.click("#create-button")
    phone.wait_for_selector("#waiting-panel:not([hidden])")
    for seated, name in ((2, "Bo"), (3, "Cy")):
        phone.fill("#device-name", name)
        phone.click("#device-add")
        expect(phone.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(seated)
    phone.click("#start-button")
    moves = phone.locator("#table .mokuru-moves button[data-action]:not([disabled])")
    for name in ("Ann", "Bo"):
        expect(phone.locator("#table .mokuru-device-who")).to_have_text(name)
        phone.wait_for_function(IN_VIEW)
        expect(moves.filter(has_text="Easy:")).to_be_in_viewport()
        # ...and so is the line that says whose choice it is.
        expect(phone.locator("#table .mokuru-device-who")).to_be_in_viewport()
        moves.filter(has_text="Normal:").click()
    shoot(phone, "first-screen-mokuru-one-device")
    # Everyone at this table shares this phone: nobody is offered "Mute" for another.
    expect(phone.locator("#people-list .people-row")).to_have_count(3)
    expect(phone.locator("#people-list .mute-button")).to_have_count(0)
