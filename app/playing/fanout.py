"""What this process's sockets are sent for each published event: the playing layer's side of the
broker. It passes on the seat epoch a "seats" event carries (or a "gone" event's end of the room) to
the seat cache and closes the sockets whose token stopped working, builds each viewer's body
(app/playing/views.py) and hands the bodies down to the hub, which only diffs and sends."""

from __future__ import annotations

import logging
from typing import Any

from starlette.concurrency import run_in_threadpool

from app.i18n import speaking
from app.playing.views import Views
from app.realtime.hub import Bodies, Hub
from app.realtime.split import Split
from app.services.people.chat import WORDS, worded
from app.services.seats import Seats

log = logging.getLogger(__name__)


def _in(lang: str, message: dict[str, Any]) -> dict[str, Any]:
    with speaking(lang):
        return worded(message)


class Fanout:
    def __init__(self, hub: Hub, views: Views, seats: Seats) -> None:
        self.hub = hub
        self.views = views
        self.seats = seats
        # The seat epoch each watched room's sockets were last checked at (their tokens against the
        # seats' tokens then).
        self._checked: dict[str, int] = {}

    async def handle(self, room_id: str, event: dict[str, Any]) -> None:
        """One event, published by this process or another (app/playing/publisher.py)."""
        kind = event.get("kind")
        if kind == "seats":
            await self.seats_seen(room_id, event["epoch"])
        elif kind == "gone":
            await self.seats_seen(room_id, None)
        if not self.hub.watched(room_id):
            return
        if kind == "gone":
            self.hub.close_room(room_id)
        elif kind == "chat":
            message = event["message"]
            if WORDS in message:
                # A line of the table's own: each socket reads it in its reader's language.
                self.hub.send_worded(room_id, lambda lang: {"type": "chat", "message": _in(lang, message)})
            else:
                self.hub.send(room_id, {"type": "chat", "message": message})
        elif kind == "screens":
            # Nothing in it but the news: which codes live stays on the server.
            self.hub.send(room_id, {"type": "screens"})
        elif kind == "state":
            await self.push_state(room_id, event if "version" in event else None)
        else:
            await self.push_room(room_id)

    async def seats_seen(self, room_id: str, epoch: int | None) -> bool:
        """The room's seat epoch is `epoch` now (None: it was deleted), however this process learned
        it: the seat cache keeps only what is at that epoch (app/services/seats.py), and when the
        room's sockets were checked at another, the sockets whose token no longer holds their seat are
        closed (they reconnect and are refused with 1008). True when they were checked at an older
        epoch before: what they were sent since may need sending again (the event may have been lost)."""
        self.seats.saw(room_id, epoch)
        if epoch is None or not self.hub.watched(room_id):
            self._checked.pop(room_id, None)
            return False
        checked = self._checked.get(room_id)
        if checked is not None and checked >= epoch:
            return False
        self._checked[room_id] = epoch
        tokens = await run_in_threadpool(self.seats.seat_tokens, room_id)
        closed = self.hub.close_revoked(room_id, tokens)
        if closed:
            log.info("closed %d socket(s) of room %s whose token was revoked", closed, room_id)
        return checked is not None

    def unwatched(self, watched: set[str]) -> None:
        """Rooms no socket of this process watches any more are not kept checked."""
        for room_id in list(self._checked):
            if room_id not in watched:
                del self._checked[room_id]

    async def push_room(self, room_id: str) -> None:
        await self.hub.push_room(room_id, lambda: self.views.room(room_id))

    async def push_state(self, room_id: str, move: dict[str, Any] | None = None) -> None:
        async def bodies(seats: set[int | None]) -> Split:
            held = self.views.bodies_after(room_id, move, seats) if move is not None else None
            return held if held is not None else await self.views.read_bodies(room_id, seats)

        await self.hub.push_state(room_id, bodies)

    async def refresh(self, room_id: str) -> None:
        """Send the room's sockets the room body and their state again (an event may have been lost)."""
        await self.push_room(room_id)
        await self.push_state(room_id)

    async def resync(self) -> None:
        """Bring every room's sockets up to date after events may have been missed (the broker
        reconnected). Missed "seats" events need nothing here: the epochs read back every second
        (app/playing/seatwatch.py) bring the seat cache and the sockets' tokens up to date."""
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
