"""Passkeys for every transport: commit (worker thread), then tell the tables whose seats moved (the
old tokens' sockets close, every process forgets them), like any other handover."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from app.db import Database
from app.playing.people import People
from app.services import passkeys
from app.services.cache import StateCache
from app.services.passkeys import RelyingParty

T = TypeVar("T")


class Passkeys:
    def __init__(self, db: Database, cache: StateCache, people: People) -> None:
        self.db = db
        self.cache = cache
        self.people = people

    async def _commit(self, work: Callable[..., T], *args: Any) -> T:
        # The rooms whose seats a passkey moves are bumped where their seat epochs are (people.bump_epoch).
        return await self.people.commands.run(None, work, *args)

    async def register_options(self, held: list[tuple[str, str]], rp: RelyingParty) -> dict[str, Any]:
        return await self._commit(passkeys.register_options, held, rp)

    async def register(
        self, challenge_id: str, credential: dict[str, Any], held: list[tuple[str, str]], rp: RelyingParty
    ) -> dict[str, Any]:
        return await self._commit(passkeys.register, challenge_id, credential, held, rp)

    async def login_options(self, rp: RelyingParty) -> dict[str, Any]:
        return await self._commit(passkeys.login_options, rp)

    async def login(
        self,
        challenge_id: str,
        credential: dict[str, Any],
        keep_other_devices: bool,
        attach: list[tuple[str, str]],
        rp: RelyingParty,
    ) -> dict[str, Any]:
        signed_in = await self._commit(
            passkeys.login, challenge_id, credential, keep_other_devices, attach, rp, self.cache
        )
        for room_id, seat in signed_in.revoked:
            await self.people.seats_changed(room_id, revoked=seat)
        return signed_in.body
