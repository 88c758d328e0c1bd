"""The strict Content-Security-Policy costs the pages nothing: no violation while a room is made,
joined and played, and another site cannot frame the room page."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import add_bot_and_start, create_room

pytestmark = pytest.mark.browser


def watch_violations(page: Page) -> list[str]:
    seen: list[str] = []
    page.on(
        "console",
        lambda message: seen.append(message.text) if "Content Security Policy" in message.text else None,
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (e) => console.error("
        "'Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    return seen


def test_pages_run_under_the_strict_policy(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player()
    violations = watch_violations(ann)
    share_url = create_room(ann, server.base_url, "Ann")
    expect(ann.locator(".qr svg")).to_be_visible()
    bo = new_player()
    violations += watch_violations(bo)
    bo.goto(share_url)
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    add_bot_and_start(ann, seats_before_bot=2)
    ann.wait_for_selector("#game-panel:not([hidden])")
    ann.goto(server.base_url + "/rules/mojo")
    expect(ann.locator("h1")).to_be_visible()
    assert violations == []


def test_another_site_cannot_frame_the_room_page(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    page = new_player()
    share_url = create_room(page, server.base_url, "Ann")
    # A page of another origin (about:blank here) framing the room page.
    page.goto("about:blank")
    page.set_content(f'<iframe id="f" src="{share_url}" width="600" height="400"></iframe>')
    page.wait_for_timeout(1500)
    frame = page.frame_locator("#f")
    assert frame.locator("#room").count() == 0, "the room page rendered inside another site's frame"
