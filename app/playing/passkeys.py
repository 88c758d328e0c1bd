"""Passkeys for every transport: commit (worker thread), then tell the tables whose seats moved (the
old tokens' sockets close, every process forgets them), like any other handover."""

from __future__ import annotations

from typing import Any

from app.db import Database
from app.playing.commands import Commands
from app.playing.people import People
from app.services import passkeys
from app.services.cache import StateCache
from app.services.passkeys import RelyingParty


class Passkeys:
    def __init__(self, db: Database, cache: StateCache, commands: Commands, people: People) -> None:
        self.db = db
        self.cache = cache
        # Each change runs as a command of no one room (None): the rooms whose seats a passkey moves are
        # bumped where their seat epochs are (people.bump_epoch).
        self.commands = commands
        self.people = people

    async def register_options(self, held: list[tuple[str, str]], rp: RelyingParty) -> dict[str, Any]:
        return await self.commands.run(None, passkeys.register_options, held, rp)

    async def register(
        self, challenge_id: str, credential: dict[str, Any], held: list[tuple[str, str]], rp: RelyingParty
    ) -> dict[str, Any]:
        return await self.commands.run(None, passkeys.register, challenge_id, credential, held, rp)

    async def login_options(self, rp: RelyingParty) -> dict[str, Any]:
        return await self.commands.run(None, passkeys.login_options, rp)

    async def login(
        self,
        challenge_id: str,
        credential: dict[str, Any],
        keep_other_devices: bool,
        attach: list[tuple[str, str]],
        rp: RelyingParty,
    ) -> dict[str, Any]:
        signed_in = await self.commands.run(
            None, passkeys.login, challenge_id, credential, keep_other_devices, attach, rp, self.cache
        )
        for room_id in signed_in.moved:
            # The command told every process the rooms' new seat epochs (the old tokens' sockets
            # close): their bots wake.
            self.people.wake_bots(room_id)
        return signed_in.body
