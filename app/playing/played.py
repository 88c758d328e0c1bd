"""What follows a committed move, whoever made it (a player, a bot, an approved takeback): its record
made (what every viewer is shown of it, whether it may be taken back), then every viewer told, then
the bots woken if one is due. The room's facts (its bots, its clock) are read once for all three, so
a move never climbs back to the seats cache between steps."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool

from app.playing.publisher import Publisher
from app.services.botturns import takes_optional_actions
from app.services.matches import Applied
from app.services.seats import RoomFacts, Seats
from app.services.takebacks import Verdicts
from engines.core import get_engine

if TYPE_CHECKING:
    from app.playing.bots import BotRunner


class AfterMove:
    def __init__(self, seats: Seats, verdicts: Verdicts, publisher: Publisher) -> None:
        self.seats = seats
        self.verdicts = verdicts
        self.publisher = publisher
        # Set once the runner exists (it is built with this object's `__call__` as its callback).
        self.bots: BotRunner | None = None

    async def __call__(self, room_id: str, applied: Applied, facts: RoomFacts | None = None) -> None:
        """`facts`: the room's facts as the caller read them before the move, when it did."""
        if facts is None:
            facts = self.seats.known_facts(room_id)
        if facts is None:
            facts = await run_in_threadpool(self.seats.facts, room_id)
        self._record(applied, facts)
        await self.publisher.played(room_id, applied)
        if applied.scored or (facts is not None and facts.clock is not None):
            # A round or the match ended (the scorepad or the status changed), or the move restarted
            # the clock (the room body's deadline).
            await self.publisher.room_changed(room_id)
        if self.bots is not None and self._bot_due(applied, facts):
            self.bots.kick(room_id)

    def _record(self, applied: Applied, facts: RoomFacts | None) -> None:
        """The move's record (app/services/records.py), made here from what the writer applied and kept
        for this process's fan-out, the mover's answer and the next move. Whether it may be taken back
        is decided when first asked (the mover's body), from the views built once for every viewer."""
        self.verdicts.made(
            applied.match_id,
            applied.game,
            applied.version,
            applied.seat,
            applied.action,
            applied.status,
            applied.before,
            applied.state,
            facts is not None and applied.seat in facts.bots,
        )

    @staticmethod
    def _bot_due(applied: Applied, facts: RoomFacts | None) -> bool:
        """A bot is to act, or one that takes optional actions (out of turn, e.g. Mokuru's Immunity)
        has one, found from the state in memory."""
        if facts is None or not facts.bots:
            return False
        engine = get_engine(applied.game)
        acting = engine.to_act(applied.state)
        if set(facts.bots) & acting:
            return True
        # Out of turn, only bots that take optional actions are asked (as bot_turn does).
        return bool(acting) and any(
            takes_optional_actions(applied.game, kind) and engine.legal_actions(applied.state, seat)
            for seat, kind in facts.bots.items()
        )
