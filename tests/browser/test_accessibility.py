"""axe-core in Chromium finds no serious or critical accessibility violation (contrast included) on the
pages a player sees, on a phone and a laptop (tests/browser/axe.py): the home page, the waiting room
(host and friend), the table of every registered game mid-match (the test suite's own games too,
tests/games.py), a round summary, game over, the replay, every rules page, the error pages, the
table screen and the offline page; each in the light theme and the dark one (the system's preference,
which the pages follow). Matches are played through the API with random legal moves (fast
and the same every run); the page under test is a seat opened from its private seat link
(`#seat=<token>`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from engines.core import game_ids
from tests.servers import ServeProcess

from .axe import serious_violations
from .support import SUMMARY, at_rest

pytestmark = pytest.mark.browser

SIZES = [(375, 812), (1280, 800)]
RULES = Path(__file__).resolve().parents[2] / "templates" / "rules"
# Games whose matches go over several rounds, with options that end a match quickly: the round
# summary and the game over.
SHORT = {"mojo": {"target": 10}, "moby-trick": {"target": 5}}


class Match:
    """A room of two people (Ann hosts, Bo joins) driven through the API."""

    def __init__(self, base: str, game: str, options: dict[str, Any] | None = None) -> None:
        self.base = base
        self.api = httpx.Client(base_url=base)
        made = self.api.post("/api/rooms", json={"game": game, "name": "Ann", "options": options or {}})
        assert made.status_code == 201, made.text
        self.room = made.json()["room_id"]
        bo = self.api.post(f"/api/rooms/{self.room}/join", json={"name": "Bo"}).json()
        self.tokens = [made.json()["token"], bo["token"]]
        self.pick = random.Random(7)

    def start(self) -> None:
        answer = self.api.post(f"/api/rooms/{self.room}/start", headers=self.auth(0))
        assert answer.status_code == 200, answer.text

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def state(self, seat: int | None = None) -> dict[str, Any]:
        headers = self.auth(seat) if seat is not None else {}
        return self.api.get(f"/api/rooms/{self.room}/state", headers=headers).json()

    def move(self) -> bool:
        """One random legal move by whoever is to act; False once the match is over."""
        public = self.state()
        if public["status"] == "finished" or not public["to_act"]:
            return False
        seat = public["to_act"][0]
        mine = self.state(seat)
        body = {"action": self.pick.choice(mine["legal_actions"]), "version": mine["version"]}
        answer = self.api.post(f"/api/rooms/{self.room}/actions", json=body, headers=self.auth(seat))
        assert answer.status_code == 200, answer.text
        return True

    def play(self, until: Callable[[], bool], limit: int = 3000) -> None:
        for _ in range(limit):
            if until() or not self.move():
                return
        raise AssertionError("the match did not get there")

    def mid_match(self, moves: int = 6) -> None:
        """A few moves in, and Ann's turn (so her choices are on the table)."""
        done = 0

        def there() -> bool:
            nonlocal done
            done += 1
            state = self.state()
            return done > moves and 0 in state["to_act"]

        self.play(there)

    def finish(self) -> None:
        self.play(lambda: False, limit=20_000)
        assert self.state()["status"] == "finished"

    def seat_url(self, seat: int) -> str:
        return f"{self.base}/r/{self.room}#seat={self.tokens[seat]}"


def assert_clean(page: Page, where: str) -> None:
    at_rest(page)
    found = serious_violations(page)
    assert found == [], f"{where}:\n" + "\n".join(found)


@pytest.fixture
def new_match(server: ServeProcess) -> Iterator[Callable[..., Match]]:
    made: list[Match] = []

    def make(game: str, options: dict[str, Any] | None = None) -> Match:
        made.append(Match(server.base_url, game, options))
        return made[-1]

    yield make
    for match in made:
        match.api.close()


@pytest.fixture(params=["light", "dark"])
def new_player(new_player: Callable[..., Page], request: pytest.FixtureRequest) -> Callable[..., Page]:
    """Every page of a test in one theme: the system's preference, which the pages follow."""

    def make(*args: Any, **kwargs: Any) -> Page:
        page = new_player(*args, **kwargs)
        page.emulate_media(color_scheme=request.param)
        return page

    return make


@pytest.fixture(params=SIZES, ids=["phone", "laptop"])
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param


def test_the_home_page(server: ServeProcess, new_player: Callable[..., Page], size: tuple[int, int]) -> None:
    page = new_player(*size)
    page.goto(server.base_url + "/")
    assert_clean(page, "home")


def test_the_waiting_room_for_host_and_friend(
    server: ServeProcess,
    new_player: Callable[..., Page],
    new_match: Callable[..., Match],
    size: tuple[int, int],
) -> None:
    match = new_match("mojo")
    host = new_player(*size)
    host.goto(match.seat_url(0))
    expect(host.locator("#waiting-panel")).to_be_visible()
    assert_clean(host, "waiting room, host")
    friend = new_player(*size)
    friend.goto(match.seat_url(1))
    expect(friend.locator("#waiting-panel")).to_be_visible()
    assert_clean(friend, "waiting room, friend")


@pytest.mark.parametrize("game", game_ids())
def test_each_table_mid_match(
    server: ServeProcess,
    new_player: Callable[..., Page],
    new_match: Callable[..., Match],
    size: tuple[int, int],
    game: str,
) -> None:
    match = new_match(game)
    match.start()
    match.mid_match()
    page = new_player(*size)
    page.goto(match.seat_url(0))
    expect(page.locator("#game-panel")).to_be_visible()
    expect(page.locator("#table")).not_to_be_empty()
    assert_clean(page, f"{game} table mid-match")
    # The same table as the room's screen on a TV shows it.
    screen = new_player(*size)
    screen.goto(f"{server.base_url}/r/{match.room}/screen")
    expect(screen.locator(".screen-table").first).not_to_be_empty()
    assert_clean(screen, f"{game} table screen")


@pytest.mark.parametrize("game", list(SHORT))
def test_a_round_summary_and_game_over(
    server: ServeProcess,
    new_player: Callable[..., Page],
    new_match: Callable[..., Match],
    size: tuple[int, int],
    game: str,
) -> None:
    match = new_match(game, SHORT[game])
    match.start()
    page = new_player(*size)
    page.goto(match.seat_url(0))
    expect(page.locator("#game-panel")).to_be_visible()
    first_round = match.state()["view"].get("round", 1)
    match.play(lambda: match.state()["view"].get("round", 1) != first_round)
    expect(page.locator(SUMMARY)).to_be_visible()
    assert_clean(page, f"{game} round summary")

    match.finish()
    over = new_player(*size)
    over.goto(match.seat_url(1))
    expect(over.locator(SUMMARY)).to_contain_text("Game over")
    assert_clean(over, f"{game} final scores")
    over.locator(f"{SUMMARY} button.summary-close").click()
    expect(over.locator("#game-over")).to_be_visible()
    assert_clean(over, f"{game} game over")

    replay = new_player(*size)
    replay.goto(f"{server.base_url}/r/{match.room}/replay")
    expect(replay.locator("#replay-tables .table-area")).to_have_count(1)
    assert_clean(replay, f"{game} replay")


def test_the_rules_pages(
    server: ServeProcess, new_player: Callable[..., Page], size: tuple[int, int]
) -> None:
    page = new_player(*size)
    # Every game that ships a rules page (the lobby links it; a game without one has none to check).
    for game in (g for g in game_ids() if (RULES / f"{g}.html").exists()):
        page.goto(f"{server.base_url}/rules/{game}")
        expect(page.locator("h1")).to_be_visible()
        assert_clean(page, f"rules of {game}")


def test_the_error_and_offline_pages(
    server: ServeProcess, new_player: Callable[..., Page], size: tuple[int, int]
) -> None:
    page = new_player(*size)
    for path in ("/nonsense/page", "/r/nosuchroom", "/rules/chess", "/offline"):
        page.goto(server.base_url + path)
        assert_clean(page, path)
