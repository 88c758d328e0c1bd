"""Everything one server process holds: database, services, the playing layer, socket hub, broker,
presence and bots."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.concurrency import run_in_threadpool

from app.config import Settings
from app.db import Database
from app.playing.bots import BotRunner
from app.playing.master import Master
from app.playing.seatwatch import SeatWatch
from app.realtime.broker import Broker, LocalBroker, RedisBroker
from app.realtime.hub import Hub
from app.realtime.presence import HEARTBEAT, Presence
from app.services.store import Services

log = logging.getLogger(__name__)


class Runtime:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.database_url)
        self.presence = Presence(settings.redis_url)
        test_seeds = settings.seeds_for_tests()
        if test_seeds is not None:
            log.warning("TEST ONLY: matches are dealt from MOTABLE_TEST_SEEDS, not from secret random seeds")
        self.services = Services(self.db, test_seeds)
        self.broker: Broker = RedisBroker(settings.redis_url) if settings.redis_url else LocalBroker()
        self.master = Master(self.services, self.broker, self.presence, settings.bot_delay)
        bots_alone = (settings.all_bot_match_minutes, settings.all_bot_matches_per_address)
        self.master.bots.limit_bots_alone(*bots_alone)
        self.hub = Hub(self.services, self.master.room)
        self.seatwatch = SeatWatch(self.master, self.hub)
        self._heartbeat: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None

    @property
    def bots(self) -> BotRunner:
        return self.master.bots

    async def start(self) -> None:
        await self.broker.start(self.hub.handle, self.hub.resync)
        await self.presence.start()
        self._watch = asyncio.create_task(self.seatwatch.run())
        if self.settings.redis_url:
            self._heartbeat = asyncio.create_task(self._beat())
        await self.master.resume()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self.presence.heartbeat()
            except Exception:
                # Keep beating: a loop ended by one Redis hiccup would let every seat this process
                # holds lapse to "disconnected" for good.
                log.exception("refreshing presence failed")

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        await self.master.stop()
        await self.broker.stop()
        await self.presence.close()
        await run_in_threadpool(self.db.dispose)
