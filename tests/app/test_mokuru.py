"""Mokuru through the server: its rules page, and optional actions of seats the game is not waiting for."""

from __future__ import annotations

import html
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from engines.mokuru import ENGINE

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


def _room(client: TestClient) -> tuple[str, list[str]]:
    created = client.post(
        "/api/rooms", json={"game": "mokuru", "name": "Ann", "options": {"witness": "off"}}
    ).json()
    room_id = created["room_id"]
    tokens = [created["token"]] + [
        client.post(f"/api/rooms/{room_id}/join", json={"name": name}).json()["token"]
        for name in ("Bo", "Cy")
    ]
    assert client.post(f"/api/rooms/{room_id}/start", headers=auth(tokens[0])).status_code == 200
    return room_id, tokens


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
        room_id, tokens = _room(client)
        if _optional_action_taken(client, room_id, tokens, rng):
            return
    raise AssertionError("no optional action was ever offered")
