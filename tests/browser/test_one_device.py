"""Around one device in real Chromium: the host adds the other players on this page, which then
acts as whichever local seat the game waits for. Mokuru shows who is due in large; Mojo (hidden
hands) covers the table with "pass the device to Bo" and never shows one player's hand while the
other's turn is due."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.servers import ServeProcess

from .support import MOVE, create_room, game_over, hand_ids, shoot, version

pytestmark = pytest.mark.browser

MOKURU_MOVES = "#table .mokuru-moves button[data-action]:not([disabled])"
NEWER = "v => Number(document.body.dataset.version) > v"


def add_on_this_device(page: Page, name: str, seated: int) -> None:
    page.fill("#device-name", name)
    page.click("#device-add")
    expect(page.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(seated)
    expect(page.locator("#device-list")).to_contain_text(name)


def held(page: Page) -> dict[str, Any]:
    entry: dict[str, Any] = page.evaluate(
        "JSON.parse(localStorage.getItem('motable.seats'))[location.pathname.split('/').pop()]"
    )
    return entry


def test_three_players_around_one_phone_play_mokuru(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    phone = new_player(375, 800)
    phone.goto(server.base_url + "/")
    phone.fill("#player-name", "Ann")
    phone.check('input[name="game"][value="mokuru"]')
    phone.select_option("#opt-belts", "short")
    phone.click("#create-button")
    phone.wait_for_url("**/r/**")
    add_on_this_device(phone, "Bo", 2)
    add_on_this_device(phone, "Cy", 3)
    entry = held(phone)
    assert [local["name"] for local in entry["locals"]] == ["Bo", "Cy"] and entry["name"] == "Ann"
    expect(phone.locator("#room-sub")).to_contain_text("This device: Ann, Bo and Cy")
    shoot(phone, "one-device-waiting")
    phone.click("#start-button")

    # Everyone chooses a difficulty in turn on the same page: the big line names who is due.
    for name, level in (("Ann", "Normal"), ("Bo", "Easy"), ("Cy", "Extreme")):
        expect(phone.locator("#table .mokuru-device-who")).to_have_text(name)
        expect(phone.locator("#table .mokuru-device-what")).to_have_text("Choose your difficulty")
        phone.locator(MOKURU_MOVES, has_text=f"{level}:").click()
    expect(phone.locator("#table .mokuru-seat[data-seat='2']")).to_contain_text("Extreme")

    rng = random.Random(5)
    names_due: set[str] = set()
    shot = False
    deadline = time.monotonic() + 240
    while not game_over(phone):
        assert time.monotonic() < deadline, "the match did not finish in time"
        # Mokuru shows nothing secret: no pass-the-device screen, ever.
        expect(phone.locator("#pass-screen")).to_be_hidden()
        buttons = phone.locator(MOKURU_MOVES)
        if not buttons.count():
            time.sleep(0.05)
            continue
        who = phone.locator("#table .mokuru-device-who").inner_text()
        what = phone.locator("#table .mokuru-device-what").inner_text()
        names_due.add(who)
        if not shot and " tries" in what:
            # "Bo: 3 Flips back — 3 tries", big enough to read across the table.
            assert who in {"Ann", "Bo", "Cy"} and what.endswith(("— 3 tries", "— 2 tries", "— 1 try"))
            shoot(phone, "one-device-mokuru")
            shot = True
        labels = buttons.all_inner_texts()
        preferred = [i for i, text in enumerate(labels) if text.startswith(("Confirm", "Landed", "Done"))]
        index = rng.choice(preferred) if preferred and rng.random() < 0.6 else rng.randrange(len(labels))
        before = version(phone)
        try:
            buttons.nth(index).click(timeout=2000)
            phone.wait_for_function(NEWER, arg=before, timeout=5000)
        except PlaywrightTimeout:
            continue
    assert shot and names_due == {"Ann", "Bo", "Cy"}
    expect(phone.locator("#table .mokuru-celebration")).to_contain_text(
        re.compile(r"(Ann|Bo|Cy) is Grandmaster!")
    )
    expect(phone.locator("#game-over h2")).to_have_text(re.compile(r"^(Ann|Bo|Cy) wins!$"))
    # "You" would change hands around one device: the table names every player.
    log = phone.locator("#game-log").inner_text()
    assert "You" not in log and "Your" not in log, log
    shoot(phone, "one-device-grandmaster")


def test_a_mojo_room_with_two_players_on_one_device_and_one_remote(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    tablet, remote = new_player(1024, 800), new_player(375, 800)
    url = create_room(tablet, server.base_url, "Ann", target=10)
    add_on_this_device(tablet, "Bo", 2)
    remote.goto(url)
    remote.fill("#join-name", "Cy")
    remote.click("#join-button")
    expect(tablet.locator("#seat-list")).to_contain_text("Cy")
    tablet.click("#start-button")
    room_id = url.rstrip("/").split("/")[-1]
    entry = held(tablet)
    tokens = {entry["seat"]: entry["token"], **{local["seat"]: local["token"] for local in entry["locals"]}}
    assert sorted(tokens) == [0, 1]

    def server_state(token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = httpx.get(f"{server.base_url}/api/rooms/{room_id}/state", headers=headers)
        body: dict[str, Any] = answer.json()
        return body

    def hand_of(seat: int) -> set[int]:
        return {card["id"] for card in server_state(tokens[seat])["view"]["hand"]}

    passes = 0
    checked = 0
    deadline = time.monotonic() + 180
    while not (game_over(tablet) and game_over(remote)):
        assert time.monotonic() < deadline, "the match did not finish in time"
        before = server_state()
        # The tablet drew that version (or a later one, then `after` differs and nothing is judged).
        try:
            tablet.wait_for_function(
                "v => Number(document.body.dataset.version) >= v", arg=before["version"], timeout=5000
            )
        except PlaywrightTimeout:
            continue
        cover = tablet.locator("#pass-screen:not([hidden])")
        shown = hand_ids(tablet)
        covered = cover.count() > 0
        after = server_state()
        if before["version"] == after["version"] and after["status"] == "playing":
            to_act = set(after["to_act"])
            if covered:
                # The table is out of the page, not merely out of sight.
                assert shown == [] and tablet.locator("#table").is_hidden()
            elif shown:
                owners = [seat for seat in tokens if set(shown) <= hand_of(seat)]
                assert len(owners) == 1, (shown, owners)
                other = 1 - owners[0]
                # Never one local player's hand while the other local player is due and they are not.
                assert not (other in to_act and owners[0] not in to_act), (owners, to_act)
                checked += 1
        if covered:
            due = cover.locator("h2").inner_text()
            assert due in ("Pass the device to Ann", "Pass the device to Bo")
            if passes == 0:
                shoot(tablet, "one-device-pass")
            passes += 1
            tablet.click("#pass-screen .pass-ready")
            expect(tablet.locator("#pass-screen")).to_be_hidden()
            continue
        acted = False
        for page in (tablet, remote):
            if page.locator(".mojo-mine.is-current").count() and page.locator(MOVE).count():
                start = version(page)
                page.locator(MOVE).first.click()
                pile = page.locator("button[data-action=play-on-pile]")
                if version(page) == start and pile.count():
                    pile.first.click()
                try:
                    page.wait_for_function(NEWER, arg=start, timeout=5000)
                except PlaywrightTimeout:
                    continue
                acted = True
        if not acted:
            time.sleep(0.05)
    assert passes >= 2 and checked > 0
    expect(tablet.locator("#game-over")).to_contain_text("win")
