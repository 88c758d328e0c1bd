"""Fixtures for the real-browser tests: a live `motable serve` process and Debian's Chromium."""

from __future__ import annotations

import os
import re
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from tests.app.conftest import postgres_admin, postgres_url, redis_url
from tests.games import motable_games
from tests.servers import ServeProcess

from .mail import Inbox, smtp_inbox

# The database and Redis fixtures of the server tests, for browser tests that run two server processes.
__all__ = ["postgres_admin", "postgres_url", "redis_url"]

CHROMIUM = os.environ.get("MOTABLE_CHROMIUM", "/usr/bin/chromium")

# An `expect` waits as long as any other wait of a page (15 s, below), not Playwright's 5 s: on a
# loaded 2-core CI machine a room body can take seconds to arrive, and a wait is not a measure of
# speed (a test that passes waits only as long as it must).
expect.set_options(timeout=15_000)
# What a page says (on the page and in its console) when a game's table failed to load
# (static/js/table-loader.js): a test fails on it unless it breaks a table on purpose.
TABLE_FAILED = "This game's table failed to load"
# Console errors a test may cause on purpose: the API refusing a request (4xx) that a test provokes.
# Every other console error fails the test (a blocked inline style, a failed script, an uncaught
# promise), and so does every Content Security Policy violation, logged by the init script below.
ALLOWED_CONSOLE_ERROR = re.compile(r"^Failed to load resource: the server responded with a status of 4\d\d\b")
REPORT_CSP_VIOLATIONS = (
    "document.addEventListener('securitypolicyviolation', (e) => console.error("
    "'Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    folder = tmp_path_factory.mktemp("motable-browser")
    live = ServeProcess(
        {
            "DATABASE_URL": f"sqlite:///{folder / 'motable.db'}",
            "MOTABLE_BOT_DELAY": "0.05",
            # One server and one address for the whole session: more rooms and bots than an hour's quota.
            "MOTABLE_ROOMS_PER_HOUR": "0",
            "MOTABLE_BOTS_PER_HOUR": "0",
            # ...and every player of every test comes from this one address, some playing whole
            # matches over HTTP (test_replay): the request limit is lifted (tests/app test it).
            "MOTABLE_RATE_PER_SECOND": "0",
            # ...and every table screen page asks for a pairing code from it (tests/app test the limit).
            "MOTABLE_SCREEN_CODES_PER_HOUR": "0",
            # The test suite's own games, as this process registers them: the per-game checks loop
            # over the registry, so the server must know every game they name.
            "MOTABLE_GAMES": motable_games(),
            # Every language with a catalogue, as a server offering them runs (each page's switch).
            "MOTABLE_LANGUAGES": "all",
        },
        folder / "server.log",
    )
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server for a module's tests (tests/browser/mail.py): its inbox and port."""
    with smtp_inbox() as box:
        yield box


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    # Debian's own Chromium: `playwright install` cannot download browsers here.
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture
def new_player(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Pages in separate browser contexts, so each is a different person with its own storage."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []
    trails: list[deque[str]] = []

    def make(
        width: int = 1280,
        height: int = 900,
        *,
        table_may_fail: bool = False,
        console_errors_ok: bool = False,
        locale: str | None = None,
    ) -> Page:
        """`console_errors_ok`: for the few tests that stop the server on purpose (offline, reconnect),
        where the browser rightly logs failed requests and sockets. `locale`: the browser's language
        (its Accept-Language and `navigator.language`), e.g. "fr-FR"; Chromium's own otherwise."""
        # The pages send a strict CSP (no eval), which the tests keep: wait conditions are written
        # as functions ("() => ..."), which Playwright runs without evaluating a string in the page.
        context = browser.new_context(
            viewport={"width": width, "height": height}, **({"locale": locale} if locale else {})
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        page.add_init_script(REPORT_CSP_VIOLATIONS)
        trail = deque(maxlen=40)
        trails.append(trail)
        page.on("console", lambda message: trail.append(f"console {message.type}: {message.text}"))
        if not table_may_fail:
            # A broken renderer is shown to the player, not swapped for the generic table: it fails the test.
            def table_failed(message: ConsoleMessage) -> None:
                if message.type == "error" and message.text.startswith(TABLE_FAILED):
                    errors.append(f"{page.url}: {message.text}")

            page.on("console", table_failed)
        if not console_errors_ok:

            def console_error(message: ConsoleMessage) -> None:
                # (A table that failed to load is table_failed's to judge, above.)
                if message.type != "error" or message.text.startswith(TABLE_FAILED):
                    return
                if not ALLOWED_CONSOLE_ERROR.match(message.text):
                    errors.append(f"{page.url}: console error: {message.text} at {message.location}")

            page.on("console", console_error)
        page.on(
            "websocket",
            lambda socket: (
                socket.on("framesent", lambda frame: trail.append(f"sent {str(frame)[:200]}")),
                socket.on("framereceived", lambda frame: trail.append(f"received {str(frame)[:200]}")),
            ),
        )
        return page

    yield make
    # Shown by pytest only when the test failed: the last messages each page saw.
    for number, trail in enumerate(trails):
        print(f"--- page {number}", *trail, sep="\n")
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript or console errors: {errors}"
