"""The socket hub: room messages in order, and a slow socket's backlog kept bounded."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
from typing import Any, cast

import jsonpatch
import pytest
from fastapi import WebSocket

from app.realtime.hub import CLOSE, Connection, Hub
from app.realtime.split import Own, Split
from app.routes import ws


class SlowRooms:
    """Room bodies numbered in the order they are read; the first read is slow to come back."""

    def __init__(self) -> None:
        self._reads = itertools.count(1)
        self._second_read = threading.Event()

    async def bodies(self, seats: set[int | None]) -> Split:
        return Split(
            {"version": 0, "seat": None, "view": {}},
            {seat: Own({"seat": seat}) for seat in seats if seat is not None},
        )

    async def room(self) -> dict[str, Any]:
        read = next(self._reads)
        if read == 1:
            await asyncio.to_thread(self._second_read.wait, 0.5)
        else:
            self._second_read.set()
        return {"read": read}


@pytest.mark.asyncio
async def test_room_messages_go_out_in_the_order_they_were_read() -> None:
    rooms = SlowRooms()
    hub = Hub()
    conn = Connection(0)
    await hub.attach("r", conn, rooms.bodies)
    first = asyncio.create_task(hub.push_room("r", rooms.room))
    await asyncio.sleep(0.05)
    await hub.push_room("r", rooms.room)
    await first
    sent = [conn.outbox.get_nowait() for _ in range(conn.outbox.qsize())]
    # The last room message a client gets is the body it keeps: it must be the newest one read.
    assert [m["room"]["read"] for m in sent if m["type"] == "room"] == [1, 2]


@pytest.mark.asyncio
async def test_a_change_that_waited_on_a_failed_read_is_still_sent() -> None:
    hub = Hub(retry_waits=(0.0,))
    conn = Connection(0)
    await hub.attach("r", conn, SlowRooms().bodies)
    reads = 0
    second_change = asyncio.Event()

    async def room() -> dict[str, Any]:
        nonlocal reads
        reads += 1
        if reads == 1:
            # The database hiccups on the first read, while a second change comes in and leaves
            # its body to the read under way.
            await second_change.wait()
            raise RuntimeError("the database went away for a moment")
        return {"read": reads}

    first = asyncio.create_task(hub.push_room("r", room))
    await asyncio.sleep(0)
    await hub.push_room("r", room)
    second_change.set()
    await first
    sent = await _room_messages(conn, 1)
    assert sent == [{"read": 2}]
    await hub.stop()


@pytest.mark.asyncio
async def test_a_failed_room_read_is_tried_again_until_it_is_sent() -> None:
    """A lone change whose read fails is not dropped: the read is tried again, and the change after
    it still goes out."""
    hub = Hub(retry_waits=(0.0,))
    conn = Connection(0)
    await hub.attach("r", conn, SlowRooms().bodies)
    reads = 0

    async def room() -> dict[str, Any]:
        nonlocal reads
        reads += 1
        if reads <= 2:
            raise RuntimeError("the database went away for a moment")
        return {"read": reads}

    await hub.push_room("r", room)
    assert await _room_messages(conn, 1) == [{"read": 3}]
    await hub.push_room("r", room)
    assert await _room_messages(conn, 1) == [{"read": 4}]
    await hub.stop()


@pytest.mark.asyncio
async def test_state_bodies_that_fail_to_read_are_read_again() -> None:
    hub = Hub(retry_waits=(0.0,))
    conn = Connection(0)
    await hub.attach("r", conn, SlowRooms().bodies)
    snapshot = cast(dict[str, Any], conn.outbox.get_nowait())
    reads = 0

    async def bodies(seats: set[int | None]) -> Split:
        nonlocal reads
        reads += 1
        if reads == 1:
            raise RuntimeError("the database went away for a moment")
        own = {seat: Own({"seat": seat}, {"hand": [reads]}) for seat in seats if seat is not None}
        return Split({"version": 1, "seat": None, "view": {"n": reads, "hand": []}}, own)

    await hub.push_state("r", bodies)
    frame = json.loads(cast(str, await asyncio.wait_for(conn.outbox.get(), timeout=10)))
    assert frame["version"] == 1
    assert reads == 2
    # The patch takes the socket's snapshot to its seat's whole body: the public body with its own part.
    patched = jsonpatch.apply_patch(snapshot["state"], frame["ops"])
    assert patched == conn.last == {"version": 1, "seat": 0, "view": {"n": 2, "hand": [2]}}
    await hub.stop()


async def _room_messages(conn: Connection, count: int) -> list[dict[str, Any]]:
    """The next `count` room bodies the socket is sent (state frames skipped)."""
    rooms: list[dict[str, Any]] = []
    while len(rooms) < count:
        message = await asyncio.wait_for(conn.outbox.get(), timeout=10)
        if isinstance(message, dict) and message.get("type") == "room":
            rooms.append(message["room"])
    return rooms


def test_a_socket_that_falls_too_far_behind_is_closed_not_buffered() -> None:
    conn = Connection(0, limit=4)
    for number in range(10):
        conn.send({"type": "patch", "version": number})
    # The backlog is dropped for one close: the client reconnects and gets a fresh snapshot.
    assert conn.outbox.qsize() == 1 and conn.outbox.get_nowait() is CLOSE
    conn.send({"type": "patch", "version": 11})
    assert conn.outbox.empty()


class RecordingSocket:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None
        # No server send in the scope: the sender goes through send_text.
        self.scope: dict[str, object] = {}

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int, reason: str = "") -> None:
        self.closed = code


@pytest.mark.asyncio
async def test_the_sender_closes_a_socket_that_fell_too_far_behind() -> None:
    conn = Connection(0, limit=2)
    for number in range(3):
        conn.send({"type": "patch", "version": number})
    websocket = RecordingSocket()
    await asyncio.wait_for(ws._send(cast(WebSocket, websocket), conn), timeout=5)
    assert websocket.sent == [] and websocket.closed == 1013


def test_frames_encode_what_the_json_module_would() -> None:
    message = {"type": "patch", "ops": [{"value": {1: "a", "b": (1, 2)}}], "big": 2**70, "text": "é\u2028"}
    assert json.loads(ws.encode(message)) == json.loads(json.dumps(message))


def _queued(conn: Connection) -> list[Any]:
    """What waits for the sender, as messages (a frame may be queued encoded already)."""
    items = [conn.outbox.get_nowait() for _ in range(conn.outbox.qsize())]
    return [json.loads(item) if isinstance(item, str) else item for item in items]


class Transport:
    """A socket's frame writer (FrameProtocol.write_now): records each write, or refuses (paused)."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.paused = False

    def __call__(self, texts: list[str]) -> bool:
        if self.paused:
            return False
        self.writes.append(list(texts))
        return True


def test_a_frame_with_nothing_ahead_of_it_is_written_at_once() -> None:
    transport = Transport()
    conn = Connection(0, write=transport)
    conn.send({"type": "chat", "n": 1})
    conn.send('{"type":"patch"}')
    written = [[json.loads(t) for t in w] for w in transport.writes]
    assert written == [[{"type": "chat", "n": 1}], [{"type": "patch"}]]
    assert conn.outbox.empty()


def test_frames_wait_behind_what_the_sender_has_and_keep_their_order() -> None:
    transport = Transport()
    conn = Connection(0, write=transport)
    transport.paused = True
    conn.send({"n": 1})  # refused by the paused socket: queued for the sender
    transport.paused = False
    conn.send({"n": 2})  # behind a queued frame: queued too, never written ahead of it
    assert transport.writes == []
    assert [m["n"] for m in _queued(conn)] == [1, 2]
    conn.sending = True  # the sender is writing the last one it took
    conn.send({"n": 3})
    assert transport.writes == [] and [m["n"] for m in _queued(conn)] == [3]


def test_an_ack_held_until_its_patch_goes_out_with_it_in_one_write() -> None:
    transport = Transport()
    conn = Connection(0, write=transport)
    conn.hold()
    conn.send({"type": "ack", "id": 7})
    conn.send('{"type":"patch","version":3}')
    assert transport.writes == []
    conn.release()
    assert [[json.loads(t)["type"] for t in w] for w in transport.writes] == [["ack", "patch"]]
    conn.release()  # nothing held: nothing more written
    assert len(transport.writes) == 1


def test_held_frames_the_socket_cannot_take_now_go_to_the_sender_in_order() -> None:
    transport = Transport()
    conn = Connection(0, write=transport)
    conn.hold()
    conn.send({"type": "ack", "id": 7})
    conn.send({"type": "patch", "version": 3})
    transport.paused = True
    conn.release()
    assert transport.writes == []
    assert [m["type"] for m in _queued(conn)] == ["ack", "patch"]


def test_a_socket_holding_more_than_its_backlog_is_closed() -> None:
    conn = Connection(0, limit=2, write=Transport())
    conn.hold()
    for number in range(3):
        conn.send({"type": "patch", "version": number})
    conn.release()
    assert conn.outbox.qsize() == 1 and conn.outbox.get_nowait() is CLOSE
