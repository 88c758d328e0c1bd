"""Mojo by keyboard only, as a screen-reader user plays it: every move reached with Tab and named
by what it does ("Play red 7", "Draw from the draw pile"), focus visible, and the turn and the
others' moves said in the polite live region."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.servers import ServeProcess

from .axe import serious_violations
from .support import (
    SCREENSHOTS,
    add_bot_and_start,
    close_summary,
    create_room,
    game_over,
    motion_done,
    version,
)

pytestmark = pytest.mark.browser

COLOURS = "red|orange|yellow|green|blue|purple"
PLAY = re.compile(rf"^Play ({COLOURS}) \d+")
# What the focused element is, as the accessibility tree names it.
FOCUSED = """() => {
    const n = document.activeElement;
    if (!n || n === document.body) return null;
    const style = getComputedStyle(n);
    return {
        name: n.getAttribute('aria-label') || n.textContent.trim(),
        move: n.matches('#table [data-action]:not([disabled])'),
        outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    };
}"""


def tab_to_a_move(page: Page, limit: int = 80) -> dict[str, object]:
    """Press Tab until a move of the table has the focus; returns what is focused."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused and focused["move"]:
            return focused
    raise AssertionError("Tab never reached a move of the table")


def test_a_keyboard_player_plays_mojo_moves_with_tab_and_enter(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(1280, 800)
    create_room(ann, server.base_url, "Ann")
    add_bot_and_start(ann, seats_before_bot=1)
    ann.wait_for_selector("#hand button.card")
    # Everything the polite live region says, in order.
    ann.evaluate(
        """() => { window.__said = []; const region = document.getElementById('announcer');
            new MutationObserver(() => window.__said.push(region.textContent))
                .observe(region, { childList: true, characterData: true, subtree: true }); }"""
    )
    # The hand is a named list of named cards; the playable ones say what a press does.
    hand = ann.get_by_role("list", name="Your hand")
    expect(hand).to_be_visible()
    assert hand.get_by_role("listitem").count() == ann.locator("#hand button.card").count()
    moves_made = 0
    deadline = time.monotonic() + 60
    while moves_made < 4:
        assert time.monotonic() < deadline, f"only {moves_made} keyboard moves in a minute"
        close_summary(ann)
        if (
            not ann.locator(".mojo-mine.is-current").count()
            or not ann.locator("#table [data-action]:not([disabled])").count()
        ):
            time.sleep(0.1)
            continue
        # The live region says it is this player's turn (or what the others did before it).
        expect(ann.locator("#announcer")).not_to_be_empty()
        playable = ann.get_by_role("button", name=PLAY)
        draws = ann.get_by_role("button", name=re.compile(r"^(Draw from the draw pile|Take it)"))
        assert playable.count() + draws.count() > 0, "no named move on my turn"
        ann.locator("body").focus()
        ann.evaluate("document.activeElement.blur()")
        focused = tab_to_a_move(ann)
        assert focused["outline"], f"focus is not visible on {focused['name']!r}"
        assert PLAY.match(str(focused["name"])) or str(focused["name"]).startswith(
            ("Draw", "Take", "Play here", "Reveal")
        ), f"a move named {focused['name']!r}"
        before = version(ann)
        ann.keyboard.press("Enter")
        if ann.locator("button[data-action=play-on-pile]").count() and version(ann) == before:
            tab_to_a_move(ann)
            ann.keyboard.press("Enter")
        ann.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        moves_made += 1
        if ann.locator("#game-over:not([hidden])").count():
            break
    # The others' moves were said in words too, from the same text as the log, and the turn.
    expect(ann.locator("#game-log li").first).to_be_visible()
    said = " | ".join(ann.evaluate("() => window.__said"))
    bot = ann.locator("#people-list .people-name").nth(1).inner_text().split("\n")[0].strip()
    assert "Your turn" in said, said
    assert bot and bot in said, f"{bot!r} never announced: {said}"
    check_the_table_at_both_sizes(ann, "mojo")


# ---- The other three games, by keyboard only -------------------------------------------------

SHOTS = SCREENSHOTS / "tables"
MOVE = "#table [data-action]:not([disabled])"
# Where focus is: "move" on a move of the table, "table" elsewhere in it, "body" when it is lost.
WHERE = """() => {
    const n = document.activeElement;
    if (!n || n === document.body) return 'body';
    if (n.matches('#table [data-action]:not([disabled])')) return 'move';
    return n.closest('#table') ? 'table' : 'page';
}"""


def start_against_a_bot(page: Page, base_url: str, game: str, youngest: str | None = None) -> None:
    page.goto(base_url + "/")
    page.fill("#player-name", "Ann")
    page.check(f'input[name="game"][value="{game}"]')
    if game == "mokuru":
        page.select_option("#opt-belts", "short")
    page.click("#create-button")
    page.wait_for_url("**/r/**")
    page.click("#bot-button")
    page.wait_for_function(
        "() => document.querySelectorAll('#seat-list .seat-item:not(.is-empty)').length === 2"
    )
    if youngest is not None:
        page.select_option("#starter-choice", youngest)
    page.click("#start-button")
    page.wait_for_selector(MOVE + ", #table [data-action]", timeout=15000)


def keyboard_moves(page: Page, wanted: int, named: re.Pattern[str], seconds: float = 90) -> list[str]:
    """Make `wanted` moves with Tab and Enter only; each move reached must be named by what it does
    (`named`) and findable by that name as a button. After a move, once the table offers the next
    one, the focus is on a move of the table again (not lost to <body>). Returns the names pressed."""
    pressed: list[str] = []
    deadline = time.monotonic() + seconds
    while len(pressed) < wanted:
        assert time.monotonic() < deadline, f"only {pressed} by keyboard in {seconds} s"
        close_summary(page)
        if game_over(page):
            break
        if not page.locator(MOVE).count():
            time.sleep(0.1)
            continue
        if pressed:
            # The focus came back to a move by itself: the player goes on pressing Enter.
            page.wait_for_function(f"() => ({WHERE})() === 'move'", timeout=3000)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        focused = tab_to_a_move(page)
        label = str(focused["name"])
        assert focused["outline"], f"focus is not visible on {label!r}"
        assert named.search(label), f"a move named {label!r}"
        expect(page.get_by_role("button", name=label, exact=True).first).to_be_visible()
        before = version(page)
        page.keyboard.press("Enter")
        try:
            page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=5000)
        except PlaywrightTimeout:  # the other seat moved first and the move went away: try again
            continue
        pressed.append(label)
    return pressed


def check_the_table_at_both_sizes(page: Page, game: str) -> None:
    """axe finds no serious or critical violation on the table mid-match, on a laptop and a phone;
    the screenshots go to test-artifacts/screenshots/tables/ to be looked at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 800), (375, 812)):
        page.set_viewport_size({"width": width, "height": height})
        motion_done(page)
        page.screenshot(path=str(SHOTS / f"{game}-{width}.png"))
        found = serious_violations(page)
        assert found == [], f"{game} at {width} px:\n" + "\n".join(found)


def test_a_keyboard_player_plays_moby_trick(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player(1280, 800)
    ann.goto(server.base_url + "/")
    ann.fill("#player-name", "Ann")
    ann.check('input[name="game"][value="moby-trick"]')
    ann.click("#create-button")
    ann.wait_for_url("**/r/**")
    add_bot_and_start(ann, seats_before_bot=1)
    ann.wait_for_selector("#hand")
    expect(ann.get_by_role("list", name="Your hand")).to_be_visible()
    named = re.compile(
        r"^(Set aside .+ as your first bonus|Play |Take \d|Use: |.+ \(you\) lead the next|.+ leads the next)"
    )
    pressed = keyboard_moves(ann, 4, named)
    assert any(name.startswith("Play") for name in pressed), pressed
    check_the_table_at_both_sizes(ann, "moby-trick")


def test_a_keyboard_player_plays_mooki_island(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player(1280, 800)
    start_against_a_bot(ann, server.base_url, "mooki-island", youngest="0")
    pressed = keyboard_moves(
        ann, 4, re.compile(r"^(Take · pile [12]|Keep the|Send the Spider to|Give up the)")
    )
    assert any(name.startswith("Take") for name in pressed), pressed
    assert any(name.startswith(("Keep", "Send")) for name in pressed), pressed
    check_the_table_at_both_sizes(ann, "mooki-island")


def test_a_keyboard_player_plays_mokuru(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player(1280, 800)
    start_against_a_bot(ann, server.base_url, "mokuru", youngest="0")
    named = re.compile(
        r"^(Easy|Medium|Hard|Draw a|Take |Landed it|Missed|Done!|Confirm|Dispute|Accept|Use Immunity"
        r"|Give|Steal|Knock|Boost|Swap|Doom|Duel|Battle|.+ \((Basic|Advanced|Battle|Challenge)\))"
    )
    pressed = keyboard_moves(ann, 4, named)
    assert any(name in ("Landed it", "Missed") for name in pressed) or len(pressed) >= 4, pressed
    check_the_table_at_both_sizes(ann, "mokuru")
