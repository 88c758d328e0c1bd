"""Pausing a game, for every transport: commit (with the table's log lines), publish the room body to
every socket of the room, like the rest of the people layer (app/playing/people.py)."""

from __future__ import annotations

from typing import Any

from app.playing.people import People
from app.services import pause


class Pauses:
    def __init__(self, people: People) -> None:
        self.people = people

    async def _done(self, room_id: str) -> dict[str, Any]:
        await self.people.publisher.room_changed(room_id)
        return await self.people.views.room(room_id)

    async def ask(self, room_id: str, token: str | None) -> dict[str, Any]:
        # Unknown presence is refused (503): we could not tell who must agree.
        connected = await self.people._presence(room_id)
        p = self.people
        await p._commit(pause.ask, room_id, token, connected, p.times, p.cache)
        return await self._done(room_id)

    async def answer(self, room_id: str, token: str | None, agree: bool) -> dict[str, Any]:
        p = self.people
        await p._commit(pause.answer, room_id, token, agree, p.times, p.cache)
        return await self._done(room_id)

    async def resume(self, room_id: str, token: str | None) -> dict[str, Any]:
        p = self.people
        await p._commit(pause.resume, room_id, token, p.cache)
        return await self._done(room_id)
