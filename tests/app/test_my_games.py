"""`POST /api/my-games` (docs/people.md, "Your games"): one summary per held seat, public facts only,
and nothing at all about a room for a token that holds no seat there."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tests.rooms import seated_match

from .conftest import auth

SUMMARY_KEYS = {
    "room_id", "found", "game", "status", "seat", "name", "host_seat", "players", "version", "to_act",
    "your_turn", "clock", "deadline", "last_move", "totals", "winners", "rematch", "seat_requests",
}  # fmt: skip


def ask(client: TestClient, held: list[tuple[str, str]]) -> list[dict[str, Any]]:
    answer = client.post("/api/my-games", json={"seats": [{"room_id": r, "token": t} for r, t in held]})
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    games: list[dict[str, Any]] = answer.json()["games"]
    return games


def test_one_request_lists_every_seat_with_whose_turn_and_the_last_move(client: TestClient) -> None:
    room_id, tokens = seated_match(client, clock=3600)
    waiting_id, waiting_tokens = seated_match(client, clock=3600, start=False)
    state = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[0])).json()
    mover = state["to_act"][0]
    other = 1 - mover
    ann, bo, waiting = ask(
        client, [(room_id, tokens[0]), (room_id, tokens[1]), (waiting_id, waiting_tokens[1])]
    )
    assert set(ann) == SUMMARY_KEYS and set(bo) == SUMMARY_KEYS
    assert (ann["name"], ann["seat"], bo["name"], bo["seat"]) == ("Ann", 0, "Bo", 1)
    assert [p["name"] for p in ann["players"]] == ["Ann", "Bo"]
    assert ann["to_act"] == [mover] and [ann, bo][mover]["your_turn"] and not [ann, bo][other]["your_turn"]
    assert ann["status"] == "playing" and ann["last_move"] is None and ann["deadline"] is not None
    assert ann["clock"] == 3600 and ann["totals"] == [0, 0] and ann["winners"] is None
    assert waiting["status"] == "waiting" and waiting["to_act"] == [] and waiting["seat"] == 1

    action = state["legal_actions"] if mover == 0 else None
    if action is None:
        action = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[mover])).json()[
            "legal_actions"
        ]
    played = client.post(
        f"/api/rooms/{room_id}/actions", json={"action": action[0]}, headers=auth(tokens[mover])
    )
    assert played.status_code == 200
    ann, bo = ask(client, [(room_id, tokens[0]), (room_id, tokens[1])])
    assert ann["last_move"]["seat"] == mover and ann["last_move"]["action"] == action[0]
    assert ann["last_move"]["seq"] == 1 and ann["version"] == 2
    assert [ann, bo][other]["your_turn"] and not [ann, bo][mover]["your_turn"]
    # The clock as the room body has it (it restarted with the move).
    assert ann["deadline"] == client.get(f"/api/rooms/{room_id}").json()["deadline"]
    # The same as the log says, to the same seat.
    log = client.get(f"/api/rooms/{room_id}/log", headers=auth(tokens[other])).json()
    assert [ann, bo][other]["last_move"]["action"] == log["entries"][-1]["action"]


def test_a_token_that_holds_no_seat_learns_nothing_about_the_room(client: TestClient) -> None:
    room_id, tokens = seated_match(client, clock=3600)
    games = ask(
        client,
        [
            (room_id, "not-a-token"),
            ("AAAAAAAAAAAA", tokens[0]),
            ("../etc", tokens[0]),
            (room_id, tokens[0][:-1]),
        ],
    )
    assert games == [
        {"room_id": room_id, "found": False, "seat_status": "unknown"},
        {"room_id": "AAAAAAAAAAAA", "found": False, "seat_status": "unknown"},
        {"room_id": "../etc", "found": False, "seat_status": "unknown"},
        {"room_id": room_id, "found": False, "seat_status": "unknown"},
    ]
    # A token of another room holds no seat here either.
    _other_id, other_tokens = seated_match(client, clock=3600)
    assert ask(client, [(room_id, other_tokens[0])]) == [
        {"room_id": room_id, "found": False, "seat_status": "unknown"}
    ]


def test_a_revoked_token_says_only_what_became_of_it(client: TestClient) -> None:
    room_id, tokens = seated_match(client, clock=3600)
    assert client.post(f"/api/rooms/{room_id}/leave", headers=auth(tokens[1])).status_code == 200
    assert ask(client, [(room_id, tokens[1])]) == [
        {"room_id": room_id, "found": False, "seat_status": "left"}
    ]


def test_the_last_move_is_redacted_as_the_log_redacts_it(client: TestClient) -> None:
    # Moby Trick: the first bonus is set aside in secret; another seat's log shows only that it happened.
    room_id, tokens = seated_match(client, "moby-trick", 3)
    state = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[0])).json()
    set_aside = next(a for a in state["legal_actions"] if a["type"] == "set_aside")
    assert (
        client.post(
            f"/api/rooms/{room_id}/actions", json={"action": set_aside}, headers=auth(tokens[0])
        ).status_code
        == 200
    )
    ann, bo = ask(client, [(room_id, tokens[0]), (room_id, tokens[1])])
    assert ann["last_move"]["action"] == set_aside
    assert bo["last_move"]["action"] == {"type": "set_aside"}
    assert bo["last_move"]["cards"] == [] and "'card'" not in str(bo)


def test_bad_bodies_are_refused(client: TestClient) -> None:
    too_many = [{"room_id": "AAAAAAAAAAAA", "token": "t"}] * 51
    assert client.post("/api/my-games", json={"seats": too_many}).json()["error"]["code"] == "invalid_request"
    assert client.post("/api/my-games", json={"tokens": "x"}).status_code == 422
    assert client.post("/api/my-games", json={"seats": []}).json() == {"games": []}


def test_a_played_card_is_named_only_when_the_table_shows_it(client: TestClient) -> None:
    room_id, tokens = seated_match(client, "mojo", clock=3600)
    state = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[0])).json()
    mover = state["to_act"][0]
    mine = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[mover])).json()
    play = next(a for a in mine["legal_actions"] if a["type"] == "play")
    hand = {card["id"]: card for card in mine["view"]["hand"]}
    assert (
        client.post(
            f"/api/rooms/{room_id}/actions", json={"action": play}, headers=auth(tokens[mover])
        ).status_code
        == 200
    )
    watcher = client.get(f"/api/rooms/{room_id}/state").json()["view"]
    (other,) = ask(client, [(room_id, tokens[1 - mover])])
    # Played: on the discard pile for all to see, so the list may say which card it was.
    assert other["last_move"]["cards"] == [hand[play["card"]]]
    assert str(play["card"]) in str(watcher["discard_piles"])


def test_a_request_for_a_seat_reaches_its_holder_only(client: TestClient) -> None:
    """Someone asks for Bo's seat from another device: Bo's summary carries the request, so any page
    of his (the home page, another room) can ask him "Is it you?"; Ann's does not, nor does a stranger's."""
    room_id, tokens = seated_match(client)
    asked = client.post(f"/api/rooms/{room_id}/seat-requests", json={"seat": 1})
    assert asked.status_code == 201, asked.text
    ann, bo = ask(client, [(room_id, tokens[0]), (room_id, tokens[1])])
    assert ann["seat_requests"] == []
    [request] = bo["seat_requests"]
    assert request["id"] == asked.json()["request_id"] and request["seat"] == 1
    assert request["status"] == "pending" and request["answerable_by"] == [1]
    # The room body lists the same request the same way, but for who may answer it.
    listed = client.get(f"/api/rooms/{room_id}", headers=auth(tokens[1])).json()["seat_requests"]
    assert {k: v for k, v in listed[0].items() if k != "answerable_by"} == {
        k: v for k, v in request.items() if k != "answerable_by"
    }
    refused = client.post(
        f"/api/rooms/{room_id}/seat-requests/{request['id']}/refuse", json={}, headers=auth(tokens[1])
    )
    assert refused.status_code == 200, refused.text
    [bo] = ask(client, [(room_id, tokens[1])])
    assert bo["seat_requests"] == []
