# ruff: noqa: RUF001
"""The server's words in each reader's language, in real browsers: a table line read by a French and a
German player at one table at once, and the page an email's link opens."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .mail import Inbox, mailing_server
from .support import ann_and_bo_playing, shoot

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def speaking_server(
    tmp_path_factory: pytest.TempPathFactory, inbox: tuple[Inbox, int]
) -> Iterator[ServeProcess]:
    folder = tmp_path_factory.mktemp("motable-words")
    with mailing_server(folder, inbox[1], MOTABLE_LANGUAGES="all") as live:
        yield live


def _table(server: ServeProcess, new_player: Callable[..., Page]) -> tuple[Page, Page]:
    return ann_and_bo_playing(server.base_url, new_player, ("fr-FR", "de-DE"))


def test_two_friends_read_one_table_line_in_two_languages(
    speaking_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo = _table(speaking_server, new_player)
    ann.click("#pause-button")
    expect(ann.locator("#chat-log")).to_contain_text(f"Ann a demandé une pause{NBSP}; en attente de Bo")
    expect(bo.locator("#chat-log")).to_contain_text("Ann möchte die Partie pausieren; wartet auf Bo")
    expect(bo.locator("#chat-log")).not_to_contain_text("Ann asked to pause")
    # After a reload (read back over HTTP), each still in their own.
    bo.reload()
    expect(bo.locator("#chat-log")).to_contain_text("Ann möchte die Partie pausieren; wartet auf Bo")
    for page, name in ((ann, "server-words-fr"), (bo, "server-words-de")):
        for width, height in ((375, 812), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            page.locator("#chat-log").scroll_into_view_if_needed()
            shoot(page, name)


def test_the_email_and_the_page_its_link_opens_speak_the_readers_language(
    speaking_server: ServeProcess, inbox: tuple[Inbox, int], new_player: Callable[..., Page]
) -> None:
    box, _port = inbox
    before = len(box.mail)
    _ann, bo = _table(speaking_server, new_player)
    bo.click("#seat-menu-button")
    bo.fill("#alerts-email", "bo@example.org")
    bo.locator("#alerts-email-form button[type=submit]").click()
    deadline = time.monotonic() + 10
    while len(box.mail) <= before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(box.mail) == before + 1
    message = box.mail[-1]
    assert message["Subject"] == "Bestätige die E-Mail-Benachrichtigungen für deine Partie Mojo"
    found = re.search(r"(http://\S+/email/confirm\?t=\S+)", message.get_content())
    assert found is not None
    # Bo's language wrote the email; the pages its link opens speak whoever opens them: Ann (French)
    # looks first, then Bo (German) confirms.
    pages = (
        ("fr-FR", "M’envoyer un e-mail quand c’est mon tour", "email-page-fr"),
        ("de-DE", "Schick mir eine E-Mail, wenn ich dran bin", "email-page-de"),
    )
    for locale, heading, name in pages:
        page = new_player(locale=locale)
        page.goto(found.group(1))
        expect(page.locator("h1")).to_have_text(heading)
        for width, height in ((375, 812), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            shoot(page, f"{name}-ask")
    page.get_by_role("button", name="E-Mail-Benachrichtigungen bestätigen").click()
    expect(page.locator("h1")).to_have_text("E-Mail-Benachrichtigungen sind an")
    for width, height in ((375, 812), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        shoot(page, "email-page-de-done")
