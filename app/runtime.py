"""Everything one server process holds: database, services, socket hub, broker, presence and bots."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.concurrency import run_in_threadpool

from app.config import Settings
from app.db import Database
from app.realtime.broker import Broker, LocalBroker, RedisBroker
from app.realtime.hub import Hub
from app.realtime.presence import HEARTBEAT, Presence
from app.services import Services
from app.services.bots import BotRunner
from app.services.matches import Applied

log = logging.getLogger(__name__)


class Runtime:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.database_url)
        self.presence = Presence(settings.redis_url)
        self.services = Services(self.db, self.presence.connected)
        self.hub = Hub(self.services)
        self.broker: Broker = RedisBroker(settings.redis_url) if settings.redis_url else LocalBroker()
        self.bots = BotRunner(self.services, self.played, settings.bot_delay)
        self._heartbeat: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.broker.start(self.hub.handle, self.hub.resync)
        if self.settings.redis_url:
            self._heartbeat = asyncio.create_task(self._beat())
        # Bots whose turn came up before a restart (or on a process that died) play on.
        for room_id in await run_in_threadpool(self.services.rooms_with_bots):
            self.bots.kick(room_id)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await run_in_threadpool(self.presence.heartbeat)
            except Exception:
                # Keep beating: a loop ended by one Redis hiccup would let every seat this process
                # holds lapse to "disconnected" for good.
                log.exception("refreshing presence failed")

    async def stop(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        await self.bots.stop()
        await self.broker.stop()
        self.presence.close()
        await run_in_threadpool(self.db.dispose)

    async def _publish(self, room_id: str, event: dict[str, Any]) -> None:
        try:
            await self.broker.publish(room_id, event)
        except Exception:
            # Every caller has committed already: a fan-out that fails (Redis unreachable, one viewer's
            # body failing to build) must not turn a done change into an error or end the socket that
            # made it. The sockets catch up with the next change, or with a fresh snapshot on reconnect.
            log.exception("telling the viewers of room %s about %s failed", room_id, event)

    async def state_changed(self, room_id: str) -> None:
        """Called after a commit that moved the match: every viewer gets a patch, bots get a look."""
        await self._publish(room_id, {"kind": "state"})
        self.bots.kick(room_id)

    async def played(self, room_id: str, applied: Applied) -> None:
        await self.state_changed(room_id)
        if applied.scored:
            await self.room_changed(room_id)

    async def room_changed(self, room_id: str) -> None:
        await self._publish(room_id, {"kind": "room"})

    async def connect(self, room_id: str, seat: int) -> None:
        # Counted before any await, like disconnect: a cancelled socket must never be uncounted
        # without having been counted.
        self.presence.add(room_id, seat)
        await self.room_changed(room_id)

    async def disconnect(self, room_id: str, seat: int) -> None:
        # Before any await: a socket torn down by cancellation must still leave the presence count.
        self.presence.remove(room_id, seat)
        await self.room_changed(room_id)
