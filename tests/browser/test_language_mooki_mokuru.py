"""Mooki Island and Mokuru in the reader's language: a few moves of each in French and German, the
prompts, buttons, labels and the trick card read in each player's own words; screenshots at 375 and
1280 (looked at), and Mokuru's trick card and belt ladder fit a phone in German."""

# ruff: noqa: RUF001 (French and German words are written with their own apostrophes)

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from app import i18n
from tests.servers import ServeProcess

from .axe import serious_violations
from .support import mooki_names_too_wide, version

pytestmark = pytest.mark.browser

SHOTS = Path("test-artifacts/screenshots/language")
NBSP = "\u00a0"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True, animations="disabled")


def data_words(lang: str, context: str) -> set[str]:
    """The card data's words of `context` as the reader's catalogue says them."""
    messages = i18n.client_messages(lang)["messages"]
    assert isinstance(messages, dict)
    return {str(v) for k, v in messages.items() if k.startswith(context + "\x04")}


def press(page: Page, selector: str) -> None:
    before = version(page)
    page.locator(selector).first.click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)


def overflowing(page: Page, selector: str) -> list[str]:
    """What inside `selector` is cut off: an element whose text is wider than its box (and not
    scrolled or clipped on purpose), or the page scrolling sideways."""
    return list(
        page.evaluate(
            """(sel) => {
              // Words for screen readers alone (.sr-only) are clipped on purpose.
              const box = document.querySelector(sel);
              if (!box) return ["no " + sel];
              const seen = [box, ...box.querySelectorAll("*")]
                .filter((n) => !(n instanceof SVGElement) && !n.closest(".sr-only"));
              const clipped = (n) => getComputedStyle(n).overflowX === "hidden";
              const cut = seen.filter((n) => n.scrollWidth > n.clientWidth + 1 && clipped(n));
              const wide = seen.filter((n) => n.getBoundingClientRect().right > window.innerWidth + 1);
              const said = (n) => `${n.tagName.toLowerCase()}.${n.className}: ${n.textContent.slice(0, 40)}`;
              const sideways = document.documentElement.scrollWidth > window.innerWidth;
              const page = sideways ? ["the page scrolls sideways"] : [];
              return [...cut.map(said), ...wide.map(said), ...page];
            }""",
            selector,
        )
    )


def test_mooki_island_in_french_and_german(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player(375, 812, locale="fr-FR")
    ann.goto(server.base_url + "/")
    ann.fill("#player-name", "Ann")
    ann.check('input[name="game"][value="mooki-island"]')
    ann.check("#opt-memory_aid")
    ann.click("#create-button")
    ann.wait_for_url("**/r/**")
    bo = new_player(1280, 800, locale="de-DE")
    bo.goto(ann.url)
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    expect(ann.locator("#seat-list")).to_contain_text("Bo")
    ann.select_option("#starter-choice", "0")
    ann.click("#start-button")

    expect(ann.locator("#turn-status")).to_have_text(f"À vous{NBSP}: prenez la carte du dessus d’une pile.")
    expect(bo.locator("#turn-status")).to_have_text("Ann ist am Zug …")
    expect(ann.get_by_role("group", name="Piles de pioche")).to_be_visible()
    expect(ann.locator(".mooki-pile-label").first).to_contain_text("Prendre · pile 1")
    expect(bo.locator(".mooki-pile-label").first).to_contain_text("Stapel 1")
    expect(ann.locator(".mooki-collection.is-mine h2")).to_contain_text("Votre collection")
    expect(bo.locator(".mooki-collection.is-mine h2")).to_contain_text("Deine Sammlung")
    expect(bo.locator(".mooki-collection.is-theirs h2")).to_contain_text("Sammlung von Ann")
    aid = f"Aide-mémoire{NBSP}: vos Mookis par famille"
    expect(ann.locator(".mooki-aid")).to_have_attribute("aria-label", aid)
    expect(ann.locator(".mooki-aid")).to_contain_text("Soleil")
    shot(ann, "mooki-take-fr")

    press(ann, '#table [data-action="take"]')
    expect(ann.locator(".mooki-drawn h2")).to_have_text(
        f"Vous avez pioché cette carte{NBSP}: choisissez une face"
    )
    choices = ann.locator('.mooki-choice[data-action="place"]')
    expect(choices).to_have_count(2)
    for text in choices.locator(".mooki-choice-words").all_inner_texts():
        assert re.match(r"^(Garder (le|l’) |Envoyer l’Araignée à Bo$)", text), text
    expect(bo.locator(".mooki-drawn h2")).to_have_text("Ann wählt …")
    expect(bo.locator(".mooki-flip").nth(1)).to_contain_text("die verdeckte Seite")
    # A long family name ("Coquillage") fits its card, small ones too.
    assert mooki_names_too_wide(ann) == []
    shot(ann, "mooki-choice-fr")
    shot(bo, "mooki-waiting-de")
    press(ann, '.mooki-choice[data-side="upper"]')
    expect(ann.locator("#game-log")).to_contain_text("Vous avez pris une carte de la pile 1")
    expect(bo.locator("#game-log")).to_contain_text("Ann hat eine Karte von Stapel 1 genommen")
    # Bo's turn, in German.
    expect(bo.locator("#turn-status")).to_have_text("Du bist dran: nimm die oberste Karte eines Stapels.")
    assert serious_violations(bo) == []
    press(bo, '#table [data-action="take"]')
    expect(bo.locator(".mooki-drawn h2")).to_have_text("Du hast diese Karte gezogen: wähle eine Seite")
    for text in bo.locator(".mooki-choice-words").all_inner_texts():
        assert re.match(r"^(Behalte das |Schick die Spinne zu Ann$)", text), text
    shot(bo, "mooki-choice-de")
    bo.set_viewport_size({"width": 375, "height": 812})
    assert mooki_names_too_wide(bo) == []
    shot(bo, "mooki-choice-de")
    ann.set_viewport_size({"width": 1280, "height": 800})
    shot(ann, "mooki-waiting-fr")


def first_move(page: Page) -> bool:
    """Makes the page's first move, if it has one; False when it has none (or another came first)."""
    buttons = page.locator("#table .mokuru-moves button[data-action]:not([disabled])")
    if not buttons.count():
        return False
    before = version(page)
    try:
        buttons.first.click(timeout=2000)
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=5000)
    except PlaywrightTimeout:
        return False
    return True


def test_mokuru_in_german_and_french(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player(375, 812, locale="de-DE")
    bo = new_player(1280, 800, locale="fr-FR")
    ann.goto(server.base_url + "/")
    ann.fill("#player-name", "Ann")
    ann.check('input[name="game"][value="mokuru"]')
    ann.click("#create-button")
    ann.wait_for_url("**/r/**")
    bo.goto(ann.url)
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    expect(ann.locator("#seat-list")).to_contain_text("Bo")
    ann.select_option("#starter-choice", "0")
    ann.click("#start-button")

    # The difficulty, each in their own words.
    expect(ann.locator("#turn-status")).to_have_text("Wähle deine Schwierigkeit.")
    expect(ann.locator("#table .mokuru-moves")).to_contain_text("Extrem: ein Finger, 1 Versuch")
    expect(bo.locator("#table .mokuru-moves")).to_contain_text(f"Facile{NBSP}: une main, 3 essais")
    expect(ann.get_by_role("list", name="Gürteltafel")).to_contain_text("Weißgurt")
    expect(ann.locator(".mokuru-belt-name").first).to_have_text("Großmeister")
    expect(bo.locator(".mokuru-belt-name").last).to_have_text("Ceinture blanche")
    shot(ann, "mokuru-difficulty-de")
    press(ann, '#table .mokuru-moves button:has-text("Leicht")')
    press(bo, '#table .mokuru-moves button:has-text("Normal")')
    expect(ann.locator(".mokuru-belt-label").first).to_have_text("Weißgurt")
    expect(bo.locator(".mokuru-seat").first).to_contain_text("Facile · une main · 3 essais")
    expect(ann.locator("#table .mokuru-moves")).to_contain_text("Eine Karte ziehen")

    # Draw on (an action card may come first) until a trick is on the table.
    german, french = data_words("de", "mokuru trick"), data_words("fr", "mokuru trick")
    for _ in range(30):
        if ann.locator(".mokuru-card").count():
            break
        first_move(ann) or first_move(bo)
    card = ann.locator(".mokuru-card")
    expect(card).to_be_visible()
    assert card.locator(".mokuru-card-name").inner_text() in german
    assert bo.locator(".mokuru-card-name").inner_text() in french
    assert card.locator(".mokuru-description").inner_text() in data_words("de", "mokuru trick description")
    assert bo.locator(".mokuru-description").inner_text() in data_words("fr", "mokuru trick description")
    category = card.locator(".mokuru-category").inner_text()
    assert re.match(r"^(Basis|Fortgeschritten|Kampf|Herausforderung|Meister) · \d Mokuru$", category), (
        category
    )
    # Whoever performs has the referee's buttons in their language (a Battle first names its rival:
    # "Gegen Bo kämpfen").
    reports = {"Geschafft", "Verpatzt", "Fertig!", "Réussi", "Raté", f"Fini{NBSP}!"}
    for _ in range(5):
        performer = ann if ann.locator("#table .mokuru-moves button").count() else bo
        labels = performer.locator("#table .mokuru-moves button").all_inner_texts()
        if set(labels) & reports:
            break
        assert all(re.match(r"^(Gegen |Affronter )", label) for label in labels), labels
        first_move(performer)
    wanted = {"Geschafft", "Verpatzt", "Fertig!"} if performer is ann else {"Réussi", "Raté", f"Fini{NBSP}!"}
    assert set(labels) & wanted, labels
    shot(ann, "mokuru-trick-de")
    shot(bo, "mokuru-trick-fr")
    # The German trick card and the belts ladder fit a phone.
    assert overflowing(ann, ".mokuru-trick") == []
    assert overflowing(ann, ".mokuru-ladder") == []
    assert serious_violations(ann) == []
    landed = "Geschafft" if performer is ann else "Réussi"
    if landed in labels:
        press(performer, f'#table .mokuru-moves button:text-is("{landed}")')
        said = "geschafft" if performer is ann else "réussi"
        expect(performer.locator("#game-log")).to_contain_text(said)
    ann.set_viewport_size({"width": 1280, "height": 800})
    bo.set_viewport_size({"width": 375, "height": 812})
    shot(ann, "mokuru-after-de")
    shot(bo, "mokuru-after-fr")
