"""Bot turns: which bot is due to act in a room, and what it chooses, from the state its seat is in."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select

from app.db import Database
from app.errors import AppError
from app.i18n import N_
from app.models import Match, Room, Seat
from app.services import matches, takebacks
from app.services.cache import StateCache
from app.services.moves import Move
from app.services.seats import Seats
from engines.core import Engine, get_bots, get_engine
from engines.core import takes_optional_actions as bot_takes_optional_actions

_MASK = (1 << 63) - 1


def seen_by(engine: Engine[Any], state: Any, seat: int, bot_seed: int) -> Any:
    """What a bot of `seat` is given to decide on: the state with everything the seat may not see or
    remember dealt again (`Engine.resample`), so no bot can play on a card it could not know. The
    conformance suite checks that no bot chooses differently for it (tests/engines/test_resample.py).
    A copy of its own: cached states are shared by every thread of this process."""
    return copy.deepcopy(engine.resample(state, seat, random.Random(bot_seed ^ _REDEAL_SALT)))


# Keeps the re-deal's random stream apart from the bot's own (both derive from the bot's seed).
_REDEAL_SALT = 0x5EA7_ED_0F_F00D


def _bot_seed(seed: int, version: int, seat: int) -> int:
    return (seed * 1_000_003 + version * 31 + seat) & _MASK


def takes_optional_actions(game: str, kind: str) -> bool:
    """Whether bots of `kind` are offered optional actions out of turn: the kind implements
    `engines.core.OptionalActionBot` (`optional(state, seat)` as well as `choose`)."""
    return bot_takes_optional_actions(get_bots(game).get(kind))


@dataclass(frozen=True)
class BotTurn:
    room_id: str
    version: int
    seat: int
    kind: str
    # Already chosen: an optional action (out of turn) the bot decided to take while looking.
    action: Any = None
    # Wait longer before acting: a person is waited for at the same time (a witness, a racer) or may
    # still take an optional action (Immunity) that the bot's move would end the window for.
    patient: bool = False
    # Wait a little before acting: the person who just moved may still ask to take it back (the
    # bot's move would end that chance; docs/playing.md, "Takeback").
    hold: bool = False
    # Not yet: a takeback is being answered (the bot's move would cancel it). Look again after this
    # many seconds, when it lapses, or sooner when the room changes.
    takeback_lapses_in: float | None = None


class BotTurns:
    def __init__(
        self, db: Database, cache: StateCache, seats: Seats, verdicts: takebacks.Verdicts | None = None
    ) -> None:
        self.db = db
        self.cache = cache
        self.seats = seats
        # Whether each move may be taken back, as this process decided it (shared with the Views).
        self.verdicts = verdicts if verdicts is not None else takebacks.Verdicts()

    def rooms_with_bots(self) -> list[str]:
        """Rooms in play with a bot seated: after a restart their bots must pick up where they were."""
        with self.db.read() as session:
            query = (
                select(Room.id)
                .join(Seat, Seat.room_id == Room.id)
                .join(Match, Match.room_id == Room.id)
                .where(Match.status == "playing", or_(Seat.bot.is_(True), Seat.stand_in.is_(True)))
                .distinct()
            )
            return list(session.scalars(query))

    def bot_turn(self, room_id: str, declined: frozenset[tuple[int, int]] = frozenset()) -> BotTurn | None:
        """The bot due to act now, if any: first a bot outside to_act that takes an optional action
        (asked through its `optional(state, seat)`, when it has one; None declines), then a bot in
        to_act. `declined` holds (version, seat) optional offers not to make again (they failed)."""
        facts = self.seats.facts(room_id)
        if facts is None or not facts.bots:
            return None
        with self.db.read() as session:
            match = matches.current_match(session, room_id)
            if match is None or match.status != "playing":
                return None
            state = matches.load_state(session, match, self.cache)
            version, seed, players = match.version, match.seed, match.players
            asked = takebacks.asked_at(session, match)
            deadline = self.verdicts.deadline
            # The table is answering a takeback: no bot acts until it is settled or lapses (a move
            # would cancel it); a bot due meanwhile is told when to look again.
            pending = asked is not None and deadline.status(asked) == "pending"
            lapses_in = deadline.left(asked) if asked is not None and pending else None
        verdict = self.verdicts.get(match.id, version)
        hold = asked is None and verdict is not None and verdict[0] is None
        engine = get_engine(facts.game)
        acting = engine.to_act(state)
        if not acting:
            return None
        bots = get_bots(facts.game)
        for seat in sorted(facts.bots):
            if seat in acting or (version, seat) in declined or lapses_in is not None:
                continue
            kind = facts.bots[seat]
            if not takes_optional_actions(facts.game, kind) or not engine.legal_actions(state, seat):
                continue
            bot_seed = _bot_seed(seed, version, seat)
            action = bots[kind](engine, bot_seed).optional(seen_by(engine, state, seat, bot_seed), seat)
            if action is not None:
                return BotTurn(room_id, version, seat, kind, action=action)
        people = [s for s in range(players) if s not in facts.bots]
        patient = any(s in acting or engine.legal_actions(state, s) for s in people)
        for seat in sorted(facts.bots):
            # A decision the game wants from a person (a Mokuru witness of a person's try) is
            # not the bot's while a person can take it.
            if seat in acting and not engine.bot_leaves_to_people(state, seat, frozenset(people)):
                return BotTurn(
                    room_id,
                    version,
                    seat,
                    facts.bots[seat],
                    patient=patient,
                    hold=hold,
                    takeback_lapses_in=lapses_in,
                )
        return None

    def choose_bot(self, turn: BotTurn) -> Move:
        """The bot's action at the turn's version, chosen outside any transaction (a strong bot may think
        a while). Applying it at that version (stale_version if the match moved on) is the caller's."""
        with self.db.read() as session:
            match = matches.current_match(session, turn.room_id)
            if match is None or match.version != turn.version:
                raise AppError("stale_version", N_("the match moved on before the bot played"))
            state = matches.load_state(session, match, self.cache)
            game, seed = match.game, match.seed
        if turn.action is not None:
            return Move(turn.room_id, turn.seat, turn.action, turn.version)
        engine = get_engine(game)
        bot_seed = _bot_seed(seed, turn.version, turn.seat)
        bot = get_bots(game)[turn.kind](engine, bot_seed)
        action = bot.choose(seen_by(engine, state, turn.seat, bot_seed), turn.seat)
        return Move(turn.room_id, turn.seat, action, turn.version)
