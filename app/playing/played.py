"""What follows a committed move, whoever made it (a player, a bot, an approved takeback): whether
it may be taken back, then every viewer told, then the bots woken if one is due. The room's facts
(its bots, its clock) are read once for all three, so a move never climbs back to the seats cache
between steps."""

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
        self._decide_takeback(applied, facts)
        await self.publisher.played(room_id, applied)
        if applied.scored or (facts is not None and facts.clock is not None):
            # A round or the match ended (the scorepad or the status changed), or the move restarted
            # the clock (the room body's deadline).
            await self.publisher.room_changed(room_id)
        if self.bots is not None and self._bot_due(applied, facts):
            self.bots.kick(room_id)

    def _decide_takeback(self, applied: Applied, facts: RoomFacts | None) -> None:
        """Whether the move may be taken back, decided once here where the state before it is at hand
        (the mover's state body says so); a bot's move never is. Decided on the event loop: the views
        it needs are built once per move and kept for the fan-out and the next move (a worker thread
        would cost a hand-off each way for a few hundred microseconds of work holding the GIL)."""
        verdicts = self.verdicts
        if applied.before is None or verdicts.get(applied.match_id, applied.version) is not None:
            return
        if facts is not None and applied.seat in facts.bots:
            verdicts.record(applied.match_id, applied.version, "a bot's move is not taken back")
            return
        verdicts.decide(
            applied.match_id,
            applied.version,
            applied.game,
            applied.before,
            applied.seat,
            applied.action,
            applied.state,
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
