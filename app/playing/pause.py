"""Pausing a game, for every transport: commit (with the table's log lines), publish the room body to
every socket of the room, like the rest of the people layer (app/playing/people.py)."""

from __future__ import annotations

from typing import Any

from app.errors import AppError
from app.i18n import N_
from app.playing.people import People
from app.ratelimit import Buckets, retry_after
from app.services import pause

# Asking to pause and resuming, per seat token and room: 4 at once, then one every 30 seconds. A table
# pauses a few times a night; each one is a line in the table's log, which a player alone at the
# table could otherwise write as fast as they can click (issue 32: 120 in 2.7 s).
CHANGE_RATE, CHANGE_BURST = 1 / 30, 4


class Pauses:
    def __init__(self, people: People) -> None:
        self.people = people
        self.changing = Buckets(CHANGE_RATE, CHANGE_BURST)

    def _spend(self, room_id: str, token: str | None) -> None:
        limit = self.changing
        wait = limit.take([(f"{room_id}:{token}", limit.per_second, limit.burst)])
        if wait > 0:
            raise AppError(
                "rate_limited",
                N_("the game was paused and resumed often just now; wait a moment"),
                retry_after=retry_after(wait),
            )

    async def _done(self, room_id: str) -> dict[str, Any]:
        await self.people.publisher.room_changed(room_id)
        return await self.people.views.room(room_id)

    async def ask(self, room_id: str, token: str | None) -> dict[str, Any]:
        self._spend(room_id, token)
        p = self.people
        # Unknown presence is refused (503): we could not tell who must agree.
        connected = await p.known_presence(room_id)
        await p.commands.run(room_id, pause.ask, room_id, token, connected, p.times, p.cache)
        return await self._done(room_id)

    async def answer(self, room_id: str, token: str | None, agree: bool) -> dict[str, Any]:
        p = self.people
        await p.commands.run(room_id, pause.answer, room_id, token, agree, p.times, p.cache)
        return await self._done(room_id)

    async def resume(self, room_id: str, token: str | None) -> dict[str, Any]:
        self._spend(room_id, token)
        p = self.people
        await p.commands.run(room_id, pause.resume, room_id, token, p.cache)
        return await self._done(room_id)
