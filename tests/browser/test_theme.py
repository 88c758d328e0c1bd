"""The dark theme: it follows the system's light or dark preference, the footer's switch (Auto, Light,
Dark) overrides it both ways and is remembered by this browser, the theme is on the page before its
first paint, and a browser that blocks storage can still switch for the page it shows. Colours are
read off the page (a panel's background luminance), never a class name. Screenshots in dark of the
lobby, every game's table mid-match, a rules page, the table screen, a game over and its replay go to
test-artifacts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from engines.core import game_ids
from tests.servers import ServeProcess

from .axe import serious_violations
from .contrast import LOW_CONTRAST
from .support import SCREENSHOTS, SUMMARY, at_rest, motion_done, shoot
from .test_accessibility import Match
from .test_blocked_storage import BLOCK_STORAGE

pytestmark = pytest.mark.browser

# The relative luminance (WCAG) of the first colour a selector's element paints: its background
# colour, else the first colour of its background picture (a panel's paper is a gradient).
LUMINANCE = r"""(selector) => {
    const s = getComputedStyle(document.querySelector(selector));
    const colours = [s.backgroundColor, ...(s.backgroundImage.match(/rgba?\([^)]+\)/g) || [])];
    const solid = colours.map((c) => c.match(/[\d.]+/g).map(Number)).find((p) => p.length < 4 || p[3] > 0.5);
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(solid[0]) + 0.7152 * f(solid[1]) + 0.0722 * f(solid[2]);
}"""
PANEL = "main .panel"


def panel_is(page: Page, theme: str, panel: str = PANEL) -> None:
    """The page's paper panels are light (luminance above 0.7) or dark (below 0.05). A change of the
    system's preference reaches the page as a media-query event, handled after the call that made it
    returns, so the page is given until the usual timeout to repaint; the luminance it was left at is
    the failure's message."""
    page.wait_for_selector(panel)
    reached = "l > 0.7" if theme == "light" else "l < 0.05"
    try:
        page.wait_for_function(f"(s) => {{ const l = ({LUMINANCE})(s); return {reached}; }}", arg=panel)
    except PlaywrightTimeout:
        raise AssertionError((theme, page.evaluate(LUMINANCE, panel))) from None


def choose(page: Page, label: str) -> None:
    switch = page.get_by_role("group", name="Theme")
    switch.get_by_role("button", name=label).click()
    expect(switch.get_by_role("button", name=label)).to_have_attribute("aria-pressed", "true")


@pytest.fixture
def new_match(server: ServeProcess) -> Iterator[Callable[..., Match]]:
    made: list[Match] = []

    def make(game: str, options: dict[str, Any] | None = None) -> Match:
        made.append(Match(server.base_url, game, options))
        return made[-1]

    yield make
    for match in made:
        match.api.close()


def test_the_system_preference_sets_the_theme(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    page = new_player(375, 812)
    page.emulate_media(color_scheme="dark")
    page.goto(server.base_url + "/")
    panel_is(page, "dark")
    # The words on the dark paper are light, and the browser's own controls are drawn dark too.
    assert page.evaluate(LUMINANCE.replace("s.backgroundColor,", "s.color,"), PANEL) > 0.6
    assert page.evaluate("() => getComputedStyle(document.documentElement).colorScheme") == "dark"
    expect(page.get_by_role("group", name="Theme").get_by_role("button", name="Auto")).to_have_attribute(
        "aria-pressed", "true"
    )
    # The system turning light while the page is open turns the page light (Auto follows it).
    page.emulate_media(color_scheme="light")
    panel_is(page, "light")
    assert page.evaluate("() => getComputedStyle(document.documentElement).colorScheme") == "light"


def test_the_switch_overrides_the_system_both_ways_and_is_remembered(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    page = new_player(1280, 800)
    page.emulate_media(color_scheme="dark")
    page.goto(server.base_url + "/")
    panel_is(page, "dark")
    choose(page, "Light")
    panel_is(page, "light")
    page.reload()
    panel_is(page, "light")
    page.goto(server.base_url + "/rules/mojo")
    panel_is(page, "light")
    choose(page, "Auto")
    panel_is(page, "dark")

    light = new_player(375, 812)
    light.emulate_media(color_scheme="light")
    light.goto(server.base_url + "/rules/mokuru")
    panel_is(light, "light")
    choose(light, "Dark")
    panel_is(light, "dark")
    assert light.evaluate("() => document.querySelector('meta[name=theme-color]').content") == "#0b2217"
    light.goto(server.base_url + "/")
    panel_is(light, "dark")
    # Keyboard alone: Tab onto the switch's buttons, Enter picks one.
    light.get_by_role("button", name="Auto").focus()
    light.keyboard.press("Tab")
    light.keyboard.press("Enter")
    panel_is(light, "light")


def test_the_chosen_theme_is_there_before_the_first_paint(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    page = new_player(375, 812)
    page.goto(server.base_url + "/")
    choose(page, "Dark")
    # The first frame's callback runs before anything is painted: the theme is already on the page.
    page.add_init_script(
        "requestAnimationFrame(() => { window.firstFrameTheme = document.documentElement.dataset.theme"
        " + ' ' + getComputedStyle(document.body).backgroundColor; });"
    )
    page.reload()
    page.wait_for_function("() => window.firstFrameTheme !== undefined")
    theme, _, background = page.evaluate("() => window.firstFrameTheme").partition(" ")
    assert theme == "dark"
    assert background == "rgb(11, 34, 23)", background


def test_with_storage_blocked_the_switch_still_works_for_the_page(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    page = new_player(375, 812)
    page.context.add_init_script(BLOCK_STORAGE)
    page.goto(server.base_url + "/")
    panel_is(page, "light")
    page.get_by_role("group", name="Theme").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "light-theme-switch-375.png"))
    choose(page, "Dark")
    panel_is(page, "dark")
    # Nothing could be kept: the next page follows the system again.
    page.reload()
    panel_is(page, "light")


def dark_player(new_player: Callable[..., Page], width: int, height: int) -> Page:
    page = new_player(width, height)
    page.emulate_media(color_scheme="dark")
    return page


def test_dark_screenshots_and_text_on_the_felt(
    server: ServeProcess, new_player: Callable[..., Page], new_match: Callable[..., Match]
) -> None:
    rules = dark_player(new_player, 1280, 800)
    rules.goto(server.base_url + "/rules/mooki-island")
    shoot(rules, "dark-rules")
    # One laptop holds a seat in every game: its home page lists them under "Your games".
    laptop = dark_player(new_player, 1280, 800)
    for game in game_ids():
        match = new_match(game)
        match.start()
        match.mid_match()
        phone = dark_player(new_player, 375, 812)
        for page in (phone, laptop):
            page.goto(match.seat_url(0))
            expect(page.locator("#table")).not_to_be_empty()
            at_rest(page)
            assert page.evaluate(LOW_CONTRAST, ".felt") == [], game
        if game == "mojo":
            laptop.fill("#chat-input", "Good luck, Bo!")
            laptop.press("#chat-input", "Enter")
            expect(laptop.locator("#chat-log li")).to_have_count(1)
        for page in (phone, laptop):
            shoot(page, f"dark-{game}")
        screen = dark_player(new_player, 1920, 1080)
        screen.goto(f"{server.base_url}/r/{match.room}/screen")
        expect(screen.locator(".screen-table").first).not_to_be_empty()
        at_rest(screen)
        shoot(screen, f"dark-screen-{game}")
    laptop.goto(server.base_url + "/")
    panel_is(laptop, "dark")
    expect(laptop.locator(".game-row").first).to_be_visible()
    shoot(laptop, "dark-lobby")
    phone = dark_player(new_player, 375, 812)
    phone.goto(server.base_url + "/")
    shoot(phone, "dark-lobby")

    # A finished match: the score pad full of rounds at its game over, and its replay.
    match = new_match("mojo", {"target": 10})
    match.start()
    match.finish()
    over = dark_player(new_player, 1280, 800)
    over.goto(match.seat_url(0))
    over.locator(f"{SUMMARY} button.summary-close").click()
    expect(over.locator("#game-over")).to_be_visible()
    motion_done(over)
    shoot(over, "dark-game-over")
    replay = dark_player(new_player, 1280, 800)
    replay.goto(f"{server.base_url}/r/{match.room}/replay")
    expect(replay.locator("#replay-tables .table-area")).to_have_count(1)
    motion_done(replay)
    shoot(replay, "dark-replay")


def test_the_request_layer_and_the_seat_menu_in_dark(
    server: ServeProcess, new_player: Callable[..., Page], new_match: Callable[..., Match]
) -> None:
    match = new_match("mojo")
    match.start()
    ann = dark_player(new_player, 1280, 800)
    bo = dark_player(new_player, 375, 812)
    ann.goto(match.seat_url(0))
    bo.goto(match.seat_url(1))
    ann.click("#pause-button")
    banner = bo.locator("#pause-banner")
    expect(banner).to_contain_text("Ann asks to pause the game.")
    panel_is(bo, "dark", "#chat-panel")
    assert bo.evaluate(LUMINANCE, "#pause-banner") < 0.05
    motion_done(bo)
    assert serious_violations(bo) == []
    shoot(bo, "dark-request")
    ann.click("#seat-menu-button")
    expect(ann.locator("#seat-dialog")).to_be_visible()
    assert ann.evaluate(LUMINANCE, "#seat-dialog") < 0.05
    motion_done(ann)
    assert serious_violations(ann) == []
    shoot(ann, "dark-seat-menu")
