"""The version a page says it shows (`<body data-version>`, what tests and debugging read) is set once
the game's table has drawn that state, not when the state arrives: a table loads its module and its
stylesheet first, and a page read or measured in between (by axe, a screenshot, a test's next step)
is one no player sees. Held back here by a held stylesheet, on the room page and the table screen."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, Route

from tests.rooms import join, new_room, start_match
from tests.servers import ServeProcess

pytestmark = pytest.mark.browser

# At every change of the marker: the version, and whether Mooki Island's table was drawn (its felt
# in the page, and its stylesheet applied: the felt is a grid only by that sheet).
RECORD = """
window.__marks = [];
new MutationObserver(() => {
  const felt = document.querySelector(".mooki-felt");
  window.__marks.push({
    version: document.body.dataset.version,
    felt: Boolean(felt),
    styled: Boolean(felt) && getComputedStyle(felt).display === "grid",
  });
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-version"] });
"""


@pytest.mark.parametrize("where", ["room", "screen"])
def test_the_version_shown_is_set_once_the_table_has_drawn_it(
    server: ServeProcess, new_player: Callable[..., Page], where: str
) -> None:
    base = server.base_url
    with_http = httpx.Client(base_url=base)
    room = new_room(with_http, "mooki-island")
    join(with_http, room, "Bo")
    start_match(with_http, room)
    version = int(with_http.get(f"/api/rooms/{room.room_id}/state").json()["version"])
    with_http.close()
    page = new_player(1280, 800)
    page.add_init_script(RECORD)
    # The game's stylesheet is held (its first request: the loader's HEAD) until the page has been
    # looked at: the state is in, the table is loading.
    held: list[Route] = []
    page.route(
        "**/static/css/games/mooki-island.css",
        lambda route: route.continue_() if held else held.append(route),
    )
    url = f"{base}/r/{room.room_id}" + ("/screen" if where == "screen" else f"#seat={room.token}")
    with page.expect_request("**/static/css/games/mooki-island.css"):
        page.goto(url)
    while not held:  # the route's handler runs inside Playwright's calls
        page.wait_for_timeout(10)
    assert page.evaluate("window.__marks") == [], "a version was shown before the table drew it"
    held[0].continue_()
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)
    marks = page.evaluate("window.__marks")
    assert marks and all(m["felt"] and m["styled"] for m in marks), marks
