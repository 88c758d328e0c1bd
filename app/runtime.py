"""Everything one server process holds, wired once: database, caches, the services, the playing layer,
socket hub, broker, presence and bots."""

from __future__ import annotations

import asyncio
import logging

from starlette.concurrency import run_in_threadpool

from app.alerts.core import Gate
from app.alerts.dispatch import Dispatch
from app.alerts.gates import PauseGate, QuietHoursGate
from app.alerts.mail import MailChannel
from app.alerts.push import PushChannel
from app.alerts.settings import AlertSettings
from app.clock import SYSTEM_CLOCK, Clock
from app.config import Settings
from app.db import Database
from app.playing.bots import BotRunner
from app.playing.fanout import Fanout
from app.playing.master import Master
from app.playing.pause import Pauses
from app.playing.publisher import Publisher
from app.playing.seatwatch import SeatWatch
from app.playing.views import Views
from app.realtime.broker import Broker, LocalBroker, RedisBroker
from app.realtime.hub import Hub
from app.realtime.presence import HEARTBEAT, Presence
from app.services.botturns import BotTurns
from app.services.cache import StateCache
from app.services.moves import Moves
from app.services.people import Times
from app.services.seats import Seats
from app.services.takebacks import Deadline
from app.tasks import cancel_and_wait

log = logging.getLogger(__name__)


class Runtime:
    def __init__(self, settings: Settings, clock: Clock = SYSTEM_CLOCK) -> None:
        self.settings = settings
        # What the process's loops wait on and read the time from (bots, takeback and seat watches,
        # presence heartbeat, pruning, the alert dispatcher's wall clock): a test passes one it moves
        # itself (tests/clocks.py) instead of sleeping.
        self.clock = clock
        self.db = Database(settings.database_url)
        self.presence = Presence(settings.redis_url)
        test_seeds = settings.seeds_for_tests()
        if test_seeds is not None:
            log.warning("TEST ONLY: matches are dealt from MOTABLE_TEST_SEEDS, not from secret random seeds")
        # One object: tests and the people rules read the same times.
        self.times = Times(settings.gone_after, settings.request_lifetime, settings.seat_refusal_seconds)
        self.cache = StateCache()
        self.seats = Seats(self.db)
        self.moves = Moves(self.db, self.cache, self.seats, test_seeds)
        self.views = Views(self.db, self.cache, self.seats, self.presence, self.times)
        # Every reader of a takeback (bodies, bots, the playing layer) holds it to this one deadline.
        self.views.verdicts.deadline = Deadline(settings.takeback_seconds)
        self.bot_turns = BotTurns(self.db, self.cache, self.seats, self.views.verdicts)
        self.broker: Broker = RedisBroker(settings.redis_url) if settings.redis_url else LocalBroker()
        self.publisher = Publisher(self.broker)
        self.master = Master(
            self.db,
            self.seats,
            self.moves,
            self.bot_turns,
            self.views,
            self.publisher,
            self.presence,
            self.times,
            settings.bot_delay,
            clock,
        )
        bots_alone = (settings.all_bot_match_minutes, settings.all_bot_matches_per_address)
        self.master.bots.limit_bots_alone(*bots_alone)
        # Alerts away from the table (issue 20): the email channel and the pause.
        self.mail = MailChannel(settings, self.db)
        self.alert_settings = AlertSettings(self.db, self.mail)
        self.pauses = Pauses(self.master.people)
        # What holds an alert back, for the dispatcher to ask before any channel delivers.
        self.alert_gates: list[Gate] = [QuietHoursGate(self.db), PauseGate(self.db)]
        self.hub = Hub()
        # The broker's events reach the hub through the playing layer, which builds the bodies.
        self.fanout = Fanout(self.hub, self.views, self.seats)
        self.seatwatch = SeatWatch(self.seats, self.hub, self.fanout, self.master.people, clock=clock)
        # Alerts that call players back (app/alerts): decided off the moves' path, sent in tasks.
        self.push = PushChannel(self.db, settings)
        self.alerts = Dispatch(
            self.db,
            self.cache,
            self.presence,
            settings.push_grace_seconds,
            gates=self.alert_gates,
            channels=[self.push, self.mail],
            clock=clock,
        )
        self.publisher.listeners.append(self.alerts.heard)
        self._heartbeat: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None

    @property
    def bots(self) -> BotRunner:
        return self.master.bots

    async def start(self) -> None:
        await self.broker.start(self.fanout.handle, self.fanout.resync)
        await self.presence.start()
        self._watch = asyncio.create_task(self.seatwatch.run())
        await self.alerts.start()
        if self.settings.redis_url:
            self._heartbeat = asyncio.create_task(self._beat())
        await self.master.resume()

    async def _beat(self) -> None:
        while True:
            await self.clock.sleep(HEARTBEAT)
            try:
                await self.presence.heartbeat()
            except Exception:
                # Keep beating: a loop ended by one Redis hiccup would let every seat this process
                # holds lapse to "disconnected" for good.
                log.exception("refreshing presence failed")

    async def stop(self) -> None:
        await cancel_and_wait(self._watch)
        await cancel_and_wait(self._heartbeat)
        await self.master.stop()
        await self.hub.stop()
        await self.mail.close()
        await self.alerts.stop()
        await self.broker.stop()
        await self.presence.close()
        await run_in_threadpool(self.db.dispose)
