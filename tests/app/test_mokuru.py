"""Mokuru through the server: its rules page, and optional actions of seats the game is not waiting for."""

from __future__ import annotations

import html
import random
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from engines.mokuru import ENGINE
from tests.rooms import join, new_room, seated_match
from tests.waiting import wait_for

from .conftest import auth


def test_the_rules_page_lists_the_belts_and_every_card(client: TestClient) -> None:
    page = client.get("/rules/mokuru")
    assert page.status_code == 200
    text = html.unescape(page.text)
    data = ENGINE.spec.data()
    for belt in data["belts"]:
        assert f"belt-{belt['name']}" in text and belt["name"].capitalize() in text
    for card in [*data["tricks"], *data["masters"], *data["actions"]]:
        assert card["name"] in text and card["description"] in text
    assert "/static/css/games/mokuru.css" in text and 'style="' not in text
    lobby = html.unescape(client.get("/").text)
    assert 'data-game="mokuru"' in lobby and ENGINE.spec.blurb in lobby


def _optional_action_taken(client: TestClient, room_id: str, tokens: list[str], rng: random.Random) -> bool:
    """Play random moves until a seat outside to_act is offered an action; take it over HTTP."""
    for _ in range(3000):
        bodies: list[dict[str, Any]] = [
            client.get(f"/api/rooms/{room_id}/state", headers=auth(t)).json() for t in tokens
        ]
        if bodies[0]["status"] == "finished":
            return False
        for seat, body in enumerate(bodies):
            if body["legal_actions"] and seat not in body["to_act"]:
                action = body["legal_actions"][0]
                answer = client.post(
                    f"/api/rooms/{room_id}/actions",
                    headers=auth(tokens[seat]),
                    json={"action": action, "version": body["version"]},
                )
                assert answer.status_code == 200, answer.json()
                assert answer.json()["version"] == body["version"] + 1
                return True
        seat = rng.choice(bodies[0]["to_act"])
        body = bodies[seat]
        answer = client.post(
            f"/api/rooms/{room_id}/actions",
            headers=auth(tokens[seat]),
            json={"action": rng.choice(body["legal_actions"]), "version": body["version"]},
        )
        assert answer.status_code == 200, answer.json()
    raise AssertionError("the match did not end")


@pytest.mark.slow
def test_a_seat_out_of_turn_is_offered_its_optional_action_and_it_is_accepted(client: TestClient) -> None:
    rng = random.Random(5)
    for _ in range(12):  # about half of random matches offer an optional action at some point
        room_id, tokens = seated_match(client, "mokuru", 3, witness="off")
        if _optional_action_taken(client, room_id, tokens, rng):
            return
    raise AssertionError("no optional action was ever offered")


def _started(client: TestClient, options: dict[str, Any], start: dict[str, Any]) -> dict[str, Any]:
    room = new_room(client, "mokuru", **options)
    for name in ("Bo", "Cy"):
        join(client, room, name)
    answer = client.post(f"/api/rooms/{room.room_id}/start", headers=auth(room.token), json=start)
    assert answer.status_code == 200, answer.json()
    state: dict[str, Any] = client.get(f"/api/rooms/{room.room_id}/state", headers=auth(room.token)).json()
    return state


def test_a_match_started_around_one_device_has_an_auto_witness_off(client: TestClient) -> None:
    assert _started(client, {}, {})["view"]["witness"] is True
    assert _started(client, {}, {"one_device": True})["view"]["witness"] is False
    assert _started(client, {"witness": "on"}, {"one_device": True})["view"]["witness"] is True
    refused = client.post("/api/rooms/x/start", json={"one_device": "yes"})
    assert refused.json()["error"]["code"] in ("not_found", "invalid_request")


def test_a_bot_never_witnesses_a_persons_try_while_a_person_can(client: TestClient) -> None:
    """Ann and Bo with a bot, witness on: when a person claims a success that Bo and the bot may
    witness, the bot leaves it to Bo (it does not answer however long it waits)."""
    room_id, tokens = seated_match(client, "mokuru", 2, bots=1, witness="on", first_seat=0)
    rng = random.Random(3)
    bot_tasks = client.app.state.runtime.bots._tasks  # type: ignore[attr-defined]
    for _ in range(600):
        bodies = [client.get(f"/api/rooms/{room_id}/state", headers=auth(t)).json() for t in tokens]
        view = bodies[0]["view"]
        claim = view["claim"]
        people_witness = [s for s in claim["witnesses"] if s in (0, 1)] if claim else []
        if (
            view["phase"] == "confirm"
            and claim["seat"] in (0, 1)
            and 2 in claim["witnesses"]
            and people_witness
        ):
            # A person's try that the bot and a person may both witness (not, say, a Duel between
            # Ann and Bo, where only the bot is neutral and so answers). The witnesses are the players
            # with no stake in it, or, in a contest every player is in, all the others.
            stakes = {entry["seat"] for entry in claim["interested"]}
            others = {0, 1, 2} - {claim["seat"]}
            assert set(claim["witnesses"]) == (others - stakes if claim["neutral"] else others)
            # The claim woke the bot runner; once its task for the room has ended it has looked at
            # this try and let it be (no delay in tests): an answer would have moved the version.
            wait_for(lambda: room_id not in bot_tasks)
            again = client.get(f"/api/rooms/{room_id}/state").json()
            assert again["version"] == bodies[0]["version"], "the bot witnessed a person's try"
            witness = next(s for s in claim["witnesses"] if s != 2)
            answer = client.post(
                f"/api/rooms/{room_id}/actions",
                headers=auth(tokens[witness]),
                json={"action": {"type": "witness", "verdict": "confirm"}, "version": again["version"]},
            )
            assert answer.status_code == 200, answer.json()
            return
        for seat, body in enumerate(bodies):
            if seat in body["to_act"] and body["legal_actions"]:
                landed = [a for a in body["legal_actions"] if a.get("outcome") in ("landed", "done")]
                action = landed[0] if landed and rng.random() < 0.7 else rng.choice(body["legal_actions"])
                client.post(
                    f"/api/rooms/{room_id}/actions",
                    headers=auth(tokens[seat]),
                    json={"action": action, "version": body["version"]},
                )
                break
        else:
            time.sleep(0.01)
    raise AssertionError("no person's claim with the bot as a possible witness came up")
