"""A game with no renderer, stylesheet or page of its own — the tiny test game, registered in the
server's environment — is listed in the lobby and played to the end in the generic table."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import game_over, shoot, version

pytestmark = pytest.mark.browser

MOVE = "#table .generic-moves button[data-action]:not([disabled])"


@pytest.fixture(scope="module")
def tiny_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    folder = tmp_path_factory.mktemp("motable-tiny")
    live = ServeProcess(
        {
            "DATABASE_URL": f"sqlite:///{folder / 'motable.db'}",
            "MOTABLE_BOT_DELAY": "0.05",
            "MOTABLE_GAMES": "tiny=tests.app.tiny_game",
        },
        folder / "server.log",
    )
    live.start()
    yield live
    live.stop()


def room_id_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def test_a_registered_game_plays_to_the_end_in_the_generic_table(
    tiny_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann, bo = new_player(1280, 900), new_player(375, 800)
    ann.goto(tiny_server.base_url + "/")
    expect(ann.locator(".game-choice[data-game=tiny]")).to_contain_text("lowest total wins")
    ann.fill("#player-name", "Ann")
    ann.check('input[name="game"][value="tiny"]')
    ann.fill("#opt-rounds", "2")
    ann.click("#create-button")
    ann.wait_for_url("**/r/**")
    url = ann.url
    bo.goto(url)
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    expect(ann.locator("#seat-list")).to_contain_text("Bo")
    ann.click("#bot-button")
    expect(ann.locator("#seat-list .presence.is-bot")).to_have_count(1)
    ann.click("#start-button")

    pages = (ann, bo)
    counts = {ann: r"You 2, Bo 2, Ada 2", bo: r"Ann 2, You 2, Ada 2"}
    for page in pages:
        expect(page.locator("#game-panel")).to_be_visible()
        # The view in words: its fields by name, cards by their values, counts by player.
        expect(page.locator(".generic-view dt").first).to_have_text("Round")
        expect(page.locator(".generic-view")).to_contain_text(re.compile(r"Handvalue \d, value \d"))
        expect(page.locator(".generic-view")).to_contain_text(re.compile("Hand counts" + counts[page]))
    # Ann starts: her moves are her two cards, labelled by what they are.
    expect(ann.locator(MOVE)).to_have_count(2)
    for label in ann.locator(MOVE).all_inner_texts():
        assert re.fullmatch(r"Play: card \(value \d\)", label), label
    expect(bo.locator(MOVE)).to_have_count(0)
    expect(bo.locator("#turn-status")).to_contain_text("Waiting for Ann")
    shoot(ann, "generic-table")
    shoot(bo, "generic-table")

    # A move shows up for the others in the log, and is said to screen readers, in words.
    before = version(ann)
    ann.locator(MOVE).first.click()
    ann.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    expect(bo.locator("#game-log li").first).to_have_text(re.compile(r"^Ann: play \(value \d\)\.$"))
    expect(bo.locator("#announcer")).to_contain_text("Ann: play (value")

    moves = 1
    deadline = time.monotonic() + 60
    while not (game_over(ann) and game_over(bo)):
        assert time.monotonic() < deadline, "the match did not finish in time"
        acted = False
        for page in pages:
            if page.locator(MOVE).count():
                before = version(page)
                page.locator(MOVE).first.click()
                page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
                moves += 1
                acted = True
        if not acted:
            time.sleep(0.05)
    # Two rounds of two cards each for the two people at the table.
    assert moves == 8

    room = httpx.get(f"{tiny_server.base_url}/api/rooms/{room_id_of(url)}").json()
    state = httpx.get(f"{tiny_server.base_url}/api/rooms/{room_id_of(url)}/state").json()
    assert room["status"] == "finished"
    totals = room["scorepad"]["totals"]
    assert len(room["scorepad"]["rounds"]) == 2
    names = [seat["name"] for seat in room["seats"]]
    for seat, page in enumerate(pages):
        shown = page.locator(".scorepad tfoot td").all_inner_texts()
        assert [int(re.sub(r"\D", "", text)) for text in shown] == totals
        for winner in state["result"]["winners"]:
            expect(page.locator("#game-over h2")).to_contain_text("You" if winner == seat else names[winner])
        expect(page.locator(MOVE)).to_have_count(0)
    shoot(ann, "generic-game-over")
    shoot(bo, "generic-game-over")


def test_a_table_that_fails_to_load_says_so_on_the_page(
    tiny_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    """A game WITH a renderer file that does not load (here: a syntax error) is not played on the
    generic table in silence: the player reads why there is no table. (No file at all, as above,
    is the convention for the generic table.)"""
    ann = new_player(1280, 900, table_may_fail=True)
    said: list[str] = []
    ann.on("console", lambda message: said.append(message.text) if message.type == "error" else None)
    broken = "export function mount( {"  # a syntax error
    ann.route(
        "**/static/js/games/tiny.js",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=broken),
    )
    ann.goto(tiny_server.base_url + "/")
    ann.fill("#player-name", "Ann")
    ann.check('input[name="game"][value="tiny"]')
    ann.click("#create-button")
    ann.wait_for_url("**/r/**")
    ann.click("#bot-button")
    expect(ann.locator("#seat-list .presence.is-bot")).to_have_count(1)
    ann.click("#start-button")
    expect(ann.locator("#game-panel")).to_be_visible()
    error = ann.locator("#table .table-error")
    expect(error).to_be_visible()
    expect(error).to_have_attribute("role", "alert")
    expect(error).to_contain_text(re.compile(r"^This game's table failed to load: \S"))
    expect(ann.locator("#table .generic-view")).to_have_count(0)
    expect(ann.locator("#table [data-action]")).to_have_count(0)
    # The rest of the room still works: the side panel, the turn notice.
    expect(ann.locator("#scorepad")).to_be_visible()
    assert any(text.startswith("This game's table failed to load") for text in said), said
    shoot(ann, "broken-table")
