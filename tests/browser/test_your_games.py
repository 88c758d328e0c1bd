"""The home page's "Your games" in Chromium: a seat link opened on a new device adds the game there,
the list says whose turn it is (yours stands out), the clock and the last move, and follows the
other players' moves without a reload."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import SCREENSHOTS

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "games"


def shoot_sizes(page: Page, name: str) -> None:
    """Screenshots on a phone (375 x 812) and a laptop (1280 x 800)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((375, 812), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True, animations="disabled")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def mojo_match(
    http: httpx.Client, host: str, guests: list[str], clock: int | None = None
) -> tuple[str, list[str]]:
    made = http.post("/api/rooms", json={"game": "mojo", "name": host, "clock": clock}).json()
    tokens = [made["token"]]
    for name in guests:
        tokens.append(http.post(f"/api/rooms/{made['room_id']}/join", json={"name": name}).json()["token"])
    assert http.post(f"/api/rooms/{made['room_id']}/start", headers=bearer(tokens[0])).status_code == 200
    return made["room_id"], tokens


def play(http: httpx.Client, room_id: str, tokens: list[str], until_seat: int) -> dict[str, Any]:
    """Whoever is to act moves (their first legal move) until it is `until_seat`'s turn."""
    for _ in range(20):
        state = http.get(f"/api/rooms/{room_id}/state", headers=bearer(tokens[0])).json()
        if until_seat in state["to_act"]:
            return state
        mover = state["to_act"][0]
        theirs = http.get(f"/api/rooms/{room_id}/state", headers=bearer(tokens[mover])).json()
        action = theirs["legal_actions"][0]
        answer = http.post(
            f"/api/rooms/{room_id}/actions", json={"action": action}, headers=bearer(tokens[mover])
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("the turn never came")


def state_of(http: httpx.Client, room_id: str, token: str) -> dict[str, Any]:
    body: dict[str, Any] = http.get(f"/api/rooms/{room_id}/state", headers=bearer(token)).json()
    return body


def test_your_games_lists_every_seat_live(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    with httpx.Client(base_url=server.base_url) as http:
        first, first_tokens = mojo_match(http, "Ann", ["Bo"], clock=3600)
        second, second_tokens = mojo_match(http, "Cy", ["Ann", "Dee"])
        # In the first game it is Ann's turn; in the second someone else's.
        play(http, first, first_tokens, until_seat=1)
        play(http, first, first_tokens, until_seat=0)
        if 1 in state_of(http, second, second_tokens[0])["to_act"]:
            play(http, second, second_tokens, until_seat=2)

        # Ann opens her two seat links on a new phone: each adds its game there.
        phone = new_player(375, 812)
        for room_id, token in ((first, first_tokens[0]), (second, second_tokens[1])):
            phone.goto(f"{server.base_url}/r/{room_id}#seat={token}")
            expect(phone.locator("#game-panel")).to_be_visible()
        phone.goto(server.base_url + "/")
        rows = phone.locator("#your-games .game-row")
        expect(rows).to_have_count(2)
        mine = phone.locator(f'.game-row[data-room="{first}"]')
        other = phone.locator(f'.game-row[data-room="{second}"]')
        expect(mine).to_have_class(lambda_has("is-your-turn"))
        expect(mine.locator(".turn-badge")).to_have_text("Your turn")
        expect(mine).to_contain_text("with Bo")
        expect(mine.locator(".game-row-clock")).to_contain_text("left")
        expect(mine.locator(".game-row-last")).to_contain_text("Bo played")
        expect(mine.get_by_role("link", name="Play")).to_have_attribute("href", f"/r/{first}")
        # The game waiting for her comes first.
        expect(rows.first).to_have_attribute("data-room", first)
        expect(other.locator(".turn-badge")).not_to_have_text("Your turn")
        expect(other).to_contain_text("with Cy and Dee")
        shoot_sizes(phone, "your-games")

        # Ann plays from her laptop (over HTTP here); the phone's list follows without a reload.
        # (Her turn may go on, as an equal card plays again: she plays until it is Bo's.)
        play(http, first, first_tokens, until_seat=1)
        expect(mine.locator(".turn-badge")).to_have_text("Bo's turn", timeout=15_000)
        expect(mine.locator(".game-row-last")).to_contain_text("You played")
        expect(mine).not_to_have_class(lambda_has("is-your-turn"))
        # One request per refresh for the whole list.
        with phone.expect_request(lambda r: r.url.endswith("/api/my-games")) as asked:
            phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        sent = asked.value.post_data_json
        assert sent is not None and len(sent["seats"]) == 2


def lambda_has(name: str) -> re.Pattern[str]:
    return re.compile(rf"(^|\s){name}(\s|$)")


def test_a_request_for_your_seat_reaches_every_page_of_yours(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    """Someone asks for Ann's seat in one game from another device: her phone hears it on the home
    page and on the page of another game she plays, floating in view, and she can refuse it there."""
    with httpx.Client(base_url=server.base_url) as http:
        first, first_tokens = mojo_match(http, "Ann", ["Bo"])
        second, second_tokens = mojo_match(http, "Cy", ["Ann"])
        phone = new_player(375, 812)
        for room_id, token in ((first, first_tokens[0]), (second, second_tokens[1])):
            phone.goto(f"{server.base_url}/r/{room_id}#seat={token}")
            expect(phone.locator("#game-panel")).to_be_visible()
        asked = http.post(f"/api/rooms/{first}/seat-requests", json={"seat": 0})
        assert asked.status_code == 201, asked.text
        request_id = asked.json()["request_id"]

        phone.goto(server.base_url + "/")
        expect(phone.locator("#your-games .game-row")).to_have_count(2)
        ask = phone.locator(f'#seat-asks [data-room="{first}"]')
        expect(ask).to_contain_text("Mojo with Bo, as Ann:")
        expect(ask).to_contain_text("Someone asks for your seat from another device. Is it you?")
        expect(ask.get_by_role("button", name="Yes, it's me (approve)")).to_be_visible()
        phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        box = ask.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 812, box
        shoot_sizes(phone, "seat-ask-home")

        # On the page of her other game: asked there too, not about that game's own seat.
        phone.set_viewport_size({"width": 375, "height": 812})
        phone.goto(f"{server.base_url}/r/{second}")
        expect(phone.locator("#game-panel")).to_be_visible()
        ask = phone.locator(f'#seat-asks [data-room="{first}"]')
        expect(ask).to_contain_text("Someone asks for your seat from another device. Is it you?")
        expect(phone.locator("#seat-alert")).to_be_hidden()
        shoot_sizes(phone, "seat-ask-other-room")
        phone.set_viewport_size({"width": 375, "height": 812})
        ask.get_by_role("button", name="No, refuse").click()
        expect(phone.locator("#seat-asks")).to_be_hidden()
        status = http.get(f"/api/rooms/{first}/seat-requests/{request_id}").json()
        assert status["status"] == "refused"
        # The seat stayed: the first game still opens as Ann.
        phone.goto(f"{server.base_url}/r/{first}")
        expect(phone.locator("#room-sub")).to_contain_text("You are Ann")
