"""People at the table with real `motable serve` processes: a move clock that runs out while the server
is down, and a bot standing in for an absent player across two processes until the player is back."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from tests import waiting
from tests.rooms import join, new_room, start_match
from tests.servers import ServeProcess

from .conftest import auth

pytestmark = pytest.mark.slow

TINY = "tiny=tests.app.tiny_game"


def tiny_room(base: str, clock: int | None = None) -> tuple[str, str, str]:
    room = new_room(base)
    bo = join(base, room)
    if clock is not None:
        set_clock = httpx.post(
            f"{base}/api/rooms/{room.room_id}/clock", json={"seconds": clock}, headers=auth(room.token)
        )
        assert set_clock.status_code == 200
    start_match(base, room)
    return room.room_id, room.token, bo


def state(base: str, room_id: str, token: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = httpx.get(
        f"{base}/api/rooms/{room_id}/state", headers=auth(token) if token else None
    ).json()
    return body


def wait_for(check: Callable[[], bool], seconds: float = 15) -> None:
    waiting.wait_for(check, seconds)


def once_gone(attempt: Callable[[], httpx.Response]) -> httpx.Response:
    """Makes `attempt` (something refused, 403, while a player is here or not yet gone for
    MOTABLE_GONE_AFTER seconds) until the server stops refusing it that way; its last answer. Time
    must pass in the server for that, so the test asks again rather than sleeping a guess."""
    answers: list[httpx.Response] = []

    def allowed() -> bool:
        answers.append(attempt())
        return answers[-1].status_code != 403

    # Asked ten times a second at most: well under the address's request rate.
    waiting.wait_for(allowed, 15, step=0.1)
    assert all(answer.json()["error"]["code"] == "forbidden" for answer in answers[:-1])
    return answers[-1]


def test_a_clock_runs_out_across_a_restart(
    sqlite_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    env = {"DATABASE_URL": sqlite_url, "MOTABLE_GAMES": TINY}
    first = spawn(env)
    room_id, _ann, bo = tiny_room(first.base_url, clock=3)
    room = httpx.get(f"{first.base_url}/api/rooms/{room_id}").json()
    due = datetime.fromisoformat(room["deadline"])
    assert room["clock"] == 3 and due > datetime.now(UTC)
    # Ann is to act and has time left: Bo may not hand her seat to a bot yet.
    early = httpx.post(f"{first.base_url}/api/rooms/{room_id}/seats/0/bot", headers=auth(bo))
    assert early.status_code == 403
    first.kill()
    while datetime.now(UTC) <= due:
        time.sleep(0.2)
    second = spawn(env)
    room = httpx.get(f"{second.base_url}/api/rooms/{room_id}").json()
    assert datetime.fromisoformat(room["deadline"]) == due
    # Time ran out while no server was up; the new process knows it from the database.
    taken = httpx.post(f"{second.base_url}/api/rooms/{room_id}/seats/0/bot", headers=auth(bo))
    assert taken.status_code == 200, taken.text
    assert taken.json()["seats"][0]["stand_in"] is True
    wait_for(lambda: state(second.base_url, room_id)["to_act"] == [1])
    log = httpx.get(f"{second.base_url}/api/rooms/{room_id}/log").json()["entries"]
    assert [entry["seat"] for entry in log] == [0]
    # The bot's move restarted the clock: Bo has his full time.
    room = httpx.get(f"{second.base_url}/api/rooms/{room_id}").json()
    assert datetime.fromisoformat(room["deadline"]) > datetime.now(UTC)


@pytest.mark.postgres
@pytest.mark.redis
def test_a_bot_plays_for_an_absent_player_who_takes_the_seat_back(
    postgres_url: str, redis_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    env = {
        "DATABASE_URL": postgres_url,
        "REDIS_URL": redis_url,
        "MOTABLE_GAMES": TINY,
        "MOTABLE_GONE_AFTER": "1",
        "MOTABLE_BOT_DELAY": "1.5",
    }
    a, b = spawn(env), spawn(env)
    room_id, ann, bo = tiny_room(a.base_url)
    # A twin room where a bot stands in for Bo throughout: its moves show, at the end, when a bot
    # would have played for Bo.
    twin_id, twin_ann, _ = tiny_room(a.base_url)
    # Bo opens the table on process B, then goes.
    with ws_connect(f"{b.ws_url}/ws/rooms/{room_id}?token={bo}") as socket:
        socket.recv(timeout=5)
        wait_for(lambda: httpx.get(f"{a.base_url}/api/rooms/{room_id}").json()["seats"][1]["connected"])
    wait_for(
        lambda: httpx.get(f"{a.base_url}/api/rooms/{room_id}").json()["seats"][1]["away_since"] is not None
    )
    let_a_bot_play = f"{a.base_url}/api/rooms/{room_id}/seats/1/bot"
    answer = once_gone(lambda: httpx.post(let_a_bot_play, headers=auth(ann)))
    assert answer.status_code == 200, answer.text
    room = answer.json()
    assert room["seats"][1] == {**room["seats"][1], "name": "Bo", "bot": False, "stand_in": True}
    twin_bot = f"{a.base_url}/api/rooms/{twin_id}/seats/1/bot"
    assert once_gone(lambda: httpx.post(twin_bot, headers=auth(twin_ann))).status_code == 200

    def play(base: str, token: str, room: str = room_id) -> None:
        move = state(base, room, token)["legal_actions"][0]
        answer = httpx.post(f"{base}/api/rooms/{room}/actions", json={"action": move}, headers=auth(token))
        assert answer.status_code == 200, answer.text

    play(a.base_url, ann)
    # The bot plays Bo's turn (on whichever process), and it is Ann's turn again.
    wait_for(lambda: state(b.base_url, room_id)["to_act"] == [0])
    play(a.base_url, ann)
    # Bo is back before the bot moves: acting takes his seat back, on the other process.
    assert state(b.base_url, room_id, bo)["to_act"] == [1]
    play(b.base_url, bo)
    wait_for(lambda: not httpx.get(f"{a.base_url}/api/rooms/{room_id}").json()["seats"][1]["stand_in"])
    play(a.base_url, ann)
    # No bot plays for him any more: his turn waits for him. In the twin, Ann plays next (a card that
    # may be taken back, as here) and its stand-in answers: woken after this room on the same process
    # and held as long, it shows the moment a bot standing in for Bo here would have played by.
    play(a.base_url, twin_ann, twin_id)
    wait_for(lambda: state(a.base_url, twin_id)["to_act"] == [0])
    now = state(a.base_url, room_id)
    assert now["to_act"] == [1] and now["version"] == 6
    log = httpx.get(f"{a.base_url}/api/rooms/{room_id}/log").json()["entries"]
    assert [entry["seat"] for entry in log] == [0, 1, 0, 1, 0]


@pytest.mark.postgres
@pytest.mark.redis
def test_a_seat_given_back_on_one_process_revokes_the_old_token_on_the_other(
    postgres_url: str, redis_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    env = {"DATABASE_URL": postgres_url, "REDIS_URL": redis_url, "MOTABLE_GAMES": TINY}
    a, b = spawn(env), spawn(env)
    room_id, ann, bo = tiny_room(a.base_url)
    # Process B has seen Bo's old token (it remembers tokens it has seen) and holds his socket.
    assert state(b.base_url, room_id, bo)["seat"] == 1
    with ws_connect(f"{b.ws_url}/ws/rooms/{room_id}?token={bo}") as old_socket:
        assert old_socket.recv(timeout=5)
        asked = httpx.post(f"{b.base_url}/api/rooms/{room_id}/seat-requests", json={"seat": 1}).json()
        # Bo is here: the host may not hand his seat over; Bo himself approves (on the other process).
        url = f"{a.base_url}/api/rooms/{room_id}/seat-requests/{asked['request_id']}/approve"
        assert httpx.post(url, headers=auth(ann)).status_code == 403
        approved = httpx.post(url, headers=auth(bo))
        assert approved.json()["status"] == "approved"
        # The old socket on B is closed (it would reconnect and be refused).
        with pytest.raises(ConnectionClosed):
            while True:
                old_socket.recv(timeout=5)
    assert httpx.get(f"{b.base_url}/api/rooms/{room_id}/state", headers=auth(bo)).status_code == 401
    assert state(b.base_url, room_id, asked["token"])["seat"] == 1
    with ws_connect(f"{b.ws_url}/ws/rooms/{room_id}?token={bo}") as refused:
        with pytest.raises(ConnectionClosed) as closed:
            refused.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # Bo plays with the new token, on either process.
    move = state(a.base_url, room_id, ann)["legal_actions"][0]
    httpx.post(f"{a.base_url}/api/rooms/{room_id}/actions", json={"action": move}, headers=auth(ann))
    move = state(b.base_url, room_id, asked["token"])["legal_actions"][0]
    played = httpx.post(
        f"{b.base_url}/api/rooms/{room_id}/actions", json={"action": move}, headers=auth(asked["token"])
    )
    assert played.status_code == 200
