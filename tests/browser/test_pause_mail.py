"""The pause and the seat menu's alerts in Chromium: a pause asked in one browser and agreed in another,
with its banner and table lines, then resumed; "Email me when it's my turn" against a real SMTP server
(confirm from the email's link), quiet hours, and no email field on a server that sends no email."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .mail import Inbox, mailing_server
from .support import SCREENSHOTS, ann_and_bo_playing, in_view_wherever_scrolled

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "mail"


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory, inbox: tuple[Inbox, int]) -> Iterator[ServeProcess]:
    with mailing_server(tmp_path_factory.mktemp("motable-mail"), inbox[1]) as live:
        yield live


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), animations="disabled")


def started(server: ServeProcess, new_player: Callable[..., Page]) -> tuple[Page, Page]:
    return ann_and_bo_playing(server.base_url, new_player)


def test_a_pause_asked_in_one_browser_is_agreed_in_the_other(
    mail_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo = started(mail_server, new_player)
    ann.click("#pause-button")
    expect(ann.locator("#pause-banner")).to_contain_text("You asked to pause the game. Waiting for Bo.")
    expect(ann.locator("#pause-banner button")).to_have_count(0)
    banner = bo.locator("#pause-banner")
    expect(banner).to_contain_text("Ann asks to pause the game.")
    for width, height in ((375, 812), (1280, 800)):
        bo.set_viewport_size({"width": width, "height": height})
        in_view_wherever_scrolled(banner)
        shoot(bo, "pause-asked")
    banner.get_by_role("button", name="Agree to pause").click()
    for page in (ann, bo):
        expect(page.locator("#pause-banner")).to_contain_text("The game is paused.")
        expect(page.locator("#pause-tools")).to_be_hidden()
    expect(ann.locator("#chat-log")).to_contain_text("The game is paused (asked by Ann, agreed by Bo)")
    for width, height in ((375, 812), (1280, 800)):
        ann.set_viewport_size({"width": width, "height": height})
        shoot(ann, "pause-paused")
    bo.locator("#pause-banner").get_by_role("button", name="Resume the game").click()
    for page in (ann, bo):
        expect(page.locator("#pause-banner")).to_be_hidden()
        expect(page.locator("#pause-tools")).to_be_visible()
    expect(ann.locator("#chat-log")).to_contain_text("Bo resumed the game")
    # A refusal ends the next request at once.
    bo.click("#pause-button")
    ann.locator("#pause-banner").get_by_role("button", name="Refuse").click()
    for page in (ann, bo):
        expect(page.locator("#pause-banner")).to_be_hidden()
    expect(bo.locator("#chat-log")).to_contain_text("Ann refused to pause the game")


def test_email_me_when_its_my_turn(
    mail_server: ServeProcess, inbox: tuple[Inbox, int], new_player: Callable[..., Page]
) -> None:
    box, _port = inbox
    before = len(box.mail)
    ann, _bo = started(mail_server, new_player)
    ann.click("#seat-menu-button")
    prefs = ann.locator("#alerts-prefs")
    expect(prefs).to_contain_text("Email me when it's my turn")
    ann.fill("#alerts-email", "not an address")
    prefs.get_by_role("button", name="Send confirmation").click()
    expect(ann.locator("#alerts-error")).to_contain_text("not an email address")
    ann.fill("#alerts-email", "ann@example.org")
    prefs.get_by_role("button", name="Send confirmation").click()
    expect(ann.locator("#alerts-email-state")).to_contain_text("Check your inbox")
    # Quiet hours, in this browser's zone.
    ann.check("#quiet-toggle")
    expect(prefs).to_contain_text("Your time:")
    for width, height in ((375, 812), (1280, 800)):
        ann.set_viewport_size({"width": width, "height": height})
        prefs.scroll_into_view_if_needed()
        shoot(ann, "alerts-prefs")
    deadline = time.monotonic() + 10
    while len(box.mail) <= before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(box.mail) == before + 1
    message = box.mail[-1]
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    found = re.search(r"(http://\S+/email/confirm\?t=\S+)", message.get_content())
    assert found is not None
    page = new_player()
    page.goto(found.group(1))
    page.get_by_role("button", name="Confirm email alerts").click()
    expect(page.locator("h1")).to_have_text("Email alerts are on")
    for width, height in ((375, 812), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        shoot(page, "email-confirmed")
    # Back at the table the seat menu says so, and the quiet hours were kept.
    ann.reload()
    ann.click("#seat-menu-button")
    expect(ann.locator("#alerts-email-state")).to_contain_text("Emails are on")
    expect(ann.locator("#quiet-toggle")).to_be_checked()
    assert "ann@example.org" not in ann.content()


def test_no_email_field_without_smtp(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann, _bo = started(server, new_player)
    ann.click("#seat-menu-button")
    expect(ann.locator("#alerts-prefs")).to_contain_text("Quiet hours")
    expect(ann.locator("#alerts-email")).to_have_count(0)
