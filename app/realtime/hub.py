"""The sockets of each room in this process, and the last state body each one was sent."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool

from app.realtime.patch import diff
from app.services.matches import state_bodies
from app.services.store import Services
from engines.core import get_engine

log = logging.getLogger(__name__)

Message = dict[str, Any]

# Messages a socket may have waiting. A client this far behind (a stalled tab, a bad link) is cheaper
# to start again from a fresh snapshot than to buffer for without bound.
MAX_BACKLOG = 256

CLOSE: Message = {"type": "close"}
"""Queued in place of the backlog of a socket that fell too far behind: the sender closes it."""


@dataclass(eq=False)
class Connection:
    """One socket: its seat (None: a spectator), its outgoing queue and the last state body it has."""

    seat: int | None
    outbox: asyncio.Queue[Message] = field(default_factory=asyncio.Queue)
    # sha256 of the token this socket holds its seat with (None: a spectator).
    token_hash: str | None = None
    last: Message | None = None
    limit: int = MAX_BACKLOG
    closing: bool = False

    def send(self, message: Message) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= self.limit:
            self.closing = True
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(CLOSE)
            return
        self.outbox.put_nowait(message)


class Hub:
    def __init__(self, services: Services, room_body: Callable[[str], Awaitable[Message]]) -> None:
        self._services = services
        self._room_body = room_body
        self._rooms: dict[str, set[Connection]] = {}
        # Per room, so the bodies a socket is sent always advance in version order.
        self._locks: dict[str, asyncio.Lock] = {}
        # Rooms whose body is being read and sent, and those changed again meanwhile.
        self._room_busy: set[str] = set()
        self._room_again: set[str] = set()

    def _lock(self, room_id: str) -> asyncio.Lock:
        return self._locks.setdefault(room_id, asyncio.Lock())

    async def attach(self, room_id: str, conn: Connection) -> None:
        """Register a socket and queue its snapshot, under the room lock so no patch slips in between."""
        async with self._lock(room_id):
            bodies = await run_in_threadpool(self._services.state_bodies, room_id, {conn.seat})
            conn.last = bodies[conn.seat]
            conn.send({"type": "snapshot", "version": conn.last["version"], "state": conn.last})
            self._rooms.setdefault(room_id, set()).add(conn)

    async def reseat(self, room_id: str, conn: Connection, seat: int) -> None:
        """An attached socket now watches as `seat`: it is sent a fresh snapshot for that seat."""
        async with self._lock(room_id):
            bodies = await run_in_threadpool(self._services.state_bodies, room_id, {seat})
            conn.seat = seat
            conn.last = bodies[seat]
            conn.send({"type": "snapshot", "version": conn.last["version"], "state": conn.last})

    def detach(self, room_id: str, conn: Connection) -> None:
        conns = self._rooms.get(room_id)
        if conns is None:
            return
        conns.discard(conn)
        if not conns:
            del self._rooms[room_id]
            lock = self._locks.get(room_id)
            if lock is not None and not lock.locked():
                del self._locks[room_id]

    async def handle(self, room_id: str, event: dict[str, Any]) -> None:
        """A broker event: the room's match state or its seats changed, or a chat message."""
        if event.get("forget"):
            # Who plays a seat, or its token, changed (app/playing/people.py): every process forgets.
            self._services.forget(room_id)
        if not self._rooms.get(room_id):
            return
        if "revoke" in event:
            # The seat's old token stopped working: its sockets reconnect and are refused (1008).
            for conn in list(self._rooms.get(room_id, ())):
                if conn.seat == event["revoke"] and not conn.closing:
                    conn.closing = True
                    conn.outbox.put_nowait(CLOSE)
        if event.get("gone"):
            # The room was deleted (app/retention.py): every socket on it closes; reconnecting, the
            # client is told there is no such room.
            for conn in list(self._rooms.get(room_id, ())):
                if not conn.closing:
                    conn.closing = True
                    conn.outbox.put_nowait(CLOSE)
            return
        if event.get("kind") == "chat":
            for conn in list(self._rooms.get(room_id, ())):
                conn.send({"type": "chat", "message": event["message"]})
            return
        if event.get("kind") == "room":
            await self._push_room(room_id)
        else:
            await self._push_state(room_id, event)

    async def _push_room(self, room_id: str) -> None:
        """Send the room body. Changes that come while a body is being read and sent (four players
        connecting at once) are answered together by one more read, begun after the last of them."""
        if room_id in self._room_busy:
            self._room_again.add(room_id)
            return
        self._room_busy.add(room_id)
        try:
            while True:
                self._room_again.discard(room_id)
                # Under the room lock: two bodies read concurrently could otherwise go out newest
                # first, and the client would keep the older one (a seat shown gone, a stale status).
                async with self._lock(room_id):
                    room = await self._room_body(room_id)
                    for conn in list(self._rooms.get(room_id, ())):
                        conn.send({"type": "room", "room": room})
                if room_id not in self._room_again:
                    return
        finally:
            self._room_busy.discard(room_id)
            self._room_again.discard(room_id)

    def rooms(self) -> list[str]:
        """The rooms with a socket open in this process."""
        return list(self._rooms)

    def close_revoked(self, room_id: str, tokens: dict[int, str | None]) -> int:
        """Close the sockets whose token no longer holds their seat (`tokens`: each seat's token hash
        now). They reconnect and are refused with 1008. Returns how many were closed."""
        closed = 0
        for conn in list(self._rooms.get(room_id, ())):
            if conn.seat is None or conn.closing or tokens.get(conn.seat) == conn.token_hash:
                continue
            conn.closing = True
            conn.outbox.put_nowait(CLOSE)
            closed += 1
        return closed

    async def resync(self) -> None:
        """Bring every room's sockets up to date after events may have been missed (the broker
        reconnected): what this process remembers of seats is dropped too, as forget events may be
        among the missed ones."""
        self._services.forget_all()
        for room_id in list(self._rooms):
            try:
                await self.handle(room_id, {"kind": "room"})
                await self._push_state(room_id)
            except Exception:
                log.exception("refreshing the sockets of room %s failed", room_id)

    def _bodies_from_memory(
        self, event: dict[str, Any], seats: set[int | None]
    ) -> dict[int | None, Message] | None:
        """Each viewer's body at the event's version, from the state held in memory (None: not held)."""
        if "version" not in event:
            return None
        game, version = event["game"], event["version"]
        state = self._services.state_at(event["match"], game, version, event["seat"], event["action"])
        if state is None:
            return None
        status = "finished" if get_engine(game).result(state) is not None else "playing"
        return state_bodies(game, state, version, status, seats)

    async def _push_state(self, room_id: str, event: dict[str, Any] | None = None) -> None:
        async with self._lock(room_id):
            conns = list(self._rooms.get(room_id, ()))
            if not conns:
                return
            seats = {c.seat for c in conns}
            bodies = self._bodies_from_memory(event or {}, seats)
            if bodies is None:
                bodies = await run_in_threadpool(self._services.state_bodies, room_id, seats)
            # Sockets of one seat that were sent the same version get the same patch: diff it once.
            patches: dict[tuple[int | None, int], list[dict[str, Any]]] = {}
            for conn in conns:
                body, last = bodies[conn.seat], conn.last
                if last is None or body["version"] < last["version"]:
                    continue
                key = (conn.seat, last["version"])
                if key not in patches:
                    patches[key] = diff(last, body)
                if patches[key]:
                    conn.send({"type": "patch", "version": body["version"], "ops": patches[key]})
                conn.last = body
