"""A browser that blocks site storage still loads every page: spectators need no storage, and a
player is told plainly that the seat will not be remembered."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import add_bot_and_start, create_room, join_room, shoot

pytestmark = pytest.mark.browser

# What Chromium does when the user blocks cookies and site data: touching localStorage throws.
BLOCK_STORAGE = """
Object.defineProperty(window, "localStorage", {
  get() { throw new DOMException("The user blocked site storage.", "SecurityError"); },
});
"""


def blocked(new_player: Callable[..., Page], width: int = 1280) -> Page:
    page = new_player(width, 900)
    page.context.add_init_script(BLOCK_STORAGE)
    return page


def test_blocked_storage_still_loads_the_room_for_players_and_spectators(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player()
    url = create_room(ann, server.base_url, "Ann")
    expect(ann.locator("#storage-warning")).to_be_hidden()

    # The lobby itself loads and lists the games.
    bo = blocked(new_player, 375)
    bo.goto(server.base_url + "/")
    expect(bo.locator('input[name="game"][value="mojo"]')).to_be_visible()

    join_room(bo, url, "Bo")
    expect(bo.locator("#storage-warning")).to_be_visible()
    expect(bo.locator("#storage-warning")).to_contain_text("will not remember your seat")
    shoot(bo, "storage-blocked-waiting")

    cy = blocked(new_player)
    cy.goto(url + "?watch")
    expect(cy.locator("#room-title")).not_to_have_text("Loading the room…")
    expect(cy.locator("#storage-warning")).to_be_hidden()

    add_bot_and_start(ann, seats_before_bot=2)
    # Bo plays from memory for as long as the page stays open; the spectator watches the table.
    bo.wait_for_selector("#hand .card")
    cy.wait_for_selector(".mojo-table, #table")
    expect(cy.locator("#hand .card")).to_have_count(0)


def test_a_host_whose_browser_keeps_nothing_still_holds_the_room_they_made(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = blocked(new_player)
    create_room(ann, server.base_url, "Ann")
    # The seat came over in the link's fragment, which is gone from the address bar again.
    assert "#" not in ann.url and "seat=" not in ann.url
    expect(ann.locator("#host-tools")).to_be_visible()
    expect(ann.locator("#storage-warning")).to_be_visible()
