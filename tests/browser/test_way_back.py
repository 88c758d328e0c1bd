"""The way back to a seat, on a phone (375 x 812): a fresh browser opening the plain room link picks
its name and the holder says "yes, it's me"; a dead seat link says why and offers the way back; the
seat-link chip leaves the hand in the first screen; the table's own lines and spectator muting."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.servers import ServeProcess

from .support import create_room, join_room, shoot

pytestmark = pytest.mark.browser

PHONE = (375, 812)


def room_id_of(url: str) -> str:
    return url.split("/r/")[1].split("?")[0].split("#")[0]


def in_first_screen(node: Locator, height: int = PHONE[1]) -> None:
    """The node is on screen without scrolling: its top edge shows, and it is not cut off
    below the fold."""
    node.page.evaluate("window.scrollTo(0, 0)")
    box = node.bounding_box()
    assert box is not None, "not rendered"
    assert box["y"] >= 0 and box["y"] + min(box["height"], 120) <= height, box


def height(node: Locator) -> float:
    box = node.bounding_box()
    assert box is not None, "not rendered"
    return box["height"]


def match_in_play(server: ServeProcess, new_player: Callable[..., Page]) -> tuple[Page, Page, str]:
    """Ann (host) and Bo, each on a phone, start a Mojo match; returns both pages and the room link."""
    ann = new_player(*PHONE)
    url = create_room(ann, server.base_url, "Ann")
    bo = new_player(*PHONE)
    join_room(bo, url, "Bo")
    ann.click("#start-button")
    expect(bo.locator("#game-panel")).to_be_visible()
    expect(bo.locator("#hand")).to_be_visible()
    return ann, bo, url


def shoot_both(page: Page, name: str) -> None:
    """Screenshots on the phone, then on a laptop (1280 x 800), back to the phone."""
    shoot(page, name)
    page.set_viewport_size({"width": 1280, "height": 800})
    shoot(page, name)
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})


def seat_token(page: Page, url: str) -> str:
    return page.evaluate("id => JSON.parse(localStorage['motable.seats'])[id].token", room_id_of(url))


def test_a_fresh_phone_picks_its_name_and_the_holder_approves(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo, url = match_in_play(server, new_player)
    friend = new_player(*PHONE)
    friend.goto(url)
    banner = friend.locator("#way-back")
    expect(banner).to_contain_text("Playing here? Pick your name")
    names = banner.locator(".pick-name")
    expect(names).to_have_text(["Ann", "Bo"])  # the seated humans; the game has no bots here
    in_first_screen(banner)
    shoot_both(friend, "way-back-pick")
    names.filter(has_text="Bo").click()
    expect(banner).to_contain_text("Asked for Bo's seat: waiting for Bo (or the table) to approve")
    expect(banner.locator(".pick-name")).to_have_count(0)

    # Bo is here, so only Bo may answer: his page asks him first, at the top; Ann gets no buttons.
    alert = bo.locator("#seat-alert")
    expect(alert).to_contain_text("Someone asks for your seat from another device. Is it you?")
    in_first_screen(alert)
    expect(ann.locator("#seat-requests")).to_contain_text("Someone asks for Bo's seat")
    expect(ann.locator("#seat-requests").get_by_role("button")).to_have_count(0)
    expect(ann.locator("#seat-alert")).to_be_hidden()
    shoot_both(bo, "way-back-is-it-you")
    shoot_both(friend, "way-back-asking")

    alert.get_by_role("button", name="Yes, it's me (approve)").click()
    expect(friend.locator("#room-sub")).to_contain_text("You are Bo", timeout=15_000)
    expect(friend.locator("#hand")).to_be_visible()
    expect(friend.locator("#way-back")).to_be_hidden()
    # Bo's old page lost the seat and says so calmly: he moved it himself.
    old = bo.locator("#way-back")
    expect(old).to_contain_text("You moved Bo's seat to your other device")
    expect(bo.locator("#room-sub")).to_contain_text("You are watching")
    # Everyone reads the move in the table's log, as the table's own line (no author).
    line = ann.locator("#game-log li.log-seat")
    expect(line).to_contain_text("Bo's seat moved to another device")
    expect(line.locator(".log-who")).to_have_count(0)
    expect(ann.locator("#chat-log .chat-message.is-table")).to_contain_text("Bo's seat moved")
    shoot(bo, "way-back-handed-over")
    shoot(ann, "way-back-log-line")


def test_a_first_time_visitor_joins_first_and_picks_a_name_only_when_seated(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    """Someone new opening the link of a waiting room is offered a seat, not the others' names: a
    name is a request for that person's seat. Someone who says they are already in the game gets
    the names, on a phone and on a laptop."""
    ann = new_player(*PHONE)
    url = create_room(ann, server.base_url, "Ann")
    visitor = new_player(*PHONE)
    visitor.goto(url)
    expect(visitor.get_by_role("heading", name="Join this game")).to_be_visible()
    expect(visitor.locator("#way-back")).to_be_hidden()
    expect(visitor.locator(".pick-name")).to_have_count(0)
    in_first_screen(visitor.locator("#join-name"))
    shoot_both(visitor, "way-back-first-visit")

    visitor.get_by_role("button", name="Already in this game on another device? Pick your name").click()
    banner = visitor.locator("#way-back")
    expect(banner.locator(".pick-name")).to_have_text(["Ann"])
    expect(visitor.get_by_role("button", name="Already in this game on another device?")).to_be_hidden()
    shoot_both(visitor, "way-back-first-visit-seated")
    # Changing their mind: the names go, the join panel stays.
    banner.get_by_role("button", name="I'm just watching").click()
    expect(banner).to_be_hidden()
    expect(visitor.get_by_role("heading", name="Join this game")).to_be_visible()

    # A newcomer joins as themselves; the names never showed.
    newcomer = new_player(1280, 800)
    newcomer.goto(url)
    expect(newcomer.locator("#join-name")).to_be_visible()
    expect(newcomer.locator("#way-back")).to_be_hidden()
    newcomer.fill("#join-name", "Cy")
    newcomer.click("#join-button")
    expect(ann.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(2)
    expect(newcomer.locator("#way-back")).to_be_hidden()


def test_a_dead_seat_link_says_why_and_offers_the_way_back(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    _ann, bo, url = match_in_play(server, new_player)
    old_token = seat_token(bo, url)
    room_id = room_id_of(url)
    asked = httpx.post(f"{server.base_url}/api/rooms/{room_id}/seat-requests", json={"seat": 1}).json()
    bo.locator("#seat-alert").get_by_role("button", name="Yes, it's me (approve)").click()
    expect(bo.locator("#room-sub")).to_contain_text("You are watching")
    status = httpx.get(f"{server.base_url}/api/rooms/{room_id}/seat-requests/{asked['request_id']}").json()
    assert status["status"] == "approved"

    # The old link, opened on another device, no longer plays: the page says why, at the top.
    stale = new_player(*PHONE)
    stale.goto(f"{url}#seat={old_token}")
    banner = stale.locator("#way-back")
    day = r"\w{3}\s\d{1,2}\s\w{3,4}, \d\d:\d\d"  # "Tue 1 Dec, 14:03"
    why = rf"This seat link no longer works: Bo's seat moved to another device on {day}"
    expect(banner).to_contain_text(re.compile(why))
    in_first_screen(banner)
    assert "seat=" not in stale.url
    expect(stale.locator("#room-sub")).to_contain_text("You are watching")
    kept = stale.evaluate("id => JSON.parse(localStorage['motable.seats'] || '{}')[id] ?? null", room_id)
    assert kept is None  # nothing stored for the dead seat
    shoot_both(stale, "way-back-dead-link")
    # The way back: ask for a seat again, by name.
    banner.get_by_role("button", name="Ask for a seat again").click()
    expect(banner.locator(".pick-name")).to_have_text(["Ann", "Bo"])
    expect(banner).to_contain_text("Playing here? Pick your name")
    shoot_both(stale, "way-back-ask-again")

    # A link cut short (or a token nobody knows) says so instead of silently watching.
    garbled = new_player(*PHONE)
    garbled.goto(f"{url}#seat={old_token[:9]}")
    expect(garbled.locator("#way-back")).to_contain_text("This seat link is not valid (it may be cut short).")
    expect(garbled.locator("#way-back").get_by_role("button", name="Ask for a seat again")).to_be_visible()
    unknown = new_player(*PHONE)
    unknown.goto(f"{url}#seat={'x' * 32}")
    expect(unknown.locator("#way-back")).to_contain_text("This seat link is not valid (it may be cut short).")


def test_the_holder_refuses_and_the_asker_may_ask_again(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    _ann, bo, url = match_in_play(server, new_player)
    stranger = new_player(*PHONE)
    stranger.goto(url)
    banner = stranger.locator("#way-back")
    banner.get_by_role("button", name="Bo").click()
    expect(banner).to_contain_text("Asked for Bo's seat")
    bo.locator("#seat-alert").get_by_role("button", name="No, refuse").click()
    expect(bo.locator("#seat-alert")).to_be_hidden()
    expect(bo.locator("#room-sub")).to_contain_text("You are Bo")
    expect(banner).to_contain_text("Your request for Bo's seat was refused.", timeout=10_000)
    shoot(stranger, "way-back-refused")
    banner.get_by_role("button", name="Ask again").click()
    expect(banner.locator(".pick-name")).to_have_text(["Ann", "Bo"])


def test_the_seat_link_chip_keeps_the_hand_in_the_first_screen(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(*PHONE)
    url = create_room(ann, server.base_url, "Ann")
    bo = new_player(*PHONE)
    join_room(bo, url, "Bo")
    chip = bo.locator("#seat-keep-chip")
    expect(chip).to_be_visible()
    expect(chip).to_contain_text("Your seat link")
    assert height(chip) <= 48  # one line
    expect(bo.locator("#seat-keep-body")).to_be_hidden()
    ann.click("#start-button")
    hand = bo.locator("#hand")
    expect(hand).to_be_visible()
    expect(chip).to_be_visible()
    in_first_screen(hand)
    shoot(bo, "way-back-chip")
    # Tapped, it opens the link and its QR code in place; tapped again, it folds.
    chip.click()
    body = bo.locator("#seat-keep-body")
    expect(body).to_contain_text("Keep this link to play from another device")
    expect(body.locator(".seat-link-url")).to_have_value(re.compile(r"/r/[\w-]+#seat=[\w-]{20,}$"))
    expect(body.locator("img.seat-qr")).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
    expect(chip).to_have_attribute("aria-expanded", "true")
    shoot(bo, "way-back-chip-open")
    chip.click()
    expect(body).to_be_hidden()
    # On a laptop the chip is as small.
    bo.set_viewport_size({"width": 1280, "height": 800})
    assert height(chip) <= 48
    in_first_screen(hand, 800)
    shoot(bo, "way-back-chip")


def test_a_spectator_can_be_muted(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player(*PHONE)
    url = create_room(ann, server.base_url, "Ann")
    ann.check("#chat-spectators")
    watcher = new_player(*PHONE)
    watcher.goto(url)
    watcher.click("#watch-button")
    # Only watching: the page stops offering the names (and keeps it so after a reload).
    expect(watcher.locator("#way-back .pick-name")).to_have_text(["Ann"])
    watcher.get_by_role("button", name="I'm just watching").click()
    expect(watcher.locator("#way-back")).to_be_hidden()
    watcher.reload()
    watcher.click("#watch-button")
    expect(watcher.locator("#chat-form")).to_be_visible()
    expect(watcher.locator("#way-back")).to_be_hidden()
    # The names stay one tap away, under the seat list.
    shoot(watcher, "way-back-just-watching")
    watcher.get_by_role("button", name="Playing here? Pick your name").click()
    expect(watcher.locator("#way-back .pick-name")).to_have_text(["Ann"])
    watcher.get_by_role("button", name="I'm just watching").click()
    expect(watcher.locator("#way-back")).to_be_hidden()
    watcher.fill("#chat-spectator-name", "Cy")
    watcher.fill("#chat-input", "go Ann!")
    watcher.click("#chat-send")
    message = ann.locator("#chat-log .chat-message", has_text="go Ann!")
    expect(message).to_contain_text("Cy (watching)")
    # The writer is not offered to mute themselves.
    expect(watcher.locator("#chat-log .chat-mute")).to_have_count(0)
    shoot(ann, "way-back-spectator-chat")
    message.get_by_role("button", name="Mute Cy (watching)").click()
    expect(message).to_have_count(0)
    muted = ann.locator("#chat-muted")
    expect(muted).to_contain_text("Cy (watching)")
    expect(ann.locator("#chat-empty")).to_have_text("Only muted people wrote so far.")
    shoot(ann, "way-back-spectator-muted")
    # Muting is kept in this browser.
    ann.reload()
    expect(ann.locator("#chat-log")).not_to_contain_text("go Ann!")
    ann.locator("#chat-muted").get_by_role("button", name="Unmute Cy (watching)").click()
    expect(ann.locator("#chat-log .chat-message", has_text="go Ann!")).to_be_visible()
    expect(ann.locator("#chat-muted")).to_be_hidden()
