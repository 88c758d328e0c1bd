"""What this process's sockets are sent for each published event: the playing layer's side of the
broker. It forgets what a "seats" or "gone" event says is stale, builds each viewer's body (app/playing/
views.py) and hands the bodies down to the hub, which only diffs and sends."""

from __future__ import annotations

import logging
from typing import Any

from app.playing.views import Views
from app.realtime.hub import Bodies, Hub
from app.realtime.split import Split
from app.services.seats import Seats

log = logging.getLogger(__name__)


class Fanout:
    def __init__(self, hub: Hub, views: Views, seats: Seats) -> None:
        self.hub = hub
        self.views = views
        self.seats = seats

    async def handle(self, room_id: str, event: dict[str, Any]) -> None:
        """One event, published by this process or another (app/playing/publisher.py)."""
        kind = event.get("kind")
        if kind in ("seats", "gone"):
            # Every process forgets, whether or not it holds a socket of the room.
            self.seats.forget(room_id)
        if not self.hub.watched(room_id):
            return
        if kind == "gone":
            self.hub.close_room(room_id)
        elif kind == "chat":
            self.hub.send(room_id, {"type": "chat", "message": event["message"]})
        elif kind == "screens":
            # Nothing in it but the news: which codes live stays on the server.
            self.hub.send(room_id, {"type": "screens"})
        elif kind == "state":
            await self.push_state(room_id, event if "version" in event else None)
        else:
            revoked = event.get("revoked")
            if revoked is not None:
                self.hub.close_seat(room_id, revoked)
            await self.push_room(room_id)

    async def push_room(self, room_id: str) -> None:
        await self.hub.push_room(room_id, lambda: self.views.room(room_id))

    async def push_state(self, room_id: str, move: dict[str, Any] | None = None) -> None:
        async def bodies(seats: set[int | None]) -> Split:
            held = self.views.bodies_after(move, seats) if move is not None else None
            return held if held is not None else await self.views.read_bodies(room_id, seats)

        await self.hub.push_state(room_id, bodies)

    async def refresh(self, room_id: str) -> None:
        """Send the room's sockets the room body and their state again (an event may have been lost)."""
        await self.push_room(room_id)
        await self.push_state(room_id)

    async def resync(self) -> None:
        """Bring every room's sockets up to date after events may have been missed (the broker
        reconnected): what this process remembers of seats is dropped too, as "seats" events may be
        among the missed ones."""
        self.seats.forget_all()
        for room_id in self.hub.rooms():
            try:
                await self.refresh(room_id)
            except Exception:
                log.exception("refreshing the sockets of room %s failed", room_id)

    def bodies_for(self, room_id: str) -> Bodies:
        """The body builder a socket's snapshot is read with (Hub.attach, Hub.reseat)."""

        async def bodies(seats: set[int | None]) -> Split:
            return await self.views.read_bodies(room_id, seats)

        return bodies
