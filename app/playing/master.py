"""The playing layer: every use case that changes a room, for any transport.

Each one commits (in a worker thread, through app.services), then tells every viewer (the broker),
then wakes the room's bots. HTTP routes, the socket and the bots all come through here, so a change
is never committed without being published, whoever made it. (boardgame.io's Master is the model.)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal

from starlette.concurrency import run_in_threadpool

from app.playing.bots import BotRunner
from app.realtime.broker import Broker
from app.realtime.presence import Presence
from app.services.matches import Applied
from app.services.store import Services

log = logging.getLogger(__name__)

Starter = int | Literal["random"] | None


class Master:
    def __init__(self, services: Services, broker: Broker, presence: Presence, bot_delay: float) -> None:
        self.services = services
        self.broker = broker
        self.presence = presence
        self.bots = BotRunner(services, self._bot_played, bot_delay)

    # -- reads --------------------------------------------------------------
    async def room(self, room_id: str) -> dict[str, Any]:
        connected = await self.presence.connected(room_id)
        return await run_in_threadpool(self.services.room, room_id, connected)

    async def state(self, room_id: str, token: str | None) -> dict[str, Any]:
        return await run_in_threadpool(self.services.state, room_id, token)

    async def log(self, room_id: str, token: str | None) -> dict[str, Any]:
        return await run_in_threadpool(self.services.log, room_id, token)

    async def seat_of(self, room_id: str, token: str | None) -> int | None:
        return await run_in_threadpool(self.services.seat_of, room_id, token)

    # -- use cases that change a room -----------------------------------------
    async def create_room(self, game: str, name: str, options: dict[str, Any] | None) -> dict[str, Any]:
        # Nobody watches a room that did not exist: nothing to publish.
        return await run_in_threadpool(self.services.create_room, game, name, options)

    async def join(self, room_id: str, name: str) -> dict[str, Any]:
        joined = await run_in_threadpool(self.services.join, room_id, name)
        await self.room_changed(room_id)
        return joined

    async def add_bot(self, room_id: str, token: str | None) -> dict[str, Any]:
        added = await run_in_threadpool(self.services.add_bot, room_id, token)
        await self.room_changed(room_id)
        return added

    async def start(self, room_id: str, token: str | None, starter: Starter = None) -> dict[str, Any]:
        await run_in_threadpool(self.services.start, room_id, token, starter)
        await self.room_changed(room_id)
        await self._state_changed(room_id)
        return await self.room(room_id)

    async def rematch(self, room_id: str, token: str | None) -> dict[str, Any]:
        made = await run_in_threadpool(self.services.rematch, room_id, token)
        if made["created"]:
            await self.room_changed(room_id)
        return made

    async def act(
        self,
        room_id: str,
        token: str | None,
        action: Any,
        version: int | None = None,
        committed: Callable[[Applied], None] | None = None,
    ) -> Applied:
        """Apply a player's action. Returns once it is committed and published; `committed` is called
        between the two (the socket acknowledges there, so the ack comes before the patch)."""
        applied = await run_in_threadpool(self.services.act, room_id, token, action, version)
        if committed is not None:
            committed(applied)
        await self._played(room_id, applied)
        return applied

    # -- presence -------------------------------------------------------------
    async def connect(self, room_id: str, seat: int) -> None:
        await self.presence.add(room_id, seat)
        await self.room_changed(room_id)

    async def disconnect(self, room_id: str, seat: int) -> None:
        await self.presence.remove(room_id, seat)
        await self.room_changed(room_id)

    # -- publishing -----------------------------------------------------------
    async def _publish(self, room_id: str, event: dict[str, Any]) -> None:
        try:
            await self.broker.publish(room_id, event)
        except Exception:
            # Every caller has committed already: a fan-out that fails (Redis unreachable, one viewer's
            # body failing to build) must not turn a done change into an error or end the socket that
            # made it. The sockets catch up with the next change, or with a fresh snapshot on reconnect.
            log.exception("telling the viewers of room %s about %s failed", room_id, event)

    async def room_changed(self, room_id: str) -> None:
        await self._publish(room_id, {"kind": "room"})

    async def _state_changed(self, room_id: str) -> None:
        await self._publish(room_id, {"kind": "state"})
        self.bots.kick(room_id)

    async def _played(self, room_id: str, applied: Applied) -> None:
        await self._state_changed(room_id)
        if applied.scored:
            # A round or the match ended: the scorepad or the status in the room body changed.
            await self.room_changed(room_id)

    async def _bot_played(self, room_id: str, applied: Applied) -> None:
        await self._played(room_id, applied)

    def wake_bots(self, room_id: str) -> None:
        self.bots.kick(room_id)

    async def resume(self) -> None:
        """Bots whose turn came up before a restart (or on a process that died) play on."""
        for room_id in await run_in_threadpool(self.services.rooms_with_bots):
            self.bots.kick(room_id)

    async def stop(self) -> None:
        await self.bots.stop()
