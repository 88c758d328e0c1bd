"""Whether a room wants alerts, as a process knows it (app/alerts/interest.py): every such room read in
one query at most every `known_for` seconds, what this process records known at once, and a room-by-room
read past `most` rooms. The channels' own queries are checked on a real database."""

from __future__ import annotations

import asyncio

import pytest

from app.alerts.interest import Interest
from app.alerts.push import Subscriptions
from app.db import Database
from app.models import EmailAddress
from tests.app.conftest import TestClient
from tests.rooms import new_room


class Store:
    """Rooms wanting alerts, and how often they were read."""

    def __init__(self, rooms: set[str]) -> None:
        self.rooms = rooms
        self.whole_reads = 0
        self.room_reads: list[str] = []

    def read_rooms(self, limit: int) -> set[str] | None:
        self.whole_reads += 1
        return set(self.rooms) if len(self.rooms) <= limit else None

    def read_room(self, room_id: str) -> bool:
        self.room_reads.append(room_id)
        return room_id in self.rooms


def test_many_rooms_are_answered_from_one_read() -> None:
    store = Store({"a", "b"})
    interest = Interest(store.read_rooms, store.read_room, known_for=60)

    async def ask() -> list[bool]:
        return [await interest.wanted(room) for room in ["a", "b", "c", "d", "a", "c"] * 50]

    answers = asyncio.run(ask())
    assert answers[:6] == [True, True, False, False, True, False]
    assert store.whole_reads == 1 and store.room_reads == []


def test_a_room_recorded_here_is_known_at_once_and_another_process_s_after_a_while() -> None:
    store = Store({"a"})
    now = [100.0]
    interest = Interest(store.read_rooms, store.read_room, known_for=30, clock=lambda: now[0])

    async def run() -> None:
        assert not await interest.wanted("b")
        interest.add("b")  # subscribed through this process
        assert await interest.wanted("b")
        store.rooms.add("c")  # subscribed through another process
        assert not await interest.wanted("c")
        now[0] += 29  # the read still holds...
        assert not await interest.wanted("c")
        now[0] += 1  # ...until `known_for` has passed
        assert await interest.wanted("c")

    asyncio.run(run())
    assert store.whole_reads == 2


def test_past_the_most_rooms_each_room_is_read_on_its_own() -> None:
    store = Store({f"r{n}" for n in range(5)})
    interest = Interest(store.read_rooms, store.read_room, known_for=60, most=3)

    async def run() -> list[bool]:
        return [await interest.wanted(room) for room in ("r1", "x", "r1", "x")]

    assert asyncio.run(run()) == [True, False, True, False]
    assert store.room_reads == ["r1", "x"]  # each once, then known


def test_the_push_channel_reads_the_rooms_with_a_subscription(client: TestClient) -> None:
    rooms = []
    for name in ("Ann", "Bo", "Cy"):
        made = new_room(client, name=name)
        rooms.append((made.room_id, made.token))
    db: Database = client.app.state.runtime.db  # type: ignore[attr-defined]
    subscriptions = Subscriptions(db)
    assert subscriptions.rooms(10) == set()
    for (room_id, _token), n in zip(rooms[:2], (1, 2), strict=True):
        for device in range(n):
            subscriptions.add(room_id, 0, "h", f"https://push.example.org/{room_id}/{device}", "k", "a")
    assert subscriptions.rooms(10) == {rooms[0][0], rooms[1][0]}
    assert subscriptions.rooms(1) is None  # more than asked for: read room by room
    assert subscriptions.any_in(rooms[1][0]) and not subscriptions.any_in(rooms[2][0])


@pytest.mark.parametrize("confirmed", [True, False])
def test_the_mail_channel_reads_the_rooms_with_a_confirmed_address(
    client: TestClient, confirmed: bool
) -> None:
    made = new_room(client)
    db: Database = client.app.state.runtime.db  # type: ignore[attr-defined]
    mail = client.app.state.runtime.mail  # type: ignore[attr-defined]
    with db.transaction() as session:
        session.add(
            EmailAddress(
                id="e" * 32,
                room_id=made.room_id,
                seat=0,
                address="ann@example.org",
                address_hash="x",
                status="confirmed" if confirmed else "pending",
            )
        )
    assert mail._confirmed_rooms(10) == ({made.room_id} if confirmed else set())
