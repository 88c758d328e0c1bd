"""One screen per turn: for every game, on a 375x812 phone and a 1280x800 laptop, when your turn
comes and the page has done its own scroll to it (static/js/phone-first.js), your hand and every
move you may make are whole on the screen; on a laptop the other players and the trick or the piles
are in view too. Mokuru on a phone shows the trick to perform (its name, diagram and how-to) before
the buttons that report it. The screenshots are of the viewport: what the first screen shows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.servers import ServeProcess

from .support import SCREENSHOTS, close_summary, motion_done, version

pytestmark = pytest.mark.browser

PHONE = (375, 812)
LAPTOP = (1280, 800)

CHOICES = "#table [data-action]:not([disabled])"

# Every box named by `selectors` that is drawn, in viewport coordinates, against the band of the
# screen between the sticky site header and the request layer at its foot (what covers the page).
# Answers { band, boxes: [{ what, top, bottom, left, right }] }.
BOXES = """(selectors) => {
    const header = document.querySelector('.site-header');
    const sticky = header && getComputedStyle(header).position === 'sticky';
    const top = sticky ? header.getBoundingClientRect().bottom : 0;
    const layer = document.getElementById('request-layer')?.getBoundingClientRect();
    const bottom = layer && layer.height ? Math.min(innerHeight, layer.top) : innerHeight;
    const boxes = [];
    for (const selector of selectors) {
        for (const node of document.querySelectorAll(selector)) {
            const box = node.getBoundingClientRect();
            if (!box.width && !box.height) continue;
            const words = (node.getAttribute('aria-label') || node.textContent || '').trim();
            const what = selector + ' ' + words.slice(0, 40);
            boxes.push({ what, top: box.top, bottom: box.bottom, left: box.left, right: box.right });
        }
    }
    return { band: { top, bottom, width: document.documentElement.clientWidth }, boxes };
}"""

# True once every box of `selectors` is drawn and whole in that band (the page's scroll done).
ALL_IN_VIEW = (
    """(selectors) => {
    const found = ("""
    + BOXES
    + """)(selectors);
    const { band, boxes } = found;
    const drawn = selectors.every((s) => boxes.some((b) => b.what.startsWith(s + ' ')));
    return drawn && boxes.every((b) => b.top >= band.top - 1 && b.bottom <= band.bottom + 1
        && b.left >= -1 && b.right <= band.width + 1);
}"""
)


@dataclass(frozen=True)
class Game:
    id: str
    bots: int
    # Your turn, with the moves this test looks at on offer.
    turn: str
    # What must be whole on the screen on your turn, besides every enabled move.
    mine: tuple[str, ...]
    # ...and on a laptop the others' area and the trick or the piles.
    table: tuple[str, ...]
    # The turn must come after a moment with no move of Ann's (others played): the page then
    # scrolls to it. Off where a turn as often follows Ann's own move and the page keeps its place.
    came: bool = True


GAMES = {
    "mojo": Game(
        "mojo",
        bots=2,
        turn=".mojo-mine.is-current #hand .card.is-legal",
        mine=("#table #hand",),
        table=("#table .mojo .table-seats", "#table .mojo-center"),
    ),
    "moby-trick": Game(
        "moby-trick",
        bots=3,
        turn="#table[data-phase=play][data-my-turn=true] #hand .card.is-legal",
        mine=("#table #hand",),
        table=("#table .moby .table-seats", "#table .moby-trick"),
    ),
    "mooki-island": Game(
        "mooki-island",
        bots=1,
        turn="#table .mooki-piles button[data-action=take]:not([disabled])",
        mine=("#table .mooki-collection.is-mine",),
        table=("#table .mooki-collection.is-theirs", "#table .mooki-piles"),
    ),
    "mokuru": Game(
        "mokuru",
        bots=1,
        turn="#table .mokuru-moves button[data-action=report-landed]:not([disabled])",
        mine=("#table .mokuru-card",),
        table=("#table .mokuru-seats", "#table .mokuru-card"),
        # Your trick follows your own move (the difficulty, your verdict on another's trick) as often
        # as not: the page keeps its place then, so the trick card and its buttons fit there.
        came=False,
    ),
}


def host(page: Page, base_url: str, game: Game) -> None:
    """Ann creates the room, the bots sit down, Ann starts (her turn first)."""
    page.goto(base_url + "/")
    page.fill("#player-name", "Ann")
    page.check(f'input[name="game"][value="{game.id}"]')
    page.click("#create-button")
    page.wait_for_selector("#waiting-panel:not([hidden])")
    for seated in range(2, game.bots + 2):
        page.click("#bot-button")
        expect(page.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(seated)
    page.select_option("#starter-choice", "0")
    page.click("#start-button")


# Marks, on the page, whether the table has been drawn with no move on offer since the test last
# cleared the mark: a turn that then comes is one that "came" (phone-first.js scrolls to it).
WATCH = """(choices) => {
    const table = document.getElementById('table');
    window.oneScreenIdle = !table.querySelector(choices);
    new MutationObserver(() => {
        if (!table.querySelector(choices)) window.oneScreenIdle = true;
    }).observe(table, { subtree: true, childList: true, attributes: true });
}"""


def play_to_the_turn(page: Page, game: Game) -> None:
    """Make the first move on offer until the turn this test looks at comes to Ann after a moment
    with no move of hers (others played), so the page scrolls to it as it does in play."""
    turn = page.locator(game.turn)
    moves = page.locator(CHOICES)
    expect(moves.first).to_be_attached()
    page.evaluate(WATCH, CHOICES)
    for _ in range(80):
        expect(turn.or_(moves).first).to_be_attached()
        if close_summary(page) is not None:
            continue
        if turn.count() and (not game.came or page.evaluate("() => window.oneScreenIdle")):
            return
        if moves.count():
            before = version(page)
            page.evaluate("() => { window.oneScreenIdle = false; }")
            try:
                moves.first.click(timeout=3000)
                page.wait_for_function(
                    "v => Number(document.body.dataset.version) > v", arg=before, timeout=5000
                )
            except PlaywrightTimeout:  # redrawn under the click (a bot moved, a hold counted down)
                continue
    raise AssertionError(f"{game.id}: never came to {game.turn}")


def whole_on_screen(page: Page, wanted: list[str], shot: str) -> None:
    """Every box of `wanted` is whole on the screen once the page is still; a viewport screenshot
    (what the first screen shows) either way, and the boxes in the failure's words."""
    try:
        page.wait_for_function(ALL_IN_VIEW, arg=wanted)
    except PlaywrightTimeout:
        found = page.evaluate(BOXES, wanted)
        lines = [f"{b['top']:.0f}-{b['bottom']:.0f} {b['what']}" for b in found["boxes"]]
        raise AssertionError(f"not whole in {found['band']}:\n" + "\n".join(lines)) from None
    finally:
        motion_done(page)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{shot}.png"), animations="disabled")


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_your_turn_is_one_screen(
    server: ServeProcess, new_player: Callable[..., Page], game_id: str, size: tuple[int, int]
) -> None:
    game = GAMES[game_id]
    width, height = size
    laptop = size == LAPTOP
    ann = new_player(width, height)
    ann.emulate_media(reduced_motion="reduce")  # the page's scroll is instant
    host(ann, server.base_url, game)
    play_to_the_turn(ann, game)
    wanted = [CHOICES, *game.mine, *(game.table if laptop else ())]
    whole_on_screen(ann, wanted, f"one-screen-{game_id}-{width}")

    if game_id == "mokuru":
        # The trick card (name, diagram, how-to) is read before the buttons that report it; on a
        # phone the belts ladder comes after them.
        card = ann.locator("#table .mokuru-card").bounding_box()
        report = ann.locator("#table .mokuru-moves [data-action^=report]").first.bounding_box()
        ladder = ann.locator("#table .mokuru-board").bounding_box()
        assert card and report and ladder
        assert card["y"] + card["height"] <= report["y"], (card, report)
        if not laptop:
            assert report["y"] + report["height"] <= ladder["y"], (report, ladder)
    if game_id == "moby-trick" and laptop:
        # Four places in the trick, on one row.
        rows = ann.evaluate(
            "() => new Set([...document.querySelectorAll('#table .trick-slot')].map((s) => s.offsetTop)).size"
        )
        assert ann.locator("#table .trick-slot").count() == 4 and rows == 1
    if game_id == "mooki-island":
        # The same turn goes on: the drawn card's two sides, where the page already is.
        before = version(ann)
        ann.locator("#table [data-action=take]").first.click()
        ann.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        expect(ann.locator("#table [data-action=place]").first).to_be_visible()
        # Both sides and your collection, which a side joins, on the first screen (a phone too).
        whole_on_screen(ann, wanted, f"one-screen-{game_id}-place-{width}")


# The possessed player's Darkness chooser lists the whole tricks deck (dozens of buttons, taller than
# any screen): what must come into view is its start, the prompt and the first trick on offer.
DARKNESS_START = ["#table .mokuru-dark", "#table .mokuru-dark-group:first-of-type [data-action]:first-child"]


def next_moves(page: Page) -> list[str]:
    """What of Ann's next moves must be whole on the screen: every move, or the chooser's start."""
    return DARKNESS_START if page.locator("#table .mokuru-darkness-chooser").count() else [CHOICES]


def test_a_mokuru_turn_after_your_own_move_comes_into_view_on_a_phone(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    """Your move, then more of your turn (the draw, then reporting the trick's tries; a verdict):
    however the page was scrolled when you moved, your next moves come into view on a phone."""
    ann = new_player(*PHONE)
    ann.emulate_media(reduced_motion="reduce")  # the page's scroll is instant
    host(ann, server.base_url, GAMES["mokuru"])
    moves = ann.locator(CHOICES)
    followed = 0
    for _ in range(12):
        expect(moves.first).to_be_attached()
        before = version(ann)
        # Read on down the page (the log), then move without the browser scrolling to the button.
        ann.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        try:
            moves.first.dispatch_event("click", timeout=3000)
            ann.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=5000)
        except PlaywrightTimeout:  # redrawn under the click (a bot moved, a hold counted down)
            continue
        if version(ann) == before + 1 and moves.count():
            followed += 1  # this page moves again right after its own move
            whole_on_screen(ann, next_moves(ann), f"one-screen-mokuru-after-own-move-{followed}-375")
        if followed >= 2:
            break
    assert followed, "Ann never moved twice in a row"
