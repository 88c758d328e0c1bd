"""GET /log served from bodies kept per match, version and reader (app/playing/actionlog.py): the same
bytes as the log built from scratch for every viewer through whole matches of every game, grown by the
new entries only, a takeback and the end shown, no seat's redaction served to another viewer, and
within its byte budget."""

from __future__ import annotations

import gzip
import random
import threading
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from sqlalchemy import delete, select
from starlette.testclient import TestClient

from app.config import Settings
from app.db import Database, upgrade
from app.main import create_app
from app.models import Match, Room
from app.playing.actionlog import APART_SHARE, ActionLogs, Kept, pack
from app.playing.views import log_body
from engines.core import seed_commitment
from tests.rooms import new_room, seated_match

from .conftest import NO_LIMITS, auth
from .test_replay_cache import GZIP, PLAIN, raw_body

Viewer = int | None

# Options that keep each game's match to a few hundred actions or fewer, and the seats played.
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "mojo": ({"target": 30}, 3),
    "moby-trick": ({"target": 20}, 3),
    "mooki-island": ({}, 2),
    "mokuru": ({"belts": "short"}, 3),
}
# Who joins the host (Ann) in these matches.
SEATED = ("P1", "P2")


def log_url(room_id: str) -> str:
    return f"/api/rooms/{room_id}/log"


def database(client: TestClient) -> Database:
    db: Database = client.app.state.runtime.db  # type: ignore[attr-defined]
    return db


def uncached(client: TestClient, room_id: str, viewer: Viewer) -> bytes:
    """The body as the route sent it before logs were kept: built from every entry, rendered by FastAPI."""
    with database(client).read() as session:
        return bytes(JSONResponse(jsonable_encoder(log_body(session, room_id, viewer))).body)


def headers_of(tokens: list[str], viewer: Viewer, coding: dict[str, str]) -> dict[str, str]:
    return {**coding, **(auth(tokens[viewer]) if viewer is not None else {})}


def read(
    client: TestClient, room_id: str, tokens: list[str], viewer: Viewer, coding: dict[str, str]
) -> bytes:
    """The log's plain bytes as `viewer` is sent them, gzip decoded here (and checked) when sent so."""
    answer, sent = raw_body(client, log_url(room_id), headers_of(tokens, viewer, coding))
    assert answer.status_code == 200, sent[:200]
    assert answer.headers["content-type"] == "application/json"
    if answer.headers.get("content-encoding") == "gzip":
        assert coding is GZIP
        inflater = zlib.decompressobj(wbits=31)
        plain = inflater.decompress(sent) + inflater.flush()
        assert inflater.eof and not inflater.unused_data, "one whole gzip member"
        return plain
    assert coding is PLAIN
    return sent


def state(client: TestClient, room_id: str, token: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = client.get(
        f"/api/rooms/{room_id}/state", headers=auth(token) if token else {}
    ).json()
    return body


def play_one(
    client: TestClient, room_id: str, tokens: list[str], rng: random.Random
) -> dict[str, Any] | None:
    """A random legal action by a random seat of those to act; None once the match is over."""
    public = state(client, room_id)
    if public["status"] != "playing":
        return None
    seat = rng.choice(public["to_act"])
    mine = state(client, room_id, tokens[seat])
    action = rng.choice(mine["legal_actions"])
    answer = client.post(
        f"/api/rooms/{room_id}/actions",
        headers=auth(tokens[seat]),
        json={"action": action, "version": mine["version"]},
    )
    assert answer.status_code == 200, answer.text
    return {**answer.json(), "token": tokens[seat]}


def take_back(client: TestClient, room_id: str, tokens: list[str], played: dict[str, Any]) -> None:
    """The last action taken back, every seat it waits for approving."""
    asked = client.post(
        f"/api/rooms/{room_id}/takeback", headers=auth(played["token"]), json={"version": played["version"]}
    )
    assert asked.status_code == 201, asked.text
    pending = state(client, room_id)["takeback"]
    for seat in pending["waiting_for"]:
        approved = client.post(
            f"/api/rooms/{room_id}/takeback/{asked.json()['takeback_id']}/approve", headers=auth(tokens[seat])
        )
        assert approved.status_code == 200, approved.text
    assert state(client, room_id)["version"] == played["version"] + 1


@pytest.fixture
def game_client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=database_url, bot_delay=0, **NO_LIMITS))) as client:
        yield client


@pytest.mark.parametrize("game", list(GAMES))
def test_every_viewer_reads_the_uncached_body_through_a_whole_match(
    game_client: TestClient, game: str
) -> None:
    """After each action, some viewers read (so bodies grow from one to several versions back), in
    either coding; takebacks on the way; every body equal to the one built from scratch."""
    client = game_client
    options, seats = GAMES[game]
    room_id, tokens = seated_match(client, game, seats, names=SEATED, **options)
    viewers: list[Viewer] = [*range(seats), None]
    rng = random.Random(f"{game}-log")
    taken_back = actions = 0
    while (played := play_one(client, room_id, tokens, rng)) is not None:
        actions += 1
        if played["can_take_back"] and taken_back < 3 and rng.random() < 0.2:
            take_back(client, room_id, tokens, played)
            taken_back += 1
        for viewer in viewers:
            if rng.random() < 0.5:
                coding = rng.choice([GZIP, PLAIN])
                assert read(client, room_id, tokens, viewer, coding) == uncached(client, room_id, viewer)
    assert state(client, room_id)["status"] == "finished"
    for viewer in viewers:
        for coding in (GZIP, PLAIN):
            assert read(client, room_id, tokens, viewer, coding) == uncached(client, room_id, viewer)
    print(f"{game}: {actions} actions, {taken_back} taken back")


def test_a_read_at_the_same_version_writes_nothing_and_a_move_appends_only_its_entry(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes: list[tuple[int | None, int]] = []
    write = ActionLogs._write

    def counted(self: ActionLogs, session: Any, engine: Any, match: Match, *rest: Any) -> Kept:
        earlier = rest[-1]
        writes.append((earlier.version if earlier is not None else None, match.version))
        return write(self, session, engine, match, *rest)

    monkeypatch.setattr(ActionLogs, "_write", counted)
    room_id, tokens = seated_match(client)
    first = client.get(log_url(room_id))
    assert first.json()["entries"] == [] and writes == [(None, 1)]
    for _ in range(3):
        again = client.get(log_url(room_id), headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304
    assert client.get(log_url(room_id)).content == first.content
    assert writes == [(None, 1)], "the kept body is sent"

    played = play_one(client, room_id, tokens, random.Random(1))
    assert played is not None
    after = client.get(log_url(room_id))
    assert [entry["seq"] for entry in after.json()["entries"]] == [1]
    assert writes == [(None, 1), (1, 2)], "the body at version 1 grew by the one entry"
    assert after.headers["etag"] != first.headers["etag"]
    stale = client.get(log_url(room_id), headers={"If-None-Match": first.headers["etag"]})
    assert stale.status_code == 200 and stale.content == after.content
    for _ in range(2):
        play_one(client, room_id, tokens, random.Random(2))
    assert [entry["seq"] for entry in client.get(log_url(room_id)).json()["entries"]] == [1, 2, 3]
    assert writes[-1] == (2, 4), "two moves since the last read: both appended to it"


def test_readers_arriving_together_wait_for_one_write(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id, tokens = seated_match(client)
    play_one(client, room_id, tokens, random.Random(9))
    views = client.app.state.runtime.views  # type: ignore[attr-defined]
    looks = 0
    looked = threading.Condition()
    current, write = ActionLogs._current, ActionLogs._write
    writes = []

    def counted(self: ActionLogs, *args: Any) -> Kept | None:
        nonlocal looks
        with looked:
            looks += 1
            looked.notify_all()
        return current(self, *args)

    def held(self: ActionLogs, *args: Any) -> Kept:
        # Until the other reader has looked too (and found nothing): without the wait for this
        # write, it would write its own.
        with looked:
            assert looked.wait_for(lambda: looks >= 3, timeout=10), "the other reader never came"
        writes.append(1)
        return write(self, *args)

    monkeypatch.setattr(ActionLogs, "_current", counted)
    monkeypatch.setattr(ActionLogs, "_write", held)
    with ThreadPoolExecutor(2) as pool:
        bodies = list(pool.map(lambda _: views.written_log(room_id, None), range(2)))
    assert bodies[0] is bodies[1] and len(writes) == 1


def test_a_takeback_entry_follows_the_entry_it_takes_back(client: TestClient) -> None:
    room_id, tokens = seated_match(client)
    played = play_one(client, room_id, tokens, random.Random(3))
    assert played is not None
    before = client.get(log_url(room_id), headers=auth(tokens[1])).json()["entries"]
    take_back(client, room_id, tokens, played)
    after = client.get(log_url(room_id), headers=auth(tokens[1])).json()["entries"]
    assert after[:1] == before and [entry["seq"] for entry in before] == [1]
    assert [(entry["seq"], entry["action"]) for entry in after[1:]] == [(2, {"takeback": 1})]
    assert client.get(log_url(room_id)).json()["entries"] == after


def moby_trick_match(client: TestClient) -> tuple[str, list[str]]:
    """A 3-seat Moby Trick match whose three first bonuses are picked in secret: seat 0 has picked."""
    room_id, tokens = seated_match(client, "moby-trick", 3, names=SEATED, target=1)
    mine = state(client, room_id, tokens[0])
    assert mine["legal_actions"][0]["type"] == "set_aside"
    picked = client.post(
        f"/api/rooms/{room_id}/actions",
        headers=auth(tokens[0]),
        json={"action": mine["legal_actions"][0], "version": mine["version"]},
    )
    assert picked.status_code == 200
    return room_id, tokens


def test_a_seats_redaction_is_never_served_to_another_viewer(game_client: TestClient) -> None:
    client = game_client
    room_id, tokens = moby_trick_match(client)
    # Seat 0 reads first, in both codings, so its bodies are kept before anyone else asks.
    own = {
        tag: client.get(log_url(room_id), headers={**coding, **auth(tokens[0])})
        for tag, coding in (("gzip", GZIP), ("plain", PLAIN))
    }
    pick = own["plain"].json()["entries"][0]["action"]
    assert pick["type"] == "set_aside" and "card" in pick
    for viewer in (1, 2, None):
        for tag, coding in (("gzip", GZIP), ("plain", PLAIN)):
            headers = headers_of(tokens, viewer, coding)
            answer = client.get(log_url(room_id), headers=headers)
            assert answer.json()["entries"][0]["action"] == {"type": "set_aside"}, (viewer, tag)
            assert answer.headers["etag"] != own[tag].headers["etag"]
            # Seat 0's tag is not this viewer's: never a 304 that would keep seat 0's body.
            held = client.get(
                log_url(room_id), headers={**headers, "If-None-Match": own[tag].headers["etag"]}
            )
            assert held.status_code == 200 and held.json() == answer.json()
    assert client.get(log_url(room_id), headers=auth(tokens[0])).json()["entries"][0]["action"] == pick


def test_the_end_shows_every_action_and_the_seed_to_everyone(game_client: TestClient) -> None:
    client = game_client
    room_id, tokens = moby_trick_match(client)
    viewers: list[Viewer] = [0, 1, 2, None]
    rng = random.Random(4)
    while state(client, room_id)["status"] == "playing":
        for viewer in viewers:
            body = client.get(log_url(room_id), headers=headers_of(tokens, viewer, GZIP)).json()
            assert "seed" not in body
            hidden = [e for e in body["entries"] if e["action"] == {"type": "set_aside"}]
            assert all(e["seat"] != viewer for e in hidden)
        play_one(client, room_id, tokens, rng)
    bodies = [client.get(log_url(room_id), headers=headers_of(tokens, v, GZIP)) for v in viewers]
    assert len({answer.content for answer in bodies}) == 1, "every viewer reads the one whole log"
    assert len({answer.headers["etag"] for answer in bodies}) == 1
    body = bodies[0].json()
    assert seed_commitment(body["seed"]) == body["seed_commitment"]
    assert (body["players"], body["options"]["target"]) == (3, 1)
    picks = [e["action"] for e in body["entries"] if e["action"]["type"] == "set_aside"]
    assert len(picks) >= 3 and all("card" in pick for pick in picks)
    assert bodies[0].content == uncached(client, room_id, None)


def test_a_new_match_under_a_reused_match_id_is_not_served_an_old_body(sqlite_url: str, tiny: str) -> None:
    """SQLite gives a new row the id of the deleted last one, so a kept body's match id may name
    another match: one at a lower version than the kept body's, here."""
    upgrade(sqlite_url)
    with TestClient(create_app(Settings(database_url=sqlite_url, bot_delay=0, **NO_LIMITS))) as client:
        room_id, tokens = seated_match(client)
        assert play_one(client, room_id, tokens, random.Random(5)) is not None
        old = client.get(log_url(room_id)).json()
        assert len(old["entries"]) == 1
        db = database(client)
        with db.transaction() as session:
            old_id = session.scalars(select(Match.id).where(Match.room_id == room_id)).one()
            session.execute(delete(Room).where(Room.id == room_id))
        other_room, _tokens = seated_match(client)
        with db.read() as session:
            assert session.scalars(select(Match.id).where(Match.room_id == other_room)).one() == old_id
        new = client.get(log_url(other_room)).json()
        assert new["seed_commitment"] != old["seed_commitment"] and new["entries"] == []


def test_the_kept_bodies_stay_within_the_budget(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    logs: ActionLogs = client.app.state.runtime.views.logs  # type: ignore[attr-defined]
    monkeypatch.setattr(logs, "budget", 1200)
    rooms = [seated_match(client) for _ in range(4)]
    rng = random.Random(6)
    for _ in range(2):
        for room_id, tokens in rooms:
            play_one(client, room_id, tokens, rng)
            assert read(client, room_id, tokens, 0, GZIP) == uncached(client, room_id, 0)
            assert logs.weight <= logs.budget
    assert 0 < len(logs) < len(rooms), "the least recently read went first"
    # Those dropped are written again when read, the same.
    for room_id, tokens in rooms:
        assert read(client, room_id, tokens, None, PLAIN) == uncached(client, room_id, None)


def test_a_room_without_a_match_and_an_unknown_room(client: TestClient) -> None:
    waiting = new_room(client)
    for coding in (GZIP, PLAIN):
        _answer, sent = raw_body(client, log_url(waiting.room_id), coding)
        plain = gzip.decompress(sent) if coding is GZIP else sent
        assert plain == uncached(client, waiting.room_id, None) == b'{"seed_commitment":null,"entries":[]}'
    missing = client.get(log_url("nosuchroom00"))
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    stranger = client.get(log_url(waiting.room_id), headers=auth("not-a-seat-token"))
    assert stranger.status_code == 401 and stranger.json()["error"]["code"] == "unauthorized"


def test_the_gzip_form_grows_and_is_compressed_again_past_its_share() -> None:
    """Grown a little at a time, past the share compressed apart and back: each step decodes to the
    bytes it holds, with its closing bytes, as one gzip member."""
    rng = random.Random(7)
    opening = b'{"seed_commitment":"abc","entries":['
    packed = pack(opening)
    whole_again = 0
    for step in range(400):
        opening += b"," * (step > 0) + b'{"seq":%d,"action":{"card":%d}}' % (step, rng.randrange(100))
        grown = packed.extended(opening)
        whole_again += grown.apart == 0
        assert grown.apart * APART_SHARE <= len(opening)
        packed = grown
        closing = b"]}" if step % 2 else b'],"seed":12345678901234567890}'
        assert gzip.decompress(packed.closed(closing)) == opening + closing
    assert 3 < whole_again < 100, whole_again
    assert len(packed.blocks) < len(opening) / 3, "still compressed well"


def test_the_route_sends_gzip_or_plain_with_strong_tags(client: TestClient) -> None:
    room_id, tokens = seated_match(client)
    rng = random.Random(8)
    # Past the GZip middleware's minimum size, at which it marks a plain answer `Vary` too.
    while len(client.get(log_url(room_id)).content) < 512:
        play_one(client, room_id, tokens, rng)
    zipped, zipped_bytes = raw_body(client, log_url(room_id), GZIP)
    plain, plain_bytes = raw_body(client, log_url(room_id), PLAIN)
    assert zipped.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert gzip.decompress(zipped_bytes) == plain_bytes == uncached(client, room_id, None)
    assert zipped.headers["etag"] == plain.headers["etag"][:-1] + '-gzip"'
    for answer in (zipped, plain):
        assert answer.headers["cache-control"] == "no-cache"
        assert answer.headers.get_list("vary") == ["Accept-Encoding, Accept-Language, Cookie"]
        assert int(answer.headers["content-length"]) == len(zipped_bytes if answer is zipped else plain_bytes)
    for sent in (plain.headers["etag"], zipped.headers["etag"], f"W/{plain.headers['etag']}", "*"):
        for coding in (GZIP, PLAIN):
            answer = client.get(log_url(room_id), headers={**coding, "If-None-Match": sent})
            assert answer.status_code == 304 and answer.content == b"", sent
