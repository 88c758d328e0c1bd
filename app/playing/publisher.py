"""The events the playing layer publishes once a change is committed, and the way they leave by.

Every process hears every event (app/realtime/broker.py) and turns it into what its sockets are sent
(app/playing/fanout.py). The kinds:
- "state": the match moved; with the move (match, game, version, seat, action, status) when one move
  made it, so every process can build the bodies from the state it holds;
- "room": the room body changed;
- "seats": who plays a seat, or with which token, changed, and the room's seat epoch is now `epoch`:
  what is remembered of the room's seats at an older one is dropped, sockets whose token stopped
  working are closed, then the room body (published by the command runner, app/playing/commands.py);
- "gone": the room was deleted (retention, app/retention.py, through the command runner): forget it,
  close its sockets;
- "chat": a chat line, or a line of the table's own;
- "screens": table-screen pairing codes gave way (app/services/screens.py): each screen of the room
  asks whether its own code is still good.
Besides the broker, this process's listeners hear each event (the alerts, app/alerts/dispatch.py), and
`note` tells them alone what no socket needs ("asked": someone asked for a seat; "rematch").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.realtime.broker import Broker
from app.services.matches import Applied

log = logging.getLogger(__name__)

Event = dict[str, Any]


def moved(applied: Applied) -> Event:
    """Enough for every process to build each viewer's body from the state it holds in memory."""
    return {
        "kind": "state",
        "match": applied.match_id,
        "game": applied.game,
        "version": applied.version,
        "seat": applied.seat,
        "action": applied.action,
        "status": applied.status,
    }


class Publisher:
    """Tells every process's viewers about a committed change. Never raises: see publish."""

    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        # Called on the event loop with each event once it is published; each must return at once.
        self.listeners: list[Callable[[str, Event], None]] = []

    async def publish(self, room_id: str, event: Event) -> None:
        try:
            await self.broker.publish(room_id, event)
        except Exception:
            # Every caller has committed already: a fan-out that fails (Redis unreachable, one viewer's
            # body failing to build) must not turn a done change into an error or end the socket that
            # made it. The sockets catch up with the next change, or with a fresh snapshot on reconnect.
            log.exception("telling the viewers of room %s about %s failed", room_id, event)
        self.note(room_id, event)

    def note(self, room_id: str, event: Event) -> None:
        """Tells this process's listeners (never the sockets); a failing listener changes nothing."""
        for listener in self.listeners:
            try:
                listener(room_id, event)
            except Exception:
                log.exception("a listener failed on room %s's %s", room_id, event.get("kind"))

    async def state_changed(self, room_id: str) -> None:
        await self.publish(room_id, {"kind": "state"})

    async def played(self, room_id: str, applied: Applied) -> None:
        await self.publish(room_id, moved(applied))

    async def room_changed(self, room_id: str) -> None:
        await self.publish(room_id, {"kind": "room"})

    async def seats_changed(self, room_id: str, epoch: int) -> None:
        await self.publish(room_id, {"kind": "seats", "epoch": epoch})

    async def gone(self, room_id: str) -> None:
        await self.publish(room_id, {"kind": "gone"})

    async def chat(self, room_id: str, message: dict[str, Any]) -> None:
        await self.publish(room_id, {"kind": "chat", "message": message})

    async def screens_changed(self, room_id: str) -> None:
        await self.publish(room_id, {"kind": "screens"})
