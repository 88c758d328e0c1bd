"""Helpers for the real-browser tests: a live `motable serve` process, clicking through moves, frame logs."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonpatch
from playwright.sync_api import Locator, Page, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"

# Whatever the page offers the player now: a playable card, a face-down card to
# reveal, or a draw pile to draw from. Legal moves only, by construction.
MOVE = (
    "#hand button.card.is-legal:not([disabled]), "
    ".my-facedown button.card.is-legal, "
    "button[data-action=draw-deck], "
    "button[data-action=draw-pile]"
)


def in_view_wherever_scrolled(node: Locator) -> None:
    """`node` is whole on the screen with the page scrolled to its top, its middle and its end, at
    the page's size now (a request floats where the player is looking)."""
    page = node.page
    end = page.evaluate("document.documentElement.scrollHeight - innerHeight")
    for top in (0, end // 2, end):
        page.evaluate("y => window.scrollTo(0, y)", top)
        box = node.bounding_box()
        height = page.evaluate("innerHeight")
        assert box is not None, "not rendered"
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (top, box, height)


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), full_page=True, animations="disabled")


def create_room(page: Page, base_url: str, name: str, target: int = 10, double_discard: bool = False) -> str:
    """Create a Mojo room through the lobby form; returns the share URL."""
    page.goto(base_url + "/")
    page.fill("#player-name", name)
    page.check('input[name="game"][value="mojo"]')
    page.fill("#opt-target", str(target))
    if double_discard:
        page.check("#opt-double_discard")
    page.click("#create-button")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("#waiting-panel:not([hidden])")
    return page.url


def join_room(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_selector("#waiting-panel:not([hidden])")


def ann_and_bo_playing(
    base_url: str, new_player: Callable[..., Page], locales: tuple[str | None, str | None] = (None, None)
) -> tuple[Page, Page]:
    """Ann creates a Mojo room, Bo joins it from another browser, Ann starts: both tables shown.
    `locales`: each browser's language (None: the browser's default)."""
    ann = new_player(locale=locales[0])
    url = create_room(ann, base_url, "Ann")
    bo = new_player(locale=locales[1])
    join_room(bo, url, "Bo")
    expect(ann.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(2)
    ann.click("#start-button")
    for page in (ann, bo):
        expect(page.locator("#game-panel")).to_be_visible()
    return ann, bo


def add_bot_and_start(host: Page, seats_before_bot: int) -> None:
    host.click("#bot-button")
    host.wait_for_function(
        "n => document.querySelectorAll('#seat-list .seat-item:not(.is-empty)').length === n",
        arg=seats_before_bot + 1,
    )
    host.click("#start-button")


# Resolves once the page has drawn twice more (what a resize or a state set off has started) and every
# animation with an end has ended: cards in flight, panels fading in. Endless ones are left, and so
# are the stylesheet's own animations when `css` is false.
_MOTION_DONE = """async (css) => {
  await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
  const ending = document.getAnimations().filter(
    (a) => a.effect?.getComputedTiming().endTime !== Infinity && (css || !(a instanceof CSSAnimation)),
  );
  await Promise.all(ending.map((a) => a.finished.catch(() => null)));
}"""


def motion_done(page: Page, css: bool = True) -> None:
    """Waits until what moves on the page has come to rest (for a screenshot, or a contrast check),
    instead of a fixed wait that guesses how long the motion lasts. `css=False`: only what the
    scripts move (cards in flight), while a stylesheet's pulse goes on."""
    page.evaluate(_MOTION_DONE, css)


# Resolves once the page has loaded, its web fonts are in and every image on it (those the scripts
# added after the load event too) has been fetched and decoded, or has failed.
_LOADED = """async () => {
  if (document.readyState !== "complete") {
    await new Promise((done) => addEventListener("load", done, { once: true }));
  }
  await document.fonts.ready;
  await Promise.all([...document.images].map((image) => image.decode().catch(() => null)));
}"""


def at_rest(page: Page) -> None:
    """The page as a person sees it once it has stopped changing: loaded, its fonts and images in,
    and its motion over (for a contrast check or a screenshot). Not Playwright's "networkidle":
    that waits until the browser has reported the end of every request the page's frame started,
    the ones the browser makes by itself too (the web app manifest, the offline page's files), and
    once such an end went unreported on a fresh browser profile, so the wait ran out (CI, stop 47).
    What is drawn is waited for here, by what the page shows, not by what the network does."""
    page.evaluate(_LOADED)
    motion_done(page)


def hand_ids(page: Page) -> list[int]:
    ids = page.eval_on_selector_all("#hand [data-card-id]", "nodes => nodes.map(n => n.dataset.cardId)")
    return [int(i) for i in ids]


def version(page: Page) -> int:
    return int(page.evaluate("Number(document.body.dataset.version ?? -1)"))


def is_my_turn(page: Page) -> bool:
    return page.locator(".mojo-mine.is-current").count() > 0


def game_over(page: Page) -> bool:
    return page.locator("#game-over:not([hidden])").count() > 0


SUMMARY = "#round-summary:not([hidden])"


def close_summary(page: Page) -> str | None:
    """Close the round summary over the table, if one is open; returns the words it showed."""
    panel = page.locator(SUMMARY)
    if not panel.count():
        return None
    text = panel.inner_text()
    # The button that closes it ("Next round", "See the table"; a rematch may stand beside it).
    page.locator(f"{SUMMARY} .button-row button.summary-close").click()
    page.wait_for_selector("#round-summary", state="hidden")
    return text


def play_one(page: Page) -> bool:
    """Click one legal move if it is this page's turn; True if a move was sent."""
    if not is_my_turn(page):
        return False
    close_summary(page)
    before = version(page)
    moves = page.locator(MOVE)
    if moves.count() == 0:
        return False
    target = moves.first
    described = target.evaluate("n => n.outerHTML.slice(0, 160)")
    target.click()
    # Double discard: the first card of a turn also needs its pile.
    pile = page.locator("button[data-action=play-on-pile]")
    if version(page) == before and pile.count():
        pile.first.click()
    # The move is done once the page shows a newer state.
    try:
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    except PlaywrightTimeout as error:
        said = page.inner_text("#announcer")
        raise AssertionError(f"{described} sent no move from version {before}; page said {said!r}") from error
    return True


def play_until(
    pages: list[Page],
    done: Callable[[], bool],
    *,
    seconds: float = 120,
    before_move: Callable[[Page], None] | None = None,
) -> int:
    """Click legal moves on whichever page is to act until `done()`; returns the moves made."""
    moves = 0
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the match did not finish in time"
        acted = False
        for page in pages:
            if is_my_turn(page) and page.locator(MOVE).count():
                if before_move:
                    before_move(page)
                played = play_one(page)
                acted = played or acted
                moves += played
        if not acted:
            time.sleep(0.05)
    return moves


class FrameLog:
    """Every state body a page's WebSocket frames add up to, one per snapshot or patch."""

    def __init__(self, page: Page) -> None:
        self.states: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        page.on("websocket", self._attach)

    def _attach(self, socket: WebSocket) -> None:
        socket.on("framereceived", self._received)

    def _received(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message["type"] == "snapshot":
            self.state = message["state"]
        elif message["type"] == "patch" and self.state is not None:
            self.state = jsonpatch.apply_patch(self.state, message["ops"])
        else:
            return
        self.states.append(self.state)


def card_ids(value: Any) -> set[int]:
    """Ids of every card object (a dict with an "id") anywhere inside `value`."""
    found: set[int] = set()
    if isinstance(value, dict):
        if isinstance(value.get("id"), int):
            found.add(value["id"])
        for item in value.values():
            found |= card_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_ids(item)
    return found


# Each card's printed name (drawn by CSS from data-glyph) set as a line of text in the same font, and
# measured against the card's inside: the names wider than their card, as "NAME on a W px card".
_NAMES_TOO_WIDE = """() => [...document.querySelectorAll("#table .mooki-card .mooki-name")].flatMap(
  (name) => {
    const card = name.closest(".mooki-card");
    const style = getComputedStyle(name);
    const probe = document.createElement("span");
    probe.textContent = name.dataset.glyph;
    for (const key of ["fontFamily", "fontSize", "fontWeight", "letterSpacing", "textTransform"]) {
        probe.style[key] = style[key];
    }
    probe.style.position = "absolute";
    probe.style.whiteSpace = "nowrap";
    document.body.append(probe);
    const wide = probe.getBoundingClientRect().width;
    probe.remove();
    const inside = card.clientWidth - parseFloat(getComputedStyle(card).paddingLeft) * 2;
    const said = `${name.dataset.glyph} (${wide.toFixed(1)} px at ${style.fontSize})`;
    return wide > inside + 0.5 ? [`${said} on a ${card.clientWidth} px card`] : [];
  },
)"""


def mooki_names_too_wide(page: Page) -> list[str]:
    """Mooki Island's printed card names on the table that are wider than their card."""
    found: list[str] = page.evaluate(_NAMES_TOO_WIDE)
    return found
