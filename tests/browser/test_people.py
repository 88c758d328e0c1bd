"""The people parts of the room page in Chromium: the seat link on another device, a seat asked for and
approved, a move clock's countdown, a bot playing for an absent player, and the table chat."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Locator, Page, Route, expect

from tests.servers import ServeProcess

from .support import (
    SCREENSHOTS,
    create_room,
    in_view_wherever_scrolled,
    is_my_turn,
    join_room,
    play_one,
    shoot,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def people_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """A server where a player counts as gone after 2 seconds away (the default is 2 minutes), and
    where the holder may refuse a seat approved by others for 4 seconds (the default is 10 minutes)."""
    folder = tmp_path_factory.mktemp("motable-people")
    live = ServeProcess(
        {
            "DATABASE_URL": f"sqlite:///{folder / 'motable.db'}",
            "MOTABLE_BOT_DELAY": "0.3",
            "MOTABLE_GONE_AFTER": "2",
            "MOTABLE_SEAT_REFUSAL_SECONDS": "4",
        },
        folder / "server.log",
    )
    live.start()
    yield live
    live.stop()


def ann_and_bo(
    server: ServeProcess, new_player: Callable[..., Page], bo_size: tuple[int, int] | None = None
) -> tuple[Page, Page, str]:
    """Ann makes a Mojo room and Bo joins it from his own browser; returns both pages and the link."""
    ann = new_player()
    url = create_room(ann, server.base_url, "Ann")
    bo = new_player(*bo_size) if bo_size else new_player()
    join_room(bo, url, "Bo")
    return ann, bo, url


def room_id_of(url: str) -> str:
    return url.split("/r/")[1].split("?")[0].split("#")[0]


def test_the_seat_link_opens_the_seat_on_a_phone(
    people_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    _ann, bo, _url = ann_and_bo(people_server, new_player)
    keep = bo.locator("#seat-keep")
    expect(keep).to_be_visible()
    # Folded into one line ("Your seat link") until tapped.
    expect(keep.locator("#seat-keep-body")).to_be_hidden()
    bo.click("#seat-keep-chip")
    expect(keep).to_contain_text("Keep this link to play from another device")
    expect(keep).to_contain_text("Whoever has it plays as you")
    link = keep.locator(".seat-link-url")
    expect(link).to_have_value(re.compile(r"/r/[\w-]+#seat=[\w-]{20,}$"))
    expect(keep.locator("img.seat-qr")).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
    bo.set_viewport_size({"width": 375, "height": 800})
    shoot(bo, "people-seat-link")
    bo.set_viewport_size({"width": 1280, "height": 900})
    shoot(bo, "people-seat-link")
    phone = new_player(375, 800)
    phone.goto(link.input_value())
    expect(phone.locator("#room-sub")).to_contain_text("You are Bo")
    # The token left the address bar at once.
    assert "#" not in phone.url and "seat=" not in phone.url
    # The table's menu offers the same link, and forgetting asks first, saying what is lost.
    phone.click("#seat-menu-button")
    dialog = phone.locator("#seat-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".seat-link-url")).to_have_value(link.input_value())
    expect(dialog.locator("img.seat-qr")).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
    phone.screenshot(path=str(SCREENSHOTS / "people-seat-menu-375.png"))
    phone.click("#forget-button")
    expect(phone.locator("#forget-words")).to_contain_text("stops holding Bo")
    phone.click("#forget-no")
    expect(phone.locator("#forget-confirm")).to_be_hidden()
    phone.click("#forget-button")
    phone.click("#forget-yes")
    expect(phone.locator("#room-sub")).to_contain_text("You are watching")
    expect(bo.locator("#room-sub")).to_contain_text("You are Bo")


def test_a_lost_seat_is_asked_for_and_approved(
    people_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo, url = ann_and_bo(people_server, new_player)
    # A third player (joined from a script): with only two, Ann could approve only after a day.
    joined = httpx.post(f"{people_server.base_url}/api/rooms/{room_id_of(url)}/join", json={"name": "Cy"})
    assert joined.is_success, joined.text
    expect(ann.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(3)
    ann.click("#start-button")
    expect(bo.locator("#game-panel")).to_be_visible()
    # Bo's browser is gone for good; on a new device he picks his name above the table.
    bo.close()
    asker = new_player(375, 800)
    asker.goto(url)
    banner = asker.locator("#way-back")
    expect(banner).to_contain_text("Playing here? Pick your name")
    banner.get_by_role("button", name="Bo").click()
    expect(banner).to_contain_text("Asked for Bo's seat: waiting for Bo (or the table) to approve")
    # Ann's page shows the request in the list while Bo might still come back by himself, and at the
    # top once he has been gone for the room's "gone" time (2 s here), which a busy machine may
    # already have passed by the time the request is made.
    told = ann.locator("#seat-requests, #seat-alert").filter(has_text="Someone asks for Bo's seat")
    expect(told.first).to_be_visible()
    # Once Bo has been gone for the room's "gone" time (2 s here), the host may approve: her page
    # asks her at the top.
    alert = ann.locator("#seat-alert")
    approve = alert.get_by_role("button", name="Approve")
    expect(approve).to_be_visible(timeout=10_000)
    ann.set_viewport_size({"width": 375, "height": 800})
    shoot(ann, "people-seat-request")
    ann.set_viewport_size({"width": 1280, "height": 900})
    shoot(ann, "people-seat-request")
    approve.click()
    # Approved by someone else than Bo: the seat moves after the refusal window, unless Bo refuses.
    window = re.compile(r"Approved by Ann: the seat moves to you at \d\d:\d\d unless Bo refuses")
    expect(banner).to_contain_text(window)
    expect(alert).to_contain_text("You approved moving Bo's seat to another device")
    expect(alert.get_by_role("button", name="Refuse")).to_be_visible()
    shoot(asker, "people-seat-request-waiting-window")
    expect(asker.locator("#room-sub")).to_contain_text("You are Bo", timeout=15_000)
    expect(ann.locator("#seat-requests")).to_be_hidden()
    expect(alert).to_be_hidden()
    moved = ann.locator("#game-log li.log-seat", has_text="Bo's seat moved to another device")
    expect(moved).to_have_count(1)


def bo_asks_in_the_waiting_room(
    server: ServeProcess, new_player: Callable[..., Page]
) -> tuple[Page, Page, Page, Locator]:
    """Bo's browser data is gone; before the start, on another device, he watches and picks his
    name above the table. Returns Ann's, Bo's old and the asker's pages, and the asker's banner."""
    ann, bo, url = ann_and_bo(server, new_player)
    bo.evaluate("localStorage.clear()")
    asker = new_player(375, 800)
    asker.goto(url)
    asker.click("#watch-button")
    banner = asker.locator("#way-back")
    expect(banner).to_contain_text("Playing here? Pick your name")
    shoot(asker, "people-claim-waiting")
    banner.get_by_role("button", name="Bo").click()
    expect(banner).to_contain_text("waiting for Bo (or the table) to approve")
    return ann, bo, asker, banner


def test_a_seat_asked_for_in_the_waiting_room_is_approved_there(
    people_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo, asker, banner = bo_asks_in_the_waiting_room(people_server, new_player)
    expect(banner.get_by_role("button", name="Bo")).to_have_count(0)
    # Bo's old page is still open, so Bo alone answers: his page asks him first.
    request = ann.locator("#waiting-panel #seat-requests")
    expect(request).to_contain_text("Someone asks for Bo's seat")
    expect(request.get_by_role("button")).to_have_count(0)
    alert = bo.locator("#seat-alert")
    expect(alert).to_contain_text("Is it you?")
    for width, height in ((375, 812), (1280, 800)):
        bo.set_viewport_size({"width": width, "height": height})
        in_view_wherever_scrolled(alert)
    shoot(ann, "people-seat-request-waiting")
    alert.get_by_role("button", name="Yes, it's me (approve)").click()
    expect(asker.locator("#room-sub")).to_contain_text("You are Bo", timeout=15_000)
    expect(asker.locator("#seat-list .seat-item.is-you")).to_contain_text("Bo")
    expect(ann.locator("#seat-requests")).to_be_hidden()


@pytest.fixture
def short_requests_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """A server whose seat requests live 3 seconds (15 minutes by default). A test asks for it before
    `new_player`, so its pages are closed before it stops: a page still open would log its socket's
    refused reconnects as console errors (it did, when a loaded machine let one reconnect first)."""
    folder = tmp_path_factory.mktemp("motable-lapse")
    live = ServeProcess(
        {"DATABASE_URL": f"sqlite:///{folder / 'motable.db'}", "MOTABLE_REQUEST_LIFETIME": "3"},
        folder / "server.log",
    )
    live.start()
    yield live
    live.stop()


def test_a_seat_request_nobody_answers_lapses(
    short_requests_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, _bo, asker, banner = bo_asks_in_the_waiting_room(short_requests_server, new_player)
    # Nobody answers: the asker is told, and may ask again.
    expect(banner).to_contain_text("Nobody answered your request for Bo's seat in time", timeout=15_000)
    banner.get_by_role("button", name="Ask again").click()
    expect(banner.get_by_role("button", name="Bo")).to_be_visible()
    # Nobody's page goes on showing the lapsed request.
    expect(asker.locator("#seat-requests")).to_be_hidden(timeout=10_000)
    expect(ann.locator("#seat-requests")).to_be_hidden(timeout=10_000)
    shoot(asker, "people-seat-request-lapsed")


def test_the_clock_is_chosen_in_the_lobby_form(
    people_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(375, 800)
    ann.goto(people_server.base_url + "/")
    ann.fill("#player-name", "Ann")
    ann.check('input[name="game"][value="mojo"]')
    ann.select_option("#lobby-clock", label="3 minutes a move")
    ann.click("#create-button")
    ann.wait_for_url("**/r/**")
    expect(ann.locator("#clock-choice")).to_have_value("180")
    room = httpx.get(f"{people_server.base_url}/api/rooms/{room_id_of(ann.url)}").json()
    assert room["clock"] == 180


def test_countdown_and_a_bot_playing_for_an_absent_player(
    people_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player()
    url = create_room(ann, people_server.base_url, "Ann")
    room_id = room_id_of(url)
    ann.select_option("#clock-choice", label="1 minute a move")
    expect(ann.locator("#clock-choice")).to_have_value("60")
    # Bo joins from a script and never opens the table.
    bo = httpx.post(f"{people_server.base_url}/api/rooms/{room_id}/join", json={"name": "Bo"}).json()
    expect(ann.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(2)
    ann.select_option("#starter-choice", label="Bo")
    ann.click("#start-button")
    bo_row = ann.locator('.people-row[data-seat="1"]')
    expect(bo_row.locator(".countdown")).to_have_text(re.compile(r"^[01]:\d\d$"))
    expect(ann.locator("#people-clock")).to_contain_text("1 minute")
    for width, height in ((375, 800), (1280, 900)):
        ann.set_viewport_size({"width": width, "height": height})
        shoot(ann, "people-countdown")
    # With time alone (the room's "gone" time, 2 s here) Bo turns from "away" to someone a bot may
    # play for: Ann's page offers it then, and she lets a bot play for him; his seat keeps his name.
    stand_in = bo_row.get_by_role("button", name="Let a bot play")
    expect(stand_in).to_be_visible()
    stand_in.click()
    expect(bo_row.locator(".presence")).to_have_text("bot playing")
    expect(bo_row).to_contain_text("Bo")
    # The bot plays Bo's turn: it is Ann's turn now.
    expect(ann.locator('.people-row[data-seat="0"].is-acting')).to_be_visible(timeout=15_000)
    for width, height in ((375, 800), (1280, 900)):
        ann.set_viewport_size({"width": width, "height": height})
        shoot(ann, "people-bot-playing")
    # Bo opens his seat and takes it back.
    back = new_player()
    back.goto(f"{people_server.base_url}/r/{room_id}#seat={bo['token']}")
    expect(back.locator("#room-sub")).to_contain_text("You are Bo")
    back.get_by_role("button", name="I'm back: play myself").click()
    expect(ann.locator('.people-row[data-seat="1"] .presence')).to_have_text("here")


def test_a_chat_message_reaches_a_phone_scrolled_to_the_table(
    people_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    """On a phone the chat is far below the table: a friend's message floats over the table for a
    moment, folds into an unread badge, and opening the chat reads it."""
    ann, bo, _url = ann_and_bo(people_server, new_player, bo_size=(375, 812))
    bo.click("#seat-keep-close")
    ann.click("#start-button")
    expect(bo.locator("#hand")).to_be_visible()
    bo.evaluate("window.scrollTo(0, 0)")
    panel = bo.locator("#chat-panel")
    box = panel.bounding_box()
    assert box is not None and box["y"] > 812, box  # out of sight below the table
    note = bo.locator("#chat-note")
    expect(note).to_be_hidden()

    ann.fill("#chat-input", "oops")
    ann.click("#chat-send")
    expect(note).to_contain_text("Ann: oops")
    in_first_screen(note, 812)
    shoot(bo, "people-chat-note")
    ann.fill("#chat-input", "sorry, misclick")
    ann.click("#chat-send")
    expect(note).to_contain_text("Ann: sorry, misclick")
    note.get_by_role("button", name="Later").click()
    expect(note).to_contain_text("2 new messages")
    in_first_screen(note, 812)
    # The writer hears nothing of their own messages.
    expect(ann.locator("#chat-note")).to_be_hidden()
    shoot(bo, "people-chat-badge")

    note.get_by_role("button", name="Open the chat").click()
    expect(note).to_be_hidden()
    expect(bo.locator("#chat-log")).to_contain_text("sorry, misclick")
    expect(bo.locator("#chat-input")).to_be_focused()
    # The page scrolls there smoothly: in view once the scroll is done.
    expect(panel).to_be_in_viewport()
    # With the chat in view, a new message is read where it lands.
    ann.fill("#chat-input", "go on")
    ann.click("#chat-send")
    expect(bo.locator("#chat-log")).to_contain_text("go on")
    expect(note).to_be_hidden()


def in_first_screen(node: Locator, height: int) -> None:
    """The node is whole on the screen as the page is scrolled now."""
    box = node.bounding_box()
    assert box is not None, "not rendered"
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box


def test_table_chat(people_server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann, bo, url = ann_and_bo(people_server, new_player, bo_size=(375, 800))
    bo.click("#seat-keep-close")
    ann.fill("#chat-input", "<b>hello</b> Bo \u202egnirts")
    ann.click("#chat-send")
    message = bo.locator("#chat-log .chat-message").first
    expect(message).to_contain_text("<b>hello</b> Bo gnirts")
    expect(message.locator("b:not(.chat-name)")).to_have_count(0)  # the markup stayed text
    bo.fill("#chat-input", "Hi Ann! Ready when you are.")
    bo.press("#chat-input", "Enter")
    expect(ann.locator("#chat-log .chat-message")).to_have_count(2)
    ann.click("#start-button")
    expect(bo.locator("#game-panel .side #chat-panel")).to_be_visible()
    bo.fill("#chat-input", "Good luck!")
    bo.click("#chat-send")
    expect(ann.locator("#chat-log .chat-message")).to_have_count(3)
    # What is said at the table shows in its log too ("What happened"), as text; what was said
    # in the waiting room stays in the chat panel.
    said = ann.locator("#game-log li.log-chat")
    expect(said).to_have_count(1)
    expect(said).to_contain_text("Bo: Good luck!")
    shoot(bo, "people-chat")
    shoot(ann, "people-chat")
    # Mute: Ann no longer sees Bo's messages; spectators read but may not write.
    ann.locator('.people-row[data-seat="1"]').get_by_role("button", name="Mute").click()
    expect(ann.locator("#chat-log .chat-message")).to_have_count(1)
    expect(said).to_have_count(0)
    watcher = new_player()
    watcher.goto(url)
    expect(watcher.locator("#chat-log .chat-message")).to_have_count(3)
    expect(watcher.locator("#game-log li.log-chat")).to_contain_text("Bo: Good luck!")
    expect(watcher.locator("#chat-readonly")).to_be_visible()
    expect(watcher.locator("#chat-form")).to_be_hidden()


def test_forgetting_before_the_list_has_its_first_answer_warns_as_for_a_working_seat(
    people_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    """Until the list's first answer comes (a slow link), nothing says the seat stopped working: the
    warning is the full one, never "no longer works"."""
    ann = new_player()
    url = create_room(ann, people_server.base_url, "Ann")
    held: list[Route] = []
    ann.route("**/api/my-games", lambda route: held.append(route))  # never answered while the test looks
    ann.goto(people_server.base_url + "/")
    item = ann.locator(f'.room-item[data-room="{room_id_of(url)}"]')
    expect(item).to_be_visible()
    item.get_by_role("button", name=re.compile("Forget this")).click()
    expect(item.locator(".forget-confirm")).to_contain_text("stops holding your seat as Ann")
    expect(item.locator(".forget-confirm")).not_to_contain_text("no longer works")


def test_forgetting_a_game_asks_first(people_server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player()
    url = create_room(ann, people_server.base_url, "Ann")
    ann.goto(people_server.base_url + "/")
    item = ann.locator(f'.room-item[data-room="{room_id_of(url)}"]')
    expect(item).to_be_visible()
    item.get_by_role("button", name=re.compile("Forget this")).click()
    expect(item.locator(".forget-confirm")).to_contain_text("stops holding your seat as Ann")
    item.get_by_role("button", name="Keep it").click()
    expect(item.locator(".forget-confirm")).to_have_count(0)
    assert ann.evaluate(f"JSON.parse(localStorage['motable.seats'])['{room_id_of(url)}'].seat") == 0
    item.get_by_role("button", name=re.compile("Forget this")).click()
    item.get_by_role("button", name="Forget it").click()
    expect(item).to_have_count(0)
    assert ann.evaluate(f"JSON.parse(localStorage['motable.seats'] || '{{}}')['{room_id_of(url)}']") is None


# A Notification stand-in that records what the page shows, and a page that says it is hidden.
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.__hidden = false;
class RecordedNotification {
  constructor(title, options) { window.__notes.push({ title, ...options }); }
  close() {}
  static permission = "default";
  static requestPermission() {
    RecordedNotification.permission = "granted";
    return Promise.resolve("granted");
  }
}
window.Notification = RecordedNotification;
Object.defineProperty(document, "visibilityState", { get: () => (window.__hidden ? "hidden" : "visible") });
"""


def test_your_turn_notification_after_opting_in(
    people_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player()
    ann.add_init_script(FAKE_NOTIFICATIONS)
    url = create_room(ann, people_server.base_url, "Ann")
    bo = new_player()
    join_room(bo, url, "Bo")
    ann.click("#seat-menu-button")
    ann.check("#notify-toggle")
    expect(ann.locator("#notify-toggle")).to_be_checked()
    ann.click("#seat-dialog-close")
    ann.select_option("#starter-choice", label="Bo")
    ann.click("#start-button")
    expect(bo.locator(".mojo-mine.is-current")).to_be_visible()
    # Ann's page is in the background when her turn comes.
    ann.evaluate("window.__hidden = true")
    assert play_one(bo)
    while is_my_turn(bo):
        play_one(bo)
    # A function, not an expression: polling an expression needs eval, which the page's CSP forbids.
    ann.wait_for_function("() => window.__notes.length > 0")
    notes = ann.evaluate("window.__notes")
    assert notes[0]["title"] == "Your turn · Mojo" and len(notes) == 1


def test_duplicate_and_emoji_names(people_server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player()
    url = create_room(ann, people_server.base_url, "Ann")
    twin = new_player()
    join_room(twin, url, "ann")
    expect(twin.locator("#room-sub")).to_contain_text("You are ann (2)")
    fox = new_player()
    join_room(fox, url, "🦊 Fox\u202e")
    row = ann.locator("#seat-list .seat-item").nth(2)
    expect(row.locator(".seat-name")).to_have_text("🦊 Fox")
    expect(row.locator(".avatar")).to_have_text("🦊")
    ann.click("#bot-button")
    expect(ann.locator("#seat-list .seat-item").nth(3).locator(".seat-name")).to_have_text("Ada")
