"""Revocation that does not hang on a message arriving, and seat moves carried out on time.

A seat's token changes (a move to another device, leaving, removal) in one transaction that also bumps
the room's seat epoch. The process that made the change tells the others through the broker, but a
broker message can be lost (Redis down at that moment). So every process, every CHECK_EVERY seconds,
reads the epochs of the rooms it remembers seats of or holds sockets for, in one query:
- a room whose epoch moved is forgotten (its cached tokens and facts) and its sockets are checked
  against the seats' tokens now, the revoked ones closed (they reconnect and are refused with 1008);
  the room's sockets are sent the room body and state again, in case the event was lost;
- a room that is gone (pruned) has its sockets closed.
An old token is thus refused by every process within CHECK_EVERY seconds plus one read. The same
loop carries out the seat moves whose refusal window is over.
"""

from __future__ import annotations

import logging

from starlette.concurrency import run_in_threadpool

from app.clock import SYSTEM_CLOCK, Clock
from app.db import unavailable
from app.playing.fanout import Fanout
from app.playing.people import People
from app.realtime.hub import Hub
from app.services.seats import Seats

log = logging.getLogger(__name__)

CHECK_EVERY = 1.0


class SeatWatch:
    def __init__(
        self,
        seats: Seats,
        hub: Hub,
        fanout: Fanout,
        people: People,
        every: float = CHECK_EVERY,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.seats = seats
        self.hub = hub
        self.fanout = fanout
        self.people = people
        self.every = every
        self.clock = clock
        # The epoch each room's sockets were last checked at.
        self._checked: dict[str, int] = {}

    async def run(self) -> None:
        while True:
            await self.clock.sleep(self.every)
            try:
                await self.check()
            except Exception as error:
                # Keep watching: a database hiccup must not end revocation for good.
                if unavailable(error):
                    log.warning("checking seat epochs: the database is unreachable; retrying")
                else:
                    log.exception("checking seat epochs failed")

    async def check(self) -> None:
        cached = self.seats.cached_epochs()
        watched = set(self.hub.rooms())
        rooms = set(cached) | watched
        current = await run_in_threadpool(self.seats.seat_epochs, rooms) if rooms else {}
        for room_id in rooms:
            epoch = current.get(room_id)
            if epoch is None:
                # Deleted (pruned): nothing to remember, nobody to keep watching.
                self.seats.forget(room_id)
                self.hub.close_revoked(room_id, {})
                self._checked.pop(room_id, None)
                continue
            if room_id in cached and cached[room_id] != epoch:
                self.seats.forget(room_id)
            if room_id in watched and self._checked.get(room_id) != epoch:
                first = room_id not in self._checked
                self._checked[room_id] = epoch
                tokens = await run_in_threadpool(self.seats.seat_tokens, room_id)
                closed = self.hub.close_revoked(room_id, tokens)
                if not first:
                    # The change's own event may have been lost: bring the sockets up to date.
                    await self.fanout.refresh(room_id)
                if closed:
                    log.info("closed %d socket(s) of room %s whose token was revoked", closed, room_id)
        for room_id in list(self._checked):
            if room_id not in watched:
                del self._checked[room_id]
        await self.people.carry_out_due()
