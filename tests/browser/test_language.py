"""Each person reads Motable in their own language: the browser's, or the one they pick in the switch,
kept for that browser; the page's own scripts speak it too."""

# ruff: noqa: RUF001 (French and German words are written with their own apostrophes)

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .axe import serious_violations
from .support import add_bot_and_start, create_room, in_view_wherever_scrolled, join_room, motion_done
from .test_since_you_left import play_until, start_with_bo_and_cy

pytestmark = pytest.mark.browser

SHOTS = Path("test-artifacts/screenshots/language")


def test_the_browsers_language_is_spoken_by_the_page_and_its_scripts(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    page = new_player(375, 812, locale="fr-FR")
    page.goto(server.base_url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", name="Lancer une partie")).to_be_visible()
    # A word the page's script says (no name typed yet): from the French catalogue.
    page.get_by_role("button", name="Créer la partie").click()
    expect(page.locator("#create-error")).to_have_text(
        "Indiquez d’abord votre nom, pour que vos amis sachent qui les invite."
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lobby-fr-375.png"), full_page=True)
    assert serious_violations(page) == []


def test_the_switch_keeps_the_readers_choice_for_this_browser_only(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(1280, 800, locale="fr-FR")
    ann.goto(server.base_url + "/")
    switch = ann.get_by_label("Langue")
    expect(switch).to_have_value("fr")
    switch.select_option("de")
    expect(ann.locator("html")).to_have_attribute("lang", "de")
    expect(ann.get_by_role("heading", name="Eine Partie starten")).to_be_visible()
    # Kept for this browser: another page, and the same page again, stay German over the browser's French.
    ann.goto(server.base_url + "/nowhere")
    expect(ann.get_by_role("heading", name="Hier ist nichts")).to_be_visible()
    ann.goto(server.base_url + "/")
    expect(ann.get_by_label("Sprache")).to_have_value("de")
    ann.screenshot(path=str(SHOTS / "lobby-de-1280.png"))
    # Another person (another browser) still reads their own browser's language.
    bo = new_player(1280, 800, locale="it-IT")
    bo.goto(server.base_url + "/")
    expect(bo.get_by_role("heading", name="Inizia una partita")).to_be_visible()
    english = new_player(1280, 800, locale="en-GB")
    english.goto(server.base_url + "/")
    expect(english.get_by_role("heading", name="Start a game")).to_be_visible()


def test_friends_at_one_table_each_read_the_room_in_their_own_language(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(375, 812, locale="fr-FR")
    share_url = create_room(ann, server.base_url, "Ann")
    expect(ann.get_by_role("heading", name="Invitez vos amis")).to_be_visible()
    expect(ann.get_by_role("button", name="Ajouter un robot")).to_be_visible()
    bo = new_player(375, 812, locale="de-DE")
    join_room(bo, share_url, "Bo")
    expect(bo.get_by_role("heading", name="Lade deine Freunde ein")).to_be_visible()
    expect(bo.locator("html")).to_have_attribute("lang", "de")
    cy = new_player(1280, 800, locale="en-US")
    join_room(cy, share_url, "Cy")
    expect(cy.get_by_role("heading", name="Invite your friends")).to_be_visible()
    ann.screenshot(path=str(SHOTS / "room-waiting-fr-375.png"), full_page=True)
    bo.screenshot(path=str(SHOTS / "room-waiting-de-375.png"), full_page=True)
    for page in (ann, bo):
        assert serious_violations(page) == []


@pytest.mark.parametrize("locale", ["fr-FR", "de-DE", "nl-NL", "es-ES", "it-IT"])
def test_a_table_on_a_phone_holds_in_every_language(
    server: ServeProcess, new_player: Callable[..., Page], locale: str
) -> None:
    # Longer words must not push the page sideways or the header's tools onto a second line.
    page = new_player(375, 812, locale=locale)
    create_room(page, server.base_url, "Ann")
    add_bot_and_start(page, 1)
    page.wait_for_selector("#game-panel:not([hidden])")
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    # Measured once the deal's cards have landed (a card in flight may pass outside the page).
    motion_done(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 70
    page.screenshot(path=str(SHOTS / f"mojo-{locale[:2]}-375.png"))
    assert serious_violations(page) == []


def started_in_two_languages(server: ServeProcess, new_player: Callable[..., Page]) -> tuple[Page, Page]:
    """Ann (a French browser) hosts, Bo (a German one) joins, and the game starts; both at 375 px."""
    ann = new_player(375, 812, locale="fr-FR")
    url = create_room(ann, server.base_url, "Ann")
    bo = new_player(375, 812, locale="de-DE")
    join_room(bo, url, "Bo")
    expect(ann.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(2)
    # The waiting room's chat, drawn by its script, before anyone wrote.
    expect(ann.locator("#chat-empty")).to_have_text("Pas encore de message. Dites bonjour !")
    expect(bo.locator("#chat-empty")).to_have_text("Noch keine Nachrichten. Sag Hallo!")
    # The host's "players on this device" form is the script's own.
    expect(ann.locator("#device-players h3")).to_have_text("Joueurs sur cet appareil")
    ann.get_by_role("button", name="Ajouter sur cet appareil").click()
    expect(ann.locator("#device-error")).to_have_text("Indiquez le nom du joueur.")
    ann.screenshot(path=str(SHOTS / "device-players-fr-375.png"), full_page=True)
    assert serious_violations(ann) == []
    ann.click("#start-button")
    for page in (ann, bo):
        expect(page.locator("#game-panel")).to_be_visible()
    return ann, bo


def test_a_pause_is_asked_and_agreed_in_each_readers_language(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo = started_in_two_languages(server, new_player)
    ann.click("#pause-button")
    expect(ann.locator("#pause-banner")).to_contain_text("Vous avez demandé une pause. En attente de Bo.")
    banner = bo.locator("#pause-banner")
    expect(banner).to_contain_text("Ann bittet um eine Pause. Bist du einverstanden?")
    in_view_wherever_scrolled(banner)
    bo.screenshot(path=str(SHOTS / "pause-asked-de-375.png"))
    assert serious_violations(bo) == []
    banner.get_by_role("button", name="Pause zustimmen").click()
    expect(ann.locator("#pause-banner")).to_contain_text("La partie est en pause.")
    expect(bo.locator("#pause-banner")).to_contain_text("Die Partie ist pausiert.")
    resume = ann.locator("#pause-banner").get_by_role("button", name="Reprendre la partie")
    expect(resume).to_be_visible()
    in_view_wherever_scrolled(ann.locator("#pause-banner"))
    ann.screenshot(path=str(SHOTS / "pause-paused-fr-375.png"))
    assert serious_violations(ann) == []
    resume.click()
    expect(bo.locator("#pause-banner")).to_be_hidden()


def test_the_seat_menu_speaks_each_readers_language(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo = started_in_two_languages(server, new_player)
    words = {
        ann: (
            "Vous jouez en tant qu’Ann.",
            "Alertes loin de la table",
            "Heures calmes : ne rien envoyer",
            "Les clés d’accès ne fonctionnent pas à cette adresse",
            "Partir pour de bon : un robot prend votre place",
            "Ce navigateur ne garde plus la place d’Ann.",
        ),
        bo: (
            "Du spielst als Bo.",
            "Benachrichtigungen, wenn du nicht am Tisch bist",
            "Ruhezeit: nichts senden",
            "Passkeys funktionieren unter dieser Adresse",
            "Endgültig gehen: Ein Bot übernimmt deinen Platz",
            "Dieser Browser hält Bos Platz nicht mehr.",
        ),
    }
    for page, lang in ((ann, "fr"), (bo, "de")):
        who, alerts, quiet, passkey, leave, forget = words[page]
        page.click("#seat-menu-button")
        dialog = page.locator("#seat-dialog")
        expect(dialog.locator("#seat-dialog-who")).to_have_text(who)
        expect(page.locator("#alerts-prefs h3")).to_have_text(alerts)
        expect(page.locator("#alerts-prefs")).to_contain_text(quiet)
        expect(page.locator("#room-passkey")).to_contain_text(passkey)
        page.screenshot(path=str(SHOTS / f"seat-menu-{lang}-375.png"))
        page.locator("#alerts-prefs").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"seat-menu-alerts-{lang}-375.png"))
        assert serious_violations(page) == []
        page.click("#leave-button")
        expect(page.locator("#leave-button")).to_have_text(leave)
        page.click("#forget-button")
        expect(page.locator("#forget-words")).to_contain_text(forget)
        page.locator("#forget-words").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"seat-menu-leave-{lang}-375.png"))
        assert serious_violations(page) == []
        page.click("#forget-no")


def test_a_seat_request_is_asked_in_the_holders_language(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    for holder_locale, asker_locale, yes, no in (
        ("de-DE", "fr-FR", "Ja, das bin ich (zustimmen)", "Nein, ablehnen"),
        ("fr-FR", "de-DE", "Oui, c’est moi (approuver)", "Non, refuser"),
    ):
        host = new_player(375, 812, locale=asker_locale)
        url = create_room(host, server.base_url, "Ann")
        bo = new_player(375, 812, locale=holder_locale)
        join_room(bo, url, "Bo")
        # Bo's browser data is gone; on another device he watches and picks his name.
        bo.evaluate("localStorage.clear()")
        asker = new_player(375, 812, locale=asker_locale)
        asker.goto(url)
        asker.click("#watch-button")
        asker.locator("#way-back").get_by_role("button", name="Bo").click()
        alert = bo.locator("#seat-alert")
        expect(alert.get_by_role("button", name=yes)).to_be_visible()
        expect(alert.get_by_role("button", name=no)).to_be_visible()
        in_view_wherever_scrolled(alert)
        bo.screenshot(path=str(SHOTS / f"seat-request-{holder_locale[:2]}-375.png"))
        assert serious_violations(bo) == []
        alert.get_by_role("button", name=no).click()
        expect(alert).to_be_hidden()


@pytest.mark.parametrize(
    ("locale", "heading", "your_turn", "button"),
    [
        ("fr-FR", "Depuis votre départ", "À vous", "À la table"),
        ("de-DE", "Seit du weg warst", "Du bist dran", "Zum Tisch"),
    ],
)
def test_since_you_left_and_the_passkey_box_speak_the_readers_language(
    server: ServeProcess,
    new_player: Callable[..., Page],
    locale: str,
    heading: str,
    your_turn: str,
    button: str,
) -> None:
    lang = locale[:2]
    ann = new_player(375, 812, locale=locale)
    url = create_room(ann, server.base_url, "Ann")
    room_id = url.split("/r/")[1].split("#")[0]
    with httpx.Client(base_url=server.base_url) as http:
        tokens = start_with_bo_and_cy(ann, http, room_id)
        play_until(http, room_id, tokens, seat=1)
        version = http.get(f"/api/rooms/{room_id}").json()["version"]
        ann.wait_for_function("v => Number(document.body.dataset.version) === v", arg=version)
        # Away at the home page: its passkey box (at 127.0.0.1, the offer of localhost) speaks too.
        ann.goto(server.base_url + "/")
        box = ann.locator("#passkey-box")
        expect(box).to_contain_text(
            {
                "fr": "Les clés d’accès ne fonctionnent pas",
                "de": "Passkeys funktionieren unter dieser Adresse",
            }[lang]
        )
        box.scroll_into_view_if_needed()
        ann.screenshot(path=str(SHOTS / f"lobby-passkey-{lang}-375.png"))
        play_until(http, room_id, tokens, seat=0)
        ann.goto(url)
    card = ann.locator("#since-you-left")
    expect(card.locator("h2")).to_have_text(heading)
    expect(card.locator(".since-ask")).to_contain_text(your_turn)
    expect(card.get_by_role("button", name=button)).to_be_visible()
    ann.evaluate("window.scrollTo(0, 0)")
    ann.screenshot(path=str(SHOTS / f"since-you-left-{lang}-375.png"))
    assert serious_violations(ann) == []


def test_the_passkey_box_at_localhost_speaks_the_readers_language(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    local = server.base_url.replace("127.0.0.1", "localhost")
    for locale, sign_in, save in (
        ("fr-FR", "Se connecter avec une clé d’accès", "Enregistrer mes parties dans une clé d’accès"),
        ("de-DE", "Mit Passkey anmelden", "Meine Partien in einem Passkey speichern"),
    ):
        page = new_player(375, 812, locale=locale)
        create_room(page, local, "Ann")
        page.goto(local + "/")
        box = page.locator("#passkey-box")
        expect(box.get_by_role("button", name=sign_in)).to_be_visible()
        expect(box.get_by_role("button", name=save)).to_be_visible()
        box.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"lobby-passkey-localhost-{locale[:2]}-375.png"))
        assert serious_violations(page) == []
