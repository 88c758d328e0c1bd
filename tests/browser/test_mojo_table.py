"""Mojo in a real browser: friends create, join and play whole matches by clicking."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import (
    MOVE,
    SUMMARY,
    FrameLog,
    add_bot_and_start,
    card_ids,
    close_summary,
    create_room,
    game_over,
    hand_ids,
    is_my_turn,
    join_room,
    play_one,
    play_until,
    shoot,
    version,
)

pytestmark = pytest.mark.browser


def wait_for_turn(page: Page) -> None:
    page.wait_for_selector(".mojo-mine.is-current")


def room_id_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def test_two_friends_and_a_bot_play_a_whole_match(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo = new_player(), new_player()
    url = create_room(ann, server.base_url, "Ann")
    expect(ann.locator("#share-url")).to_have_value(url)
    expect(ann.locator(".qr svg")).to_be_visible()

    join_room(bo, url, "Bo")
    expect(bo.locator("#waiting-note")).to_contain_text("Waiting for Ann to start")
    expect(bo.locator("#host-tools")).to_be_hidden()
    expect(ann.locator("#seat-list")).to_contain_text("Bo")
    add_bot_and_start(ann, seats_before_bot=2)
    for page in (ann, bo):
        expect(page.locator("#game-panel")).to_be_visible()
        expect(page.locator(".seat-panel")).to_have_count(2)

    moves = play_until([ann, bo], lambda: game_over(ann) and game_over(bo))
    assert moves > 0
    # The last round's summary lists the final scores by rank, says why each scored, and
    # shows every card still held, face-down ones included; Mojo Time is no longer announced.
    for page in (ann, bo):
        final = page.locator(SUMMARY)
        expect(final).to_contain_text("Game over")
        expect(final).to_contain_text("1st")
        expect(final).to_contain_text("Highest of each colour")
        expect(final).to_contain_text("Mojo card")
        expect(final).to_contain_text("The lowest total wins.")
        # No "22 (+10)": a round's points and a total are never written so they could be confused.
        for text in (final.inner_text(), page.locator(".scorepad").first.inner_text()):
            assert not re.search(r"\d \(\+\d+\)", text), text
        shoot(page, "mojo-final-summary")
        close_summary(page)
        expect(page.locator(".chip-time")).to_have_count(0)

    room = httpx.get(f"{server.base_url}/api/rooms/{room_id_of(url)}").json()
    state = httpx.get(f"{server.base_url}/api/rooms/{room_id_of(url)}/state").json()
    assert room["status"] == "finished"
    totals = room["scorepad"]["totals"]
    for page in (ann, bo):
        shown = page.locator(".scorepad tfoot td").all_inner_texts()
        assert [int(re.sub(r"\D", "", text)) for text in shown] == totals
        expect(page.locator("#game-over")).to_contain_text("win")
        expect(page.locator("#game-log li").first).to_be_visible()
        expect(page.locator(".score-chart")).to_be_visible()
    names = [seat["name"] for seat in room["seats"]]
    winner_words = ["You" if seat == 0 else names[seat] for seat in state["result"]["winners"]]
    for word in winner_words:
        expect(ann.locator("#game-over h2")).to_contain_text(word)

    # Rematch: whoever asks first hosts a new room with the same game, options and bot;
    # the other player's page offers that same room, live, and one click takes the seat.
    expect(bo.get_by_role("button", name="Rematch")).to_be_visible()
    ann.get_by_role("button", name="Rematch").click()
    ann.wait_for_url(lambda address: room_id_of(address) != room_id_of(url))
    expect(ann.locator("#host-tools")).to_be_visible()
    bo.get_by_role("button", name="Join the rematch").click()
    bo.wait_for_url(ann.url)
    expect(bo.locator("#waiting-note")).to_contain_text("Waiting for Ann to start")
    rematch = httpx.get(f"{server.base_url}/api/rooms/{room_id_of(ann.url)}").json()
    assert rematch["options"] == room["options"]
    # The seat order is kept: Bo sat before the bot, and still does.
    assert [(s["name"], s["bot"]) for s in rematch["seats"]] == [
        ("Ann", False),
        ("Bo", False),
        ("Ada", True),
    ]
    assert rematch["host_seat"] == 0
    assert httpx.get(f"{server.base_url}/api/rooms/{room_id_of(url)}").json()["rematch"] == room_id_of(
        ann.url
    )


def test_reload_returns_to_the_same_seat_and_state(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player()
    sockets: list[str] = []
    ann.on("websocket", lambda socket: sockets.append(socket.url))
    url = create_room(ann, server.base_url, "Ann")
    add_bot_and_start(ann, seats_before_bot=1)
    wait_for_turn(ann)
    # The seat's token goes in the socket's first message, never in an address a log could keep.
    token = ann.evaluate(
        "JSON.parse(localStorage.getItem('motable.seats'))[location.pathname.split('/').pop()].token"
    )
    assert sockets and all("token" not in address and token not in address for address in sockets)
    expect(ann).to_have_title(re.compile("Your turn"))
    expect(ann.locator("#announcer")).to_have_text("Your turn.")

    # Keyboard: cards are buttons, so Tab/Enter plays them.
    before = version(ann)
    ann.locator(MOVE).first.focus()
    ann.keyboard.press("Enter")
    ann.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)

    play_until([ann], lambda: version(ann) >= 6 or game_over(ann))
    wait_for_turn(ann)
    hand, seen = hand_ids(ann), version(ann)
    ann.reload()
    wait_for_turn(ann)
    assert hand_ids(ann) == hand
    assert version(ann) == seen
    expect(ann.locator("#room-sub")).to_contain_text("You are Ann")

    # The same link opened again in the same browser goes straight back to the seat.
    again = ann.context.new_page()
    again.goto(url)
    wait_for_turn(again)
    expect(again.locator("#join-panel")).to_be_hidden()
    assert hand_ids(again) == hand
    again.close()

    play_until([ann], lambda: game_over(ann))


def test_open_pages_survive_a_server_restart(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    # The server is killed on purpose: the browser logs the refused socket and requests meanwhile.
    ann, bo = new_player(console_errors_ok=True), new_player(console_errors_ok=True)
    url = create_room(ann, server.base_url, "Ann")
    join_room(bo, url, "Bo")
    add_bot_and_start(ann, seats_before_bot=2)
    play_until([ann, bo], lambda: version(ann) >= 5 or game_over(ann))
    # Wait for a human's turn so nothing moves while the server is down.
    play_until([ann, bo], lambda: is_my_turn(ann) or is_my_turn(bo), seconds=30)
    hands = {page: hand_ids(page) for page in (ann, bo)}
    seen = version(ann)

    server.kill()
    for page in (ann, bo):
        expect(page.locator("#conn-banner")).to_be_visible()
        expect(page.locator("#conn-banner")).to_contain_text("Reconnecting")
    shoot(ann, "reconnecting")

    server.start()
    for page in (ann, bo):
        expect(page.locator("#conn-pill")).to_have_attribute("data-state", "open", timeout=20_000)
        expect(page.locator("#conn-banner")).to_be_hidden(timeout=10_000)
        assert hand_ids(page) == hands[page]
        assert version(page) == seen

    play_until([ann, bo], lambda: game_over(ann) and game_over(bo))


def test_a_spectator_watches_without_ever_seeing_a_hand(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, watcher = new_player(), new_player(375, 800)
    frames = FrameLog(watcher)
    url = create_room(ann, server.base_url, "Ann")
    watcher.goto(url)
    watcher.click("#watch-button")
    expect(watcher.locator("#waiting-note")).to_contain_text("You are watching")
    add_bot_and_start(ann, seats_before_bot=1)
    expect(watcher.locator("#game-panel")).to_be_visible()

    def check_watcher(page: Page) -> None:
        # Once the watcher has the same version, nothing it holds may name a card in Ann's hand.
        watcher.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version(page))
        assert frames.state is not None
        assert not card_ids(frames.state) & set(hand_ids(page))
        expect(watcher.locator("#hand [data-card-id]")).to_have_count(0)
        expect(watcher.locator(".mojo-mine")).to_be_hidden()

    play_until([ann], lambda: game_over(ann) and game_over(watcher), before_move=check_watcher)

    # Frame by frame, the watcher's state never held a hand, a face-down card or a move.
    assert frames.states, "the watcher received no state"
    for state in frames.states:
        assert state["seat"] is None
        assert state["legal_actions"] == []
        assert state["view"].get("hand", []) == []
        assert state["view"].get("face_down", []) == []
    expect(watcher.locator("#room-sub")).to_contain_text("You are watching")


def test_double_discard_variant_plays_to_the_end(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player()
    create_room(ann, server.base_url, "Ann", double_discard=True)
    add_bot_and_start(ann, seats_before_bot=1)
    wait_for_turn(ann)
    expect(ann.locator(".discard-pile")).to_have_count(2)
    # The first card of a turn asks for a pile before anything is sent.
    before = version(ann)
    ann.locator(MOVE).first.click()
    expect(ann.locator("button[data-action=play-on-pile]")).to_have_count(2)
    assert version(ann) == before
    ann.locator("button[data-action=play-on-pile]").first.click()
    ann.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    play_until([ann], lambda: game_over(ann))


def test_the_host_chooses_who_starts_from_the_seated_players(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo = new_player(), new_player(375, 800)
    url = create_room(ann, server.base_url, "Ann")
    # The room's creator is not asked for a seat number: who starts is a start-time question.
    ann.goto(server.base_url + "/")
    ann.check('input[name="game"][value="mojo"]')
    expect(ann.locator("#options-fields")).not_to_contain_text("starts")
    ann.goto(url)
    expect(ann.locator("#starter-question")).to_have_text("Who starts?")
    join_room(bo, url, "Bo")
    expect(bo.locator("#starter-field")).to_be_hidden()
    ann.click("#bot-button")
    expect(ann.locator("#starter-choice option")).to_have_count(4)
    assert ann.locator("#starter-choice option").all_inner_texts() == ["Random", "Ann (you)", "Bo", "Ada"]
    ann.select_option("#starter-choice", label="Bo")
    ann.click("#start-button")

    bo.wait_for_selector(".mojo-mine.is-current")
    state = httpx.get(f"{server.base_url}/api/rooms/{room_id_of(url)}/state").json()
    assert state["to_act"] == [1]
    expect(ann.locator("#turn-status")).to_contain_text("Bo is playing")


@pytest.mark.parametrize("width", [375, 1280])
def test_every_page_renders_at_phone_and_desktop_width(
    server: ServeProcess, new_player: Callable[..., Page], width: int
) -> None:
    host, guest = new_player(width, 860), new_player(width, 860)
    host.goto(server.base_url + "/")
    host.fill("#player-name", "Ann")
    shoot(host, "lobby")
    url = create_room(host, server.base_url, "Ann")
    host.click("#bot-button")
    expect(host.locator("#seat-list .presence.is-bot")).to_have_count(1)
    shoot(host, "waiting")
    guest.goto(url)
    expect(guest.locator("#join-panel")).to_be_visible()
    shoot(guest, "join")
    host.click("#start-button")
    wait_for_turn(host)
    play_one(host)
    play_until([host], lambda: is_my_turn(host) or game_over(host), seconds=30)
    shoot(host, "table")
    expect(guest.locator("#game-panel")).to_be_visible()
    shoot(guest, "table-spectator")
    play_until([host], lambda: game_over(host))
    shoot(host, "game-over")

    # The lobby now lists the finished game in the history.
    host.goto(server.base_url + "/")
    expect(host.locator("#history")).to_be_visible()
    host.locator("#history summary").click()
    expect(host.locator("#history-list li")).to_have_count(1)
    shoot(host, "lobby-history")

    host.goto(server.base_url + "/rules/mojo")
    expect(host.locator(".deck-table tbody tr")).to_have_count(5)
    expect(host.locator(".deck-table tfoot")).to_contain_text("78")
    shoot(host, "rules")

    answer = host.goto(server.base_url + "/r/no-such-room")
    assert answer is not None and answer.status == 404
    expect(host.get_by_text("This room does not exist")).to_be_visible()
