"""The pages around the tables in French and German: the lobby's create options (the game's own
words, looked up in the reader's catalogue), "Your games" with the last move in words, the replay
page and the table screen. Screenshots at 375 and 1280 in each language."""

# ruff: noqa: RUF001 (French and German words are written with their own apostrophes)

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from app import i18n
from tests.servers import ServeProcess

from .axe import serious_violations
from .support import add_bot_and_start, shoot
from .test_replay import _finished_match

pytestmark = pytest.mark.browser

NB = "\u00a0"


def engine_word(lang: str, english: str) -> str:
    """An engine's words (engines/<game> marks them with N_) as the browser's catalogue of `lang`
    holds them: the page must show exactly that."""
    word = i18n.client_messages(lang)["messages"][english]
    assert isinstance(word, str) and word != english, (lang, english)
    return word


WORDS = {
    "fr": {
        "rules for": "règles pour Ceintures",
        "players": "avec ",
        "as": "en tant qu’Ann",
        "turn": r"^(À vous de jouer|Au tour (de |d’).+)$",
        "last": rf"(a joué|a retourné|a pioché|Vous{NB}:)",
        "ago": r"^ · (à l’instant|il y a .+)$",
        "forget": "Oublier cette partie de Mojo sur cet appareil",
        "forget asks": "Cet appareil ne gardera plus votre place en tant qu’Ann.",
        "keep": "La garder",
        "replay title": f"Mojo{NB}: revoir la partie",
        "dealt": "Coup 0 sur {moves} · Les cartes sont distribuées · vu par un spectateur",
        "forward": "Un coup en avant",
        "moved": r"Coup 1 sur \d+ · \S+ a joué · vu par un spectateur",
        "all": "Toutes les mains ouvertes",
        "hand of": "La main de Bo",
        "play": "Jouer",
        "scan": "Scannez pour prendre place",
        "waiting note": "Ann est là. Encore 1 joueur pour commencer.",
        "free": "Libre",
        "seat 2": "place 2",
        "live": "En direct",
        "waiting turn": "En attente de joueurs",
        "pad": "Feuille de score",
        "screen turn": r"^(Au tour (de |d’).+|En attente (de |d’).+)$",
    },
    "de": {
        "rules for": "Regeln zu Gürtel",
        "players": "mit ",
        "as": "als Ann",
        "turn": r"^(Du bist dran|.+ ist dran)$",
        "last": r"(hat .+ gespielt|hat .+ aufgedeckt|hat eine Karte gezogen|Du:)",
        "ago": r"^ · (gerade eben|.+ her)$",
        "forget": "Diesen Mojo-Tisch auf diesem Gerät vergessen",
        "forget asks": "Dieses Gerät hält deinen Platz als Ann nicht mehr.",
        "keep": "Behalten",
        "replay title": "Mojo: Wiederholung",
        "dealt": "Zug 0 von {moves} · Die Karten sind verteilt · aus Sicht der Zuschauer",
        "forward": "Einen Zug vor",
        "moved": r"Zug 1 von \d+ · \S+ hat gezogen · aus Sicht der Zuschauer",
        "all": "Alle Hände offen",
        "hand of": "Hand von Bo",
        "play": "Spielen",
        "scan": "Scanne, um Platz zu nehmen",
        "waiting note": "Ann ist da. Noch 1 Person bis zum Start.",
        "free": "Frei",
        "seat 2": "Platz 2",
        "live": "Live",
        "waiting turn": "Warten auf Mitspielende",
        "pad": "Punkteblock",
        "screen turn": r"^(.+ ist dran|Warten auf .+)$",
    },
}

LOCALES = {"fr": "fr-FR", "de": "de-DE"}


def both_widths(page: Page, name: str) -> None:
    """Screenshots at 1280 and at 375 (the page reflowed), nothing wider than the phone."""
    page.set_viewport_size({"width": 1280, "height": 800})
    shoot(page, name)
    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    shoot(page, name)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_lobbys_options_and_your_games_speak_the_readers_language(
    server: ServeProcess, new_player: Callable[..., Page], lang: str
) -> None:
    words = WORDS[lang]
    page = new_player(1280, 800, locale=LOCALES[lang])
    page.goto(server.base_url + "/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    # A game's options: its title, hint and choices in the reader's words, the rules link too.
    page.check('input[name="game"][value="mokuru"]')
    field = page.locator('label[for="opt-belts"]')
    expect(field.locator("> span")).to_have_text(engine_word(lang, "Belts"))
    expect(field.locator(".field-hint")).to_have_text(
        engine_word(lang, "Short skips some, for a quicker game.")
    )
    expect(page.locator('#opt-belts option[value="short"]')).to_have_text(
        engine_word(lang, "Short: fewer belts")
    )
    expect(page.locator('#opt-belts option[value="full"]')).to_have_text(engine_word(lang, "Every belt"))
    expect(field.get_by_role("link", name=words["rules for"])).to_be_visible()
    both_widths(page, f"language-lobby-options-{lang}")

    # A Mojo room with a bot, started; one move made (by whoever acts first).
    page.set_viewport_size({"width": 1280, "height": 800})
    page.fill("#player-name", "Ann")
    page.check('input[name="game"][value="mojo"]')
    page.click("#create-button")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("#waiting-panel:not([hidden])")
    add_bot_and_start(page, 1)
    room = page.url.split("/r/")[1].split("?")[0].split("#")[0]
    seats = page.evaluate("() => JSON.parse(localStorage.getItem('motable.seats'))")
    token = seats[room]["token"]
    with httpx.Client(base_url=server.base_url, headers={"Authorization": f"Bearer {token}"}) as api:
        for _ in range(100):
            state = api.get(f"/api/rooms/{room}/state").json()
            if state["status"] == "playing" and state["version"] > 1:
                break
            if state["status"] == "playing" and state["seat"] in state["to_act"]:
                body = {"action": state["legal_actions"][0], "version": state["version"]}
                assert api.post(f"/api/rooms/{room}/actions", json=body).status_code == 200
            page.wait_for_timeout(100)
        else:
            raise AssertionError("no move was made")

    # "Your games": the row's every word in the reader's language, the last move in the game's words.
    page.goto(server.base_url + "/")
    row = page.locator(f'#your-games .game-row[data-room="{room}"]')
    expect(row.locator(".game-row-last")).to_be_visible()
    expect(row.locator(".game-row-players")).to_contain_text(words["players"])
    expect(row.locator(".game-row-meta")).to_have_text(words["as"])
    expect(row.locator(".turn-badge")).to_have_text(re.compile(words["turn"]))
    expect(row.locator(".game-row-last")).to_contain_text(re.compile(words["last"]))
    expect(row.locator(".game-row-ago")).to_have_text(re.compile(words["ago"]))
    assert "played" not in row.locator(".game-row-last").inner_text()
    both_widths(page, f"language-your-games-{lang}")
    page.set_viewport_size({"width": 1280, "height": 800})
    row.get_by_role("button", name=words["forget"]).click()
    expect(row.locator(".forget-confirm")).to_contain_text(words["forget asks"])
    assert serious_violations(page) == []
    row.get_by_role("button", name=words["keep"]).click()
    expect(row.locator(".forget-confirm")).to_have_count(0)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_replay_page_speaks_the_readers_language(
    server: ServeProcess, new_player: Callable[..., Page], lang: str
) -> None:
    words = WORDS[lang]
    room, moves = _finished_match(server.base_url, "mojo", {"target": 10})
    page = new_player(1280, 800, locale=LOCALES[lang])
    page.goto(f"{server.base_url}/r/{room}/replay")
    expect(page.get_by_role("heading", level=1)).to_have_text(words["replay title"])
    where = page.locator("#replay-where")
    expect(where).to_have_text(words["dealt"].format(moves=moves))
    expect(page.get_by_role("button", name=words["play"])).to_be_visible()
    page.get_by_role("button", name=words["forward"]).click()
    expect(where).to_have_text(re.compile(words["moved"]))
    page.select_option("#replay-viewpoint", "all")
    expect(page.locator("#replay-viewpoint option:checked")).to_have_text(words["all"])
    expect(page.locator(".replay-frame-title").nth(1)).to_have_text(words["hand of"])
    assert serious_violations(page) == []
    both_widths(page, f"language-replay-{lang}")


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_table_screen_speaks_the_readers_language(
    server: ServeProcess, new_player: Callable[..., Page], lang: str
) -> None:
    words = WORDS[lang]
    made = httpx.post(f"{server.base_url}/api/rooms", json={"game": "mojo", "name": "Ann"}).json()
    room = made["room_id"]
    screen = new_player(1280, 800, locale=LOCALES[lang])
    screen.goto(f"{server.base_url}/r/{room}/screen")
    expect(screen.locator("#screen-conn")).to_have_text(words["live"])
    expect(screen.locator(".screen-turn-text")).to_have_text(words["waiting turn"])
    expect(screen.locator("#screen-waiting-title")).to_have_text(words["scan"])
    expect(screen.locator("#screen-waiting-note")).to_have_text(words["waiting note"])
    free = screen.locator(".screen-seat.is-open").first
    expect(free.locator(".screen-seat-name")).to_have_text(words["free"])
    expect(free.locator(".screen-seat-note")).to_have_text(words["seat 2"])
    assert serious_violations(screen) == []
    both_widths(screen, f"language-screen-waiting-{lang}")

    # In play: whose turn, the score pad's title.
    screen.set_viewport_size({"width": 1280, "height": 800})
    joined = httpx.post(f"{server.base_url}/api/rooms/{room}/join", json={"name": "Bo"}).json()
    assert joined["seat"] == 1
    started = httpx.post(
        f"{server.base_url}/api/rooms/{room}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    assert started.status_code == 200, started.text
    expect(screen.locator("#screen-game")).to_be_visible()
    expect(screen.locator("#screen-pad-title")).to_have_text(words["pad"])
    expect(screen.locator(".screen-turn-text")).to_have_text(re.compile(words["screen turn"]))
    expect(screen.locator("#screen-table .card[data-card-id]").first).to_be_visible()
    screen.evaluate("document.fonts.ready")
    both_widths(screen, f"language-screen-playing-{lang}")
