"""The people at a table, for every transport: presence timestamps, clocks, bots standing in, leaving,
seat requests and chat. Like the Master: commit (worker thread), then publish (through the
Publisher), then wake the bots."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.db import Database
from app.errors import AppError
from app.i18n import N_
from app.playing.commands import Commands
from app.playing.publisher import Publisher
from app.playing.views import Views
from app.ratelimit import Buckets, address_digest, address_key
from app.realtime.presence import Presence
from app.services import people
from app.services.cache import StateCache
from app.services.seats import Seats

T = TypeVar("T")

log = logging.getLogger(__name__)

# Asking for a seat back: 3 at once, then one every 20 seconds, per address and room.
ASK_RATE, ASK_BURST = 1 / 20, 3
# Chat: 5 messages at once, then one every 2 seconds, per writer.
CHAT_RATE, CHAT_BURST = 0.5, 5


class People:
    def __init__(
        self,
        db: Database,
        seats: Seats,
        cache: StateCache,
        views: Views,
        publisher: Publisher,
        presence: Presence,
        times: people.Times,
        wake_bots: Callable[[str], None],
        commands: Commands,
    ) -> None:
        self.db = db
        self.seats = seats
        self.cache = cache
        self.views = views
        self.publisher = publisher
        self.presence = presence
        self.times = times
        self.wake_bots = wake_bots
        self.commands = commands
        self.asking = Buckets(ASK_RATE, ASK_BURST)
        self.chatting = Buckets(CHAT_RATE, CHAT_BURST)
        # Set by the Master: a pending takeback stops waiting for a seat a bot took (True while one
        # still waits). Called once the seat change is committed, before the bots wake.
        self.reconsider_takeback: Callable[[str], Awaitable[bool]] | None = None

    async def known_presence(self, room_id: str) -> set[int]:
        """Who has a socket open, as needed to call someone gone: unknown presence refuses (503)."""
        connected = await self.presence.known(room_id)
        if connected is None:
            raise people.presence_unknown()
        return connected

    def _read(self, work: Callable[[Session], T]) -> T:
        with self.db.read() as session:
            return work(session)

    # -- clock -----------------------------------------------------------------
    async def set_clock(self, room_id: str, token: str | None, seconds: int | None) -> dict[str, Any]:
        await self.commands.change(room_id, people.set_clock, room_id, token, seconds)
        return await self.views.room(room_id)

    # -- bots standing in ------------------------------------------------------
    async def stand_in(self, room_id: str, token: str | None, seat: int) -> dict[str, Any]:
        connected = await self.presence.known(room_id)
        await self.commands.run(
            room_id, people.stand_in, room_id, token, seat, self.cache, connected, self.times
        )
        await self._takeback_after(room_id)
        self.wake_bots(room_id)
        return await self.views.room(room_id)

    async def take_back(self, room_id: str, seat: int) -> bool:
        taken = await self.commands.run(room_id, people.take_back, room_id, seat)
        if taken:
            self.wake_bots(room_id)
        return taken

    async def come_back(self, room_id: str, token: str | None, seat: int) -> dict[str, Any]:
        mine = await run_in_threadpool(self.seats.seat_of, room_id, token)
        if mine is None:
            raise AppError("unauthorized", N_("send the seat's token as 'Authorization: Bearer <token>'"))
        if mine != seat:
            raise AppError("forbidden", N_("only the seat's own player takes it back from the bot"))
        await self.take_back(room_id, seat)
        return await self.views.room(room_id)

    async def leave(self, room_id: str, token: str | None) -> dict[str, Any]:
        await self.commands.run(room_id, people.leave, room_id, token, self.cache)
        await self._takeback_after(room_id)
        self.wake_bots(room_id)
        return await self.views.room(room_id)

    async def remove(self, room_id: str, token: str | None, seat: int) -> dict[str, Any]:
        connected = await self.known_presence(room_id)
        await self.commands.run(
            room_id, people.remove, room_id, token, seat, connected, self.times, self.cache
        )
        await self._takeback_after(room_id)
        self.wake_bots(room_id)
        return await self.views.room(room_id)

    async def _takeback_after(self, room_id: str) -> None:
        """A bot took a seat: a takeback waiting for it must not hold the table up. A failure here is
        logged, not raised: the seat change is done, and the takeback still lapses by its deadline."""
        if self.reconsider_takeback is None:
            return
        try:
            await self.reconsider_takeback(room_id)
        except Exception:
            log.exception("looking again at room %s's takeback after a seat change failed", room_id)

    # -- moving a seat to another device ------------------------------------------
    async def ask(self, room_id: str, seat: int, client: str) -> dict[str, Any]:
        # Counted as the rate limiter counts clients: an IPv6 client by its /64, or one host would
        # be billions of askers.
        if not self.asking.allow(f"{address_key(client)}:{room_id}"):
            raise AppError(
                "rate_limited", N_("too many seat requests; wait a minute and retry"), retry_after=20
            )
        asker = address_digest(client)
        asked = await self.commands.change(room_id, people.ask_for_seat, room_id, seat, self.times, asker)
        self.publisher.note(room_id, {"kind": "asked", "seat": seat})
        return asked

    async def request_status(self, room_id: str, request_id: str) -> dict[str, Any]:
        return await run_in_threadpool(
            self._read, lambda session: people.request_status(session, room_id, request_id, self.times)
        )

    async def answer(self, room_id: str, token: str | None, request_id: str, approve: bool) -> dict[str, Any]:
        # Unknown presence is passed on as None: the holder may still answer for their own seat, and
        # anyone else's answer is refused with 503 (people.consent needs to know who is gone).
        connected = await self.presence.known(room_id)
        answered = await self.commands.change(
            room_id,
            people.answer_request,
            room_id,
            token,
            request_id,
            approve,
            connected,
            self.times,
            self.cache,
        )
        self.wake_bots(room_id)
        await self._followed(answered.followed)
        return answered.body

    async def _followed(self, followed: tuple[tuple[str, int], ...]) -> None:
        """Rematch seats that followed a seat move (people.follow_to_rematches): their old token was
        revoked there too (the command told those rooms), and their bots wake."""
        for rematch_id, _seat in followed:
            self.wake_bots(rematch_id)

    async def holder_back(self, room_id: str, seat: int) -> None:
        """The holder acted or connected: a move of their seat in its refusal window lapses. Looked
        for first by a read (there rarely is one), so a connecting socket takes no write lock."""
        waiting = await run_in_threadpool(self._read, lambda s: seat in people.waiting_seats(s, room_id))
        if waiting and await self.commands.run(room_id, people.holder_back, room_id, seat, self.cache):
            self.wake_bots(room_id)

    async def carry_out_due(self) -> None:
        """Hand over the seats whose refusal window is over (any process may; one does each)."""
        due = await run_in_threadpool(self._read, people.due_handovers)
        for request_id in due:
            done = await self.commands.run(None, people.carry_out, request_id, self.cache)
            if done is not None:
                self.wake_bots(done.room_id)
                await self._followed(done.followed)

    async def seat_check(self, room_id: str, token: str | None) -> dict[str, Any]:
        return await run_in_threadpool(
            self._read, lambda session: people.seat_check(session, room_id, token, self.times)
        )

    # -- chat ----------------------------------------------------------------
    async def say(
        self, room_id: str, token: str | None, text: str, name: str | None, client: str
    ) -> dict[str, Any]:
        key = f"{room_id}:{token or client}"
        if not self.chatting.allow(key):
            raise AppError("rate_limited", N_("you are writing too fast; wait a moment"))
        message = await self.commands.run(None, people.say, room_id, token, text, name, self.cache)
        await self.publisher.chat(room_id, message)
        return message

    async def chat(self, room_id: str) -> dict[str, Any]:
        return await run_in_threadpool(self._read, lambda session: people.chat_log(session, room_id))

    async def set_chat_spectators(self, room_id: str, token: str | None, allowed: bool) -> dict[str, Any]:
        await self.commands.change(room_id, people.set_chat_spectators, room_id, token, allowed)
        return await self.views.room(room_id)
