"""Mooki Island through the server: over a whole match (a human, the strong bot and a spectator),
every face any socket or response carries is one its reader may see, judged by the rules
rather than by the engine's own hidden_ids: never a pile's lower face, never the side a card
was not placed on, never a covered collection card before the end; and the log names no side
until the match is over."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import jsonpatch
from starlette.testclient import TestClient

from engines.core import get_engine
from engines.mooki_island.cards import BOX
from tests.engines.mooki_island.helpers import faces_in, may_see
from tests.rooms import add_bot, new_room, start_match

from .conftest import auth
from .players import play_to_the_end
from .test_ws import connect

GAME = "mooki-island"


def test_no_hidden_face_reaches_a_seat_or_a_spectator(client: TestClient) -> None:
    room = new_room(client, GAME)
    room_id, host = room.room_id, room.token
    add_bot(client, room)
    bodies: list[tuple[int | None, dict[str, Any]]] = []
    logs: list[tuple[int | None, dict[str, Any]]] = []
    with ExitStack() as stack:
        ann = connect(stack, client, room_id, host, 0)
        watcher = connect(stack, client, room_id, None, None)
        start_match(client, room)

        def public() -> dict[str, Any]:
            bodies.append((0, client.get(f"/api/rooms/{room_id}/state", headers=auth(host)).json()))
            state: dict[str, Any] = client.get(f"/api/rooms/{room_id}/state").json()
            bodies.append((None, state))
            if state["status"] != "finished":
                logs.append((0, client.get(f"/api/rooms/{room_id}/log", headers=auth(host)).json()))
                logs.append((None, client.get(f"/api/rooms/{room_id}/log").json()))
            return state

        play_to_the_end([ann], public, seed=5)
        final = public()
        for player in (ann, watcher):
            player.sync(final["version"])

    log = client.get(f"/api/rooms/{room_id}/log").json()
    engine = get_engine(GAME)
    state = engine.setup(2, log["seed"], engine.spec.parse_options(log["options"]))
    states = {1: state}
    for entry in log["entries"]:
        state = engine.apply(state, entry["seat"], entry["action"])
        states[entry["seq"] + 1] = state
    assert engine.result(state) is not None

    for player in (ann, watcher):
        body: dict[str, Any] = {}
        for message in player.messages:
            if message["type"] == "snapshot":
                body = message["state"]
            elif message["type"] == "patch":
                body = jsonpatch.apply_patch(body, message["ops"])
            else:
                continue
            bodies.append((player.seat, body))

    lower_faces_seen = 0
    for seat, body in bodies:
        if body["version"] not in states:  # the waiting room, before the deal: no cards at all
            assert not faces_in(body.get("view")), body
            continue
        at = states[body["version"]]
        allowed = {at.face_ids[f] for f in may_see(at, seat)}
        for face in faces_in(body.get("view")):
            assert face["id"] in allowed, (seat, body["version"], face)
            real = BOX.faces[at.face_ids.index(face["id"])]
            assert real.to_json() == {k: v for k, v in face.items() if k != "id"}
        drawn = (body.get("view") or {}).get("drawn")
        if drawn and drawn["lower"] is not None:
            assert seat == drawn["seat"] == 0
            lower_faces_seen += 1
    assert lower_faces_seen > 5, "Ann saw the back of the cards she drew"
    assert len(bodies) > 2 * len(log["entries"])

    # Before the end the log says which pile was taken and that a card was placed, not which side.
    # (A log read just as the bot ended the match is already whole: it carries the seed.)
    unfinished = [seen for _, seen in logs if "seed" not in seen]
    places = [e["action"] for seen in unfinished for e in seen["entries"] if e["action"]["type"] == "place"]
    assert len(unfinished) > 10 and places and all(a == {"type": "place"} for a in places)
    assert {e["action"].get("side") for e in log["entries"] if e["action"]["type"] == "place"} <= {
        "upper",
        "lower",
    }
