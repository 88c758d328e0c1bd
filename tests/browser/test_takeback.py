"""Taking back a misclick in real browsers: Ann takes back a played Mojo card with Bo's approval, asks
again for the same card played again and withdraws, and a card drawn cannot be taken back (no button,
and the server's refusal is said in words)."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import (
    MOVE,
    SCREENSHOTS,
    close_summary,
    create_room,
    hand_ids,
    in_view_wherever_scrolled,
    is_my_turn,
    join_room,
    version,
)

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "takeback"
# Counts the notes the page plays (each note is one oscillator), in window.__notes.
COUNT_NOTES = """() => {
    window.__notes = 0;
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () {
        window.__notes += 1;
        return make.call(this);
    };
}"""
TAKE_BACK = "#takeback button[data-takeback=take-back]"


def token_of(page: Page, room_id: str) -> str:
    return str(page.evaluate("id => JSON.parse(localStorage.getItem('motable.seats'))[id].token", room_id))


def wait_version(page: Page, at_least: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=at_least)


def play_a_card(page: Page) -> tuple[list[int], int]:
    """Click a playable card in the hand; (the hand before, the version before)."""
    close_summary(page)
    before, hand = version(page), hand_ids(page)
    page.locator("#hand button.card.is-legal:not([disabled])").first.click()
    pile = page.locator("button[data-action=play-on-pile]")
    if version(page) == before and pile.count():
        pile.first.click()
    wait_version(page, before + 1)
    return hand, before


def test_a_played_card_is_taken_back_with_a_friends_approval_and_a_draw_is_not(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo = new_player(), new_player()
    # With two discard piles a player who must draw chooses where from: the draw is a move of its own.
    url = create_room(ann, server.base_url, "Ann", double_discard=True)
    room_id = url.rstrip("/").rsplit("/", 1)[-1]
    join_room(bo, url, "Bo")
    expect(ann.locator("#seat-list")).to_contain_text("Bo")
    ann.click("#start-button")
    for page in (ann, bo):
        expect(page.locator("#game-panel")).to_be_visible()

    # Whoever is due plays cards until one may be taken back.
    taken_back = False
    for _ in range(400):
        mover, other = (ann, bo) if is_my_turn(ann) else (bo, ann)
        if not is_my_turn(mover):
            mover.wait_for_timeout(50)
            continue
        if mover.locator("#hand button.card.is-legal:not([disabled])").count() == 0:
            before = version(mover)
            mover.locator(MOVE).first.click()
            wait_version(mover, before + 1)
            continue
        hand, before = play_a_card(mover)
        wait_version(other, before + 1)
        if mover.locator(TAKE_BACK).count() == 0:
            continue
        expect(mover.locator("#takeback")).to_contain_text("Misclicked?")
        SHOTS.mkdir(parents=True, exist_ok=True)
        mover.set_viewport_size({"width": 375, "height": 812})
        mover.screenshot(path=str(SHOTS / "offer-375.png"))
        mover.set_viewport_size({"width": 1280, "height": 900})
        # The friend has sounds on: the request to them chimes (three notes; the switch's own
        # beep when turned on is two).
        other.evaluate(COUNT_NOTES)
        other.click("#sound-toggle")
        other.wait_for_function("() => window.__notes === 2")
        mover.locator(TAKE_BACK).click()
        asker = "Ann" if mover is ann else "Bo"
        banner = other.locator("#takeback")
        # The request names the move (the card played, as the table shows it) and floats in view
        # wherever the friend has scrolled, on a phone and on a laptop.
        named = re.compile(rf"{asker} asks to take back their last move \(played an? \w+ \d+\)")
        expect(banner).to_contain_text(named)
        expect(mover.locator("#takeback")).to_contain_text("Waiting for")
        # The table's own status line says the table waits for the friend's answer, not the move
        # to make (a chat line drawn into the table's log leaves it so); the asker's says nothing.
        asked = f"{asker} asked to take back a move — answer below before you play on"
        expect(other.locator("#table #turn-status")).to_have_text(asked)
        other.locator("#table #turn-status").scroll_into_view_if_needed()
        other.screenshot(path=str(SHOTS / "status-asked-1280.png"))
        expect(mover.locator("#table #turn-status")).not_to_contain_text("asked to take back")
        other.fill("#chat-input", "one moment")
        other.click("#chat-send")
        expect(other.locator("#table #game-log")).to_contain_text("one moment")
        expect(other.locator("#table #turn-status")).to_have_text(asked)
        other.wait_for_function("() => window.__notes === 5")
        for width, height in ((375, 812), (1280, 800)):
            other.set_viewport_size({"width": width, "height": height})
            in_view_wherever_scrolled(banner)
            in_view_wherever_scrolled(banner.locator("button[data-takeback=allow]"))
            other.screenshot(path=str(SHOTS / f"banner-{width}.png"))
        other.set_viewport_size({"width": 1280, "height": 900})
        other.locator("#takeback button[data-takeback=allow]").click()
        expect(other.locator("#table #turn-status")).not_to_contain_text("asked to take back")
        wait_version(mover, before + 2)
        expect(mover.locator("#takeback")).to_contain_text("Your move was taken back")
        assert sorted(hand_ids(mover)) == sorted(hand)
        # The friend's page is sent the same patch on its own socket: it may draw it a moment later.
        wait_version(other, before + 2)
        expect(other.locator("#takeback")).to_be_hidden()
        # The same card again (the same position, so it may be taken back again); asked, then withdrawn.
        play_a_card(mover)
        mover.locator(TAKE_BACK).click()
        expect(banner).to_contain_text(f"{asker} asks to take back their last move")
        mover.locator("#takeback button[data-takeback=withdraw]").click()
        expect(mover.locator("#takeback")).to_contain_text("You withdrew your request: your move stands")
        expect(other.locator("#takeback")).to_be_hidden()
        assert version(mover) == before + 3 and version(other) == before + 3
        taken_back = True
        break
    assert taken_back, "no play that could be taken back came up"

    # A draw shows the drawer a card: no "Take back", and the server refuses it in words.
    drawn = False
    for _ in range(400):
        mover = ann if is_my_turn(ann) else bo
        if not is_my_turn(mover):
            mover.wait_for_timeout(50)
            continue
        deck = mover.locator("button[data-action=draw-deck]")
        before = version(mover)
        if deck.count():
            deck.first.click()
            wait_version(mover, before + 1)
            expect(mover.locator(TAKE_BACK)).to_have_count(0)
            refused = httpx.post(
                f"{server.base_url}/api/rooms/{room_id}/takeback",
                headers={"Authorization": f"Bearer {token_of(mover, room_id)}"},
                json={"version": version(mover)},
            )
            assert refused.status_code == 409
            error = refused.json()["error"]
            assert error["code"] == "not_allowed" and "card you had not seen" in error["message"], error
            drawn = True
            break
        if mover.locator("#hand button.card.is-legal:not([disabled])").count():
            play_a_card(mover)
        elif mover.locator(MOVE).count():
            mover.locator(MOVE).first.click()
            wait_version(mover, before + 1)
    assert drawn, "no draw came up"
