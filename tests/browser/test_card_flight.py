"""Cards that travel: a played card slides from its hand to the pile or trick, a taken trick flies
to its winner; none of it under prefers-reduced-motion, and none of it holds up the next move."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from tests.servers import ServeProcess

from .support import add_bot_and_start, close_summary, create_room, hand_ids, play_one, version
from .test_moby_trick import MOVE as MOBY_MOVE
from .test_moby_trick import create_room as moby_room

pytestmark = pytest.mark.browser

# Every running animation of a card that moves it (a FLIP slide or a copy in flight).
SLIDING = """() => document.getAnimations().filter((a) => {
    const node = a.effect?.target;
    const frames = a.effect?.getKeyframes?.() || [];
    return node && (node.matches('[data-card-id]') || node.matches('.card-in-flight'))
        && frames.some((f) => String(f.transform || '').includes('translate'));
}).length"""

FLIGHTS = "() => Number(document.getElementById('table').dataset.flights || 0)"


@pytest.mark.parametrize("reduced", [False, True])
def test_a_played_mojo_card_slides_to_the_pile(
    server: ServeProcess, new_player: Callable[..., Page], reduced: bool
) -> None:
    ann = new_player(375, 812)
    if reduced:
        ann.emulate_media(reduced_motion="reduce")
    create_room(ann, server.base_url, "Ann")
    add_bot_and_start(ann, seats_before_bot=1)
    ann.wait_for_selector("#hand button.card")
    deadline = time.monotonic() + 30
    slid = 0
    while ann.evaluate(FLIGHTS) == 0 and time.monotonic() < deadline:
        if not play_one(ann):
            time.sleep(0.05)
            continue
        slid = max(slid, ann.evaluate(SLIDING))
    if reduced:
        assert ann.evaluate(FLIGHTS) == 0 and slid == 0, "cards moved under reduced motion"
        return
    assert ann.evaluate(FLIGHTS) > 0, "no card travelled"
    # The pile's new top card carries the id of the card that left the hand.
    pile_ids = ann.eval_on_selector_all(
        ".discard-pile [data-card-id]", "ns => ns.map((n) => n.dataset.cardId)"
    )
    assert pile_ids


def test_moby_trick_cards_travel_to_the_trick_and_the_taken_trick_to_its_winner(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(1280, 800)
    moby_room(ann, server.base_url, "Ann", target=30)
    ann.click("#bot-button")
    ann.wait_for_function(
        "() => document.querySelectorAll('#seat-list .seat-item:not(.is-empty)').length === 2"
    )
    ann.click("#start-button")
    ghosts_seen = 0
    deadline = time.monotonic() + 60
    # Copies of a taken trick appear over the table and are gone again.
    ann.evaluate(
        """() => { window.__ghosts = 0; new MutationObserver((records) => {
            for (const r of records) for (const n of r.addedNodes)
                if (n.classList?.contains('card-in-flight')) window.__ghosts += 1;
        }).observe(document.getElementById('table'), { childList: true, subtree: true }); }"""
    )
    while time.monotonic() < deadline:
        ghosts_seen = ann.evaluate("() => window.__ghosts")
        if ghosts_seen and ann.evaluate(FLIGHTS) > 0:
            break
        close_summary(ann)
        moves = ann.locator(MOBY_MOVE)
        if ann.locator("#table[data-my-turn=true]").count() and moves.count():
            before = version(ann)
            moves.first.click()
            ann.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        else:
            time.sleep(0.05)
    assert ann.evaluate(FLIGHTS) > 0, "no card travelled to the trick"
    assert ghosts_seen > 0, "no taken trick flew to its winner"
    ann.wait_for_function("() => !document.querySelector('.card-in-flight')", timeout=3000)


# Records every card of this page's hand that was given a sliding animation, however short: a check
# after the move would race a 260 ms slide on a loaded machine.
RECORD_SLIDES = """() => {
    window.slidIntoHand = new Set();
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (frames, options) {
        const moves = [].concat(frames || []).some((f) => String(f.transform || '').includes('translate'));
        if (moves && this.matches('#hand [data-card-id]')) window.slidIntoHand.add(this.dataset.cardId);
        return animate.call(this, frames, options);
    };
}"""

# Whether a card of this page's hand that was not in it before (`known`: the ids before) slid in.
NEW_CARD_SLID = "(known) => [...window.slidIntoHand].some((id) => !known.includes(id))"


def test_a_card_drawn_from_the_mojo_draw_pile_travels_to_the_hand(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    ann = new_player(1280, 800)
    create_room(ann, server.base_url, "Ann", target=50)  # a match long enough for a draw to come
    add_bot_and_start(ann, seats_before_bot=1)
    ann.wait_for_selector("#hand button.card")
    ann.evaluate(RECORD_SLIDES)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        close_summary(ann)
        known = hand_ids(ann)
        # A card played higher than the pile's top draws one (from the draw pile, with one pile).
        if not play_one(ann):
            time.sleep(0.05)
            continue
        if set(hand_ids(ann)) - set(known) and ann.evaluate(NEW_CARD_SLID, [str(i) for i in known]):
            return
    raise AssertionError("no card drawn from the draw pile travelled to the hand in a minute")


@pytest.mark.parametrize("reduced", [False, True])
def test_a_mooki_island_card_travels_to_the_collection_it_joins(
    server: ServeProcess, new_player: Callable[..., Page], reduced: bool
) -> None:
    ann = new_player(375, 812)
    if reduced:
        ann.emulate_media(reduced_motion="reduce")
    ann.goto(server.base_url + "/")
    ann.fill("#player-name", "Ann")
    ann.check('input[name="game"][value="mooki-island"]')
    ann.click("#create-button")
    ann.wait_for_url("**/r/**")
    ann.click("#bot-button")
    ann.wait_for_function(
        "() => document.querySelectorAll('#seat-list .seat-item:not(.is-empty)').length === 2"
    )
    ann.select_option("#starter-choice", "0")
    ann.click("#start-button")
    placed = 0
    deadline = time.monotonic() + 30
    while placed < 2 and time.monotonic() < deadline:
        moves = ann.locator("#table [data-action]:not([disabled])")
        if not moves.count():
            time.sleep(0.05)
            continue
        kind = moves.first.get_attribute("data-action")
        before = version(ann)
        moves.first.click()
        ann.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        placed += kind == "place"
    assert placed == 2, "could not place two cards"
    flights = ann.evaluate(FLIGHTS)
    if reduced:
        assert flights == 0, "a card moved under reduced motion"
    else:
        assert flights >= 2, f"only {flights} of 2 placed cards travelled to a collection"
