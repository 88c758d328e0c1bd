"""Takebacks: a seat asks to undo its last action, the other people at the table answer, and an approved
one is written into the log as an entry of its own (docs/playing.md, "Takeback")."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_, words
from app.models import ActionRow, Match, Seat, Takeback, utcnow
from app.services import lookup, matches, people
from app.services.cache import Lru, StateCache
from app.services.records import MoveRecord, ruled_out
from engines.core import get_engine
from engines.core.takeback import takeback_entry, taken_back, why_not_reversible

# Takebacks a seat may ask for per round (answered or not): enough for the odd misclick, too few to
# turn a round into trial and error.
PER_ROUND = 3

# (match id, seat, round) -> how many takebacks the seat asked for in the round through this process.
VERDICTS = 4096
# Matches whose latest move's record (every viewer's view of it, app/services/cache.py sizes) is
# kept: the next move's "before" is that move's "after", so each move builds the views of one
# position.
POSITIONS = 2048
# Seconds a takeback waits for its answers before it lapses and play goes on (MOTABLE_TAKEBACK_SECONDS):
# long enough to read the question and tap, short enough that silence never stalls a table.
SECONDS = 60.0


@dataclass
class Deadline:
    """How long a takeback waits for its answers, and the clock that tells (tests pass one they
    advance). Every reader decides "lapsed" from the row (when it was asked) and this, so a takeback
    lapses in every process at the same moment, whether or not a process has written it down yet."""

    seconds: float = SECONDS
    now: Callable[[], datetime] = field(default=utcnow)

    def lapses_at(self, takeback: Takeback) -> datetime:
        return people.aware(takeback.created_at) + timedelta(seconds=self.seconds)

    def left(self, takeback: Takeback) -> float:
        """Seconds until the takeback lapses (0 or less: it has)."""
        return (self.lapses_at(takeback) - self.now()).total_seconds()

    def status(self, takeback: Takeback) -> str:
        """The takeback's status now: a pending one past its deadline has lapsed, written or not."""
        if takeback.status == "pending" and self.left(takeback) <= 0:
            return "lapsed"
        return takeback.status


def not_allowed(message: str, **params: Any) -> AppError:
    return AppError("not_allowed", message, **params)


class Verdicts:
    """Each match's latest committed move as this process knows it (app/services/records.py: the
    state it reached, every viewer's view of it, whether its mover may take it back), and what every
    reader of a takeback must agree on: the process's `deadline` (state bodies, bots and the playing
    layer lapse a takeback alike) and the asks each seat made here this round."""

    def __init__(self) -> None:
        self.deadline = Deadline()
        self._asked: Lru[tuple[int, int, int], int] = Lru(VERDICTS)
        # match id -> the record of its latest move known here.
        self._latest: Lru[int, MoveRecord] = Lru(POSITIONS)

    def asked(self, match_id: int, seat: int, round_number: int, count: int) -> None:
        """A seat asked through this process: `count` asks of its in the round so far."""
        self._asked.put((match_id, seat, round_number), count)

    def spent(self, match_id: int, seat: int, round_number: int) -> bool:
        """Whether the seat has used every ask of the round, as far as this process knows (a body built
        without the database; the ask itself counts in the database and refuses in words)."""
        return (self._asked.get((match_id, seat, round_number)) or 0) >= PER_ROUND

    def made(
        self,
        match_id: int,
        game: str,
        version: int,
        seat: int,
        action: Any,
        status: str,
        before: Any,
        after: Any,
        bot: bool = False,
    ) -> MoveRecord:
        """The record of the move that took the match to `version` (`bot`: a bot made it), kept as the
        match's latest unless a newer one is held; one held for that version already is returned as
        it is. The one way a record is made (app/services/records.py)."""
        latest = self._latest.get(match_id)
        if latest is not None and latest.version == version:
            return latest
        was = latest.built_position() if latest is not None and latest.version == version - 1 else None
        record = MoveRecord(match_id, game, version, seat, action, status, before, after, bot, was)
        self._latest.put(match_id, record, keep=lambda held: held.version >= version)
        return record

    def held(self, match_id: int, version: int) -> MoveRecord | None:
        """The record of the move that took the match to `version`, if it is the latest held here."""
        latest = self._latest.get(match_id)
        return latest if latest is not None and latest.version == version else None

    def get(self, match_id: int, version: int) -> tuple[str | None] | None:
        """Whether the move that took the match to `version` may be taken back ((None,): it may; (why,):
        it may not), decided from its record when one is held here; None when none is."""
        record = self.held(match_id, version)
        return (record.verdict(),) if record is not None else None


def why_not(game: str, before: Any, seat: int, action: Any, after: Any, seed: int) -> str | None:
    """Why the action by `seat` from `before` to `after` cannot be taken back, in words; None: it can."""
    engine = get_engine(game)
    reason = ruled_out(engine, before, action, after)
    if reason is not None:
        return reason
    # The score pad has a total per seat from the deal on.
    players = len(engine.scorepad(before).totals)
    return why_not_reversible(engine, before, seat, action, after, players, seed)


@dataclass(frozen=True)
class Done:
    """What asking or answering did: the takeback's id, and the move it made when it was carried out."""

    takeback_id: str
    applied: matches.Applied | None = None
    # Still waiting for answers: the process that took it looks again until it ends.
    pending: bool = False


def _playing(session: Session, room_id: str) -> Match:
    lookup.find_room(session, room_id)
    match = matches.current_match(session, room_id, lock=True)
    if match is None:
        raise AppError("not_started", N_("the match has not started yet"))
    if match.status != "playing":
        raise not_allowed(N_("the match is over: nothing can be taken back"))
    return match


def _names(session: Session, room_id: str) -> dict[int, Seat]:
    return {s.seat: s for s in people.seats_of(session, room_id)}


# Read by every state snapshot: built once (app/services/lookup.py says why).
_ENTRY = select(ActionRow).where(
    ActionRow.match_id == bindparam("match_id"), ActionRow.seq == bindparam("seq")
)
_ASKED = select(Takeback).where(
    Takeback.match_id == bindparam("match_id"), Takeback.version == bindparam("version")
)
_ASKED_IN_ROUND = (
    select(func.count())
    .select_from(Takeback)
    .where(
        Takeback.match_id == bindparam("match_id"),
        Takeback.seat == bindparam("seat"),
        Takeback.round == bindparam("round"),
    )
)


def last_entry(session: Session, match: Match) -> ActionRow | None:
    return session.scalars(_ENTRY, {"match_id": match.id, "seq": match.version - 1}).one_or_none()


def _decide(
    session: Session, match: Match, last: ActionRow, cache: StateCache, verdicts: Verdicts
) -> str | None:
    known = verdicts.get(match.id, match.version)
    if known is not None:
        return known[0]
    # Neither the move's record nor the state before it is held here: both states are read, and the
    # record made as the writer's process makes it.
    after = matches.load_state(session, match, cache)
    before = matches.state_at(session, match, match.version - 1)
    record = verdicts.made(
        match.id, match.game, match.version, last.seat, last.action, match.status, before, after
    )
    return record.verdict()


def can_take_back(
    session: Session, match: Match, cache: StateCache, verdicts: Verdicts
) -> tuple[int | None, dict[str, Any] | None]:
    """(the seat that may ask to take back the last action now, or None; the pending takeback's body)."""
    if match.status != "playing":
        return None, None
    asked = asked_at(session, match)
    if asked is not None:
        if verdicts.deadline.status(asked) != "pending":
            return None, None
        shown = body(asked, verdicts.deadline)
        asked_about = last_entry(session, match)
        if asked_about is not None:
            # The move asked about, so the others can tell what they are allowing: as a spectator
            # may read it in the log (one body for every viewer, so the least any of them may see).
            engine = get_engine(match.game)
            shown["action"] = engine.public_action(asked_about.action, asked_about.seat, None)
        return None, shown
    last = last_entry(session, match)
    if last is None or taken_back(last.action) is not None:
        return None, None
    actor = people.seat_row(session, match.room_id, last.seat)
    if actor.bot or actor.stand_in:
        return None, None
    if _asked_this_round(session, match, last.seat) >= PER_ROUND:
        return None, None  # the page offers no takeback it would refuse
    return (last.seat if _decide(session, match, last, cache, verdicts) is None else None), None


def _asked_this_round(session: Session, match: Match, seat: int) -> int:
    used = session.scalar(_ASKED_IN_ROUND, {"match_id": match.id, "seat": seat, "round": match.round})
    return int(used or 0)


def asked_at(session: Session, match: Match) -> Takeback | None:
    """The takeback asked at the match's version, whatever became of it, or None."""
    return session.scalars(_ASKED, {"match_id": match.id, "version": match.version}).first()


def body(takeback: Takeback, deadline: Deadline) -> dict[str, Any]:
    """A pending takeback as every state body shows it."""
    waiting = [seat for seat in takeback.waiting_for if seat not in takeback.approvals]
    return {
        "id": takeback.id,
        "seat": takeback.seat,
        "version": takeback.version,
        "approvals": list(takeback.approvals),
        "waiting_for": waiting,
        "lapses_at": deadline.lapses_at(takeback).isoformat(),
    }


def ask(
    session: Session,
    room_id: str,
    seat: int,
    version: int,
    connected: set[int] | None,
    times: people.Times,
    cache: StateCache,
    verdicts: Verdicts,
) -> Done:
    """`seat` asks to take back its last action, the match being at `version` just after it."""
    match = _playing(session, room_id)
    if version != match.version:
        raise not_allowed(
            N_(
                "someone acted since (the match is at version %(version)s, not %(asked)s): "
                "only the very last action can be taken back"
            ),
            version=match.version,
            asked=version,
        )
    last = last_entry(session, match)
    if last is None:
        raise not_allowed(N_("nothing has been played yet"))
    if taken_back(last.action) is not None:
        raise not_allowed(N_("the last action was a takeback; only a new action can be taken back"))
    seats = _names(session, room_id)
    if last.seat != seat:
        raise not_allowed(N_("the last action was %(name)s's, not yours"), name=seats[last.seat].name)
    asked = asked_at(session, match)
    if asked is not None:
        status = verdicts.deadline.status(asked)
        raise not_allowed(
            {
                "pending": N_("you asked already; the table is answering"),
                "lapsed": N_("you asked already and it lapsed"),
                "approved": N_("you asked already and it was approved"),
                "refused": N_("you asked already and it was refused"),
            }.get(status, N_("you asked already and it was withdrawn")),
        )
    used = _asked_this_round(session, match, seat)
    if used >= PER_ROUND:
        raise not_allowed(N_("you have asked %(most)s times this round, the most a seat may"), most=PER_ROUND)
    reason = _decide(session, match, last, cache, verdicts)
    if reason is not None:
        raise not_allowed(N_("this action cannot be taken back: %(reason)s"), reason=words(reason))
    waiting = [
        other.seat
        for other in seats.values()
        if other.seat != seat
        and not other.bot
        and not other.stand_in
        and _present(session, match, other, connected, times)
    ]
    takeback = Takeback(
        id=secrets.token_urlsafe(12),
        room_id=room_id,
        match_id=match.id,
        seat=seat,
        version=version,
        round=match.round,
        status="pending",
        waiting_for=waiting,
        approvals=[],
        # The deadline's own clock: every reader measures the wait by it.
        created_at=verdicts.deadline.now(),
    )
    session.add(takeback)
    verdicts.asked(match.id, seat, match.round, used + 1)
    if not waiting:
        return Done(takeback.id, _carry_out(session, match, takeback, cache))
    return Done(takeback.id, pending=True)


def _present(
    session: Session, match: Match, other: Seat, connected: set[int] | None, times: people.Times
) -> bool:
    gone = people.gone_for(session, match, other, connected)
    return gone is None or gone < times.gone_after


def _held(
    session: Session, match: Match, seat: Seat, connected: set[int] | None, times: people.Times
) -> bool:
    """Whether a person still holds the seat at the table: no bot plays it and they are not gone.
    Presence unknown (Redis away) counts as here: nobody's say is dropped on a guess."""
    if seat.bot or seat.stand_in:
        return False
    return connected is None or _present(session, match, seat, connected, times)


def _find(session: Session, room_id: str, match: Match, takeback_id: str) -> Takeback:
    takeback = session.get(Takeback, takeback_id)
    if takeback is None or takeback.room_id != room_id:
        raise AppError("not_found", N_("no takeback '%(takeback)s' in this room"), takeback=takeback_id)
    if takeback.match_id != match.id:
        raise AppError("not_found", N_("no takeback '%(takeback)s' in this match"), takeback=takeback_id)
    return takeback


def _open(match: Match, takeback: Takeback, deadline: Deadline) -> None:
    """Refuses (409) unless the takeback is still waiting for answers."""
    status = deadline.status(takeback)
    if status != "pending":
        raise not_allowed(
            {
                "lapsed": N_("this takeback lapsed already"),
                "approved": N_("this takeback was approved already"),
                "refused": N_("this takeback was refused already"),
            }.get(status, N_("this takeback was withdrawn already")),
        )
    if match.version != takeback.version:
        # Any action cancels a pending takeback: nothing to write, it is open only at its version.
        raise not_allowed(N_("someone acted since it was asked, so the takeback was cancelled"))


def answer(
    session: Session,
    room_id: str,
    takeback_id: str,
    seat: int,
    approve: bool,
    connected: set[int] | None,
    times: people.Times,
    cache: StateCache,
    deadline: Deadline,
) -> Done:
    """Another seat approves or refuses; the last approval needed carries the takeback out."""
    # The match row first: its lock serialises the answers, so the takeback read next is current.
    match = _playing(session, room_id)
    takeback = _find(session, room_id, match, takeback_id)
    _open(match, takeback, deadline)
    if seat == takeback.seat:
        raise not_allowed(N_("the other players answer a takeback, not the one who asked"))
    if not approve:
        takeback.status = "refused"
        takeback.refused_by = seat
        return Done(takeback.id)
    if seat not in takeback.approvals:
        takeback.approvals = [*takeback.approvals, seat]
    settled = _settle(session, match, takeback, connected, times, cache, deadline)
    return settled if settled is not None else Done(takeback.id, pending=True)


def withdraw(session: Session, room_id: str, takeback_id: str, seat: int, deadline: Deadline) -> Done:
    """The asker takes the question back while the table is still answering: the action stands."""
    match = _playing(session, room_id)
    takeback = _find(session, room_id, match, takeback_id)
    if seat != takeback.seat:
        raise AppError("forbidden", N_("only the player who asked may withdraw a takeback"))
    _open(match, takeback, deadline)
    takeback.status = "withdrawn"
    return Done(takeback.id)


# -- a pending takeback as the table changes (docs/rules-decisions.md, "Takeback") ------------------
def _pending(session: Session, match: Match | None) -> Takeback | None:
    if match is None or match.status != "playing":
        return None
    asked = asked_at(session, match)
    return asked if asked is not None and asked.status == "pending" else None


def _outcome(
    session: Session,
    match: Match,
    takeback: Takeback,
    connected: set[int] | None,
    times: people.Times,
    deadline: Deadline,
) -> tuple[str, list[int]]:
    """What a pending takeback is as the table is now: "pending", "approved" (carry it out) or "lapsed",
    and the seats it still waits for: those of its own still held by a person at the table."""
    if deadline.left(takeback) <= 0:
        return "lapsed", list(takeback.waiting_for)
    seats = _names(session, match.room_id)
    if seats[takeback.seat].bot or seats[takeback.seat].stand_in:
        return "lapsed", list(takeback.waiting_for)  # a bot plays the asker's seat now: nobody asks
    waiting = [s for s in takeback.waiting_for if _held(session, match, seats[s], connected, times)]
    if not set(waiting) <= set(takeback.approvals):
        return "pending", waiting
    # Everyone still at the table agreed. Nobody having said yes, those asked all left without a
    # word: the asker gains nothing by their leaving, and the action stands.
    return ("approved" if takeback.approvals else "lapsed"), waiting


def _settle(
    session: Session,
    match: Match,
    takeback: Takeback,
    connected: set[int] | None,
    times: people.Times,
    cache: StateCache,
    deadline: Deadline,
) -> Done | None:
    """Writes what `_outcome` finds; None when it is the same as before (nothing to tell anyone)."""
    outcome, waiting = _outcome(session, match, takeback, connected, times, deadline)
    if outcome == "pending" and waiting == list(takeback.waiting_for):
        return None
    takeback.waiting_for = waiting
    if outcome == "lapsed":
        takeback.status = "lapsed"
        return Done(takeback.id)
    if outcome == "approved":
        return Done(takeback.id, _carry_out(session, match, takeback, cache))
    return Done(takeback.id, pending=True)


def look(
    session: Session, room_id: str, connected: set[int] | None, times: people.Times, deadline: Deadline
) -> bool | None:
    """A read before `reconsider`: None when the room has no pending takeback, else whether looking
    again would change it (it lapsed, or someone it waits for left the table)."""
    match = matches.current_match(session, room_id)
    takeback = _pending(session, match)
    if match is None or takeback is None:
        return None
    outcome, waiting = _outcome(session, match, takeback, connected, times, deadline)
    return outcome != "pending" or waiting != list(takeback.waiting_for)


def reconsider(
    session: Session,
    room_id: str,
    connected: set[int] | None,
    times: people.Times,
    cache: StateCache,
    deadline: Deadline,
) -> Done | None:
    """Looks again at the room's pending takeback as the table is now (a seat left, a bot stands in,
    someone is gone, the deadline passed) and writes what changed; None: nothing pending or changed."""
    match = matches.current_match(session, room_id, lock=True)
    takeback = _pending(session, match)
    if match is None or takeback is None:
        return None
    return _settle(session, match, takeback, connected, times, cache, deadline)


def _carry_out(session: Session, match: Match, takeback: Takeback, cache: StateCache) -> matches.Applied:
    """Write the takeback into the log: the match goes back to the state before the action, at a new
    version (the action stays in the log, followed by this entry)."""
    version = match.version
    after = matches.load_state(session, match, cache)
    before = matches.state_at(session, match, version - 1)
    entry = takeback_entry(version - 1)
    session.add(ActionRow(match_id=match.id, seq=version, seat=takeback.seat, action=entry))
    changed = session.execute(
        update(Match).where(Match.id == match.id, Match.version == version).values(version=version + 1)
    )
    if changed.rowcount != 1:  # type: ignore[attr-defined]
        raise AppError("stale_version", N_("another action was applied first; fetch the state and retry"))
    takeback.status = "approved"
    return matches.Applied(
        match.id, match.game, takeback.seat, version + 1, before, False, entry, "playing", after
    )
