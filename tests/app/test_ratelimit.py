"""Clients far faster than any player get 429 rate_limited; everyone else is untouched.

Covers issue 14's findings: a made-up bearer per request must not bypass the limit, reads and socket
connects are limited, the key is a verified seat or the real client address (the proxy's word only
when it is trusted), and the buckets are shared across processes through Redis."""

from __future__ import annotations

import asyncio
import secrets
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.main import create_app
from app.ratelimit import Buckets, SharedBuckets, address_key
from tests.servers import ServeProcess

from .conftest import auth


def test_bucket_allows_a_burst_then_refills() -> None:
    buckets = Buckets(per_second=2, burst=3)
    assert [buckets.allow("k", now=0.0) for _ in range(4)] == [True, True, True, False]
    assert buckets.allow("other", now=0.0), "each client has its own bucket"
    assert buckets.allow("k", now=0.5)  # half a second refills one request
    assert not buckets.allow("k", now=0.5)


def test_zero_rate_turns_limiting_off() -> None:
    buckets = Buckets(per_second=0, burst=1)
    assert all(buckets.allow("k", now=0.0) for _ in range(100))


@pytest.fixture
def slow_client(tmp_path: Path, tiny: str) -> Iterator[TestClient]:
    url = sqlalchemy_url(f"sqlite:///{tmp_path / 'limit.db'}")
    upgrade(url)
    app = create_app(
        Settings(
            database_url=url,
            bot_delay=0,
            rate_per_second=0.01,
            rate_burst=3,
            seat_rate_per_second=0.01,
            seat_rate_burst=2,
        )
    )
    with TestClient(app) as client:
        yield client


def refused(answer: httpx.Response) -> bool:
    return answer.status_code == 429 and answer.json()["error"]["code"] == "rate_limited"


def test_flooding_posts_answer_429_and_change_nothing(slow_client: TestClient) -> None:
    created = slow_client.post("/api/rooms", json={"game": "tiny", "name": "Ann"})
    assert created.status_code == 201
    room_id, token = created.json()["room_id"], created.json()["token"]
    for _ in range(2):  # the address's bucket of 3
        assert slow_client.get(f"/api/rooms/{room_id}/state", headers=auth(token)).status_code == 200
    for _ in range(2):  # the seat's headroom for its room: 2
        assert slow_client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth(token)).status_code == 201
    answer = slow_client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth(token))
    assert refused(answer)
    # 0.01 tokens a second: the next one is 100 s away, and Retry-After says so.
    assert 90 <= int(answer.headers["retry-after"]) <= 100
    slow_client.app.state.buckets.local._buckets.clear()  # type: ignore[attr-defined]
    seats = slow_client.get(f"/api/rooms/{room_id}").json()["seats"]
    assert len(seats) == 3, "the refused bot was not added"


def test_made_up_bearer_per_request_does_not_bypass_the_limit(slow_client: TestClient) -> None:
    codes = [
        slow_client.post(
            "/api/rooms", json={"game": "tiny", "name": "Ann"}, headers=auth(secrets.token_urlsafe(24))
        ).status_code
        for _ in range(6)
    ]
    assert codes == [201, 201, 201, 429, 429, 429]


def test_made_up_bearers_on_a_room_are_counted_for_the_address(slow_client: TestClient) -> None:
    room_id = slow_client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()["room_id"]
    answers = [
        slow_client.get(f"/api/rooms/{room_id}/state", headers=auth(secrets.token_urlsafe(24)))
        for _ in range(6)
    ]
    assert [a.status_code for a in answers][:2] == [401, 401]
    assert refused(answers[-1])


def test_reads_are_limited_too(slow_client: TestClient) -> None:
    room_id = slow_client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()["room_id"]
    codes = [slow_client.get(f"/api/rooms/{room_id}").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert refused(slow_client.get(f"/r/{room_id}"))
    assert slow_client.get("/static/css/base.css").status_code == 200, "static files are not counted"
    assert slow_client.get("/healthz").status_code == 200, "health checks are not counted"


def test_a_verified_seat_has_a_little_headroom_for_its_room(slow_client: TestClient) -> None:
    made = slow_client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    while slow_client.get(f"/api/rooms/{made['room_id']}").status_code != 429:
        pass
    codes = [
        slow_client.get(f"/api/rooms/{made['room_id']}/state", headers=auth(made["token"])).status_code
        for _ in range(3)
    ]
    assert codes == [200, 200, 429], "the address is out of requests; its seat has 2 more, no more"
    joined = slow_client.post(
        f"/api/rooms/{made['room_id']}/join", json={"name": "Bo"}, headers=auth(made["token"])
    )
    assert refused(joined), "a seat's headroom is shared by its room, not one per seat"


def test_seats_minted_in_many_rooms_do_not_multiply_the_allowance(tmp_path: Path, tiny: str) -> None:
    url = sqlalchemy_url(f"sqlite:///{tmp_path / 'mint.db'}")
    upgrade(url)
    settings = Settings(
        database_url=url,
        rate_per_second=0.01,
        rate_burst=10,
        seat_rate_per_second=0.01,
        seat_rate_burst=4,
        rooms_per_hour=0,
    )
    with TestClient(create_app(settings)) as client:
        rooms = [client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json() for _ in range(10)]
        assert all("token" in room for room in rooms), "the address's 10 requests made 10 rooms"
        codes = [
            client.get(f"/api/rooms/{room['room_id']}/state", headers=auth(room["token"])).status_code
            for room in rooms * 3
        ]
    assert codes.count(200) == 4, f"10 rooms' seats got {codes.count(200)} requests, not one room's 4"
    assert codes[:4] == [200] * 4 and set(codes[4:]) == {429}


def test_socket_connects_are_limited(slow_client: TestClient) -> None:
    room_id = slow_client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()["room_id"]
    for _ in range(2):
        with slow_client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            assert ws.receive_json()["type"] == "snapshot"
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        slow_client.websocket_connect(f"/ws/rooms/{room_id}") as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 1013


def test_flooding_a_socket_answers_rate_limited(slow_client: TestClient) -> None:
    room = slow_client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    with slow_client.websocket_connect(f"/ws/rooms/{room['room_id']}?token={room['token']}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        codes = []
        for n in range(5):
            ws.send_json({"type": "action", "id": str(n), "action": {"type": "noop"}})
            reply = ws.receive_json()
            while reply["type"] == "room":  # connection status pushes may come in between
                reply = ws.receive_json()
            codes.append(reply["error"]["code"])
        assert codes == ["not_started"] * 3 + ["rate_limited"] * 2


def test_take_is_all_or_nothing_and_says_how_long_to_wait() -> None:
    buckets = Buckets(per_second=1, burst=1)
    spends = [("room", 1.0, 2), ("address", 1.0, 1)]
    assert buckets.take(spends, now=0.0) == 0.0
    assert buckets.take(spends, now=0.0) == 1.0, "the address is empty: a second away"
    assert buckets.take([("room", 1.0, 2)], now=0.0) == 0.0, "the refused take left the room its token"
    assert buckets.take(spends, now=0.5) == 0.5
    assert buckets.take([("address", 1.0, 1)], cost=-1.0, now=0.5) == 0.0  # given back
    assert buckets.take([("address", 1.0, 1)], now=0.5) == 0.0
    assert buckets.take([("free", 0.0, 0)], now=0.0) == 0.0, "a rate of 0 is no limit"


@pytest.mark.redis
def test_shared_take_is_all_or_nothing_in_redis(redis_url: str) -> None:
    async def run() -> list[float]:
        buckets = SharedBuckets(redis_url, per_second=1, burst=1, prefix=f"test-{uuid.uuid4().hex}")
        spends = [("room", 0.01, 2), ("address", 0.01, 1)]
        try:
            return [
                await buckets.take(spends),
                await buckets.take(spends),
                await buckets.take([("room", 0.01, 2)]),
                await buckets.take([("room", 0.01, 2)]),
                await buckets.take([("address", 0.01, 1)], cost=-1.0),
                await buckets.take([("address", 0.01, 1)]),
            ]
        finally:
            await buckets.close()

    first, second, room, room_again, refund, after_refund = asyncio.run(run())
    assert first == 0.0
    assert 99 < second <= 100, "the address is empty: 100 s at 0.01 a second"
    assert room == 0.0, "the refused take did not spend the room's token"
    assert room_again > 0
    assert refund == 0.0 and after_refund == 0.0, "a token given back can be taken again"


def test_ipv6_clients_are_counted_by_their_64() -> None:
    assert address_key("2001:db8:1:2:3:4:5:6") == address_key("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:198.51.100.7") == "198.51.100.7"
    assert address_key("198.51.100.7") == "198.51.100.7"
    assert address_key("testclient") == "testclient"


def test_redis_unreachable_falls_back_to_this_process() -> None:
    async def run() -> list[bool]:
        buckets = SharedBuckets("redis://127.0.0.1:1/0", per_second=0.01, burst=2, prefix="t")
        try:
            return [await buckets.allow("k") for _ in range(3)]
        finally:
            await buckets.close()

    assert asyncio.run(run()) == [True, True, False]


# -- real processes -------------------------------------------------------------------------------


@pytest.fixture
def limited_env(sqlite_url: str) -> dict[str, str]:
    return {"DATABASE_URL": sqlite_url, "MOTABLE_RATE_PER_SECOND": "0.01", "MOTABLE_RATE_BURST": "4"}


def _serve(tmp_path: Path, env: dict[str, str], name: str) -> ServeProcess:
    return ServeProcess(env, tmp_path / f"{name}.log").start()


@pytest.mark.redis
@pytest.mark.postgres
def test_two_processes_share_one_allowance_through_redis(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    env = {
        "DATABASE_URL": postgres_url,
        "REDIS_URL": redis_url,
        "MOTABLE_REDIS_PREFIX": f"test-{uuid.uuid4().hex}",
        "MOTABLE_RATE_PER_SECOND": "0.01",
        "MOTABLE_RATE_BURST": "4",
    }
    a = _serve(tmp_path, env, "a")
    b = _serve(tmp_path, env, "b")
    try:
        codes = [httpx.get(f"{server.base_url}/api/rooms/abcdefghijkl").status_code for server in (a, b) * 4]
        assert codes == [404] * 4 + [429] * 4, "4 requests in all, not 4 per process"
    finally:
        a.stop()
        b.stop()


def test_trusted_proxy_gives_each_client_its_own_allowance(
    tmp_path: Path, limited_env: dict[str, str]
) -> None:
    server = _serve(tmp_path, {**limited_env, "MOTABLE_TRUSTED_PROXIES": "127.0.0.1"}, "trusted")
    try:
        url = f"{server.base_url}/api/rooms/abcdefghijkl"
        first = [httpx.get(url, headers={"X-Forwarded-For": "198.51.100.7"}).status_code for _ in range(5)]
        assert first == [404] * 4 + [429]
        other = httpx.get(url, headers={"X-Forwarded-For": "198.51.100.8"})
        assert other.status_code == 404, "another client behind the proxy is not locked out"
    finally:
        server.stop()


def test_untrusted_forwarded_for_is_ignored(tmp_path: Path, limited_env: dict[str, str]) -> None:
    server = _serve(tmp_path, {**limited_env, "MOTABLE_TRUSTED_PROXIES": "192.0.2.1"}, "untrusted")
    try:
        url = f"{server.base_url}/api/rooms/abcdefghijkl"
        codes = [httpx.get(url, headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code for n in range(6)]
        assert codes == [404] * 4 + [429] * 2, "a client cannot name itself someone else"
    finally:
        server.stop()
