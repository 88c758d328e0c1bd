"""Bot turns, played on the server a moment after they come up."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool

from app.clock import SYSTEM_CLOCK, Clock
from app.db import Database
from app.errors import AppError
from app.models import utcnow
from app.services import rooms
from app.services.botturns import BotTurns
from app.services.cache import Lru
from app.services.matches import Applied
from app.services.moves import Move
from app.tasks import cancel_and_wait
from engines.core import get_bots
from engines.core.bots import goes_on

log = logging.getLogger(__name__)

MAX_RETRY_DELAY = 60.0
# After this many failed turns in a row the game's fallback bot (its descriptor's) plays instead: a
# bot with a bug must not stall a match the people at the table want to finish.
FALLBACK_AFTER = 2
# A patient bot (a person is waited for at the same time, or may still take an optional action the
# bot's move would close the window for) waits this many times the usual delay, unless the room
# changes first. See docs/rules-decisions.md ("Bots and people at one table").
PATIENCE = 8
# A bot due right after a person's move that may be taken back waits this many times the usual delay
# (1 s with the default 0.8 s), unless the room changes first: time to tap "Take back". While a
# takeback is being answered no bot acts (app/services/botturns.py): a bot due waits until it lapses,
# unless the room changes first (it is answered, withdrawn, or lapses sooner: the playing layer says).
TAKEBACK_HOLD = 1.25
# A bot whose turn goes on after its own move (Mooki Island's take, then its place; a Moby Trick
# winner's reward, then its lead: the bot kind's `turn_goes_on_after`, engines.core.goes_on) waits
# only this many times the usual delay before the rest of its turn (0.2 s with the default 0.8 s), so
# a whole bot turn takes about a second, not a full delay for each of its steps.
GOES_ON = 0.25
# Added to a wait for a takeback to lapse, so the next look finds it lapsed rather than a hair early.
LAPSE_MARGIN = 0.05
# Seconds a room's verdict on "bots alone, stop?" holds before the database is asked again (shorter
# when the time bots may play alone is short: a tenth of it).
STOP_CHECK_EVERY = 30.0
# Rooms whose verdict is remembered (least recently looked at go first).
VERDICTS = 4096


class BotRunner:
    """At most one task per room in this process plays the room's bots until a human must act.

    Two processes may both run a room's bots: each move is applied at the version it was chosen
    for, so the slower one gets stale_version and looks again.
    """

    def __init__(
        self,
        db: Database,
        turns: BotTurns,
        submit: Callable[[Move], Awaitable[Applied]],
        played: Callable[[str, Applied], Awaitable[None]],
        delay: float,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self._db = db
        # Every wait of the runner is on this clock: a test moves it rather than sleeping.
        self.clock = clock
        self.turns = turns
        self._submit = submit
        self._played = played
        self._delay = delay
        # First wait after a failed turn; it doubles with each failure in a row, up to MAX_RETRY_DELAY.
        self.retry_delay = 1.0
        self._tasks: dict[str, asyncio.Task[None]] = {}
        # Set when a room changes while its task runs: ends a patient bot's wait early, and a task
        # that found nothing to do looks once more before it ends.
        self._changed: dict[str, asyncio.Event] = {}
        # Matches of bots alone (nobody seated): minutes they are played for and how many of one
        # address's rooms play at once (0: no limit; set from the settings by limit_bots_alone).
        self.alone_minutes = 0.0
        self.alone_per_address = 0
        # room id -> (when looked at, why its bots stop or None).
        self._verdicts: Lru[str, tuple[float, str | None]] = Lru(VERDICTS)

    def limit_bots_alone(self, minutes: float, per_address: int) -> None:
        self.alone_minutes = minutes
        self.alone_per_address = per_address

    def _why_stop(self, room_id: str) -> str | None:
        with self._db.read() as session:
            return rooms.why_bots_stop(session, room_id, utcnow(), self.alone_minutes, self.alone_per_address)

    async def _stopped(self, room_id: str) -> bool:
        """Whether this room's bots stop: a match of bots alone past its time or beyond its maker's
        address's share (app.services.rooms.why_bots_stop). Asked of the database now and then only."""
        if self.alone_minutes <= 0 and self.alone_per_address <= 0:
            return False
        now = self.clock.now()
        every = STOP_CHECK_EVERY if self.alone_minutes <= 0 else min(STOP_CHECK_EVERY, self.alone_minutes * 6)
        looked = self._verdicts.get(room_id)
        if looked is None or now - looked[0] >= every:
            why = await run_in_threadpool(self._why_stop, room_id)
            if why is not None and (looked is None or looked[1] is None):
                log.info("the bots of room %s stop: %s", room_id, why)
            looked = (now, why)
            self._verdicts.put(room_id, looked)
        return looked[1] is not None

    def kick(self, room_id: str) -> None:
        if room_id in self._tasks:
            self._changed[room_id].set()
        else:
            self._changed[room_id] = asyncio.Event()
            self._tasks[room_id] = asyncio.create_task(self._run(room_id))

    async def _wait(
        self, room_id: str, patient: bool, hold: bool = False, goes_on: bool = False, spent: float = 0.0
    ) -> bool:
        """Wait before a bot acts; False when the room changed during a patient wait (look again).
        `spent`: seconds the bot already thought about its move, counted inside the wait (a turn takes
        its delay, or its thinking when that is longer, never the two added)."""
        if not patient and not hold:
            await self.clock.sleep(max(self._delay * (GOES_ON if goes_on else 1.0) - spent, 0.0))
            return True
        changed = self._changed[room_id]
        seconds = self._delay * (PATIENCE if patient else TAKEBACK_HOLD)
        return not await self.clock.wait(changed, max(seconds - spent, 0.0))

    def _goes_on(self, applied: Applied, kind: str) -> tuple[int, int] | None:
        """(version, seat) when the bot that made `applied` goes on with the same turn at once; never
        after a move that ended a round (the table looks at its scores first)."""
        if applied.scored or applied.status != "playing":
            return None
        bot = get_bots(applied.game).get(kind)
        return (applied.version, applied.seat) if goes_on(bot, applied.action) else None

    async def _until_changed(self, room_id: str, seconds: float) -> None:
        await self.clock.wait(self._changed[room_id], seconds)

    def _fallback_kind(self, room_id: str, kind: str) -> str:
        """The game's fallback bot (its descriptor's `fallback_bot`), else `kind` as it was."""
        facts = self.turns.seats.facts(room_id)
        return rooms.fallback_bot_kind(facts.game) if facts is not None else kind

    async def _run(self, room_id: str) -> None:
        failures = 0
        # Optional actions (version, seat) that failed: never offered again, so a bot whose optional
        # choice is refused cannot loop on it; the game never waits for them anyway.
        declined: set[tuple[int, int]] = set()
        # (version, seat) of a bot of this room whose turn goes on after the move it just made here.
        goes_on_at: tuple[int, int] | None = None
        try:
            while True:
                self._changed[room_id].clear()
                turn = None
                try:
                    turn = await run_in_threadpool(self.turns.bot_turn, room_id, frozenset(declined))
                    if turn is None:
                        if self._changed[room_id].is_set():
                            continue
                        return
                    if await self._stopped(room_id):
                        return
                    if turn.takeback_lapses_in is not None:
                        await self._until_changed(room_id, max(turn.takeback_lapses_in, 0.0) + LAPSE_MARGIN)
                        continue
                    if failures >= FALLBACK_AFTER:
                        fallback = await run_in_threadpool(self._fallback_kind, room_id, turn.kind)
                        turn = dataclasses.replace(turn, kind=fallback)
                    follows = goes_on_at == (turn.version, turn.seat) and not turn.patient and not turn.hold
                    try:
                        # Think first, then wait what is left of the delay: a strong bot's search is
                        # part of its turn's pause, not added to it.
                        thinking = self.clock.now()
                        move = await run_in_threadpool(self.turns.choose_bot, turn)
                        spent = self.clock.now() - thinking
                        if not await self._wait(room_id, turn.patient, turn.hold, follows, spent):
                            continue
                        applied = await self._submit(move)
                    except AppError as error:
                        if error.code != "stale_version":
                            raise
                        continue
                except Exception:
                    # Retry rather than end: when a bot is to act, nothing else may ever kick this room
                    # again (the people are waiting for the bot), so a lost turn would stall the match.
                    log.exception("a bot turn in room %s failed", room_id)
                    if turn is not None and turn.action is not None:
                        declined.add((turn.version, turn.seat))
                        continue
                    failures += 1
                    await self.clock.sleep(min(self.retry_delay * 2 ** (failures - 1), MAX_RETRY_DELAY))
                    continue
                failures = 0
                goes_on_at = self._goes_on(applied, turn.kind)
                await self._played(room_id, applied)
        finally:
            self._tasks.pop(room_id, None)
            self._changed.pop(room_id, None)

    async def stop(self) -> None:
        await cancel_and_wait(*self._tasks.values())
