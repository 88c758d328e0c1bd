"""Revocation that does not hang on a message arriving, and seat moves carried out on time.

A seat's token changes (a move to another device, leaving, removal) in one transaction that also
raises the room's seat epoch, and the command runner tells every process the new epoch
(app/playing/commands.py). A broker message can be lost (Redis down at that moment), so every
process, every CHECK_EVERY seconds, also reads the epochs of the rooms it remembers seats of or holds
sockets for, in one query, and hands each to the same rule as the event would have
(Fanout.seats_seen, app/services/seats.py):
- what is remembered of a room at an older epoch is dropped, and its sockets are checked against the
  seats' tokens now, the revoked ones closed (they reconnect and are refused with 1008); a room whose
  sockets were checked at an older epoch before is sent the room body and state again, in case the
  event was lost;
- a room that is gone (pruned) has its sockets closed.
An old token is thus refused by every process within CHECK_EVERY seconds plus one read, with or
without the broker. The same loop carries out the seat moves whose refusal window is over.
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
        watched = set(self.hub.rooms())
        rooms = set(self.seats.cached_epochs()) | watched
        current = await run_in_threadpool(self.seats.seat_epochs, rooms) if rooms else {}
        for room_id in rooms:
            epoch = current.get(room_id)
            if epoch is None:
                # Deleted (pruned): nothing to remember, nobody to keep watching.
                await self.fanout.seats_seen(room_id, None)
                self.hub.close_room(room_id)
            elif await self.fanout.seats_seen(room_id, epoch):
                # The change's own event may have been lost: bring the sockets up to date.
                await self.fanout.refresh(room_id)
        self.fanout.unwatched(watched)
        await self.people.carry_out_due()
