"""What a player trips over at the table: keyboard focus, refused moves, a phone's width, wording."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.servers import ServeProcess

from .support import MOVE, SUMMARY, add_bot_and_start, create_room, game_over, is_my_turn, shoot, version

pytestmark = pytest.mark.browser

ON_A_TABLE_MOVE = "document.activeElement && document.activeElement.matches('#table button:not([disabled])')"


def test_keyboard_only_mojo_keeps_focus_on_the_table_to_the_end(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(375, 800)
    # A long name: the score pad must still fit a phone's width once it has a round in it.
    create_room(ann, server.base_url, "Annabelle-Longname")
    add_bot_and_start(ann, seats_before_bot=1)
    ann.wait_for_selector(".mojo-mine.is-current")
    # On a phone the connection shows as a dot, but a screen reader still gets the words.
    expect(ann.locator("#conn-text")).to_have_text("Live")
    assert ann.evaluate("getComputedStyle(document.getElementById('conn-text')).display") != "none"
    for _ in range(60):
        ann.keyboard.press("Tab")
        if ann.evaluate(ON_A_TABLE_MOVE):
            break
    assert ann.evaluate(ON_A_TABLE_MOVE), "Tab never reached a card"
    # Every colour's name fits on a phone-sized card ("ORANGE" and "YELLOW" were cut).
    cut = ann.evaluate(
        """() => ['blue', 'green', 'yellow', 'orange', 'red'].filter((colour) => {
            const card = document.createElement('div');
            card.className = `card c-${colour}`;
            card.innerHTML = `<span class="card-name">◆ ${colour}</span>`;
            document.querySelector('.mojo-center').append(card);
            const name = card.querySelector('.card-name');
            const overflows = name.scrollWidth > name.clientWidth;
            card.remove();
            return overflows;
        })"""
    )
    assert cut == []

    moves = 0
    summaries = 0
    while not game_over(ann):
        assert moves < 400, "the match did not finish"
        if ann.locator(SUMMARY).count():
            if "Game over" in (ann.locator(SUMMARY).text_content() or ""):
                # The last round's summary can open a moment before the game-over panel: keep it.
                break
            # A round ended: the summary over the table has the focus; Enter goes on to the next round.
            expect(ann.locator(f"{SUMMARY} button.summary-close")).to_be_focused()
            ann.keyboard.press("Enter")
            expect(ann.locator("#round-summary")).to_be_hidden()
            summaries += 1
            continue
        if not (is_my_turn(ann) and ann.locator(MOVE).count()):
            ann.wait_for_timeout(50)
            continue
        # Whatever the last move was (a card played, a pile drawn from, the bots' turns
        # in between), focus is back on a move the player can make with Enter.
        focused = ann.evaluate("document.activeElement.outerHTML.slice(0, 120)")
        assert ann.evaluate(ON_A_TABLE_MOVE), f"move {moves}: focus is on {focused}"
        before = version(ann)
        ann.keyboard.press("Enter")
        ann.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        moves += 1

    # The last round's summary lists the final scores by rank and has the focus; closing it
    # hands the focus to the result, not to <body>.
    expect(ann.locator(SUMMARY)).to_contain_text("Game over")
    expect(ann.locator(SUMMARY)).to_contain_text("1st")
    expect(ann.locator(f"{SUMMARY} button.summary-close")).to_be_focused()
    ann.keyboard.press("Enter")
    expect(ann.locator("#game-over h2")).to_be_focused()
    if not ann.locator(".my-facedown .is-facedown").count():
        # Nothing is face down any more, so the empty hand does not claim otherwise.
        expect(ann.locator("#hand")).not_to_have_attribute("data-empty", "mojo")
    expect(ann.locator(".scorepad tbody tr")).not_to_have_count(0)
    assert ann.evaluate("document.documentElement.scrollWidth") <= 375
    shoot(ann, "keyboard-game-over")

    # A rematch the server turns down says why, on screen.
    refusal = {"error": {"code": "rate_limited", "message": "Too many requests; wait a moment."}}
    ann.route("**/rematch", lambda route: route.fulfill(status=429, json=refusal))
    ann.get_by_role("button", name="Rematch").click()
    expect(ann.locator("#move-error")).to_be_visible()
    expect(ann.locator("#move-error")).to_contain_text("Too many requests")
    expect(ann.get_by_role("button", name="Rematch")).to_be_enabled()


def test_a_refused_move_is_shown_on_screen(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player(375, 800)
    refusal = "{'type': 'play', 'card': 34} is not a legal action now"

    # The server refuses Ann's next move, as it would a move from a stale second tab (and with the
    # developer words an older server sent): the player reads that the game moved on.
    def refuse_actions(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "action":
                error = {"code": "illegal_action", "message": refusal}
                ws.send(json.dumps({"type": "error", "id": frame["id"], "error": error}))
            else:
                upstream.send(message)

        ws.on_message(from_page)

    ann.route_web_socket("**/ws/rooms/**", refuse_actions)
    create_room(ann, server.base_url, "Ann")
    add_bot_and_start(ann, seats_before_bot=1)
    ann.wait_for_selector(".mojo-mine.is-current")
    before = version(ann)
    ann.locator(MOVE).first.click()

    expect(ann.locator("#move-error")).to_be_visible()
    expect(ann.locator("#move-error")).to_have_attribute("role", "alert")
    expect(ann.locator("#move-error")).to_contain_text("The game moved on")
    expect(ann.locator("#move-error")).not_to_contain_text("'type'")
    assert ann.locator("#move-error").is_visible() and ann.locator("#move-error").bounding_box()["y"] < 800
    shoot(ann, "move-refused")
    # Nothing changed, and the hand is ready for another try.
    assert version(ann) == before
    expect(ann.locator(MOVE).first).to_be_enabled()
    ann.get_by_role("button", name="Dismiss").click()
    expect(ann.locator("#move-error")).to_be_hidden()


def test_words_and_marks_that_do_not_rely_on_colour_or_grammar_luck(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    page = new_player()
    page.goto(server.base_url + "/")
    text = page.evaluate(
        """async () => {
            const { describeEvents } = await import('/static/js/games/mojo.js');
            const end = { seq: 7, type: 'round_end', round: 2, seat: 0, scores: [3, 9], mojo_face: 'plus10' };
            return describeEvents([end], (s) => (s === 0 ? 'You' : 'Bo'), 1)[0].text;
        }"""
    )
    assert "You went out and take the Mojo card (+10)" in text

    # A 5's player who names themself to lead is not named twice.
    chose = page.evaluate(
        """async () => {
            const { describeEvent } = await import('/static/js/games/moby-trick.js');
            const name = (s, object) => (s === 0 ? (object ? 'you' : 'You') : 'Bo');
            return [
                describeEvent({ seq: 3, type: 'leader', chooser: 1, seat: 1 }, name).text,
                describeEvent({ seq: 4, type: 'leader', chooser: 1, seat: 0 }, name).text,
            ];
        }"""
    )
    assert chose == ["Bo chose to lead the next trick.", "Bo chose you to lead the next trick."]

    # The player in the lead is named as such, not only painted green.
    leading = page.evaluate(
        """async () => {
            const { renderScorepad } = await import('/static/js/scorepad.js');
            const box = document.createElement('div');
            document.body.append(box);
            const room = {
                seats: [{ seat: 0, name: 'Ann' }, { seat: 1, name: 'Bo' }],
                scorepad: { rounds: [[4, 12]], totals: [4, 12] },
                options: { target: 50 },
            };
            renderScorepad(box, room, null, (s) => room.seats[s].name, { winner: 'lowest_total' });
            const low = [...box.querySelectorAll('tfoot td.is-leading')].map((td) => td.textContent);
            // The client has no winner rule of its own: without the descriptor's, nobody leads.
            const other = document.createElement('div');
            document.body.append(other);
            renderScorepad(other, room, null, (s) => room.seats[s].name);
            return [low, other.querySelectorAll('tfoot td.is-leading').length];
        }"""
    )
    assert leading == [["4 (leading)"], 0]

    # The side panel the descriptor names, the leader by its winner rule: stars won high, a progress track.
    panels = page.evaluate(
        """async () => {
            const { renderPanel } = await import('/static/js/panels.js');
            const room = {
                seats: [{ seat: 0, name: 'Ann' }, { seat: 1, name: 'Bo' }],
                scorepad: { rounds: [[6, 4]], totals: [6, 4] },
            };
            const name = (s) => room.seats[s].name;
            const box = document.createElement('div');
            document.body.append(box);
            renderPanel('stars', box, room, null, name, { winner: 'highest_total' });
            const stars = [...box.querySelectorAll('li')].map((li) => [li.className, li.textContent]);
            renderPanel('progress', box, room, null, name, { winner: 'first_to_goal', goal: 9 });
            const tracks = [...box.querySelectorAll('progress')].map(
                (p) => [p.value, p.max, p.getAttribute('aria-label')],
            );
            return { stars, tracks };
        }"""
    )
    assert panels["stars"] == [["is-leading", "Ann★★★★★★6 (leading)"], ["", "Bo★★★★4"]]
    assert panels["tracks"] == [[6, 9, "Ann: 6 of 9"], [4, 9, "Bo: 4 of 9"]]


def test_mojo_says_what_the_others_played(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player()
    create_room(ann, server.base_url, "Ann")
    ann.click("#bot-button")
    expect(ann.locator("#seat-list .presence.is-bot")).to_have_count(1)
    # The bot plays first, so Ann's first turn follows its move.
    ann.select_option("#starter-choice", label="Ada")
    ann.click("#start-button")
    ann.wait_for_selector(".mojo-mine.is-current")
    announcer = ann.locator("#announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    expect(announcer).to_contain_text(re.compile(r"^Ada (played|drew|took|had|hit) .+\. Your turn\.$"))
