"""The playing layer: every use case that changes a room, for any transport.

Each one commits (in a worker thread, through app.services), then tells every viewer (through the
Publisher: docs/playing.md draws the way down to the sockets), then wakes the room's bots. HTTP
routes, the socket and the bots all come through here, so a change is never committed without being
published, whoever made it. (boardgame.io's Master is the model.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from starlette.concurrency import run_in_threadpool

from app.clock import SYSTEM_CLOCK, Clock
from app.db import Database
from app.models import utcnow
from app.playing.actionlog import WrittenLog
from app.playing.bots import BotRunner
from app.playing.commands import Commands
from app.playing.people import People
from app.playing.played import AfterMove
from app.playing.publisher import Publisher
from app.playing.views import Views, applied_body
from app.playing.writer import Writer
from app.realtime.presence import TABLE_SCREEN, Presence
from app.services import rooms, screens, takebacks
from app.services.botturns import BotTurns
from app.services.matches import Applied
from app.services.moves import Closed, Move, Moves, Touched
from app.services.people import Times
from app.services.seats import Seats

Starter = int | Literal["random"] | None
T = TypeVar("T")

log = logging.getLogger(__name__)

# Seconds between a socket opening or closing and the room being told: the sockets of a table that
# open (or close) together are told in one room body rather than one each.
PRESENCE_WAIT = 0.025
# Seconds between looks at a pending takeback taken here: at most this late, a takeback that lapsed
# (its deadline, or everyone it waits for gone) is written down, the table told and the bots woken.
TAKEBACK_WATCH_EVERY = 1.0


class Master:
    def __init__(
        self,
        db: Database,
        seats: Seats,
        moves: Moves,
        bot_turns: BotTurns,
        views: Views,
        publisher: Publisher,
        presence: Presence,
        times: Times,
        bot_delay: float,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.db = db
        # What the takeback watches and the bots wait on (app/clock.py).
        self.clock = clock
        self.seats = seats
        self.moves = moves
        self.views = views
        self.publisher = publisher
        self.presence = presence
        self.people_times = times
        self.writer = Writer(moves.apply_moves)
        # The one door for a change to a room other than a move (app/playing/commands.py).
        self.commands = Commands(db, publisher, seats)
        # What follows every committed move, whoever made it (app/playing/played.py).
        self.after_move = AfterMove(seats, views.verdicts, publisher)
        self.bots = BotRunner(db, bot_turns, self.writer.submit, self.after_move, bot_delay, clock)
        self.after_move.bots = self.bots
        # Presence times, clocks, stand-ins, seat requests and chat (app/playing/people.py).
        self.people = People(
            db, seats, moves.cache, views, publisher, presence, times, self.wake_bots, self.commands
        )
        # A seat a takeback waits for went to a bot: look at the takeback again at once.
        self.people.reconsider_takeback = self.reconsider_takeback
        # Rooms whose pending takeback this process looks at until it ends (lapses, or is answered).
        self._takeback_watches: dict[str, asyncio.Task[None]] = {}
        # Rooms whose presence changed and will be told after PRESENCE_WAIT, and the tellings under way.
        self._presence_due: dict[str, asyncio.TimerHandle] = {}
        self._telling: set[asyncio.Task[None]] = set()

    # -- reads --------------------------------------------------------------
    async def room(self, room_id: str) -> dict[str, Any]:
        return await self.views.room(room_id)

    async def state(self, room_id: str, token: str | None) -> dict[str, Any]:
        return await run_in_threadpool(self.views.state, room_id, token)

    async def log(self, room_id: str, token: str | None) -> WrittenLog:
        return await run_in_threadpool(self.views.written_log, room_id, token)

    async def seat_of(self, room_id: str, token: str | None) -> int | None:
        return await run_in_threadpool(self.seats.seat_of, room_id, token)

    def _read(self, work: Callable[..., T], *args: Any) -> T:
        with self.db.read() as session:
            return work(session, *args)

    # -- use cases that change a room -----------------------------------------
    async def create_room(
        self,
        game: str,
        name: str,
        options: dict[str, Any] | None,
        clock: int | None = None,
        creator: str | None = None,
    ) -> dict[str, Any]:
        # Nobody watches a room that did not exist: nothing to publish.
        return await self.commands.run(None, rooms.create_room, game, name, options, clock, creator)

    async def join(self, room_id: str, name: str) -> dict[str, Any]:
        joined = await self.commands.run(room_id, rooms.join_room, room_id, name)
        await self.room_changed(room_id)
        return joined

    async def add_bot(self, room_id: str, token: str | None) -> dict[str, Any]:
        added = await self.commands.run(room_id, rooms.add_bot, room_id, token)
        await self.room_changed(room_id)
        return added

    async def start(
        self, room_id: str, token: str | None, starter: Starter = None, one_device: bool = False
    ) -> dict[str, Any]:
        match_id, state = await self.commands.run(
            room_id, rooms.start_room, room_id, token, starter, self.moves.next_test_seed(), one_device
        )
        # Its first state is kept in memory: the first move needs no read.
        self.moves.cache.put(match_id, 1, state)
        await self.room_changed(room_id)
        await self.publisher.state_changed(room_id)
        self.bots.kick(room_id)
        return await self.room(room_id)

    async def rematch(self, room_id: str, token: str | None) -> dict[str, Any]:
        made = await self.commands.run(room_id, rooms.rematch, room_id, token)
        if made["created"]:
            await self.room_changed(room_id)
            # The table screen holds no seat: it opened the rematch for nobody in particular.
            by = None if "token" not in made else await self.seat_of(room_id, token)
            self.publisher.note(room_id, {"kind": "rematch", "rematch": made["room_id"], "seat": by})
        return made

    # -- the table screen (app/services/screens.py) ------------------------------
    async def pair_screen(self, room_id: str) -> dict[str, str]:
        paired = await self.commands.run(None, screens.pair, room_id)
        if paired.gave_way:
            # The screen showing a code that gave way asks for a new one at once.
            await self.publisher.screens_changed(room_id)
        return paired.body

    async def screen_status(self, room_id: str, token: str | None) -> dict[str, Any]:
        return await run_in_threadpool(self._read, screens.status, room_id, token)

    async def mark_screen(self, room_id: str, token: str | None, code: str) -> dict[str, Any]:
        await self.commands.run(room_id, screens.mark, room_id, token, code)
        await self.room_changed(room_id)
        return await self.room(room_id)

    async def unmark_screen(self, room_id: str, token: str | None) -> dict[str, Any]:
        await self.commands.run(room_id, screens.unmark, room_id, token)
        await self.room_changed(room_id)
        return await self.room(room_id)

    async def act(
        self,
        room_id: str,
        token: str | None,
        action: Any,
        version: int | None = None,
        committed: Callable[[Applied], None] | None = None,
        token_hash: str | None = None,
    ) -> Applied:
        """Apply a player's action. Returns once it is committed and published; `committed` is called
        between the two (the socket acknowledges there, so the ack comes before the patch).
        `token_hash`: the token's hash, where the caller holds it (Seats.known_seat)."""
        seat = self.seats.known_seat(room_id, token, token_hash) if token is not None else None
        if seat is None:
            seat = await run_in_threadpool(self.seats.player_seat, room_id, token)
        facts = self.seats.known_facts(room_id) or await run_in_threadpool(self.seats.facts, room_id)
        if facts is not None and seat in facts.stand_ins:
            # The player is back: acting takes the seat back from the bot standing in.
            await self.people.take_back(room_id, seat)
            facts = None  # changed: read again after the move
        if facts is not None and seat in facts.waiting:
            # The holder is back while their seat's move waits out its window: the move lapses.
            await self.people.holder_back(room_id, seat)
            facts = None
        applied = await self.writer.submit(Move(room_id, seat, action, version))
        if committed is not None:
            committed(applied)
        await self.after_move(room_id, applied, facts)
        return applied

    async def play(self, room_id: str, token: str | None, action: Any, version: int | None) -> dict[str, Any]:
        """A move made over HTTP: `act`, answered with the mover's state body (whether it may be taken
        back included, decided once the move was published)."""
        applied = await self.act(room_id, token, action, version)
        return applied_body(applied, self.views.verdicts)

    # -- presence -------------------------------------------------------------
    async def connect(self, room_id: str, seat: int) -> None:
        # Nothing to write: "away since" is when the seat's socket last closed, and while one is
        # open presence says so (a process killed with sockets open leaves the last close standing).
        await self.presence.add(room_id, seat)
        facts = self.seats.known_facts(room_id)
        if facts is None or seat in facts.waiting:
            # Facts not held here (a waiting room has none): look for a move of the seat itself, in
            # one read (connecting is rare next to acting).
            await self.people.holder_back(room_id, seat)
        self._presence_changed(room_id)

    async def screen_opened(self, room_id: str) -> None:
        """A table screen (`/r/{id}/screen`) is watching: counted in presence under a seat number no
        player has, so every process's room body says `screen: true` and phones show a hand view."""
        await self.presence.add(room_id, TABLE_SCREEN)
        self._presence_changed(room_id)

    async def screen_closed(self, room_id: str) -> None:
        await self.presence.remove(room_id, TABLE_SCREEN)
        self._presence_changed(room_id)

    async def disconnect(self, room_id: str, seat: int) -> None:
        await self.presence.remove(room_id, seat)
        try:
            await self.writer.submit(Closed(room_id, seat, utcnow()))
        finally:
            # The room learns of the departure even when the "away since" write fails.
            self._presence_changed(room_id)

    def _presence_changed(self, room_id: str) -> None:
        if room_id not in self._presence_due:
            loop = asyncio.get_running_loop()
            self._presence_due[room_id] = loop.call_later(PRESENCE_WAIT, self._tell_presence, room_id)

    def _tell_presence(self, room_id: str) -> None:
        del self._presence_due[room_id]
        task = asyncio.create_task(self._tell_room(room_id))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _tell_room(self, room_id: str) -> None:
        """Presence changed: the room's revision is bumped first (the body saying so must be newer than
        any read before the change), then the room is told, even when the bump failed."""
        try:
            await self.writer.submit(Touched(room_id))
        except Exception:
            log.warning("bumping room %s's revision for a presence change failed", room_id, exc_info=True)
        await self.room_changed(room_id)

    # -- publishing -----------------------------------------------------------
    async def room_changed(self, room_id: str) -> None:
        await self.publisher.room_changed(room_id)

    # -- takebacks (docs/playing.md, "Takeback") --------------------------------
    async def ask_takeback(self, room_id: str, token: str | None, version: int) -> str:
        seat = await run_in_threadpool(self.seats.player_seat, room_id, token)
        connected = await self.presence.connected(room_id)
        done = await self.commands.run(
            None,
            takebacks.ask,
            room_id,
            seat,
            version,
            connected,
            self.people_times,
            self.moves.cache,
            self.views.verdicts,
        )
        await self._takeback_done(room_id, done)
        return done.takeback_id

    async def answer_takeback(self, room_id: str, token: str | None, takeback_id: str, approve: bool) -> None:
        seat = await run_in_threadpool(self.seats.player_seat, room_id, token)
        connected = await self.presence.known(room_id)
        done = await self.commands.run(
            None,
            takebacks.answer,
            room_id,
            takeback_id,
            seat,
            approve,
            connected,
            self.people_times,
            self.moves.cache,
            self.views.verdicts.deadline,
        )
        await self._takeback_done(room_id, done)

    async def withdraw_takeback(self, room_id: str, token: str | None, takeback_id: str) -> None:
        seat = await run_in_threadpool(self.seats.player_seat, room_id, token)
        done = await self.commands.run(
            None, takebacks.withdraw, room_id, takeback_id, seat, self.views.verdicts.deadline
        )
        await self._takeback_done(room_id, done)

    async def reconsider_takeback(self, room_id: str) -> bool:
        """Looks at the room's pending takeback again as the table is now (its deadline passed, someone
        it waits for is gone or gave their seat to a bot) and tells the table what changed. False once
        nothing is pending. Read first: most looks change nothing and need no write."""
        connected = await self.presence.known(room_id)
        deadline = self.views.verdicts.deadline
        due = await run_in_threadpool(
            self._read, takebacks.look, room_id, connected, self.people_times, deadline
        )
        if not due:
            return due is not None
        done = await self.commands.run(
            None, takebacks.reconsider, room_id, connected, self.people_times, self.moves.cache, deadline
        )
        if done is None:
            return True  # settled meanwhile by someone else: the next look finds nothing pending
        await self._takeback_done(room_id, done)
        return done.pending

    def _watch_takeback(self, room_id: str) -> None:
        if room_id not in self._takeback_watches:
            self._takeback_watches[room_id] = asyncio.create_task(self._watching_takeback(room_id))

    async def _watching_takeback(self, room_id: str) -> None:
        """Looks at a pending takeback until it ends: a lapse is a matter of time, so no request would
        otherwise tell the table or wake its bots (readers elsewhere see it lapse by its deadline)."""
        try:
            while True:
                await self.clock.sleep(TAKEBACK_WATCH_EVERY)
                try:
                    if not await self.reconsider_takeback(room_id):
                        return
                except Exception:
                    # Keep looking: a lapse not yet written still shows as lapsed in every body.
                    log.exception("looking at room %s's pending takeback failed", room_id)
        finally:
            if self._takeback_watches.get(room_id) is asyncio.current_task():
                del self._takeback_watches[room_id]

    async def _takeback_done(self, room_id: str, done: takebacks.Done) -> None:
        if done.pending:
            self._watch_takeback(room_id)
        if done.applied is None:
            # Asked, approved by some, or refused: the state bodies say so (same version), and a bot
            # holding back for it looks again (it waits while one is pending, plays once refused).
            await self.publisher.state_changed(room_id)
            self.bots.kick(room_id)
            return
        applied = done.applied
        self.moves.cache.put(applied.match_id, applied.version, applied.state)
        # Its record says it is never taken back itself (app/services/records.py).
        await self.after_move(room_id, applied)

    def wake_bots(self, room_id: str) -> None:
        self.bots.kick(room_id)

    def socket_opened(self, room_id: str, waiting: bool = False) -> None:
        """A socket opened (or took its seat): the room's bots look again, unless this process knows the
        room has none, or the socket was just sent a waiting room (bot_turn would find nothing: no
        transaction for it; starting the match wakes the bots). Whatever makes a bot stand in kicks
        the runner itself."""
        facts = self.seats.known_facts(room_id)
        if waiting or (facts is not None and not facts.bots):
            return
        self.bots.kick(room_id)

    async def resume(self) -> None:
        """Bots whose turn came up before a restart (or on a process that died) play on."""
        for room_id in await run_in_threadpool(self.bots.turns.rooms_with_bots):
            self.bots.kick(room_id)

    async def stop(self) -> None:
        for handle in self._presence_due.values():
            handle.cancel()
        self._presence_due.clear()
        await asyncio.gather(*self._telling, return_exceptions=True)
        for watch in list(self._takeback_watches.values()):
            watch.cancel()
        await asyncio.gather(*self._takeback_watches.values(), return_exceptions=True)
        await self.bots.stop()
        await self.writer.stop()
