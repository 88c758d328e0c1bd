"""Mojo and Moby Trick in the reader's language: a French and a German phone play a few moves of
each game, and every prompt, label, button and log line the tables draw is in that language, and
fits on the phone's screen."""

# ruff: noqa: RUF001 (French and German words are written with their own apostrophes)

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .axe import serious_violations
from .support import add_bot_and_start, create_room, motion_done, shoot, version

pytestmark = pytest.mark.browser

# Words a table said in English before it spoke the reader's language: none may be left.
ENGLISH = re.compile(
    r"\b(Your turn|your turn|Draw pile|Discard|Play here|Take it|in hand|What happened|Round \d|"
    r"playing|played|Trump|Token|Bonuses|lowest wins|highest wins|Last trick|Trick \d|cards?|pearls?|"
    r"orcas?|narwhals?|blue whales?|sperm whales?|Face down|Revealed|You )\b"
)

# The names a table's own parts give themselves, said to a screen reader, and what else they read.
_WORDS = """() => {
  const table = document.querySelector("#table");
  const named = [...table.querySelectorAll("[aria-label], [title]")]
    .map((n) => [n.getAttribute("aria-label"), n.getAttribute("title")].filter(Boolean).join(" | "));
  const glyphs = [...table.querySelectorAll("[data-glyph]")].map((n) => n.dataset.glyph);
  return { text: table.innerText, named, glyphs };
}"""

# Words that spill out of their box, or past the screen's right edge.
_SPILLED = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  const words = "#table button, #table .pile-label, #table .seat-title, #table .turn-flag, #table .chip, "
    + "#table .count, #table .table-status, #table .facedown-label, #table .compass-label, "
    + "#table .row-label, "
    + "#table .group-label, #table .trump-name, #table .token-words, #table .round-line, #table .led, "
    + "#table .muted-note, #table .mini-label, #table .slot-name, #table .take-label, #table .bonus-words, "
    + "#table .pearl-count, #table h2";
  for (const node of document.querySelectorAll(words)) {
    if (!node.offsetParent) continue;
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    const clips = style.overflowX !== "visible" || style.textOverflow === "ellipsis";
    if (box.right > width + 0.5 || (clips && node.scrollWidth > node.clientWidth + 1)) {
      out.push(`${node.className}: ${node.textContent.trim().slice(0, 60)}`);
    }
  }
  return out;
}"""


def words_of(page: Page) -> dict[str, Any]:
    return page.evaluate(_WORDS)


def assert_no_english(page: Page) -> None:
    said = words_of(page)
    for text in [said["text"], *said["named"], *said["glyphs"]]:
        # The seats' own names and the game's printed names are as they are.
        found = ENGLISH.search(text.replace("Mojo Time", "").replace("Mojo", ""))
        assert found is None, f"English {found.group(0)!r} in {text[:200]!r}"


def assert_fits(page: Page) -> None:
    motion_done(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
    assert page.evaluate(_SPILLED) == []


def after_move(page: Page, selector: str) -> None:
    before = version(page)
    page.locator(selector).first.click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)


MOJO = {
    "fr": {
        "your_turn": "À vous\u00a0: jouez une carte. Plus bas, votre tour s’arrête",
        "play": re.compile(r"^Jouer \d+ (bleu|vert|jaune|orange|rouge)$"),
        "hand": "Votre main",
        "draw_pile": re.compile(r"^Pioche( \d+)?$"),
        "discard": re.compile(r"^Défausse\s*$"),
        "seat": re.compile(r"^.+\u00a0: 8 cartes en main"),
        "mojo": "Carte Mojo sur 0\u00a0; on joue dans le sens des aiguilles d’une montre",
        "log": "Ce qui s’est passé",
        "mine": re.compile(r"Vous avez joué un \d+ (bleu|vert|jaune|orange|rouge)"),
        "count": re.compile(r"\d+ en main"),
    },
    "de": {
        "your_turn": "Du bist dran: Spiel eine Karte. Niedriger beendet deinen Zug",
        "play": re.compile(r"^(blaue|grüne|gelbe|orange|rote) \d+ spielen$"),
        "hand": "Deine Hand",
        "draw_pile": re.compile(r"^Nachziehstapel( \d+)?$"),
        "discard": re.compile(r"^Ablage\s*$"),
        "seat": re.compile(r"^.+: 8 Karten auf der Hand"),
        "mojo": "Mojo-Karte zeigt 0; es geht im Uhrzeigersinn weiter",
        "log": "Was passiert ist",
        "mine": re.compile(r"Du hast eine (blaue|grüne|gelbe|orange|rote) \d+ gespielt"),
        "count": re.compile(r"\d+ auf der Hand"),
    },
}


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_mojo_is_played_in_the_readers_language(
    server: ServeProcess, new_player: Callable[..., Page], lang: str
) -> None:
    words = MOJO[lang]
    page = new_player(375, 812, locale=f"{lang}-{lang.upper()}")
    create_room(page, server.base_url, "Ann", target=50)
    add_bot_and_start(page, 1)
    expect(page.locator("#game-panel")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    # The host starts: the prompt, the hand and its cards, the piles, the other seat, the Mojo card.
    expect(page.locator("#turn-status")).to_contain_text(words["your_turn"])
    expect(page.locator("#hand")).to_have_attribute("aria-label", words["hand"])
    playable = page.locator("#hand button[data-action=play]")
    expect(playable.first).to_have_attribute("aria-label", words["play"])
    expect(page.locator(".draw-pile .pile-label")).to_have_text(words["draw_pile"])
    expect(page.locator(".discard-pile .pile-label")).to_have_text(words["discard"])
    expect(page.locator(".seat-panel").first).to_have_attribute("aria-label", words["seat"])
    expect(page.locator(".mojo-card")).to_have_attribute("aria-label", words["mojo"])
    expect(page.locator(".log-panel h2")).to_have_text(words["log"])
    expect(page.locator(".mojo-mine .count")).to_have_text(words["count"])
    assert_no_english(page)
    assert_fits(page)
    shoot(page, f"language-mojo-{lang}-start")

    # A move: the log says it in the reader's words, and whatever the table asks next is theirs too.
    seat_words = page.locator(".seat-panel").first.get_attribute("aria-label") or ""
    bot = seat_words.split(":")[0].strip()
    after_move(page, "#hand button[data-action=play]")
    expect(page.locator("#game-log")).to_contain_text(words["mine"])
    # The turn goes on after a card equal to the one it covers (play again) or a higher one (draw):
    # the host plays it to its end, then the bot plays its turn and the log says so.
    turn_goes_on = ".mojo-mine.is-current #hand button[data-action=play], .draw-pile[data-action=draw-deck]"
    for _ in range(12):
        if not page.locator(turn_goes_on).count():
            break
        after_move(page, turn_goes_on)
    expect(page.locator("#game-log li", has_text=bot).first).to_be_attached()
    assert_no_english(page)
    assert_fits(page)
    shoot(page, f"language-mojo-{lang}-played")
    assert serious_violations(page) == []
    page.set_viewport_size({"width": 1280, "height": 800})
    assert_fits(page)
    shoot(page, f"language-mojo-{lang}-played")


MOBY = {
    "fr": {
        "set_aside": "Choisissez votre premier bonus\u00a0: mettez de côté une carte de votre main",
        "trump": re.compile(r"Atout.*(orques|narvals|baleines bleues|cachalots)", re.S),
        "token": re.compile(r"Jeton.*le plus (bas|haut) gagne", re.S),
        "aside": re.compile(r"^Mettre .+ de côté comme premier bonus$"),
        "lead": "À vous d’ouvrir\u00a0: jouez n’importe quelle carte.",
        "play": re.compile(r"^Jouer .+\d"),
        "bonuses": "Bonus",
        "mine": re.compile(r"Vous avez joué un \d+( d’orque| de narval| de baleine bleue| de cachalot)?\."),
        "aside_log": re.compile(r"Vous avez mis un \d+ .*de côté comme premier bonus\."),
    },
    "de": {
        "set_aside": "Wähle deinen ersten Bonus: Leg eine Karte deiner Hand beiseite",
        "trump": re.compile(r"Trumpf.*(Orcas|Narwale|Blauwale|Pottwale)", re.S),
        "token": re.compile(r"Marker.*(niedrigste|höchste) gewinnt", re.S),
        "aside": re.compile(r"^.+ als ersten Bonus beiseitelegen$"),
        "lead": "Du spielst aus: Spiel eine beliebige Karte.",
        "play": re.compile(r"^.+\d.* spielen$"),
        "bonuses": "Boni",
        "mine": re.compile(r"Du hast eine (Orca-|Narwal-|Blauwal-|Pottwal-)?\d+ gespielt\."),
        "aside_log": re.compile(r"Du hast eine .*\d+ als ersten Bonus beiseitegelegt\."),
    },
}


def create_moby_room(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.fill("#player-name", "Ann")
    page.check('input[name="game"][value="moby-trick"]')
    page.fill("#opt-target", "30")
    page.click("#create-button")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("#waiting-panel:not([hidden])")


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_moby_trick_is_played_in_the_readers_language(
    server: ServeProcess, new_player: Callable[..., Page], lang: str
) -> None:
    words = MOBY[lang]
    page = new_player(375, 812, locale=f"{lang}-{lang.upper()}")
    create_moby_room(page, server.base_url)
    add_bot_and_start(page, 1)
    expect(page.locator("#game-panel")).to_be_visible()
    # The first bonus: the prompt, trump and token, and each card names what a press does.
    expect(page.locator("#table[data-phase=set_aside][data-my-turn=true]")).to_be_attached()
    expect(page.locator("#turn-status")).to_contain_text(words["set_aside"])
    expect(page.locator("#trump")).to_contain_text(words["trump"])
    expect(page.locator("#token")).to_contain_text(words["token"])
    expect(page.locator(".my-bonuses .row-label")).to_have_text(words["bonuses"])
    aside = page.locator("#hand button[data-action=set_aside]").first
    expect(aside).to_have_attribute("aria-label", words["aside"])
    assert_no_english(page)
    assert_fits(page)
    shoot(page, f"language-moby-{lang}-set-aside")

    after_move(page, "#hand button[data-action=set_aside]")
    # The bot chooses too; then this player leads the first trick.
    expect(page.locator("#table[data-phase=play][data-my-turn=true]")).to_be_attached()
    expect(page.locator("#turn-status")).to_contain_text(words["lead"])
    expect(page.locator("#game-log")).to_contain_text(words["aside_log"])
    play = page.locator("#hand button[data-action=play]").first
    expect(play).to_have_attribute("aria-label", words["play"])
    after_move(page, "#hand button[data-action=play]")
    expect(page.locator("#game-log")).to_contain_text(words["mine"])
    assert_no_english(page)
    assert_fits(page)
    shoot(page, f"language-moby-{lang}-played")
    assert serious_violations(page) == []
    page.set_viewport_size({"width": 1280, "height": 800})
    assert_fits(page)
    shoot(page, f"language-moby-{lang}-played")
