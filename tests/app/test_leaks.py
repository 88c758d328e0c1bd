"""No message or response to a seat ever holds a card that seat may not see: whole matches of every game."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import jsonpatch
import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app
from engines.core import conformance, game_ids, get_engine
from tests.rooms import seated_match, start_match

from .conftest import auth
from .players import play_to_the_end
from .test_ws import connect


def leaked_ids(document: Any, hidden: frozenset[int]) -> set[int]:
    return set(conformance.card_ids(document)) & hidden


def logged_cards(action: Any) -> set[int]:
    """Card ids an action names (a log shows actions, whose cards are plain numbers, not card objects)."""
    if not isinstance(action, dict):
        return set()
    named = action.get("card")
    return {named} if isinstance(named, int) else set()


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """Rate limits off: while a bot thinks, the test polls every seat's state as fast as it can, and
    a 429 answer would end the match early (limits are tested in test_ratelimit.py)."""
    with TestClient(create_app(Settings(database_url=database_url, bot_delay=0, rate_per_second=0))) as test:
        yield test


@pytest.mark.parametrize("game", game_ids())
def test_no_seat_ever_sees_a_hidden_card(client: TestClient, game: str) -> None:
    seats = get_engine(game).spec.max_players
    # Ann, Bo and Cy as far as they fit, and a bot in the next seat if any is left.
    match = seated_match(client, game, min(seats, 3), bots=1 if seats > 3 else 0, start=False)
    room_id, tokens = match
    responses: list[tuple[int | None, dict[str, Any]]] = []
    logs: list[tuple[int | None, int, dict[str, Any]]] = []
    polls = 0
    with ExitStack() as stack:
        players = [connect(stack, client, room_id, token, seat) for seat, token in enumerate(tokens)]
        watcher = connect(stack, client, room_id, None, None)
        start_match(client, match)

        def public() -> dict[str, Any]:
            # Every poll also records what each seat is answered over HTTP at that moment,
            # and every few polls the log each seat (and a spectator) reads.
            nonlocal polls
            polls += 1
            for seat, token in enumerate(tokens):
                responses.append(
                    (seat, client.get(f"/api/rooms/{room_id}/state", headers=auth(token)).json())
                )
            state: dict[str, Any] = client.get(f"/api/rooms/{room_id}/state").json()
            responses.append((None, state))
            if polls % 4 == 0:
                for viewer, key in [*enumerate(tokens), (None, None)]:
                    headers = auth(key) if key else {}
                    log = client.get(f"/api/rooms/{room_id}/log", headers=headers).json()
                    logs.append((viewer, state["version"], log))
            return state

        play_to_the_end(players, public, seed=11)
        everyone = [*players, watcher]
        final = public()
        for player in everyone:
            player.sync(final["version"])

    log = client.get(f"/api/rooms/{room_id}/log").json()
    engine = get_engine(game)
    state = engine.setup(log["players"], log["seed"], engine.spec.parse_options(log["options"]))
    states = {1: state}
    for entry in log["entries"]:
        state = engine.apply(state, entry["seat"], entry["action"])
        states[entry["seq"] + 1] = state
    assert engine.result(state) is not None and max(states) == final["version"]

    def hidden(version: int, seat: int | None) -> frozenset[int]:
        return engine.hidden_ids(states[version], seat) if version in states else frozenset()

    checked = 0
    for player in everyone:
        body: dict[str, Any] = {}
        for message in player.messages:
            if message["type"] == "snapshot":
                body = message["state"]
            elif message["type"] == "patch":
                secret = hidden(message["version"], player.seat)
                for op in message["ops"]:
                    assert not leaked_ids(op.get("value"), secret), op
                    if op["path"].endswith("/id"):
                        assert op["value"] not in secret, op
                body = jsonpatch.apply_patch(body, message["ops"])
            else:
                continue
            assert not leaked_ids(body, hidden(body["version"], player.seat)), (player.seat, body["version"])
            checked += 1
        assert body == player.body
    for seat, response in responses:
        assert not leaked_ids(response, hidden(response["version"], seat))
        checked += 1
    assert checked > 4 * len(log["entries"])
    # A log entry may name a card only if the reader could see it just before or just after the
    # action (a bonus used from the table goes face down, a secret pick stays secret). An action
    # that ends a round is skipped: scoring shows every card, and the next deal, which the same
    # state already holds, may hand the named card to someone else.
    for seat, _version, seen in logs:
        if "seed" in seen:
            # Once the match is over the whole log is public, so that anyone can replay it.
            assert len(seen["entries"]) + 1 == final["version"], "the seed is revealed only at the end"
            continue
        for entry in seen["entries"]:
            before, after = states[entry["seq"]], states[entry["seq"] + 1]
            if engine.round_number(before) != engine.round_number(after):
                continue
            secret = hidden(entry["seq"], seat) & hidden(entry["seq"] + 1, seat)
            assert not logged_cards(entry["action"]) & secret, (seat, entry)
    assert logs
