"""The rules pages on a phone: each section folds under its heading, so the Mokuru page (the longest)
is a few screens tall folded; a section opens by click or keyboard, a link into a section opens it,
and axe finds nothing serious folded or open. The lobby's create options are short: a plain label, a
one-line hint and a link to the rules section that tells the option in full."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .axe import serious_violations
from .support import SCREENSHOTS

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "rules"
PHONE = (375, 812)
GAMES = ("mojo", "moby-trick", "mooki-island", "mokuru")
# Folded, a rules page is its outline: at most this many phone screens tall.
FOLDED_SCREENS = 3


def shot(page: Page, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=full, animations="disabled")


def height(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollHeight"))


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_folds_into_its_outline_on_a_phone(
    server: ServeProcess, new_player: Callable[..., Page], game: str
) -> None:
    page = new_player(*PHONE)
    page.goto(f"{server.base_url}/rules/{game}")
    sections = page.locator("details.rules-section")
    assert sections.count() >= 5
    # The first section is open, the rest folded: the page is a few screens at most.
    expect(sections.first).to_have_attribute("open", "")
    assert page.locator("details.rules-section[open]").count() == 1
    assert height(page) <= FOLDED_SCREENS * PHONE[1], height(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    assert serious_violations(page) == []
    if game == "mokuru":
        shot(page, "mokuru-folded")

    # A click opens a section and a second one folds it again; so do Enter and Space on its heading.
    second = sections.nth(1)
    summary = second.locator("summary")
    expect(summary.get_by_role("heading", level=2)).to_be_visible()
    summary.click()
    expect(second).to_have_attribute("open", "")
    summary.click()
    expect(second).not_to_have_attribute("open", "")
    summary.focus()
    page.keyboard.press("Enter")
    expect(second).to_have_attribute("open", "")
    page.keyboard.press("Space")
    expect(second).not_to_have_attribute("open", "")

    # Every section opened at once (and folded again), all open passes axe too.
    page.get_by_role("button", name="Open all sections").click()
    assert page.locator("details.rules-section:not([open])").count() == 0
    assert serious_violations(page) == []
    page.get_by_role("button", name="Fold all sections").click()
    assert page.locator("details.rules-section[open]").count() == 0


def test_a_link_into_a_section_opens_it(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    page = new_player(*PHONE)
    # The witness rule sits inside "A turn", folded until the address names it.
    page.goto(f"{server.base_url}/rules/mokuru#witness")
    expect(page.locator("details#a-turn")).to_have_attribute("open", "")
    witness = page.locator("#witness")
    expect(witness).to_be_in_viewport()
    shot(page, "mokuru-witness-open", full=False)
    # Another section named later in the same page opens too.
    page.evaluate("() => { location.hash = '#the-belts'; }")
    expect(page.locator("details#the-belts")).to_have_attribute("open", "")
    assert serious_violations(page) == []
    # On a laptop the same page, the sections opened so far open.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "mokuru-two-open", full=False)


@pytest.mark.parametrize("width", [375, 1280])
def test_the_mokuru_create_options_are_short_with_the_fine_print_a_link_away(
    server: ServeProcess, new_player: Callable[..., Page], width: int
) -> None:
    page = new_player(width, 812)
    page.goto(server.base_url + "/")
    page.check('input[name="game"][value="mokuru"]')
    fields = page.locator("#options-fields .field")
    expect(fields).to_have_count(4)
    # The choices are said in words, not as the game's codes.
    witness = page.locator("#opt-witness")
    expect(witness.locator("option")).to_have_text(["With 3 or more players", "Always", "Never"])
    expect(page.locator("#opt-duel_tries option")).to_have_text(["By difficulty", "Three each, as printed"])
    # Each hint is one line on the screen, the link to the rules beside it.
    # (A line of the hint is shorter than two of its letters are tall.)
    size = float(
        page.evaluate("parseFloat(getComputedStyle(document.querySelector('.field-hint')).fontSize)")
    )
    for index in range(fields.count()):
        hint = fields.nth(index).locator(".field-hint").bounding_box()
        whole = fields.nth(index).locator(".field-help").bounding_box()
        assert hint is not None and whole is not None
        assert hint["height"] < 2 * size, (fields.nth(index).inner_text(), hint)
        if width > 375:
            assert whole["height"] < 2 * size, (fields.nth(index).inner_text(), whole)
    link = page.get_by_role("link", name="rules for Witnesses")
    expect(link).to_have_attribute("href", "/rules/mokuru#witness")
    assert serious_violations(page) == []
    page.locator("#options").scroll_into_view_if_needed()
    shot(page, "lobby-mokuru-options", full=False)
    # The link opens the rules with its section open, beside the lobby.
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    expect(rules.locator("details#a-turn")).to_have_attribute("open", "")
    rules.close()
