"""Transport only: the sockets of each room in this process, the last state body each one was sent,
the diff from it to the next, and the send. The bodies come from the playing layer (app/playing/fanout.py)
with each call; the hub reads nothing and decides nothing about a match."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from app.realtime.split import (
    NOTHING_OWN,
    Message,
    Own,
    SharedOps,
    Split,
    encode,
    materialise,
    own_ops,
    patch_text,
)

Bodies = Callable[[set[int | None]], Awaitable[Split]]
"""Builds the state body of each seat asked for (None: a spectator), all at one version, split into the
public body and each seat's own part (app/realtime/split.py)."""

RoomBody = Callable[[], Awaitable[Message]]
"""Reads the room body as it is now."""

# Messages a socket may have waiting. A client this far behind (a stalled tab, a bad link) is cheaper
# to start again from a fresh snapshot than to buffer for without bound.
MAX_BACKLOG = 256

log = logging.getLogger(__name__)

# Seconds before a push whose bodies could not be read (the database hiccuped) is tried again, by
# failures in a row; the last wait repeats while the room has sockets here.
RETRY_WAITS = (0.1, 0.5, 1.0, 2.0, 5.0)

CLOSE: Message = {"type": "close"}
"""Queued in place of the backlog of a socket that fell too far behind: the sender closes it."""


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a push tried again failed", exc_info=task.exception())


@dataclass(eq=False)
class Connection:
    """One socket: its seat (None: a spectator), its outgoing queue (messages, or frames' JSON text
    already encoded) and the last state body it has, as the public body and its own part.

    A message is written at once through `write` (the server's FrameProtocol.write_now) when nothing
    is queued ahead of it and the socket takes writes; otherwise it is queued for the socket's
    sender task (app/routes/ws.py), which waits for the socket and keeps the order. Between `hold`
    and `release`, messages are kept and then written together: a move's ack and its patch in one
    write."""

    seat: int | None
    outbox: asyncio.Queue[Message | str] = field(default_factory=asyncio.Queue)
    # sha256 of the token this socket holds its seat with (None: a spectator).
    token_hash: str | None = None
    base: Message | None = None
    own: Own = NOTHING_OWN
    limit: int = MAX_BACKLOG
    closing: bool = False
    # Writes frames now, or says it cannot (False): None where the server has no such writer.
    write: Callable[[list[str]], bool] | None = None
    # The sender task is writing a message it took from the outbox.
    sending: bool = False
    held: list[str] | None = None
    # The reader's language (app/i18n.py, from the socket's handshake): what it is sent in words.
    lang: str = "en"

    @property
    def last(self) -> Message | None:
        """The last state body this socket was sent, whole."""
        return None if self.base is None else materialise(self.base, self.own)

    def keep(self, base: Message, own: Own) -> None:
        self.base, self.own = base, own

    def send(self, message: Message | str) -> None:
        if self.closing:
            return
        if self.held is not None:
            if len(self.held) < self.limit:
                self.held.append(message if type(message) is str else encode(message))
                return
            self.held = None
            self._fall_behind()
            return
        if self.write is not None and self._clear():
            text = message if type(message) is str else encode(message)
            if self.write([text]):
                return
            message = text
        if self.outbox.qsize() >= self.limit:
            self._fall_behind()
            return
        self.outbox.put_nowait(message)

    def hold(self) -> None:
        """Keep what is sent from now on until `release`."""
        if self.held is None:
            self.held = []

    def release(self) -> None:
        """Send what was held, in one write when the socket takes it now."""
        held, self.held = self.held, None
        if not held or self.closing:
            return
        if self.write is not None and self._clear() and self.write(held):
            return
        for text in held:
            self.send(text)

    def _clear(self) -> bool:
        """Nothing is queued or being written ahead of a message sent now."""
        return not self.sending and self.outbox.empty()

    def _fall_behind(self) -> None:
        """Too far behind: the backlog is dropped and the sender closes the socket (1013)."""
        self.closing = True
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.outbox.put_nowait(CLOSE)


class Hub:
    def __init__(self, retry_waits: tuple[float, ...] = RETRY_WAITS) -> None:
        self.retry_waits = retry_waits
        # Pushes that failed and wait to be tried again, and how many times in a row each failed.
        self._retrying: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._failures: dict[tuple[str, str], int] = {}
        self._rooms: dict[str, set[Connection]] = {}
        # Per room, so the bodies a socket is sent always advance in version order.
        self._locks: dict[str, asyncio.Lock] = {}
        # Rooms whose body is being read and sent, and those changed again meanwhile.
        self._room_busy: set[str] = set()
        self._room_again: set[str] = set()

    def _lock(self, room_id: str) -> asyncio.Lock:
        return self._locks.setdefault(room_id, asyncio.Lock())

    async def attach(self, room_id: str, conn: Connection, bodies: Bodies) -> None:
        """Register a socket and queue its snapshot, under the room lock so no patch slips in between."""
        async with self._lock(room_id):
            split = await bodies({conn.seat})
            conn.keep(split.public, split.own_of(conn.seat))
            last = conn.last
            assert last is not None
            conn.send({"type": "snapshot", "version": last["version"], "state": last})
            self._rooms.setdefault(room_id, set()).add(conn)

    async def reseat(self, room_id: str, conn: Connection, seat: int, bodies: Bodies) -> None:
        """An attached socket now watches as `seat`: it is sent a fresh snapshot for that seat."""
        async with self._lock(room_id):
            split = await bodies({seat})
            base, own = split.public, split.own_of(seat)
            conn.seat = seat
            conn.keep(base, own)
            body = materialise(base, own)
            conn.send({"type": "snapshot", "version": body["version"], "state": body})

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

    def rooms(self) -> list[str]:
        """The rooms with a socket open in this process."""
        return list(self._rooms)

    def watched(self, room_id: str) -> bool:
        return bool(self._rooms.get(room_id))

    def send(self, room_id: str, message: Message) -> None:
        """The same message to every socket of the room (a chat line)."""
        for conn in list(self._rooms.get(room_id, ())):
            conn.send(message)

    def send_worded(self, room_id: str, worded: Callable[[str], Message]) -> None:
        """A message to every socket of the room, in each one's language (`worded(lang)`, made once per
        language): a line of the table's own."""
        made: dict[str, str] = {}
        for conn in list(self._rooms.get(room_id, ())):
            if conn.lang not in made:
                made[conn.lang] = encode(worded(conn.lang))
            conn.send(made[conn.lang])

    def close_room(self, room_id: str) -> None:
        """Close every socket of the room (it was deleted): reconnecting, the client is told so."""
        for conn in list(self._rooms.get(room_id, ())):
            if not conn.closing:
                conn.closing = True
                conn.outbox.put_nowait(CLOSE)

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

    async def push_room(self, room_id: str, room_body: RoomBody) -> None:
        """Send the room body. Changes that come while a body is being read and sent (four players
        connecting at once) are answered together by one more read, begun after the last of them. A
        read that fails is tried again a moment later, in the background: no change is dropped."""
        self._room_again.add(room_id)
        if room_id in self._room_busy:
            return
        self._room_busy.add(room_id)
        try:
            while room_id in self._room_again:
                self._room_again.discard(room_id)
                try:
                    # Under the room lock: two bodies read concurrently could otherwise go out newest
                    # first (the client would keep the older one if bodies had no revision).
                    async with self._lock(room_id):
                        if not self._rooms.get(room_id):
                            return
                        room = await room_body()
                        for conn in list(self._rooms.get(room_id, ())):
                            conn.send({"type": "room", "room": room})
                except Exception:
                    log.exception("reading room %s's body failed; reading it again shortly", room_id)
                    self._room_again.add(room_id)
                    self._later(("room", room_id), lambda: self.push_room(room_id, room_body))
                    return
                self._failures.pop(("room", room_id), None)
        finally:
            self._room_busy.discard(room_id)

    def _later(self, key: tuple[str, str], retry: Callable[[], Awaitable[None]]) -> None:
        """Try a failed push again after a wait that grows with each failure in a row, while the room
        has sockets here (one retry at a time per push kind and room)."""
        # Not a retry loop, so no retry library: a failure schedules one later run of the whole push,
        # which answers the changes that came meanwhile too (push_room); the failures are counted
        # across those runs and forgotten on success.
        if key in self._retrying:
            return
        failures = self._failures[key] = self._failures.get(key, 0) + 1
        wait = self.retry_waits[min(failures, len(self.retry_waits)) - 1]

        async def again() -> None:
            await asyncio.sleep(wait)
            self._retrying.pop(key, None)
            if self._rooms.get(key[1]):
                await retry()
            else:
                self._failures.pop(key, None)

        task = asyncio.create_task(again())
        self._retrying[key] = task
        task.add_done_callback(_log_failure)

    async def stop(self) -> None:
        """Cancel the retries still waiting (the server is stopping)."""
        tasks = list(self._retrying.values())
        self._retrying.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def push_state(self, room_id: str, bodies: Bodies) -> None:
        """Send each socket the patch from the last body it has to its seat's new one. What the
        sockets share is diffed and encoded once per previous public body (app/realtime/split.py).
        Bodies that cannot be read are tried again a moment later, in the background."""
        async with self._lock(room_id):
            conns = list(self._rooms.get(room_id, ()))
            if not conns:
                return
            try:
                split = await bodies({c.seat for c in conns})
            except Exception:
                log.exception("reading room %s's state bodies failed; reading them again shortly", room_id)
                self._later(("state", room_id), lambda: self.push_state(room_id, bodies))
                return
            self._failures.pop(("state", room_id), None)
            shared: dict[int, SharedOps] = {}
            # Sockets of one seat that were sent the same body get the same frame: built once.
            frames: dict[tuple[int | None, int, int], str | None] = {}
            # The ids above stay valid only while their objects live: held until the loop ends.
            held: list[object] = []
            for conn in conns:
                base, own = split.public, split.own_of(conn.seat)
                old_base, old_own = conn.base, conn.own
                if old_base is None or base["version"] < old_base["version"]:
                    continue
                key = (conn.seat, id(old_base), id(old_own))
                if key not in frames:
                    held.append((old_base, old_own))
                    ops = shared.get(id(old_base))
                    if ops is None:
                        ops = shared[id(old_base)] = SharedOps(old_base, base)
                    text = ops.text(old_own.body_keys | own.body_keys, old_own.view_keys | own.view_keys)
                    frames[key] = patch_text(base["version"], text, own_ops(old_base, old_own, base, own))
                frame = frames[key]
                if frame is not None:
                    conn.send(frame)
                conn.keep(base, own)
