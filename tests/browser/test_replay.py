"""Replays in Chromium: a finished Mojo and a finished Moby Trick match, played again to the end."""

from __future__ import annotations

import random
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import SUMMARY, close_summary, shoot

pytestmark = pytest.mark.browser


def _finished_match(base: str, game: str, options: dict[str, int], players: int = 2) -> tuple[str, int]:
    """A match (two players unless told) played to its end through the API with random legal moves."""
    with httpx.Client(base_url=base) as api:
        made = api.post(
            "/api/rooms", json={"game": game, "name": "AnnabelleAnnabelleLongna", "options": options}
        ).json()
        room = made["room_id"]
        tokens = [made["token"]]
        for name in ["Bo", "Cy", "Di"][: players - 1]:
            tokens.append(api.post(f"/api/rooms/{room}/join", json={"name": name}).json()["token"])
        api.post(f"/api/rooms/{room}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
        pick = random.Random(5)
        moves = 0
        while True:
            state = api.get(f"/api/rooms/{room}/state").json()
            if state["status"] == "finished":
                return room, moves
            seat = state["to_act"][0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            mine = api.get(f"/api/rooms/{room}/state", headers=auth).json()
            action = pick.choice(mine["legal_actions"])
            body = {"action": action, "version": mine["version"]}
            answer = api.post(f"/api/rooms/{room}/actions", json=body, headers=auth)
            assert answer.status_code == 200, answer.text
            moves += 1


@pytest.mark.parametrize(("game", "options"), [("mojo", {"target": 10}), ("moby-trick", {"target": 5})])
def test_a_finished_match_plays_again_in_the_replay_page(
    server: ServeProcess, new_player: Callable[..., Page], game: str, options: dict[str, int]
) -> None:
    base = server.base_url
    room, moves = _finished_match(base, game, options)

    # The room links its replay once the match is over.
    page = new_player(1280, 900)
    page.goto(f"{base}/r/{room}")
    # Opened after the end, the room shows the final scores over the table first.
    expect(page.locator(SUMMARY)).to_contain_text("Game over")
    close_summary(page)
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(f"**/r/{room}/replay**")
    expect(page.locator("#replay-where")).to_contain_text(f"Move 0 of {moves}")
    expect(page.locator("#replay-tables .table-area")).to_have_count(1)

    # Step by step, then back, then played to the end at speed.
    page.get_by_role("button", name="Forward one move").click()
    page.get_by_role("button", name="Forward one move").click()
    expect(page.locator("#replay-where")).to_contain_text(f"Move 2 of {moves}")
    page.get_by_role("button", name="Back one move").click()
    expect(page.locator("#replay-where")).to_contain_text(f"Move 1 of {moves}")
    page.select_option("#replay-speed", "40")
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("n => document.body.dataset.step === String(n)", arg=moves, timeout=60_000)
    expect(page.get_by_role("button", name="Play")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#replay-where")).to_contain_text(f"Move {moves} of {moves}")
    shoot(page, f"replay-{game}-end")

    # Every hand open: one table per seat, each drawing its own hand; the link keeps the choice.
    page.select_option("#replay-viewpoint", "all")
    expect(page.locator("#replay-tables .table-area")).to_have_count(2)
    expect(page.locator("#replay-link")).to_have_value(f"{base}/r/{room}/replay?seat=all&step={moves}")
    page.get_by_role("button", name="First move").click()
    expect(page.locator("#replay-where")).to_contain_text("The cards are dealt")
    hands = page.locator("#replay-tables #hand")
    expect(hands).to_have_count(2)
    for index in range(2):
        assert hands.nth(index).locator("[data-card-id], .card").count() > 0
    shoot(page, f"replay-{game}-all-hands")

    # A shared link opens at the same moment from the same place, on a phone too.
    phone = new_player(375, 812)
    phone.goto(f"{base}/r/{room}/replay?seat=1&step=3")
    expect(phone.locator("#replay-where")).to_contain_text(f"Move 3 of {moves}")
    expect(phone.locator("#replay-where")).to_contain_text("Bo's seat")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    shoot(phone, f"replay-{game}-shared")


def test_a_replay_waits_for_the_end(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    made = httpx.post(f"{server.base_url}/api/rooms", json={"game": "mojo", "name": "Ann"}).json()
    page = new_player(375, 812)
    page.goto(f"{server.base_url}/r/{made['room_id']}/replay")
    expect(page.get_by_role("heading", name="Not over yet")).to_be_visible()
    assert httpx.get(f"{server.base_url}/api/rooms/{made['room_id']}/replay").status_code == 409


def test_mooki_island_replay_shows_both_sides_of_a_drawn_card(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    """After the match the replay shows what the drawer saw: both sides of the card in its hands
    (the rules page promises every drawn card's back), in the drawer's seat and with every hand open;
    the other seat, as it saw the table then, sees the side that was up and a back."""
    base = server.base_url
    room, _ = _finished_match(base, "mooki-island", {})
    body = httpx.get(f"{base}/api/rooms/{room}/replay", params={"seat": "all"}).json()
    drawer = body["first"]["to_act"][0]  # the first move is a take: then that seat holds a card
    first = body["steps"][0]
    assert first["seat"] == drawer and first["action"]["type"] == "take"

    page = new_player(1280, 900)
    page.goto(f"{base}/r/{room}/replay?seat={drawer}&step=1")
    expect(page.locator("#replay-where")).to_contain_text("Move 1 of")
    drawn = page.locator(".mooki-drawn")
    expect(drawn.locator(".mooki-choice .mooki-card[data-face]")).to_have_count(2)
    expect(drawn.locator(".mooki-back")).to_have_count(0)
    expect(drawn.locator("h2")).to_contain_text("drew this card")
    # Nothing to press in a replay.
    expect(drawn.locator("button")).to_have_count(0)
    shoot(page, "replay-mooki-island-drawn")

    page.select_option("#replay-viewpoint", "all")
    frames = page.locator("#replay-tables .table-area")
    expect(frames).to_have_count(2)
    mine = page.locator(f'#replay-tables .table-area[data-seat="{drawer}"] .mooki-drawn')
    theirs = page.locator(f'#replay-tables .table-area[data-seat="{1 - drawer}"] .mooki-drawn')
    expect(mine.locator(".mooki-choice .mooki-card[data-face]")).to_have_count(2)
    expect(theirs.locator(".mooki-back")).to_have_count(1)
    shoot(page, "replay-mooki-island-all-drawn")
