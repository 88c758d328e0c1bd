"""The bot runner offers bots their optional actions (out of turn), and gives people a fair chance
when a bot and a person are waited for at the same time (see docs/rules-decisions.md)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.playing.bots import TAKEBACK_HOLD
from engines.core import registry
from tests.clocks import FakeClock
from tests.rooms import seated_match

from . import bells_game
from .conftest import auth


@pytest.fixture
def bells(database_url: str) -> Iterator[TestClient]:
    registry.register("bells", "tests.app.bells_game")
    try:
        # The tests poll the state every 10 ms: the request limit is lifted (tested elsewhere).
        settings = Settings(database_url=database_url, bot_delay=0, rate_per_second=0)
        with TestClient(create_app(settings)) as client:
            yield client
    finally:
        registry.unregister("bells")


def start_with_a_bot(client: TestClient, laps: int = 2) -> tuple[str, dict[str, str]]:
    room_id, (ann,) = seated_match(client, "bells", 1, bots=1, laps=laps)
    return room_id, auth(ann)


def events(client: TestClient, room_id: str) -> list[tuple[str, int]]:
    view = client.get(f"/api/rooms/{room_id}/state").json()["view"]
    return [(e["type"], e["seat"]) for e in view["events"]]


def wait_until(check: Callable[[], Any], seconds: float = 5.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("timed out")


def runner_idle(client: TestClient) -> bool:
    return not client.app.state.runtime.bots._tasks  # type: ignore[attr-defined]


def act(client: TestClient, room_id: str, host: dict[str, str], kind: str) -> None:
    response = client.post(f"/api/rooms/{room_id}/actions", headers=host, json={"action": {"type": kind}})
    assert response.status_code == 200, response.text


def test_a_bot_takes_its_optional_action_while_a_person_is_to_act(bells: TestClient) -> None:
    room_id, host = start_with_a_bot(bells)
    assert wait_until(lambda: ("ring", 1) in events(bells, room_id))
    state = bells.get(f"/api/rooms/{room_id}/state", headers=host).json()
    assert state["to_act"] == [0] and state["legal_actions"] == [{"type": "step"}]
    # The bot rang once: the runner then ends, waiting for the person.
    wait_until(lambda: runner_idle(bells))
    assert events(bells, room_id) == [("ring", 1)]


def test_an_optional_action_after_a_persons_move_wakes_the_bot(
    bells: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bot may ring only from the second lap on: nothing wakes it but the person's moves.
    def late(self: Any, state: bells_game.BellsState, seat: int) -> Any:
        return {"type": "ring"} if state.lap >= 1 and seat not in state.rung else None

    monkeypatch.setattr(bells_game.BellBot, "optional", late)
    room_id, host = start_with_a_bot(bells)
    act(bells, room_id, host, "step")
    wait_until(lambda: ("vote", 1) in events(bells, room_id))
    wait_until(lambda: runner_idle(bells))
    assert ("ring", 1) not in events(bells, room_id)
    act(bells, room_id, host, "vote")
    assert wait_until(lambda: ("ring", 1) in events(bells, room_id))
    assert events(bells, room_id) == [("step", 0), ("step", 1), ("vote", 1), ("vote", 0), ("ring", 1)]


def test_a_bot_that_declines_does_nothing_and_the_runner_ends(
    bells: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []

    def decline(self: Any, state: bells_game.BellsState, seat: int) -> Any:
        asked.append(seat)
        return None

    monkeypatch.setattr(bells_game.BellBot, "optional", decline)
    room_id, _host = start_with_a_bot(bells)
    # The runner's task has ended: nothing but a change to the room could make the bot act now.
    wait_until(lambda: asked and runner_idle(bells))
    assert events(bells, room_id) == [] and asked == [1]


def test_a_refused_optional_action_is_not_offered_again(
    bells: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []

    def illegal(self: Any, state: bells_game.BellsState, seat: int) -> Any:
        asked.append(seat)
        return {"type": "ring", "twice": True}

    monkeypatch.setattr(bells_game.BellBot, "optional", illegal)
    room_id, host = start_with_a_bot(bells)
    wait_until(lambda: asked and runner_idle(bells))
    assert asked == [1] and events(bells, room_id) == []
    # The match goes on: the person steps, the bot (asked again at the new version) then takes its turn.
    act(bells, room_id, host, "step")
    assert wait_until(lambda: ("step", 1) in events(bells, room_id))


def test_a_bot_lets_a_person_waited_for_at_the_same_time_answer_first(
    bells: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bells_game.BellBot, "optional", lambda self, state, seat: None)
    runner = bells.app.state.runtime.bots  # type: ignore[attr-defined]
    clock = FakeClock()
    monkeypatch.setattr(runner, "clock", clock)
    monkeypatch.setattr(runner, "_delay", 1.0)  # a patient bot waits 8 x 1 s
    room_id, host = start_with_a_bot(bells)
    # The person steps, then rings while the bot (to step) waits for them: nothing optional is left,
    # so the bot steps once the ring can no longer be taken back (TAKEBACK_HOLD x its delay).
    act(bells, room_id, host, "step")
    act(bells, room_id, host, "ring")
    wait_until(lambda: clock.pending() == [TAKEBACK_HOLD])
    clock.advance(TAKEBACK_HOLD)
    wait_until(lambda: bells.get(f"/api/rooms/{room_id}/state").json()["to_act"] == [0, 1])
    # Both must vote: the bot waits 8 x its delay for the person. Past its usual 1 s, its wait is the
    # only thing the runner does, with 6.5 s still to go, and it has not voted.
    wait_until(lambda: clock.pending() == [8.0])
    clock.advance(1.5)
    assert clock.pending() == [6.5]
    assert events(bells, room_id) == [("step", 0), ("ring", 0), ("step", 1)]
    act(bells, room_id, host, "vote")
    # The person's vote ends the bot's wait: it votes once the vote can no longer be taken back, long
    # before its 8 s would have been up.
    wait_until(lambda: clock.pending() == [TAKEBACK_HOLD])
    assert events(bells, room_id)[3:] == [("vote", 0)]
    clock.advance(TAKEBACK_HOLD)
    wait_until(lambda: ("vote", 1) in events(bells, room_id))
    assert events(bells, room_id)[3:] == [("vote", 0), ("vote", 1)]


def test_a_patient_bot_still_acts_when_the_person_does_not(
    bells: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bells_game.BellBot, "optional", lambda self, state, seat: None)
    room_id, host = start_with_a_bot(bells)
    runner = bells.app.state.runtime.bots  # type: ignore[attr-defined]
    monkeypatch.setattr(runner, "_delay", 0.05)
    act(bells, room_id, host, "step")
    assert wait_until(lambda: ("vote", 1) in events(bells, room_id), 3)
    state = bells.get(f"/api/rooms/{room_id}/state", headers=host).json()
    assert state["to_act"] == [0] and state["legal_actions"] == [{"type": "vote"}]


def test_a_persons_move_wakes_no_bot_that_has_no_optional_action(
    bells: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A bot kind without `optional` (as Mokuru's random bot) may have a legal action out of turn, but
    # is never asked for it: waking the runner for it would only cost a read per move.
    monkeypatch.delattr(bells_game.BellBot, "optional")
    room_id, (ann, bo) = seated_match(bells, "bells", 2, bots=1, laps=3)
    host, guest = auth(ann), auth(bo)
    wait_until(lambda: runner_idle(bells))
    runner = bells.app.state.runtime.bots  # type: ignore[attr-defined]
    kicked: list[str] = []
    kick = runner.kick
    monkeypatch.setattr(runner, "kick", lambda room: (kicked.append(room), kick(room)))
    act(bells, room_id, host, "step")
    # The guest is to act; the bot (seat 2) could ring, yet nothing is asked of it.
    state = bells.get(f"/api/rooms/{room_id}/state", headers=guest).json()
    assert state["to_act"] == [1] and kicked == []
    # The guest's step makes the bot's turn: that wakes it, and it steps (its own move may wake it again).
    act(bells, room_id, guest, "step")
    assert kicked[:1] == [room_id]
    assert wait_until(lambda: ("step", 2) in events(bells, room_id))
