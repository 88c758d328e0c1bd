"""Server-side bots: they keep playing through failures."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.playing.bots import GOES_ON, TAKEBACK_HOLD
from app.services.botturns import BotTurn
from app.services.moves import Move
from engines.core import RandomBot
from tests.clocks import FakeClock
from tests.rooms import add_bot, new_room
from tests.waiting import wait_for

from . import tiny_game
from .conftest import auth


def room_with_a_bot(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> tuple[str, dict[str, str], Any]:
    """A room of the host and one bot, whose runner retries failed turns without the real wait."""
    room = new_room(client)
    add_bot(client, room)
    room_id, host = room.room_id, auth(room.token)
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    monkeypatch.setattr(runtime.bots, "retry_delay", 0.01)
    return room_id, host, runtime


def first_move_then_wait_for_the_bot(
    client: TestClient, room_id: str, host: dict[str, str]
) -> dict[str, Any]:
    """Start, make the host's first move, then poll until the bot answered (version 3) or time ran out.
    Nobody else acts or connects: only the bot runner itself can bring the bot back."""
    client.post(f"/api/rooms/{room_id}/start", headers=host)
    legal = client.get(f"/api/rooms/{room_id}/state", headers=host).json()["legal_actions"][0]
    client.post(f"/api/rooms/{room_id}/actions", headers=host, json={"action": legal})
    state: dict[str, Any] = {}
    for _ in range(300):
        state = client.get(f"/api/rooms/{room_id}/state").json()
        if state["version"] >= 3:
            break
        time.sleep(0.01)
    return state


def test_a_bot_plays_on_after_a_failed_turn(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    room_id, host, runtime = room_with_a_bot(client, monkeypatch)
    choose_bot = runtime.bot_turns.choose_bot
    calls: list[int] = []

    def flaky(turn: BotTurn) -> Move:
        calls.append(turn.version)
        if len(calls) == 1:
            raise RuntimeError("the database dropped the connection")
        move: Move = choose_bot(turn)
        return move

    monkeypatch.setattr(runtime.bot_turns, "choose_bot", flaky)
    state = first_move_then_wait_for_the_bot(client, room_id, host)
    assert calls[:2] == [2, 2] and state["version"] == 3 and state["to_act"] == [0]


def test_a_bot_that_keeps_failing_hands_its_turn_to_the_fallback_bot(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The tiny game's descriptor seats a "clever" bot and names "steady" its fallback: the server
    # follows the descriptor, not bot names.
    monkeypatch.setitem(tiny_game.BOTS, "clever", RandomBot)
    monkeypatch.setitem(tiny_game.BOTS, "steady", RandomBot)
    spec = dataclasses.replace(tiny_game.ENGINE.spec, default_bot="clever", fallback_bot="steady")
    monkeypatch.setattr(tiny_game.TinyEngine, "spec", spec)
    room_id, host, runtime = room_with_a_bot(client, monkeypatch)
    choose_bot = runtime.bot_turns.choose_bot
    kinds: list[str] = []

    def broken_clever_bot(turn: BotTurn) -> Move:
        kinds.append(turn.kind)
        if turn.kind != "steady":
            raise RuntimeError("the clever bot has a bug")
        move: Move = choose_bot(turn)
        return move

    monkeypatch.setattr(runtime.bot_turns, "choose_bot", broken_clever_bot)
    state = first_move_then_wait_for_the_bot(client, room_id, host)
    assert state["version"] == 3 and state["to_act"] == [0], "the match went on"
    assert kinds == ["clever", "clever", "steady"]


def test_a_bot_decides_on_a_redeal_of_what_it_cannot_see(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server hands a bot `Engine.resample` of the real state: its own view is the same, the
    cards it may not see are dealt again, so no bot can play on what it could not know."""
    engine = tiny_game.ENGINE
    redeals: list[tuple[Any, int, Any]] = []
    given: list[Any] = []
    resample, choose = type(engine).resample, RandomBot.choose

    def recording_resample(self: Any, state: Any, seat: int, rng: Any) -> Any:
        redealt = resample(self, state, seat, rng)
        redeals.append((state, seat, redealt))
        return redealt

    def recording_choose(bot: RandomBot, state: Any, seat: int) -> Any:
        given.append(state)
        return choose(bot, state, seat)

    monkeypatch.setattr(type(engine), "resample", recording_resample)
    monkeypatch.setattr(RandomBot, "choose", recording_choose)
    room_id, host, _runtime = room_with_a_bot(client, monkeypatch)
    assert first_move_then_wait_for_the_bot(client, room_id, host)["version"] >= 3
    # The first re-deal for the bot's seat (the host's move was re-dealt for the host's seat too, to
    # decide whether it may be taken back: docs/playing.md, "Takeback").
    real, seat, redealt = next(redeal for redeal in redeals if redeal[1] == 1)
    assert seat == 1 and given[0] == redealt and given[0] is not redealt  # a copy of the re-deal
    assert engine.view(redealt, seat) == engine.view(real, seat)
    # The host's hand and the deck are dealt again from the same cards.
    assert sorted(redealt.hands[0] + redealt.deck) == sorted(real.hands[0] + real.deck)
    assert (redealt.hands[0], redealt.deck, redealt.rng) != (real.hands[0], real.deck, real.rng)


# -- the pace of a bot's turn (issue "The table reaches you": a bot turn takes about a second) ---------


def runner_on_a_fake_clock(runtime: Any, monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The bot runner's waits on a clock the test moves, with a delay of 1 s (so each wait reads as
    its multiple of the delay)."""
    clock = FakeClock()
    monkeypatch.setattr(runtime.bots, "clock", clock)
    monkeypatch.setattr(runtime.bots, "_delay", 1.0)
    return clock


def test_a_bots_thinking_is_counted_inside_its_wait(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that thinks 0.4 s about its move waits only what is left of its pause afterwards: the
    turn takes the pause, not the pause and the thinking added."""
    room_id, host, runtime = room_with_a_bot(client, monkeypatch)
    clock = runner_on_a_fake_clock(runtime, monkeypatch)
    choose_bot = runtime.bot_turns.choose_bot
    chosen: list[int] = []

    def thinking(turn: BotTurn) -> Move:
        clock.advance(0.4)
        chosen.append(turn.version)
        move: Move = choose_bot(turn)
        return move

    monkeypatch.setattr(runtime.bot_turns, "choose_bot", thinking)
    client.post(f"/api/rooms/{room_id}/start", headers=host)
    legal = client.get(f"/api/rooms/{room_id}/state", headers=host).json()["legal_actions"][0]
    client.post(f"/api/rooms/{room_id}/actions", headers=host, json={"action": legal})
    due = runtime.bot_turns.bot_turn(room_id)
    assert due is not None and due.seat == 1
    pause = TAKEBACK_HOLD if due.hold else 1.0
    # The move is chosen first; the wait under way is the pause less the thinking.
    wait_for(lambda: clock.pending() == [pytest.approx(pause - 0.4)])
    assert chosen == [2] and client.get(f"/api/rooms/{room_id}/state").json()["version"] == 2
    clock.advance(pause - 0.4)
    wait_for(lambda: client.get(f"/api/rooms/{room_id}/state").json()["version"] == 3)


def test_a_bot_goes_on_with_its_turn_after_a_short_step(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mooki Island: a bot's take is followed by its place after GOES_ON x its delay, not a full delay
    for each step, so its whole turn takes about one pause."""
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    clock = runner_on_a_fake_clock(runtime, monkeypatch)
    room = new_room(client, "mooki-island")
    add_bot(client, room)
    host = auth(room.token)
    client.post(f"/api/rooms/{room.room_id}/start", headers=host)

    def body() -> dict[str, Any]:
        found: dict[str, Any] = client.get(f"/api/rooms/{room.room_id}/state", headers=host).json()
        return found

    if 0 in body()["to_act"]:
        for _ in range(2):  # the host takes a card, then places it
            now = body()
            played = client.post(
                f"/api/rooms/{room.room_id}/actions",
                headers=host,
                json={"action": now["legal_actions"][0], "version": now["version"]},
            )
            assert played.status_code == 200, played.text
    before = body()["version"]
    # The bot's first step waits its full pause (longer after a move the host may take back).
    wait_for(lambda: clock.pending() in ([1.0], [TAKEBACK_HOLD]))
    clock.advance(clock.pending()[0])
    wait_for(lambda: body()["version"] == before + 1)
    # It took a card; its place follows after a short step.
    wait_for(lambda: clock.pending() == [GOES_ON])
    assert body()["to_act"] == [1]
    clock.advance(GOES_ON)
    wait_for(lambda: body()["to_act"] == [0] and body()["version"] == before + 2)
