"""Words a player understands: a friendly 404 for an unknown room, a rules link in every room."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import create_room, shoot
from tests.servers import ServeProcess

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [375, 1280])
def test_unknown_room_and_rules_link(
    server: ServeProcess, new_player: Callable[..., Page], width: int
) -> None:
    page = new_player(width, 812)
    answer = page.goto(server.base_url + "/r/nosuchroom")
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("heading", name="Nothing here")).to_be_visible()
    expect(page.get_by_text("This room does not exist")).to_be_visible()
    shoot(page, "room-not-found")

    create_room(page, server.base_url, "Ann")
    link = page.get_by_role("link", name="How to play")
    expect(link).to_be_visible()
    assert link.get_attribute("href") == "/rules/mojo"
    shoot(page, "room-rules-link")
    page.goto(server.base_url + "/rules/moby-trick")
    expect(page.get_by_text("our reconstruction")).to_have_count(1)
    assert "engines/" not in page.content()
