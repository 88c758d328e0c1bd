"""Walks every page a player sees, for tests that read each page's words: the home page with each
game's create options, each rules page, the 404 pages, and for a game a whole match over HTTP (each
seat's room page at every step from the waiting room to game over, the table screen, "Your games" after
each kind of move, "Since you left", and the replay stepped across). At each page and moment the walk
calls `read(page, where)`; what is looked for is the caller's (tests/browser/test_player_words.py:
developer words; tests/browser/test_every_language.py: English words in another language)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.rooms import GUESTS, auth
from tests.servers import ServeProcess

# Reads one page at one moment: the page, and where the walk is ("seat 1's room, move 12").
Read = Callable[[Page, str], None]
# Makes a player's page (the `new_player` fixture): width, height, and the browser's language.
NewPlayer = Callable[..., Page]

# Each game with the players and options whose match reaches all its phases: Mojo's round ends,
# Moby Trick's trick and round ends, Mooki Island's draw and side choice, Mokuru's witnesses (three
# players) on short belts, and the test suite's own game.
MATCHES: dict[str, tuple[int, dict[str, Any]]] = {
    "mojo": (3, {"target": 20}),
    "moby-trick": (3, {"target": 5}),
    "mooki-island": (2, {}),
    "mokuru": (3, {"belts": "short"}),
    "pebbles": (2, {}),
}
# The names the walk's players go by, host first.
PLAYERS = ("Ann", *GUESTS)
# The move after which a match is "under way", for a look at its table mid-match.
MIDDLE = 6

OPEN_ALL_DETAILS = "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"


def walk_home_rules_and_missing(base: str, page: Page, read: Read) -> None:
    """The home page with each game's create options, every rules page with its sections open, and
    the pages for a room or a path that is not there."""
    page.goto(base + "/")
    read(page, "home")
    games = [g["id"] for g in httpx.get(f"{base}/api/games").json()]
    for game in games:
        page.check(f'input[name="game"][value="{game}"]')
        read(page, f"home, creating {game}")
    for game in games:
        answer = page.goto(f"{base}/rules/{game}")
        if answer is not None and answer.status == 404:
            continue  # a test game has no rules page
        # Every section open: its words are read too.
        page.evaluate(OPEN_ALL_DETAILS)
        read(page, f"rules of {game}")
    answer = page.goto(base + "/r/nosuchroom")
    assert answer is not None and answer.status == 404
    read(page, "404")
    page.goto(base + "/no/such/page")
    read(page, "404 of a path")


def _state(http: httpx.Client, room: str, token: str) -> dict[str, Any]:
    body: dict[str, Any] = http.get(f"/api/rooms/{room}/state", headers=auth(token)).json()
    return body


def caught_up(page: Page, version: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)


def _kind(action: dict[str, Any]) -> str:
    """A move's type with its word values: each one worded differently in "Your games"."""
    return ",".join(f"{k}={v}" for k, v in sorted(action.items()) if isinstance(v, str))


def walk_match(
    server: ServeProcess,
    new_player: NewPlayer,
    game: str,
    read: Read,
    *,
    locale: str | None = None,
    every_step: bool = True,
    after_your_games: Callable[[Page, dict[str, Any]], None] | None = None,
    mid_match: Callable[[Page], None] | None = None,
) -> int:
    """Plays a whole match of `game` over HTTP (random legal moves, seeded) with every seat's page
    open in a browser speaking `locale`, and reads its pages; returns the moves made.

    `every_step`: every page at every step, as the docstring of this module says. Otherwise only the
    waiting room, the host's room once the match is under way, and the game over with "Your games"
    after it. `after_your_games(page, action)`: called after "Your games" is read for a new kind of
    move; `mid_match(page)`: with the host's room once the match is under way (`MIDDLE` moves)."""
    base = server.base_url
    players, options = MATCHES[game]
    pick = random.Random(7)

    def player(width: int = 375, height: int = 812) -> Page:
        return new_player(width, height, locale=locale)

    with httpx.Client(base_url=base) as http:
        made = http.post("/api/rooms", json={"game": game, "name": PLAYERS[0], "options": options})
        assert made.status_code == 201, made.text
        room = made.json()["room_id"]
        tokens = [made.json()["token"]]
        seats = [player()]
        seats[0].goto(f"{base}/r/{room}#seat={tokens[0]}")
        expect(seats[0].locator("#waiting-panel")).to_be_visible()
        if every_step:
            read(seats[0], "the waiting room, alone")
            # Someone with the link, not yet seated: the join form.
            visitor = player()
            visitor.goto(f"{base}/r/{room}")
            expect(visitor.locator("#join-name")).to_be_visible()
            read(visitor, "the waiting room, joining")
            visitor.close()
        for name in PLAYERS[1:players]:
            joined = http.post(f"/api/rooms/{room}/join", json={"name": name})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])
            if every_step:
                page = player()
                page.goto(f"{base}/r/{room}#seat={tokens[-1]}")
                expect(page.locator("#waiting-panel")).to_be_visible()
                seats.append(page)
        expect(seats[0].locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(players)
        read(seats[0], "the waiting room, full")
        if every_step:
            # The table screen, and a second device of Ann's that stays on her home page ("Your games").
            screen = player(1280, 720)
            screen.goto(f"{base}/r/{room}/screen")
            read(screen, "the table screen, waiting")
            home = player()
            home.goto(f"{base}/r/{room}#seat={tokens[0]}")
            expect(home.locator("#waiting-panel")).to_be_visible()
        started = http.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
        assert started.status_code == 200, started.text
        if every_step:
            # (It saw the match begin: coming back, it is told what happened since.)
            caught_up(home, http.get(f"/api/rooms/{room}").json()["version"])
            home.goto(base + "/")

        told: set[str] = set()
        moves = 0
        while True:
            public = http.get(f"/api/rooms/{room}/state").json()
            version = public["version"]
            if every_step:
                for seat, page in enumerate(seats):
                    if seat == 0 or seat in public["to_act"]:
                        caught_up(page, version)
                        read(page, f"seat {seat}'s room, move {moves}")
                if moves % 5 == 0:
                    caught_up(screen, version)
                    read(screen, f"the table screen, move {moves}")
            if moves == MIDDLE and public["status"] != "finished":
                caught_up(seats[0], version)
                if not every_step:
                    read(seats[0], f"seat 0's room, move {moves}")
                if mid_match:
                    mid_match(seats[0])
            if public["status"] == "finished":
                break
            # Someone to act moves, or now and then someone else takes a move they may make anytime.
            views = {seat: _state(http, room, token) for seat, token in enumerate(tokens)}
            optional = [s for s, v in views.items() if s not in public["to_act"] and v["legal_actions"]]
            mover = (
                pick.choice(optional) if optional and pick.random() < 0.2 else pick.choice(public["to_act"])
            )
            action = pick.choice(views[mover]["legal_actions"])
            sent = http.post(
                f"/api/rooms/{room}/actions",
                json={"action": action, "version": views[mover]["version"]},
                headers=auth(tokens[mover]),
            )
            assert sent.status_code == 200, sent.text
            moves += 1
            if not every_step:
                continue
            # "Your games" says the last move: read once for each kind of move.
            if _kind(action) not in told:
                told.add(_kind(action))
                home.reload()
                # (The last move of a match moves its line under the fold of finished games.)
                expect(home.locator(f'.game-row[data-room="{room}"] .game-row-last')).to_be_attached()
                home.evaluate(OPEN_ALL_DETAILS)
                read(home, f"Your games after {action}")
                if after_your_games:
                    after_your_games(home, action)
            # Ann's other device comes back to the room now and then: "Since you left".
            if moves % 15 == 0:
                home.goto(f"{base}/r/{room}")
                expect(home.locator("#since-you-left")).to_be_visible()
                read(home, f"Since you left, move {moves}")
                home.goto(base + "/")

        # Game over: the final summary over the table, then the table under it.
        for seat, page in enumerate(seats):
            expect(page.locator("#game-over")).to_be_visible()
            read(page, f"seat {seat}'s room, game over")
        summary = seats[0].locator("#round-summary:not([hidden]) button.summary-close")
        if summary.count():
            summary.click()
            read(seats[0], "the room after the game, summary closed")
        if not every_step:
            seats[0].goto(base + "/")
            expect(seats[0].locator(f'.game-row[data-room="{room}"]')).to_have_count(1)
            seats[0].evaluate(OPEN_ALL_DETAILS)
            read(seats[0], "Your games, finished")
            return moves
        read(screen, "the table screen, game over")
        home.goto(base + "/")
        expect(home.locator(f'.game-row[data-room="{room}"]')).to_have_count(1)
        # (Finished games are listed under a fold.)
        home.evaluate(OPEN_ALL_DETAILS)
        read(home, "Your games, finished")

        # The replay, every step from the deal to the end, stepped with its forward button (whose
        # name is the one thing the walk reads in the page's words: found by its place instead).
        replay = seats[0]
        replay.goto(f"{base}/r/{room}/replay")
        replay.wait_for_function("() => document.body.dataset.step === '0'")
        if locale is None:
            expect(replay.locator("#replay-where")).to_contain_text(f"Move 0 of {moves}")
        read(replay, "the replay, the deal")
        forward = replay.locator("#replay-forward")
        for step in range(1, moves + 1):
            forward.click()
            replay.wait_for_function("n => document.body.dataset.step === String(n)", arg=step)
            read(replay, f"the replay, move {step}")
    return moves
