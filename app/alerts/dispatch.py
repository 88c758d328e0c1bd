"""When alerts go out, and to whom (docs/people.md "Alerts").

The Publisher hands every event this process publishes to `heard`, which only queues it: a move never
waits for an alert. A loop of its own reads the room (a worker thread) and decides:
- turn: a person's turn came (a bot does not play for them) and their seat has had no socket open on
  the room for `grace` seconds (a player at the table is not pinged; one who closes the tab during
  their turn is, `grace` seconds later);
- clock: a quarter of the seat's move clock is left and the seat has not moved;
- seat_request: someone asks for the seat (to its holder);
- finished: the match ended (to every person seated);
- rematch: a rematch room was made (to every person seated but the one who made it).
At most one alert per seat and room a minute: a later one waits for the minute to pass (the newest
wins; a turn or clock alert is dropped if the seat no longer has to act by then). Each alert passes
every `Gate` (quiet hours, a pause), then goes to every `Channel`, each in a task of its own.

The process that published the event decides and sends, so an alert leaves once whatever the number
of processes. What it waits on (the grace, the clock) is held in memory; on start it is rebuilt from
the database for the rooms in play where someone asked for alerts, and every turn and clock alert is
claimed in `alert_marks` before it goes (app/alerts/marks.py), so a restart never sends one twice.
The other three (finished, rematch, seat_request) are written in `alert_outbox` by the change that
calls for them, in its transaction (app/services/outbox.py): the dispatcher takes them from there (at
once on the event, and every few seconds whatever a process that died left behind) and deletes each
once every channel is done with it, so a crash in between delays the alert and never loses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from app.alerts import marks
from app.alerts.core import Alert, Channel, Event, Gate
from app.clock import SYSTEM_CLOCK, Clock
from app.db import Database, unavailable
from app.i18n import N_, N_plural, Words
from app.models import ActionRow, Room, Seat
from app.realtime.presence import Presence
from app.services import matches, outbox, people
from app.services.cache import StateCache
from app.tasks import cancel_and_wait
from engines.core import get_engine

log = logging.getLogger(__name__)

# One alert per seat and room in this many seconds.
PER_SEAT_SECONDS = 60.0
# Seconds between looks at what waits (the grace, the clocks, alerts held back by the minute).
TICK = 0.5
# Seconds a look waits, once an event has come, for the events that follow it, which it then takes in
# too: a busy server looks a few times a second, not once per move (a task wake-up, a timer and the
# due check each; 4.6% of a paced move's samples at a look per move: docs/performance.md). A seat's
# alert waits a grace of seconds anyway.
GATHER = 0.05
# Events waiting to be looked at; past it new ones are dropped (and logged), never the caller blocked.
QUEUE = 10_000

Key = tuple[str, int]


@dataclass(frozen=True)
class Person:
    name: str
    stand_in: bool
    last_seen: float | None


@dataclass(frozen=True)
class Table:
    """What the dispatcher needs of a room: public facts only."""

    room_id: str
    game: str
    status: str
    match_id: int | None
    version: int
    to_act: frozenset[int]
    people: dict[int, Person]
    clock: int | None
    deadline: float | None
    last_mover: int | None = None


@dataclass
class Waiting:
    """A seat whose turn came: since when, and whether it was alerted for this turn."""

    since: float
    alerted: bool = False


@dataclass
class Due:
    """The clock alert of a seat for one version of the match."""

    version: int
    at: float
    seconds_left: float = 0.0


def read_table(db: Database, cache: StateCache, room_id: str) -> Table | None:
    with db.read() as session:
        room = session.get(Room, room_id)
        if room is None:
            return None
        seats = session.scalars(select(Seat).where(Seat.room_id == room_id)).all()
        persons = {
            s.seat: Person(s.name, s.stand_in, people.aware(s.last_seen).timestamp() if s.last_seen else None)
            for s in seats
            if not s.bot and s.token_hash is not None
        }
        match = matches.current_match(session, room_id)
        if match is None:
            return Table(room_id, room.game, "waiting", None, 0, frozenset(), persons, room.clock, None)
        state = matches.load_state(session, match, cache)
        to_act = frozenset(get_engine(match.game).to_act(state)) if match.status == "playing" else frozenset()
        due = people.deadline(session, room, match)
        last = session.scalar(
            select(ActionRow.seat)
            .where(ActionRow.match_id == match.id)
            .order_by(ActionRow.seq.desc())
            .limit(1)
        )
        return Table(
            room_id,
            match.game,
            match.status,
            match.id,
            match.version,
            to_act,
            persons,
            room.clock,
            due.timestamp() if due is not None else None,
            last,
        )


def _title(game: str) -> str:
    try:
        return get_engine(game).spec.title
    except Exception:
        return game


def _duration(seconds: float) -> Words:
    if seconds >= 90:
        return N_plural("%(num)s minute", "%(num)s minutes", round(seconds / 60))
    return N_plural("%(num)s second", "%(num)s seconds", max(1, round(seconds)))


def build(table: Table, seat: int, event: Event, **facts: Any) -> Alert:
    """An alert in words, from public facts only: Words, worded by each channel in the language of
    each device or address (the one its page was in when alerts were turned on)."""
    game = _title(table.game)
    mover = table.people.get(table.last_mover) if table.last_mover is not None else None
    title: Words
    body: Words
    if event == "turn":
        title = Words(N_("%(game)s: your turn"), game=game)
        body = (
            Words(N_("%(name)s played; the table waits for you."), name=mover.name)
            if mover is not None and table.last_mover != seat
            else Words(N_("The table waits for you."))
        )
    elif event == "clock":
        title = Words(N_("%(game)s: your clock is running out"), game=game)
        body = Words(N_("About %(left)s left for your move."), left=_duration(facts.get("seconds_left", 0.0)))
    elif event == "seat_request":
        title = Words(N_("%(game)s: someone asks for your seat"), game=game)
        body = Words(
            N_("Someone asked to play your seat on another device. Open the room to allow or refuse it.")
        )
    elif event == "finished":
        title = Words(N_("%(game)s: the match is over"), game=game)
        body = Words(N_("See the final scores and ask for a rematch."))
    else:
        by = facts.get("by")
        title = Words(N_("%(game)s: a rematch"), game=game)
        body = (
            Words(N_("%(name)s started a rematch. Join them."), name=by)
            if by
            else Words(N_("A rematch has started. Join it."))
        )
    return Alert(table.room_id, seat, event, game, title, body, f"/r/{table.room_id}")


@dataclass
class Dispatch:
    db: Database
    cache: StateCache
    presence: Presence
    grace: float
    gates: Sequence[Gate] = ()
    channels: Sequence[Channel] = ()
    per_seat: float = PER_SEAT_SECONDS
    tick: float = TICK
    gather: float = GATHER
    # What time it is (`clock.wall()`: compared with the times the database holds); the Runtime's
    # clock (app/clock.py), which tests move. The loop's tick stays on the event loop's own timer:
    # it is how often to look, not what time it is.
    clock: Clock = SYSTEM_CLOCK
    # Looks completed so far: a test waits for one that began after it moved the clock.
    steps: int = field(default=0, init=False)
    _queue: asyncio.Queue[tuple[str, dict[str, Any]]] = field(init=False)
    _waiting: dict[Key, Waiting] = field(default_factory=dict, init=False)
    _clocks: dict[Key, Due] = field(default_factory=dict, init=False)
    _sent: dict[Key, float] = field(default_factory=dict, init=False)
    # Alerts waiting for the seat's minute, with the outbox row each came from (None: turn, clock).
    _held: dict[Key, tuple[Alert, Table, int | None]] = field(default_factory=dict, init=False)
    # Outbox rows this process took and has not finished with (their hold is renewed).
    _owned: set[int] = field(default_factory=set, init=False)
    _swept: float = field(default=float("-inf"), init=False)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set, init=False)
    # Turn and clock alerts that passed the minute and the gates, to be claimed before they go.
    _outbox: list[tuple[Alert, Table]] = field(default_factory=list, init=False)
    _resumed: bool = field(default=False, init=False)
    _loop: asyncio.Task[None] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self._queue = asyncio.Queue(QUEUE)

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock.wall(), UTC)

    @property
    def delivering(self) -> int:
        """Alerts on their way to the channels now."""
        return len(self._tasks)

    # -- from the publisher (on the event loop, never waiting) ----------------------------------
    def heard(self, room_id: str, event: dict[str, Any]) -> None:
        if event.get("kind") not in ("state", "seats", "asked", "rematch", "gone"):
            return
        try:
            self._queue.put_nowait((room_id, event))
        except asyncio.QueueFull:
            log.warning("alerts: too many events waiting; one of room %s dropped", room_id)

    # -- the loop --------------------------------------------------------------------------------
    async def start(self) -> None:
        for channel in self.channels:
            starting = getattr(channel, "start", None)
            if starting is not None:
                await starting()
        self._loop = asyncio.create_task(self.run())

    async def stop(self) -> None:
        await cancel_and_wait(self._loop)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for channel in self.channels:
            stopping = getattr(channel, "stop", None)
            if stopping is not None:
                await stopping()

    async def run(self) -> None:
        while True:
            try:
                if not self._resumed:
                    self._resumed = True  # once: a failure is logged below, the loop goes on
                    await self._resume()
                await self._step()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if unavailable(error):
                    log.warning("alerts: the database is unreachable; retrying")
                else:
                    log.exception("alerts: deciding what to send failed")
                await asyncio.sleep(self.tick)

    async def _step(self) -> None:
        events: list[tuple[str, dict[str, Any]]] = []
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.tick):
                events.append(await self._queue.get())
        if events and self.gather > 0:
            await asyncio.sleep(self.gather)
        while not self._queue.empty():
            events.append(self._queue.get_nowait())
        # The room is read once for all its moves in this batch; the other events keep their order.
        # Whoever moved in the batch ended their turn, even if the table came back to them within it.
        movers: dict[str, set[int]] = {}
        for room_id, event in events:
            if event["kind"] == "state" and isinstance(event.get("seat"), int):
                movers.setdefault(room_id, set()).add(event["seat"])
        looked: set[str] = set()
        for room_id, event in events:
            kind = event["kind"]
            if kind == "state":
                if room_id not in looked:
                    looked.add(room_id)
                    if await self._interested(room_id):
                        await self._moved(room_id, movers.get(room_id, set()))
            elif kind == "seats":
                for channel in self.channels:
                    changed = getattr(channel, "seats_changed", None)
                    if changed is not None:
                        await changed(room_id)
                if room_id not in looked:
                    looked.add(room_id)
                    await self._moved(room_id)
            elif kind == "gone":
                self._forget(room_id)
            elif kind in ("asked", "rematch"):
                await self._take(room_id)
        await self._due()
        await self._flush()
        if self.clock.wall() >= self._swept + outbox.SWEEP:
            await self._sweep()
        self.steps += 1

    async def _resume(self) -> None:
        """After a start: what was waited on before it (the grace of a seat to act, a clock's quarter),
        for the rooms in play where someone asked for alerts. A seat to act with no socket is alerted a
        grace after the start, unless its alert for this very turn went out already."""
        rooms = await run_in_threadpool(marks.rooms_in_play, self.db)
        started = self.clock.wall()
        for room_id in rooms:
            table = await self._table(room_id)
            if table is None or table.status != "playing" or table.match_id is None:
                continue
            acting = sorted(
                seat for seat in table.to_act if seat in table.people and not table.people[seat].stand_in
            )
            if not acting:
                continue
            found, turns = await run_in_threadpool(
                marks.resume_facts, self.db, room_id, table.match_id, acting
            )
            for (seat, _event), mark in found.items():
                key = (room_id, seat)
                self._sent[key] = max(self._sent.get(key, float("-inf")), mark.sent_at)
            for seat in acting:
                key = (room_id, seat)
                done = marks.already(found, seat, "turn", table.match_id, turns[seat])
                self._waiting.setdefault(key, Waiting(started, alerted=done))
                clock_sent = marks.already(found, seat, "clock", table.match_id, table.version)
                if table.clock and table.deadline is not None and key not in self._clocks and not clock_sent:
                    self._clocks[key] = Due(table.version, table.deadline - table.clock / 4)
        if rooms:
            log.info("alerts: looked again at %d room(s) in play after the start", len(rooms))

    async def _sweep(self) -> None:
        """Every SWEEP seconds: holds on to the outbox rows this process has, and takes those nobody
        holds (a process that died left them, the one before this start included)."""
        self._swept = self.clock.wall()
        now = self._now()
        if self._owned:
            await run_in_threadpool(outbox.renew, self.db, sorted(self._owned), now)
        await self._take(None)

    async def _take(self, room_id: str | None) -> None:
        """Takes the outbox rows nobody holds (of one room, or all) and sends each alert."""
        rows = await run_in_threadpool(outbox.take, self.db, self._now(), room_id)
        tables: dict[str, Table | None] = {}
        for row in rows:
            if row.id in self._owned:
                continue  # its hold lapsed while this process still has it: already on its way
            self._owned.add(row.id)
            try:
                await self._send_pending(row, tables)
            except Exception:
                # Let go: its hold lapses and a later look takes it again (the failure is logged by
                # the loop). The rows after it in this batch lapse the same way.
                self._owned.discard(row.id)
                raise

    async def _send_pending(self, row: outbox.Pending, tables: dict[str, Table | None]) -> None:
        if row.room_id not in tables:
            tables[row.room_id] = await self._table(row.room_id)
        table = tables[row.room_id]
        if table is None or row.seat not in table.people:
            await self._finish([row.id])  # the room or the seat's player is gone
            return
        if row.event == "rematch":
            maker = table.people.get(row.by_seat) if row.by_seat is not None else None
            alert = build(table, row.seat, "rematch", by=maker.name if maker else None)
        elif row.event in ("finished", "seat_request"):
            alert = build(table, row.seat, row.event)  # type: ignore[arg-type]
        else:
            await self._finish([row.id])
            return
        await self._send(alert, table, row.id)

    async def _finish(self, ids: list[int]) -> None:
        """The outbox rows whose alerts every channel is done with (or that need none): deleted."""
        self._owned.difference_update(ids)
        try:
            await run_in_threadpool(outbox.done, self.db, ids)
        except Exception:
            # Left in the table, the rows are taken again once their hold lapses: twice, not never.
            log.exception("alerts: marking %d alert(s) sent failed", len(ids))

    async def _flush(self) -> None:
        """Claims the turn and clock alerts decided in this step (one transaction), then sends those
        whose turn no restart or other process alerted already."""
        if not self._outbox:
            return
        outbox, self._outbox = self._outbox, []
        claims = [marks.Claim(a.room_id, a.seat, a.event, t.match_id or 0, t.version) for a, t in outbox]
        try:
            won = await run_in_threadpool(marks.claim, self.db, claims, self._now())
        except Exception:
            # Better twice than never: an alert is not held back by a failed bookkeeping write.
            log.exception("alerts: claiming %d alert(s) failed; sending them anyway", len(claims))
            won = [True] * len(claims)
        for (alert, _table), ok in zip(outbox, won, strict=True):
            if ok:
                self._deliver_all(alert)

    async def _interested(self, room_id: str) -> bool:
        """Whether any channel could deliver to a seat of the room: a room nobody asked alerts for
        costs no read per move. A channel without an `interested` method is always interested."""
        for channel in self.channels:
            interested = getattr(channel, "interested", None)
            if interested is None or await interested(room_id):
                return True
        return False

    async def _table(self, room_id: str) -> Table | None:
        return await run_in_threadpool(read_table, self.db, self.cache, room_id)

    def _forget(self, room_id: str) -> None:
        for key, (_alert, _table, row) in list(self._held.items()):
            if key[0] == room_id and row is not None:
                self._owned.discard(row)  # deleted with the room
        for store in (self._waiting, self._clocks, self._held):
            for key in [key for key in store if key[0] == room_id]:
                del store[key]

    async def _moved(self, room_id: str, movers: Collection[int] = ()) -> None:
        """`movers`: the seats that moved since the last look (their turn ended, whatever follows)."""
        table = await self._table(room_id)
        if table is None:
            self._forget(room_id)
            return
        now = self.clock.wall()
        if table.status == "finished" and table.match_id is not None:
            for store in (self._waiting, self._clocks):
                for key in [key for key in store if key[0] == room_id]:
                    del store[key]
            await self._take(room_id)  # the end's alerts, written with the last move
            return
        acting = {seat for seat in table.to_act if seat in table.people and not table.people[seat].stand_in}
        for key in [
            key for key in self._waiting if key[0] == room_id and (key[1] not in acting or key[1] in movers)
        ]:
            del self._waiting[key]
        for key in [key for key in self._clocks if key[0] == room_id and key[1] not in acting]:
            del self._clocks[key]
        for seat in acting:
            self._waiting.setdefault((room_id, seat), Waiting(now))
            if table.clock and table.deadline is not None:
                due = self._clocks.get((room_id, seat))
                if due is None or due.version != table.version:
                    at = table.deadline - table.clock / 4
                    self._clocks[(room_id, seat)] = Due(table.version, at)

    async def _due(self) -> None:
        now = self.clock.wall()
        rooms = {
            key[0]
            for key, wait in self._waiting.items()
            if not wait.alerted and now >= wait.since + self.grace
        }
        rooms |= {key[0] for key, due in self._clocks.items() if now >= due.at}
        rooms |= {key[0] for key in self._held if now >= self._sent.get(key, 0.0) + self.per_seat}
        for room_id in rooms:
            table = await self._table(room_id)
            if table is None:
                self._forget(room_id)
                continue
            await self._room_due(table, self.clock.wall())

    async def _room_due(self, table: Table, now: float) -> None:
        room_id = table.room_id
        connected = await self.presence.known(room_id)
        for key, wait in list(self._waiting.items()):
            if key[0] != room_id or wait.alerted or now < wait.since + self.grace:
                continue
            seat = key[1]
            person = table.people.get(seat)
            if person is None or seat not in table.to_act or person.stand_in:
                del self._waiting[key]
                continue
            if connected is None:
                continue  # presence unknown (Redis away): look again later rather than ping a player here
            if seat in connected:
                wait.since = now  # at the table: the grace starts again when they leave
                continue
            if person.last_seen is not None and now < person.last_seen + self.grace:
                wait.since = person.last_seen  # left during the grace: counted from when they left
                continue
            wait.alerted = True
            await self._send(build(table, seat, "turn"), table)
        for key, due in list(self._clocks.items()):
            if key[0] != room_id or now < due.at:
                continue
            del self._clocks[key]
            if (
                table.version == due.version
                and key[1] in table.to_act
                and table.deadline is not None
                and now < table.deadline
            ):
                await self._send(build(table, key[1], "clock", seconds_left=table.deadline - now), table)
        for key, (alert, _old, row) in list(self._held.items()):
            if key[0] != room_id or now < self._sent.get(key, 0.0) + self.per_seat:
                continue
            del self._held[key]
            if alert.event in ("turn", "clock") and key[1] not in table.to_act:
                continue  # the seat moved meanwhile: the alert is stale
            await self._send(alert, table, row)

    async def _send(self, alert: Alert, table: Table, row: int | None = None) -> None:
        """`row`: the outbox row the alert came from, deleted once it is sent or refused."""
        key = (alert.room_id, alert.seat)
        now = self.clock.wall()
        if now < self._sent.get(key, float("-inf")) + self.per_seat:
            older = self._held.get(key)
            self._held[key] = (alert, table, row)
            if older is not None and older[2] is not None and older[2] != row:
                await self._finish([older[2]])  # the newest waiting alert wins
            return
        for gate in self.gates:
            if not await gate.allows(alert, now):
                if row is not None:
                    await self._finish([row])  # quiet hours or a pause: not sent, by the player's wish
                return
        self._sent[key] = now
        if len(self._sent) > 4 * QUEUE:
            for old in [k for k, at in self._sent.items() if now - at > self.per_seat]:
                del self._sent[old]
        if alert.event in ("turn", "clock") and table.match_id is not None:
            self._outbox.append((alert, table))  # claimed first (_flush): once per turn
        else:
            self._deliver_all(alert, row)

    def _deliver_all(self, alert: Alert, row: int | None = None) -> None:
        task = asyncio.create_task(self._deliver_everywhere(alert, row))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver_everywhere(self, alert: Alert, row: int | None) -> None:
        """Every channel at once (each keeps its own retries); the outbox row goes once all are done."""
        await asyncio.gather(*(self._deliver(channel, alert) for channel in self.channels))
        if row is not None:
            await self._finish([row])

    @staticmethod
    async def _deliver(channel: Channel, alert: Alert) -> None:
        try:
            await channel.deliver(alert)
        except Exception:
            log.exception("alerts: the %s channel failed on %s", channel.name, alert.event)
