"""The rules pages in the reader's language on a phone and a laptop: the page says its language, its
headings are the catalogue's, the fold buttons (worded too) open and fold every section, a link into
a section still opens it, and axe finds nothing serious. Screenshots of the Mojo and Mokuru pages in
French and German, folded and open, at 375 and 1280 wide (German words are long)."""

# ruff: noqa: RUF001 (French words are written with their own apostrophes)

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .axe import serious_violations
from .support import SCREENSHOTS

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "rules"
# The fold buttons' names and a heading each page shows, in each language.
WORDS = {
    "fr": {
        "open": "Sections\u00a0: tout déplier",
        "fold": "Sections\u00a0: tout replier",
        "goal": "But du jeu",
    },
    "de": {"open": "Abschnitte: alle aufklappen", "fold": "Abschnitte: alle zuklappen", "goal": "Spielziel"},
}
TITLES = {"fr": "Mokuru : comment jouer", "de": "Mokuru: So wird gespielt"}


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True, animations="disabled")


def no_sideways_scroll(page: Page) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize("width", [375, 1280])
def test_the_rules_fold_and_open_in_the_readers_language(
    server: ServeProcess, new_player: Callable[..., Page], lang: str, width: int
) -> None:
    page = new_player(width, 812, locale=f"{lang}-{lang.upper()}")
    words = WORDS[lang]
    for game in ("mojo", "mokuru"):
        page.goto(f"{server.base_url}/rules/{game}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        sections = page.locator("details.rules-section")
        expect(page.get_by_role("heading", level=2, name=words["goal"])).to_be_attached()
        assert page.locator("details.rules-section[open]").count() == 1
        shot(page, f"{game}-{lang}-folded")
        no_sideways_scroll(page)
        assert serious_violations(page) == []
        # The worded buttons open every section and fold them all again.
        page.get_by_role("button", name=words["open"]).click()
        assert page.locator("details.rules-section:not([open])").count() == 0
        expect(sections.last.locator("summary")).to_be_visible()
        shot(page, f"{game}-{lang}-open")
        no_sideways_scroll(page)
        assert serious_violations(page) == []
        page.get_by_role("button", name=words["fold"]).click()
        assert page.locator("details.rules-section[open]").count() == 0
    expect(page.get_by_role("heading", level=1)).to_have_text(TITLES[lang])


def test_a_link_into_a_section_opens_it_in_french(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    page = new_player(375, 812, locale="fr-FR")
    page.goto(f"{server.base_url}/rules/mokuru#witness")
    expect(page.locator("details#a-turn")).to_have_attribute("open", "")
    expect(page.locator("#witness")).to_be_in_viewport()
    expect(page.locator("#witness")).to_contain_text("Avec l’option témoins")
    # A heading click folds and opens a section in French as in English.
    summary = page.locator("details#the-belts summary")
    expect(summary).to_have_text("Les ceintures")
    summary.click()
    expect(page.locator("details#the-belts")).to_have_attribute("open", "")
    summary.click()
    expect(page.locator("details#the-belts")).not_to_have_attribute("open", "")


@pytest.mark.parametrize("lang", ["fr", "de", "nl", "es", "it"])
def test_every_rules_page_fits_a_phone_open_in_every_language(
    server: ServeProcess, new_player: Callable[..., Page], lang: str
) -> None:
    # Longer words than the English ones (a German compound, a French table header) must still wrap
    # inside a phone's width, every section open.
    page = new_player(375, 812, locale=lang)
    for game in ("mojo", "moby-trick", "mooki-island", "mokuru"):
        page.goto(f"{server.base_url}/rules/{game}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.locator('button[data-folds="open"]').click()
        assert page.locator("details.rules-section:not([open])").count() == 0
        widest = page.evaluate(
            """() => [...document.querySelectorAll('.rules *')]
                .filter((e) => !e.closest('[tabindex="0"]'))
                .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
                .map((e) => e.tagName + ' ' + e.textContent.slice(0, 40))"""
        )
        assert widest == [], (game, widest)
        no_sideways_scroll(page)
