"""The fan-out sends what every viewer shares once per move and each seat's own part per seat
(app/realtime/split.py): the split bodies are each viewer's whole body, as built here straight from
`engine.view` and the body's other fields; over whole random matches of every game, every socket's
patches turn its body into exactly that body, GET /state answers it, and no frame a seat is sent
holds a card that seat may not see."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import jsonpatch
import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.playing.views import split_bodies
from engines.core import Engine, conformance, game_ids, get_engine
from engines.core.takeback import Position
from tests.rooms import seated_match, start_match

from .conftest import auth
from .players import InProcessSocket, Player, play_to_the_end


def whole_body(
    engine: Engine[Any],
    state: Any,
    version: int,
    seat: int | None,
    takeback: dict[str, Any] | None = None,
    can_take_back: bool = False,
) -> dict[str, Any]:
    """What a viewer's state body must be (CONTRACT.md), built without the server's builder: the
    viewer's `engine.view` and the fields around it."""
    to_act = sorted(engine.to_act(state))
    result = engine.result(state)
    return {
        "version": version,
        "status": "playing" if result is None else "finished",
        "seat": seat,
        "to_act": to_act,
        "legal_actions": engine.legal_actions(state, seat) if seat is not None and to_act else [],
        "view": engine.view(state, seat),
        "result": None if result is None else result.to_json(),
        "takeback": takeback,
        "can_take_back": can_take_back,
    }


@pytest.mark.parametrize("game", game_ids())
def test_split_bodies_are_each_viewers_whole_body(game: str) -> None:
    """Along random matches, with a takeback pending or not, a seat that may take back or none, and
    with the views the takeback decision built (`Position`, as the fan-out passes them) or without."""
    engine = get_engine(game)
    players = max(2, engine.spec.min_players)
    viewers = [*range(players), None]
    rng = random.Random(3)
    for seed in range(3):
        state = engine.setup(players, seed, engine.spec.parse_options({}))
        version = 1
        while True:
            may = rng.choice([None, *range(players)])
            asked = {"id": 1, "seat": 0, "version": version, "approvals": [], "waiting_for": [1]}
            takeback = rng.choice([None, asked])
            position = Position(engine, state, players) if version % 2 else None
            status = "playing" if engine.result(state) is None else "finished"
            split = split_bodies(game, state, version, status, viewers, takeback, may, position)
            for seat in viewers:
                expected = whole_body(
                    engine, state, version, seat, takeback, seat is not None and seat == may
                )
                assert split.body(seat) == expected, (seed, version, seat)
            acting = engine.to_act(state)
            if not acting or version > 80:
                break
            seat = rng.choice(sorted(acting))
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            version += 1


class Recording:
    """A socket that keeps the text of every frame it receives."""

    def __init__(self, socket: InProcessSocket) -> None:
        self.socket = socket
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.socket.send(text)

    def recv(self, timeout: float) -> str:
        text = self.socket.recv(timeout)
        self.texts.append(text)
        return text


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    # Rate limits off: the test polls every seat's state between moves from one client.
    with TestClient(create_app(Settings(database_url=database_url, bot_delay=0, rate_per_second=0))) as test:
        yield test


@pytest.mark.parametrize("game", game_ids())
def test_every_socket_patches_to_exactly_its_state_body(client: TestClient, game: str) -> None:
    engine = get_engine(game)
    seats = max(2, engine.spec.min_players)
    assert seats <= engine.spec.max_players
    match = seated_match(client, game, seats, names=[f"P{n}" for n in range(1, seats)], start=False)
    room_id, tokens = match
    answered: list[tuple[int | None, dict[str, Any]]] = []
    with ExitStack() as stack:
        sockets: list[tuple[Player, Recording]] = []
        for seat, token in [*enumerate(tokens), (None, None)]:
            query = f"?token={token}" if token else ""
            session = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}{query}"))
            recording = Recording(InProcessSocket(session))
            sockets.append((Player(seat, token, recording), recording))
        start_match(client, match)

        def public() -> dict[str, Any]:
            # What GET /state answers each viewer between moves, kept to compare with the sockets.
            for seat, token in enumerate(tokens):
                answered.append((seat, client.get(f"/api/rooms/{room_id}/state", headers=auth(token)).json()))
            body: dict[str, Any] = client.get(f"/api/rooms/{room_id}/state").json()
            answered.append((None, body))
            return body

        players = [player for player, _ in sockets[:-1]]
        play_to_the_end(players, public, seed=5)
        final = public()
        for player, _ in sockets:
            player.sync(final["version"])

    log = client.get(f"/api/rooms/{room_id}/log").json()
    state = engine.setup(log["players"], log["seed"], engine.spec.parse_options(log["options"]))
    states = {1: state}
    for entry in log["entries"]:
        state = engine.apply(state, entry["seat"], entry["action"])
        states[entry["seq"] + 1] = state
    assert engine.result(state) is not None and max(states) == final["version"]

    # Whether a seat could take back the last action is the server's to say (it asks the table's
    # takebacks): the sockets must say what GET /state said at the same version.
    taking_back = {(seat, answer["version"]): answer["can_take_back"] for seat, answer in answered}

    def expected(version: int, seat: int | None) -> dict[str, Any]:
        return whole_body(
            engine, states[version], version, seat, None, taking_back.get((seat, version), False)
        )

    # GET /state answered each viewer that body, as the sockets below must have it.
    for seat, answer in answered:
        assert answer == expected(answer["version"], seat)
    assert any(taking_back.values()), "a played card could be taken back somewhere in the match"
    patches = 0
    for player, recording in sockets:
        body: dict[str, Any] = {}
        for text in recording.texts:
            message = json.loads(text)
            if message["type"] == "snapshot":
                body = message["state"]
            elif message["type"] == "patch":
                # No frame names a card this seat may not see (another seat's hand, the deck).
                secret = engine.hidden_ids(states[message["version"]], player.seat)
                assert not set(conformance.card_ids(message["ops"])) & secret, (player.seat, text)
                for op in message["ops"]:
                    if op["path"].endswith("/id"):
                        assert op["value"] not in secret, (player.seat, op)
                body = jsonpatch.apply_patch(body, message["ops"])
                patches += 1
            else:
                continue
            if body["version"] > 0:
                assert body == expected(body["version"], player.seat), (player.seat, body["version"])
        assert body == expected(final["version"], player.seat)
    # Every socket was patched along the whole match (a move may change nothing a viewer sees).
    assert patches >= len(sockets) * len(log["entries"]) // 2
