"""'Since you left' in Chromium: Ann leaves the table, the others move, and back in the room one card
above the table lists their moves in words and what is asked of her now; dismissed, it stays gone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import SCREENSHOTS, create_room, motion_done

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "games"


# Counts the page's reads of its room's log (it reads one only to recap a return) and the ones it is
# done with: done once the code that asked has had the answer and drawn what it makes of it.
LOG_READS = """(() => {
  const reads = { started: 0, done: 0 };
  window.__logReads = reads;
  const fetch = window.fetch.bind(window);
  const finish = () => setTimeout(() => { reads.done += 1; });
  window.fetch = async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    if (!url.pathname.endsWith("/log")) return fetch(input, init);
    reads.started += 1;
    let response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      finish();
      throw error;
    }
    const text = response.text.bind(response);
    response.text = () => text().finally(finish);
    return response;
  };
})();"""


def recap_settled(page: Page, version: int) -> None:
    """Returns once the page shows `version` and is done with every log it read: what it shows of
    "Since you left" (the card, the marks) is then as it stays, since it looks for a recap only when
    it draws its first state after a return. So "nothing shown" is checked after the moment it would
    have been shown, not after a guessed wait."""
    page.wait_for_function("v => Number(document.body.dataset.version) === v", arg=version)
    page.wait_for_function("() => window.__logReads.started === window.__logReads.done")
    motion_done(page)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def shoot_sizes(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((375, 812), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), animations="disabled")


def start_with_bo_and_cy(page: Page, http: httpx.Client, room_id: str) -> list[str]:
    """Bo and Cy join the host's waiting room over HTTP and the host starts on her page: the three
    seats' tokens, the host's (read from her page's storage) first."""
    tokens = [page.evaluate("id => JSON.parse(localStorage['motable.seats'])[id].token", room_id)]
    for name in ("Bo", "Cy"):
        tokens.append(http.post(f"/api/rooms/{room_id}/join", json={"name": name}).json()["token"])
    page.click("#start-button")
    expect(page.locator("#game-panel")).to_be_visible()
    return tokens


def play_until(http: httpx.Client, room_id: str, tokens: list[str], seat: int) -> int:
    """The seats to act play their first legal move until `seat` is to act; returns the moves made."""
    for made in range(30):
        state: dict[str, Any] = http.get(f"/api/rooms/{room_id}/state", headers=bearer(tokens[0])).json()
        if seat in state["to_act"]:
            return made
        mover = state["to_act"][0]
        theirs = http.get(f"/api/rooms/{room_id}/state", headers=bearer(tokens[mover])).json()
        answer = http.post(
            f"/api/rooms/{room_id}/actions",
            json={"action": theirs["legal_actions"][0]},
            headers=bearer(tokens[mover]),
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("the turn never came")


def test_since_you_left_lists_the_moves_and_dismisses(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(375, 812)
    ann.add_init_script(LOG_READS)
    url = create_room(ann, server.base_url, "Ann")
    room_id = url.split("/r/")[1].split("#")[0]
    with httpx.Client(base_url=server.base_url) as http:
        tokens = start_with_bo_and_cy(ann, http, room_id)
        # Ann plays her first turn at the table (sent over HTTP, shown on her page), then leaves.
        play_until(http, room_id, tokens, seat=1)
        version = http.get(f"/api/rooms/{room_id}").json()["version"]
        ann.wait_for_function("v => Number(document.body.dataset.version) === v", arg=version)
        expect(ann.locator("#since-you-left")).to_be_hidden()
        ann.goto(server.base_url + "/")

        moved = play_until(http, room_id, tokens, seat=0)
        assert moved >= 2
        log = http.get(f"/api/rooms/{room_id}/log", headers=bearer(tokens[0])).json()
        since = [entry for entry in log["entries"] if entry["seq"] >= version]
        assert len(since) == moved

        ann.goto(url)
        card = ann.locator("#since-you-left")
        expect(card).to_be_visible()
        expect(card.locator("h2")).to_have_text("Since you left")
        expect(card.locator(".since-moves li")).to_have_count(moved)
        expect(card.locator(".since-moves li").first).to_contain_text("Bo ")
        expect(card).to_contain_text("Cy ")
        expect(card.locator(".since-ask")).to_contain_text("Your turn")
        # Before the table.
        card_box, table_box = card.bounding_box(), ann.locator("#game-panel").bounding_box()
        assert card_box is not None and table_box is not None and card_box["y"] < table_box["y"]
        # Nothing is named that the log hides from Ann: every card it names is one her view shows.
        shoot_sizes(ann, "since-you-left")
        card.get_by_role("button", name="To the table").click()
        expect(card).to_be_hidden()

        # Seen: a reload shows no card.
        ann.reload()
        recap_settled(ann, http.get(f"/api/rooms/{room_id}").json()["version"])
        expect(card).to_be_hidden()

        # The ✕ dismisses as well.
        ann.goto(server.base_url + "/")
        # Ann plays over HTTP (her turn may go on: equal cards play again) until someone else is to act.
        play_until(http, room_id, tokens, seat=1)
        assert play_until(http, room_id, tokens, seat=0) >= 1
        ann.goto(url)
        expect(card).to_be_visible()
        expect(card.locator(".since-moves")).to_contain_text("You ")
        card.get_by_role("button", name="Dismiss what happened since you left").click()
        expect(card).to_be_hidden()


ALERT_SHOTS = SCREENSHOTS / "alerts"


def marked(page: Page) -> dict[str, Any]:
    """What the table marks: the seats pulsing (with their colour and animation) and the cards ringed."""
    found: dict[str, Any] = page.evaluate(
        """() => {
        const table = document.getElementById("table");
        const seats = [...table.querySelectorAll(".seat-panel.since-moved")].map((n) => ({
            seat: Number(n.dataset.seat),
            colour: n.style.getPropertyValue("--since-seat"),
            animation: getComputedStyle(n).animationName,
        }));
        const cards = [...table.querySelectorAll(".since-played")].map((n) => n.dataset.cardId);
        return { seats, cards, flown: Number(table.dataset.sinceFlown || 0) };
    }"""
    )
    return found


def named_since(http: httpx.Client, room_id: str, token: str, version: int) -> tuple[set[int], set[str]]:
    """The other seats that moved since `version` and the card ids their entries name in this seat's
    log (what the server lets the seat read)."""
    log = http.get(f"/api/rooms/{room_id}/log", headers=bearer(token)).json()
    since = [e for e in log["entries"] if e["seq"] >= version and e["seat"] not in (0, None)]
    cards = {str(e["action"]["card"]) for e in since if isinstance(e["action"].get("card"), int)}
    return {e["seat"] for e in since}, cards


def on_table(page: Page) -> set[str]:
    ids: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#table [data-card-id]')].map((n) => n.dataset.cardId)"
    )
    return set(ids)


def shoot_marks(page: Page, name: str) -> None:
    """The card above the table and the marks on it, once the cards have flown in (mid-pulse)."""
    ALERT_SHOTS.mkdir(parents=True, exist_ok=True)
    motion_done(page, css=False)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ALERT_SHOTS / f"{name}.png"))
    table = page.locator("#table")
    table.scroll_into_view_if_needed()
    table.screenshot(path=str(ALERT_SHOTS / f"{name}-table.png"))


COLOURS = {1: "#7cc6fe", 2: "#ff8fa3"}
UNMARK = "() => document.querySelectorAll('.since-moved, .since-played').forEach((n) => n.className = '')"


def test_since_you_left_shows_the_moves_on_the_mojo_table(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(1280, 800)
    ann.add_init_script(LOG_READS)
    url = create_room(ann, server.base_url, "Ann")
    room_id = url.split("/r/")[1].split("#")[0]
    with httpx.Client(base_url=server.base_url) as http:
        tokens = start_with_bo_and_cy(ann, http, room_id)
        play_until(http, room_id, tokens, seat=1)
        version = http.get(f"/api/rooms/{room_id}").json()["version"]
        ann.wait_for_function("v => Number(document.body.dataset.version) === v", arg=version)
        ann.goto(server.base_url + "/")
        assert play_until(http, room_id, tokens, seat=0) >= 2
        movers, named = named_since(http, room_id, tokens[0], version)
        assert movers == {1, 2} and named  # Bo and Cy moved, and at least one of them played a card

        ann.goto(url)
        expect(ann.locator("#since-you-left")).to_be_visible()
        ann.wait_for_function("() => document.querySelectorAll('#table .since-moved').length === 2")
        marks = marked(ann)
        assert {(m["seat"], m["colour"]) for m in marks["seats"]} == {(s, COLOURS[s]) for s in movers}
        assert all(m["animation"] == "since-pulse" for m in marks["seats"])
        # Every card ringed is one the log names to Ann as played by another seat, and every such card
        # the table shows is ringed (the last one played is on top of its pile); each flew in.
        assert set(marks["cards"]) == named & on_table(ann) and marks["cards"]
        assert marks["flown"] >= 1
        shoot_marks(ann, "since-table-mojo-1280")

        # "To the table": the card goes and the table shows the moves once more.
        ann.get_by_role("button", name="To the table").click()
        expect(ann.locator("#since-you-left")).to_be_hidden()
        ann.wait_for_function("() => document.querySelectorAll('#table .since-moved').length === 2")

        # Watching, moves that arrive are no return: nothing is marked for them. Ann plays (her turn may
        # go on: equal cards play again), then the others do while she watches.
        ann.evaluate(UNMARK)
        assert play_until(http, room_id, tokens, seat=1) >= 1
        assert play_until(http, room_id, tokens, seat=0) >= 1
        recap_settled(ann, http.get(f"/api/rooms/{room_id}").json()["version"])
        assert marked(ann)["seats"] == [] and marked(ann)["cards"] == []
        expect(ann.locator("#since-you-left")).to_be_hidden()

        # On a phone, with motion reduced: the same marks, still.
        ann.goto(server.base_url + "/")
        play_until(http, room_id, tokens, seat=1)
        seen = http.get(f"/api/rooms/{room_id}").json()["version"]
        assert play_until(http, room_id, tokens, seat=0) >= 1
        movers, named = named_since(http, room_id, tokens[0], seen)
        ann.set_viewport_size({"width": 375, "height": 812})
        ann.emulate_media(reduced_motion="reduce")
        ann.goto(url)
        expect(ann.locator("#since-you-left")).to_be_visible()
        ann.wait_for_function(
            "n => document.querySelectorAll('#table .since-moved').length === n", arg=len(movers)
        )
        still = marked(ann)
        assert {m["seat"] for m in still["seats"]} == movers
        assert all(m["animation"] == "none" for m in still["seats"])
        assert set(still["cards"]) == named & on_table(ann)
        assert still["flown"] == 0
        shoot_marks(ann, "since-table-mojo-375")


def test_since_you_left_shows_the_moves_on_the_moby_trick_table(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(375, 812)
    ann.goto(server.base_url + "/")
    ann.fill("#player-name", "Ann")
    ann.check('input[name="game"][value="moby-trick"]')
    ann.click("#create-button")
    ann.wait_for_url("**/r/**")
    ann.wait_for_selector("#waiting-panel:not([hidden])")
    url = ann.url
    room_id = url.split("/r/")[1].split("#")[0]
    with httpx.Client(base_url=server.base_url) as http:
        tokens = start_with_bo_and_cy(ann, http, room_id)
        version = http.get(f"/api/rooms/{room_id}").json()["version"]
        ann.wait_for_function("v => Number(document.body.dataset.version) === v", arg=version)
        ann.goto(server.base_url + "/")
        # Everyone moves (Ann too, from another device) until Ann is to play a card on a trick that
        # holds another seat's card.
        for _ in range(150):
            mine = http.get(f"/api/rooms/{room_id}/state", headers=bearer(tokens[0])).json()
            trick = mine["view"]["trick"]
            if 0 in mine["to_act"] and mine["view"]["phase"] == "play" and any(t["seat"] != 0 for t in trick):
                break
            mover = mine["to_act"][0]
            theirs = http.get(f"/api/rooms/{room_id}/state", headers=bearer(tokens[mover])).json()
            answer = http.post(
                f"/api/rooms/{room_id}/actions",
                json={"action": theirs["legal_actions"][0]},
                headers=bearer(tokens[mover]),
            )
            assert answer.status_code == 200, answer.text
        else:
            raise AssertionError("Ann never came to play on a trick")
        movers, named = named_since(http, room_id, tokens[0], version)
        assert movers == {1, 2}

        ann.goto(url)
        expect(ann.locator("#since-you-left")).to_be_visible()
        ann.wait_for_function("() => document.querySelectorAll('#table .since-moved').length === 2")
        marks = marked(ann)
        assert {(m["seat"], m["colour"]) for m in marks["seats"]} == {(s, COLOURS[s]) for s in movers}
        ringed = set(marks["cards"])
        assert ringed == named & on_table(ann)
        trick_ids = {str(t["card"]["id"]) for t in trick if t["seat"] != 0}
        assert trick_ids <= ringed  # the others' cards on the trick
        # A card set aside face down by another seat is never named, so never marked.
        hidden = http.get(f"/api/rooms/{room_id}/state", headers=bearer(tokens[1])).json()["view"][
            "set_aside"
        ]
        if hidden is not None:
            assert str(hidden["id"]) not in ringed
        shoot_marks(ann, "since-table-moby-375")
        ann.set_viewport_size({"width": 1280, "height": 800})
        shoot_marks(ann, "since-table-moby-1280")
