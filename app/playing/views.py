"""Every body a client receives about a match and its room: each viewer's state body (the waiting one
before the deal), the room body and the action log. engine.view (and its seat's part, engine.own_view)
is the only way a state reaches them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.db import Database
from app.models import ActionRow, Match, Room
from app.playing.actionlog import ActionLogs, WrittenLog, logged_action
from app.realtime.presence import TABLE_SCREEN, Presence
from app.realtime.split import Own, Split
from app.services import lookup, matches, pause, people, rooms, screens, takebacks
from app.services.cache import StateCache
from app.services.records import MoveRecord
from app.services.seats import Seats
from engines.core import get_engine, json_copy
from engines.core.takeback import Position, taken_back

Body = dict[str, Any]

# Reads of a room body while presence keeps changing under it, before the last one is sent as it is
# (a later change sends a body of its own).
PRESENCE_READS = 3


def split_bodies(
    game: str,
    state: Any,
    version: int,
    status: str,
    seats: Iterable[int | None],
    takeback: Body | None = None,
    may_take_back: int | None = None,
    position: Position | None = None,
) -> Split:
    """The state bodies of `seats` (None: a spectator), all at one version: the spectator's body,
    built once, and each seat's own part (its seat, legal actions and the view keys engine.own_view
    says differ). The one way a state body is built: the fan-out sends these as they are, and one
    viewer's whole body (GET /state, the mover's answer) is `Split.body(seat)`. Nothing in it is the
    state's but logged events; the public body is shared by every viewer's socket, which only read
    it. `takeback`: the pending takeback (app/services/takebacks.py); `may_take_back`: the seat that
    may ask to take back the last action now. `position`: the views of `state` already built (a move's
    record, app/services/records.py), used as they are: they are read only, there as here."""
    engine = get_engine(game)
    to_act = sorted(engine.to_act(state))
    result = engine.result(state)
    public_view = position.public if position is not None else engine.view(state, None)
    own_views = position.own if position is not None else {}
    public: Body = {
        "version": version,
        "status": status,
        "seat": None,
        "to_act": to_act,
        "legal_actions": [],
        "view": public_view,
        "result": json_copy(result.to_json()) if result is not None else None,
        "takeback": json_copy(takeback),
        "can_take_back": False,
    }
    own: dict[int | None, Own] = {
        seat: Own(
            {
                "seat": seat,
                # A seat outside to_act may still have optional actions (Mokuru's Immunity, Steal a Trick).
                "legal_actions": engine.legal_actions(state, seat) if to_act else [],
                # Only the last action's actor may take it back (the public body says False).
                **({"can_take_back": True} if seat == may_take_back else {}),
            },
            own_views[seat] if seat in own_views else engine.own_view(state, seat, public_view),
        )
        for seat in seats
        if seat is not None
    }
    return Split(public, own)


def record_bodies(record: MoveRecord, seats: set[int | None], verdicts: takebacks.Verdicts) -> Split:
    """The state bodies of `seats` right after the move `record` holds (app/services/records.py), from
    the views it built once. A move leaves no takeback pending (it cancels any); its actor may take
    it back if it showed nobody anything, which only the mover's body says: deciding it is left to
    where the mover is watching."""
    seat = record.seat
    may = None
    if record.status == "playing" and seat in seats and record.verdict() is None:
        round_number = get_engine(record.game).round_number(record.state)
        may = None if verdicts.spent(record.match_id, seat, round_number) else seat
    return split_bodies(
        record.game, record.state, record.version, record.status, seats, None, may, record.position
    )


def applied_body(applied: matches.Applied, verdicts: takebacks.Verdicts) -> Body:
    """The body the player who made a move is answered with, from its record (kept when the move was
    published: app/playing/played.py)."""
    seat = applied.seat
    record = verdicts.held(applied.match_id, applied.version)
    if record is None:
        # A newer move replaced it meanwhile: this one may no longer be taken back.
        split = split_bodies(applied.game, applied.state, applied.version, applied.status, {seat})
    else:
        split = record_bodies(record, {seat}, verdicts)
    return split.body(seat)


def waiting_body(seat: int | None) -> Body:
    return {
        "version": 0,
        "status": "waiting",
        "seat": seat,
        "to_act": [],
        "legal_actions": [],
        "view": {},
        "result": None,
        "takeback": None,
        "can_take_back": False,
    }


def room_body(
    session: Session,
    room: Room,
    match: Match | None,
    state: Any,
    connected: set[int],
    times: people.Times,
) -> Body:
    seats = people.seats_of(session, room.id)
    scorepad = get_engine(room.game).scorepad(state).to_json() if state is not None else None
    due = people.deadline(session, room, match)
    return {
        "room_id": room.id,
        "game": room.game,
        "options": match.options if match is not None else room.options,
        "status": rooms.status_of(match),
        "host_seat": room.host_seat,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "connected": s.bot or s.seat in connected,
                "stand_in": s.stand_in,
                "away_since": None if s.bot or s.seat in connected else people.away_since(s).isoformat(),
            }
            for s in seats
        ],
        "version": match.version if match is not None else 0,
        # Grows with every change of this body (CONTRACT.md "Rooms"): the room's own changes plus its
        # match's moves. The room row is read before anything else here, so the body shows at least
        # every change up to its revision.
        "revision": room.revision + (match.version if match is not None else 0),
        "scorepad": scorepad or {"rounds": [], "totals": []},
        "rematch": room.rematch_id,
        "clock": room.clock,
        "deadline": due.isoformat() if due is not None else None,
        "gone_after": times.gone_after,
        "chat_spectators": room.chat_spectators,
        "seat_requests": people.open_requests(session, room, match, connected, times),
        # A table screen is open on the room: phones show their hand view (docs/playing.md).
        "screen": TABLE_SCREEN in connected,
        # The host marked a screen as the table (kept until unmarked or replaced): seated phones
        # default to their hand view, and that screen may start the match and open the rematch.
        "table_screen": screens.is_marked(session, room.id),
        # "paused", "paused_at", "pause_request" (docs/people.md "Pause").
        **pause.body(room, times),
    }


def log_body(session: Session, room_id: str, viewer: int | None) -> Body:
    """The log as one dict, built from every entry on each call. The route sends the kept bytes
    instead (`Views.written_log`, app/playing/actionlog.py); this stays as the plain reference they
    must equal, for the tests and bench.log."""
    match = matches.current_match(session, room_id)
    if match is None:
        return {"seed_commitment": None, "entries": []}
    engine = get_engine(match.game)
    finished = match.status == "finished"
    rows = session.scalars(select(ActionRow).where(ActionRow.match_id == match.id).order_by(ActionRow.seq))
    body: Body = {
        "seed_commitment": match.seed_commitment,
        "entries": [
            {
                "seq": row.seq,
                "seat": row.seat,
                "action": logged_action(engine, row.action, row.seat, viewer, finished),
                "at": row.created_at.isoformat(),
            }
            for row in rows
        ],
    }
    if finished:
        body.update(seed=match.seed, players=match.players, options=match.options)
    return body


class Views:
    """Reads the bodies above for a room: from the state this process holds where it can."""

    def __init__(
        self, db: Database, cache: StateCache, seats: Seats, presence: Presence, times: people.Times
    ) -> None:
        self.db = db
        self.cache = cache
        self.seats = seats
        self.presence = presence
        self.times = times
        # Whether each move may be taken back, decided once per move in this process.
        self.verdicts = takebacks.Verdicts()
        # Log bodies per match and reader, grown as matches move (GET /log).
        self.logs = ActionLogs()

    async def room(self, room_id: str) -> Body:
        """The room body as it is now. Presence is read again after the database: a presence change
        bumps the revision after it happened (app/playing/master.py), so a body whose revision counts
        that bump must show it; read between the two, it is built again."""
        connected = await self.presence.connected(room_id)
        for _ in range(PRESENCE_READS):
            body = await run_in_threadpool(self.room_with, room_id, connected)
            now = await self.presence.connected(room_id)
            if now == connected:
                break
            connected = now
        return body

    def room_with(self, room_id: str, connected: set[int]) -> Body:
        """The room body; `connected`: the seats with a live socket, as presence knows them."""
        with self.db.read() as session:
            room = lookup.find_room(session, room_id)
            match = matches.current_match(session, room_id)
            state = matches.load_state(session, match, self.cache) if match is not None else None
            return room_body(session, room, match, state, connected, self.times)

    def state(self, room_id: str, token: str | None) -> Body:
        """The GET /state body of the token's holder (no token: a spectator's)."""
        seat = self.seats.seat_of(room_id, token)
        return self.current_bodies(room_id, {seat}).body(seat)

    def current_bodies(self, room_id: str, seats: set[int | None]) -> Split:
        """The current state bodies of `seats`, all at one version, as the fan-out sends them."""
        with self.db.read() as session:
            match = matches.current_match(session, room_id)
            if match is None:
                lookup.require_room(session, room_id)  # waiting, or no such room
                return Split(
                    waiting_body(None), {seat: Own({"seat": seat}) for seat in seats if seat is not None}
                )
            state = matches.load_state(session, match, self.cache)
            # Both from the match row: on PostgreSQL the room row was read a statement earlier and may
            # predate the move that finished the match.
            version, status = match.version, match.status
            may, pending = takebacks.can_take_back(session, match, self.cache, self.verdicts)
        return split_bodies(match.game, state, version, status, seats, pending, may)

    async def read_bodies(self, room_id: str, seats: set[int | None]) -> Split:
        return await run_in_threadpool(self.current_bodies, room_id, seats)

    def bodies_after(self, room_id: str, move: dict[str, Any], seats: set[int | None]) -> Split | None:
        """Each viewer's body after a published move, from the move's record (app/services/records.py):
        the one held here, or one made from the state this process holds from before the move, with the
        move replayed (engines are deterministic). None: neither is held, read the database."""
        record = self._record_of(room_id, move)
        return record_bodies(record, seats, self.verdicts) if record is not None else None

    def _record_of(self, room_id: str, move: dict[str, Any]) -> MoveRecord | None:
        match_id, version = move["match"], move["version"]
        held = self.verdicts.held(match_id, version)
        if held is not None:
            return held
        seat, action = move["seat"], move["action"]
        if taken_back(action) is not None:
            return None  # the state to go back to is not held: read it
        cached = self.cache.get(match_id)
        if cached is None or cached[0] != version - 1:
            return None
        try:
            state = get_engine(move["game"]).apply(cached[1], seat, action)
        except Exception:
            return None
        self.cache.put(match_id, version, state)
        facts = self.seats.known_facts(room_id)
        return self.verdicts.made(
            match_id,
            move["game"],
            version,
            seat,
            action,
            move["status"],
            cached[1],
            state,
            facts is not None and seat in facts.bots,
        )

    def log(self, room_id: str, token: str | None) -> Body:
        seat = self.seats.seat_of(room_id, token)
        with self.db.read() as session:
            return log_body(session, room_id, seat)

    def written_log(self, room_id: str, token: str | None) -> WrittenLog:
        """The log as the token's holder may read it, as the bytes GET /log sends."""
        seat = self.seats.seat_of(room_id, token)
        with self.db.read() as session:
            return self.logs.written(session, room_id, seat)
