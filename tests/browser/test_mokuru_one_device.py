"""Mokuru around one phone in real Chromium, with a known deal: three players on one page, and the
players the game is not waiting for act out of turn from their own named buttons. Bo steals the
trick Cy just drew while Cy is due; later Ann aims an action card at Cy, who blocks it with
Immunity while Ann is due. The match starts with the witness off (one device).

SEED was found with the engine (`script` below replays the deal and says whether it still fits);
the server deals from MOTABLE_TEST_SEEDS, a test-only setting (see test_mokuru_duel.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engines.mokuru.cards import CARDS
from engines.mokuru.engine import BLOCKABLE, MokuruEngine
from tests.servers import ServeProcess

from .support import shoot, version
from .test_mokuru_duel import serve_seeded  # noqa: F401 (the seeded server fixture)

pytestmark = pytest.mark.browser

SEED = 11583
NAMES = ["Ann", "Bo", "Cy"]
NEWER = "v => Number(document.body.dataset.version) > v"
Step = tuple[str, int, dict[str, Any]]


def script(seed: int) -> tuple[list[Step], MokuruEngine] | None:
    """The deal's moves when everyone plays Extreme and misses: ("waited" | "steal" | "immunity",
    seat, action), ending with a non-due seat's Immunity after a non-due seat's steal; None if the
    deal does not give that within 40 moves with one seat due at a time."""
    engine = MokuruEngine()
    options = engine.spec.parse_options({"belts": "short", "first_seat": 0, "witness": "off"})
    state = engine.setup(3, seed, options)
    for seat in range(3):
        state = engine.apply(state, seat, {"type": "difficulty", "level": "extreme"})
    steps: list[Step] = []
    stole = False
    for _ in range(40):
        acting = engine.to_act(state)
        if len(acting) != 1:
            return None
        (due,) = acting
        out = [(s, a) for s in range(3) if s != due for a in engine.legal_actions(state, s)]
        if out and out[0][1]["type"] == ("immunity" if stole else "steal"):
            seat, move = out[0]
            steps.append((move["type"], seat, move))
            state = engine.apply(state, seat, move)
            if stole:
                return steps, engine
            stole = True
            continue
        holders = [
            s for s in range(3) if s != due and any(CARDS[c].action == "immunity" for c in state.kept[s])
        ]
        if state.phase == "draw":
            move = {"type": "draw"}
        elif state.phase == "perform" and state.trick is not None and state.trick["mode"] == "solo":
            move = {"type": "report", "outcome": "missed"}
        elif state.phase == "spent":
            move = {"type": "accept_miss"}
        elif state.phase == "target" and stole and state.choosing in BLOCKABLE and holders:
            move = {"type": "target", "seat": holders[0]}
        else:
            return None
        steps.append(("waited", due, move))
        state = engine.apply(state, due, move)
    return None


def key(action: dict[str, Any]) -> str:
    return f"#table .mokuru-moves button[data-key='{json.dumps(action, separators=(',', ':'))}']"


def named(seat: int, kind: str) -> str:
    return f"#table .mokuru-extra button.mokuru-named[data-seat='{seat}'][data-action='{kind}']"


def test_players_not_due_steal_a_trick_and_use_immunity_from_their_own_buttons(
    serve_seeded: Callable[[int], ServeProcess],  # noqa: F811
    new_player: Callable[..., Page],
) -> None:
    planned = script(SEED)
    assert planned is not None, "the engine's deal changed: search a new SEED with script()"
    steps, _ = planned
    server = serve_seeded(SEED)
    phone = new_player(375, 812)
    phone.goto(server.base_url + "/")
    phone.fill("#player-name", "Ann")
    phone.check('input[name="game"][value="mokuru"]')
    phone.select_option("#opt-belts", "short")
    phone.click("#create-button")
    phone.wait_for_url("**/r/**")
    for seated, name in enumerate(NAMES[1:], start=2):
        phone.fill("#device-name", name)
        phone.click("#device-add")
        expect(phone.locator("#device-list")).to_contain_text(name)
        expect(phone.locator("#seat-list .seat-item:not(.is-empty)")).to_have_count(seated)
    expect(phone.locator("#starter-choice option")).to_have_count(4)
    phone.select_option("#starter-choice", "0")
    phone.click("#start-button")
    for name in NAMES:
        expect(phone.locator("#table .mokuru-device-who")).to_have_text(name)
        phone.locator(key({"type": "difficulty", "level": "extreme"})).click()
    expect(phone.locator("#table .mokuru-seat[data-seat='2']")).to_contain_text("Extreme")

    for kind, seat, move in steps:
        before = version(phone)
        if kind == "waited":
            expect(phone.locator("#table .mokuru-device-who")).to_have_text(NAMES[seat])
            phone.locator(key(move)).click()
        elif kind == "steal":
            trick = phone.locator("#table .mokuru-card-name").inner_text()
            button = phone.locator(named(seat, "steal"))
            expect(button).to_have_text(f"{NAMES[seat]}: steal {trick} from Cy")
            # Cy, who is due, waits a moment while Bo may steal; Bo's button is on Cy's screen.
            expect(phone.locator("#table .mokuru-device-who")).to_have_text("Cy")
            expect(phone.locator("#table .mokuru-hold")).to_contain_text("Bo may act out of turn")
            expect(phone.locator("#table .mokuru-moves button").first).to_be_disabled()
            shoot(phone, "mokuru-one-device-steal")
            phone.set_viewport_size({"width": 1280, "height": 800})
            shoot(phone, "mokuru-one-device-steal-laptop")
            phone.set_viewport_size({"width": 375, "height": 812})
            button.click()
            expect(phone.locator("#game-log")).to_contain_text(f"Bo stole {trick} from Cy")
        else:
            button = phone.locator(named(seat, "immunity"))
            expect(button).to_have_text(re_immunity(NAMES[seat]))
            expect(phone.locator("#table .mokuru-device-who")).to_have_text("Ann")
            shoot(phone, "mokuru-one-device-immunity")
            button.click()
            expect(phone.locator("#game-log")).to_contain_text("Cy used Immunity against")
        phone.wait_for_function(NEWER, arg=before)
    expect(phone.locator(named(2, "immunity"))).to_have_count(0)
    # Nobody was asked to witness: the match started around one device has the witness off.
    assert "confirmed" not in phone.locator("#game-log").inner_text()


def re_immunity(name: str) -> Any:
    import re

    return re.compile(rf"^{name}: use Immunity against [A-Z][a-z]+")
