"""Every endpoint and error code of CONTRACT.md, on SQLite and PostgreSQL, with the tiny test game."""

from __future__ import annotations

import hashlib
import threading
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.errors import AppError
from app.main import create_app
from app.services.matches import verify_match
from tests.rooms import new_room, seated_match

from .conftest import act, auth


def error_code(response: Any) -> str:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    code: str = body["error"]["code"]
    return code


def test_health_and_games(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games["tiny"]["min_players"] == 2 and games["tiny"]["max_players"] == 3
    assert games["tiny"]["options_schema"]["properties"]["rounds"]["default"] == 2
    assert games["tiny"]["blurb"] and games["tiny"]["winner"] == "lowest_total"
    assert games["tiny"]["panel"] == "points" and games["tiny"]["starter"] is None
    assert games["mojo"]["starter"] == {"option": "first_seat", "question": "Who starts?"}
    assert games["moby-trick"]["winner"] == "highest_total"
    # Every fact of a game is on its descriptor: what it hides, its bots, its goal and standing.
    tiny = games["tiny"]
    assert (tiny["hides_information"], tiny["open_table"]) == (True, False)
    assert (tiny["default_bot"], tiny["fallback_bot"]) == ("random", "random")
    assert tiny["goal"] is None and tiny["standing"] is None
    assert games["mojo"]["goal"] == {"view_key": "target", "reaching": "ends_game", "option": "target"}
    mokuru = games["mokuru"]
    assert (mokuru["hides_information"], mokuru["open_table"]) == (True, True)
    assert mokuru["goal"] == {"view_key": "grandmaster", "reaching": "wins", "option": None}
    assert mokuru["standing"] == {"view_key": "seats", "key": "belt"}
    assert mokuru["default_bot"] == "strong" and mokuru["fallback_bot"] == "random"


def test_create_join_and_room_body(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"game": "tiny", "name": "Ann", "options": {"rounds": 1}})
    assert made.status_code == 201, made.text
    room = made.json()
    assert room["seat"] == 0 and len(room["token"]) >= 22
    assert room["join_url"].endswith(f"/r/{room['room_id']}")
    joined = client.post(f"/api/rooms/{room['room_id']}/join", json={"name": " Bo "})
    assert joined.status_code == 201 and joined.json()["seat"] == 1
    body = client.get(f"/api/rooms/{room['room_id']}").json()
    # Nobody has a socket open: each seat says since when it is away (docs/people.md).
    for seat in body["seats"]:
        assert isinstance(seat.pop("away_since"), str)
    # The join bumped the revision the room was made with.
    assert body.pop("revision") == 1
    assert body == {
        "room_id": room["room_id"],
        "game": "tiny",
        "options": {"rounds": 1},
        "status": "waiting",
        "host_seat": 0,
        "seats": [
            {"seat": 0, "name": "Ann", "bot": False, "connected": False, "stand_in": False},
            {"seat": 1, "name": "Bo", "bot": False, "connected": False, "stand_in": False},
        ],
        "version": 0,
        "scorepad": {"rounds": [], "totals": []},
        "rematch": None,
        "clock": None,
        "deadline": None,
        "gone_after": 120.0,
        "chat_spectators": False,
        "seat_requests": [],
        "screen": False,
        "table_screen": False,
        "paused": False,
        "paused_at": None,
        "pause_request": None,
    }


def test_room_errors(client: TestClient) -> None:
    assert error_code(client.get("/api/rooms/nope")) == "not_found"
    assert client.get("/api/rooms/nope").status_code == 404
    assert error_code(client.get("/no/such/page")) == "not_found"
    assert error_code(client.post("/api/rooms/nope/join", json={"name": "Bo"})) == "not_found"
    bad = client.post("/api/rooms", json={"game": "chess", "name": "Ann"})
    assert bad.status_code == 422 and error_code(bad) == "invalid_request"
    bad = client.post("/api/rooms", json={"game": "tiny", "name": "Ann", "options": {"rounds": 9}})
    assert bad.status_code == 422 and error_code(bad) == "invalid_request"
    assert error_code(client.post("/api/rooms", json={"game": "tiny", "name": ""})) == "invalid_request"
    bad = client.post("/api/rooms", content=b"{not json", headers={"content-type": "application/json"})
    assert bad.status_code == 422 and error_code(bad) == "invalid_request"


def test_host_only_bots_and_start(client: TestClient) -> None:
    room = new_room(client)
    room_id, host = room.room_id, auth(room.token)
    guest = auth(client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()["token"])
    for path in ("bots", "start"):
        assert client.post(f"/api/rooms/{room_id}/{path}").status_code == 401
        assert error_code(client.post(f"/api/rooms/{room_id}/{path}")) == "unauthorized"
        assert client.post(f"/api/rooms/{room_id}/{path}", headers=guest).status_code == 403
        assert error_code(client.post(f"/api/rooms/{room_id}/{path}", headers=guest)) == "forbidden"
        assert (
            error_code(client.post(f"/api/rooms/{room_id}/{path}", headers=auth("forged"))) == "unauthorized"
        )
    added = client.post(f"/api/rooms/{room_id}/bots", headers=host, json={})
    assert added.status_code == 201 and added.json() == {"seat": 2}
    full = client.post(f"/api/rooms/{room_id}/join", json={"name": "Di"})
    assert full.status_code == 409 and error_code(full) == "room_full"
    assert error_code(client.post(f"/api/rooms/{room_id}/bots", headers=host)) == "room_full"
    started = client.post(f"/api/rooms/{room_id}/start", headers=host)
    assert started.status_code == 200
    assert started.json()["status"] == "playing" and started.json()["seats"][2]["bot"] is True
    assert error_code(client.post(f"/api/rooms/{room_id}/start", headers=host)) == "already_started"


def test_not_enough_players_and_already_started(client: TestClient) -> None:
    room = new_room(client)
    room_id, host = room.room_id, auth(room.token)
    refused = client.post(f"/api/rooms/{room_id}/start", headers=host)
    assert refused.status_code == 409 and error_code(refused) == "not_enough_players"
    client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"})
    client.post(f"/api/rooms/{room_id}/start", headers=host)
    late = client.post(f"/api/rooms/{room_id}/join", json={"name": "Cy"})
    assert late.status_code == 409 and error_code(late) == "already_started"
    assert error_code(client.post(f"/api/rooms/{room_id}/bots", headers=host)) == "already_started"


def test_state_before_and_after_start(client: TestClient) -> None:
    room = new_room(client)
    room_id, host = room.room_id, auth(room.token)
    waiting = client.get(f"/api/rooms/{room_id}/state", headers=host).json()
    assert waiting == {
        "version": 0,
        "status": "waiting",
        "seat": 0,
        "to_act": [],
        "legal_actions": [],
        "view": {},
        "result": None,
        # The takeback extension (docs/playing.md): nothing pending, nothing to take back.
        "takeback": None,
        "can_take_back": False,
    }
    not_started = client.post(
        f"/api/rooms/{room_id}/actions", headers=host, json={"action": {"type": "play"}}
    )
    assert not_started.status_code == 409 and error_code(not_started) == "not_started"
    guest = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()["token"]
    client.post(f"/api/rooms/{room_id}/start", headers=host)
    mine = client.get(f"/api/rooms/{room_id}/state", headers=host).json()
    theirs = client.get(f"/api/rooms/{room_id}/state", headers=auth(guest)).json()
    public = client.get(f"/api/rooms/{room_id}/state").json()
    assert mine["version"] == 1 and mine["status"] == "playing" and mine["seat"] == 0
    assert mine["to_act"] == [0] and mine["legal_actions"] == [
        {"type": "play", "card": card["id"]} for card in mine["view"]["hand"]
    ]
    assert theirs["seat"] == 1 and theirs["legal_actions"] == [] and len(theirs["view"]["hand"]) == 2
    assert public["seat"] is None and public["view"]["hand"] == [] and public["legal_actions"] == []
    assert error_code(client.get(f"/api/rooms/{room_id}/state", headers=auth("forged"))) == "unauthorized"
    assert error_code(client.get("/api/rooms/nope/state")) == "not_found"


def test_action_errors_change_nothing(client: TestClient) -> None:
    room_id, (host, guest) = seated_match(client)
    url = f"/api/rooms/{room_id}/actions"
    before = client.get(f"/api/rooms/{room_id}/state", headers=auth(host)).json()
    legal = before["legal_actions"][0]
    refusals = [
        (client.post(url, json={"action": legal}), 401, "unauthorized"),
        (client.post(url, headers=auth("forged"), json={"action": legal}), 401, "unauthorized"),
        (client.post(url, headers=auth(guest), json={"action": legal}), 409, "not_your_turn"),
        (
            client.post(url, headers=auth(host), json={"action": {"type": "play", "card": 99}}),
            422,
            "illegal_action",
        ),
        (client.post(url, headers=auth(host), json={"action": "play"}), 422, "malformed_action"),
        (client.post(url, headers=auth(host), json={"action": legal, "version": 7}), 409, "stale_version"),
        (client.post(url, headers=auth(host), json={"version": 1}), 422, "invalid_request"),
        (
            client.post(url, headers=auth(host), json={"action": legal, "version": "one"}),
            422,
            "invalid_request",
        ),
        (
            client.post("/api/rooms/nope/actions", headers=auth(host), json={"action": legal}),
            404,
            "not_found",
        ),
    ]
    for response, status, code in refusals:
        assert (response.status_code, error_code(response)) == (status, code)
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(host)).json() == before
    assert client.get(f"/api/rooms/{room_id}/log").json()["entries"] == []


def test_too_large_bodies(client: TestClient) -> None:
    room_id, (host, _guest) = seated_match(client)
    padding = "x" * (70 * 1024)
    announced = client.post(
        f"/api/rooms/{room_id}/actions", headers=auth(host), json={"action": {"pad": padding}}
    )
    assert announced.status_code == 413 and error_code(announced) == "too_large"

    def chunks() -> Any:
        yield b'{"action": {"pad": "'
        for _ in range(70):
            yield b"x" * 1024
        yield b'"}}'

    streamed = client.post(
        f"/api/rooms/{room_id}/actions",
        headers={**auth(host), "content-type": "application/json"},
        content=chunks(),
    )
    assert streamed.status_code == 413 and error_code(streamed) == "too_large"
    assert client.get(f"/api/rooms/{room_id}/state").json()["version"] == 1


def test_a_whole_match_over_http(client: TestClient) -> None:
    room_id, tokens = seated_match(client, rounds=2)
    state = client.get(f"/api/rooms/{room_id}/state").json()
    played = []
    while state["status"] == "playing":
        seat = state["to_act"][0]
        mine = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[seat])).json()
        action = mine["legal_actions"][-1]
        response = client.post(
            f"/api/rooms/{room_id}/actions",
            headers=auth(tokens[seat]),
            json={"action": action, "version": mine["version"]},
        )
        assert response.status_code == 200, response.text
        state = response.json()
        assert state["version"] == mine["version"] + 1 and state["seat"] == seat
        played.append((seat, action))
        if state["status"] == "playing":
            log = client.get(f"/api/rooms/{room_id}/log", headers=auth(tokens[0])).json()
            assert "seed" not in log
    assert len(played) == 8  # 2 rounds of 2 players with 2 cards each
    assert state["result"]["scores"] == [sum(r) for r in zip(*state_rounds(client, room_id), strict=True)]
    over = client.post(
        f"/api/rooms/{room_id}/actions", headers=auth(tokens[0]), json={"action": played[0][1]}
    )
    assert over.status_code == 409 and error_code(over) == "game_over"
    room = client.get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "finished" and room["version"] == 9
    assert len(room["scorepad"]["rounds"]) == 2 and room["scorepad"]["totals"] == state["result"]["scores"]
    log = client.get(f"/api/rooms/{room_id}/log").json()
    assert hashlib.sha256(str(log["seed"]).encode()).hexdigest() == log["seed_commitment"]
    assert [(e["seq"], e["seat"], e["action"]) for e in log["entries"]] == [
        (i + 1, seat, action) for i, (seat, action) in enumerate(played)
    ]
    with client.app.state.runtime.db.read() as session:  # type: ignore[attr-defined]
        assert verify_match(session, room_id) == []


def state_rounds(client: TestClient, room_id: str) -> list[list[int]]:
    rounds: list[list[int]] = client.get(f"/api/rooms/{room_id}").json()["scorepad"]["rounds"]
    return rounds


def test_a_lost_race_answers_stale_version_and_changes_nothing(client: TestClient) -> None:
    room_id, (host, _guest) = seated_match(client)
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    legal = runtime.views.state(room_id, host)["legal_actions"]
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def play(action: dict[str, Any]) -> None:
        barrier.wait()
        try:
            act(runtime.moves, room_id, host, action, 1)
            outcomes.append("ok")
        except AppError as error:
            outcomes.append(error.code)

    threads = [threading.Thread(target=play, args=(action,)) for action in legal]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "stale_version"]
    log = runtime.views.log(room_id, None)
    assert len(log["entries"]) == 1 and runtime.views.state(room_id, None)["version"] == 2


def test_a_restarted_process_resumes_from_the_database(database_url: str, tiny: str) -> None:

    with TestClient(create_app(Settings(database_url=database_url, bot_delay=0))) as first:
        room_id, tokens = seated_match(first)
        seat_state = first.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[0])).json()
        first.post(
            f"/api/rooms/{room_id}/actions",
            headers=auth(tokens[0]),
            json={"action": seat_state["legal_actions"][0]},
        )
        expected = first.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[1])).json()
    with TestClient(create_app(Settings(database_url=database_url, bot_delay=0))) as second:
        assert second.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[1])).json() == expected


@pytest.mark.parametrize("rounds", [1, 3])
def test_bots_play_their_own_turns(client: TestClient, rounds: int) -> None:
    room_id, (ann,) = seated_match(client, players=1, bots=2, rounds=rounds)
    host = auth(ann)
    for _ in range(200):
        state = client.get(f"/api/rooms/{room_id}/state", headers=host).json()
        if state["status"] == "finished":
            break
        if state["legal_actions"]:
            client.post(
                f"/api/rooms/{room_id}/actions", headers=host, json={"action": state["legal_actions"][0]}
            )
    assert state["status"] == "finished"
    assert len(client.get(f"/api/rooms/{room_id}/log").json()["entries"]) == 6 * rounds


def test_version_must_be_an_integer_as_on_the_socket(client: TestClient) -> None:
    room_id, (host, _guest) = seated_match(client)
    legal = client.get(f"/api/rooms/{room_id}/state", headers=auth(host)).json()["legal_actions"][0]
    for version in (True, "1", 1.0):
        refused = client.post(
            f"/api/rooms/{room_id}/actions", headers=auth(host), json={"action": legal, "version": version}
        )
        assert (refused.status_code, error_code(refused)) == (422, "invalid_request"), version
    assert client.get(f"/api/rooms/{room_id}/log").json()["entries"] == []


@pytest.mark.postgres
def test_a_state_body_is_read_at_one_version(
    postgres_url: str, tiny: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.config import sqlalchemy_url
    from app.db import upgrade
    from app.services import matches

    url = sqlalchemy_url(postgres_url)
    upgrade(url)
    with TestClient(create_app(Settings(database_url=url, bot_delay=0))) as client:
        room_id, tokens = seated_match(client, rounds=1)
        runtime = client.app.state.runtime  # type: ignore[attr-defined]
        views, moves = runtime.views, runtime.moves
        for _ in range(3):
            seat = views.state(room_id, None)["to_act"][0]
            act(moves, room_id, tokens[seat], views.state(room_id, tokens[seat])["legal_actions"][0])
        before = views.state(room_id, None)
        last = views.state(room_id, tokens[1])["legal_actions"][0]
        current_match = matches.current_match

        def finished_meanwhile(*args: Any, **kwargs: Any) -> Any:
            match = current_match(*args, **kwargs)
            monkeypatch.setattr(matches, "current_match", current_match)
            # The last move commits (and this process's cache moves on) right after the match row
            # is read: the rest of the body must still be the one of the version that row says.
            mover = threading.Thread(target=act, args=(moves, room_id, tokens[1], last))
            mover.start()
            mover.join()
            return match

        monkeypatch.setattr(matches, "current_match", finished_meanwhile)
        body = views.state(room_id, None)
        assert body == before and body["to_act"] == [1] and body["status"] == "playing"
        after = views.state(room_id, None)
        assert after["to_act"] == [] and after["result"] is not None and after["status"] == "finished"


def test_an_unexpected_failure_still_answers_in_the_error_shape(
    database_url: str, tiny: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(Settings(database_url=database_url, bot_delay=0))
    with TestClient(app, raise_server_exceptions=False) as client:
        room = new_room(client)

        def broken(room_id: str, connected: set[int]) -> None:
            raise RuntimeError("a bug")

        monkeypatch.setattr(app.state.runtime.views, "room_with", broken)
        response = client.get(f"/api/rooms/{room.room_id}")
        assert response.status_code == 500
        assert error_code(response) == "internal_error"
