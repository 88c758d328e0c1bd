"""A finished match, step by step, as a chosen seat saw it (or with every hand open).

Built from the revealed seed and the action log, through the same replay the verifier uses.
Refused until the match is over, so a replay never shows a card that is still hidden in play.

A finished match never changes, so each viewpoint's body is built once and kept in the `replays`
table, gzip-compressed, with the sha256 of the uncompressed bytes as its ETag. The build writes the
JSON step by step into the compressor: it holds the compressed body and one step, never the whole
match as Python objects (a long 7-seat Mojo match is over 20 MiB of JSON). Within a process, requests
for a body being built wait for that build; processes racing to store the same body keep whichever
row landed first.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, cast

import orjson
from sqlalchemy import CursorResult, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.db import Database
from app.errors import AppError
from app.i18n import N_
from app.models import ActionRow, Match, Replay, utcnow
from app.realtime.patch import diff
from app.services.lookup import find_room
from app.services.matches import current_match
from engines.core import get_engine
from engines.core.replay import replay_states

ALL = "all"
SPECTATOR = "spectator"

# Built once and sent many times: the best compression is worth its extra CPU (on a 16 MB body, 0.2 s
# more than level 6 for a body 17% smaller).
GZIP_LEVEL = 9
# Uncompressed bytes handed to the compressor at a time: a few steps' worth, far below a whole match.
WRITE_BUFFER = 64 * 1024
# Largest piece of the uncompressed body held at once while it is sent to a client without gzip.
INFLATE_CHUNK = 256 * 1024


def parse_viewpoint(raw: str | None, players: int) -> int | str:
    """`all` (every hand open), `spectator`, or a seat number of the match."""
    if raw in (None, "", SPECTATOR):
        return SPECTATOR
    if raw == ALL:
        return ALL
    if raw is not None and raw.isascii() and raw.isdigit() and int(raw) < players:
        return int(raw)
    raise AppError(
        "invalid_request",
        N_("seat must be a seat number from 0 to %(last)s, 'spectator' or 'all'"),
        last=players - 1,
    )


def _viewpoint_from_key(key: str) -> int | str:
    return key if key in (ALL, SPECTATOR) else int(key)


def finished_match(session: Session, room_id: str) -> Match:
    """The room's match once it is over; the contract's errors for a room that has none yet."""
    find_room(session, room_id)  # an unknown room is 404 not_found, not "not started"
    match = current_match(session, room_id)
    if match is None:
        raise AppError("not_started", N_("the match has not started yet, so there is nothing to replay"))
    if match.status != "finished":
        raise AppError("forbidden", N_("a match can be replayed once it is over"))
    return match


@dataclass(frozen=True)
class Source:
    """What a replay is built from, read in one short transaction so the build holds none open."""

    room_id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    viewpoint: int | str
    actions: list[tuple[int, Any]]

    def header(self) -> dict[str, Any]:
        return {
            "room_id": self.room_id,
            "game": self.game,
            "players": self.players,
            "viewpoint": self.viewpoint,
            "seed": self.seed,
        }


def _source(session: Session, match: Match, viewpoint: int | str) -> Source:
    rows = session.execute(
        select(ActionRow.seat, ActionRow.action).where(ActionRow.match_id == match.id).order_by(ActionRow.seq)
    )
    return Source(
        match.room_id,
        match.game,
        match.players,
        match.seed,
        match.options,
        viewpoint,
        [(seat, action) for seat, action in rows],
    )


def _tables_and_steps(source: Source) -> Iterator[dict[str, Any]]:
    """The first table, then one step (the action and its patch) per action, made one at a time.

    Each table is shaped like the live state body (`version`, `status`, `seat`, `to_act`,
    `legal_actions` — always empty — `view`, `result`); with every hand open, `views` holds each
    seat's own view and `view` the spectator's.
    """
    engine = get_engine(source.game)
    viewpoint = source.viewpoint
    seat = viewpoint if isinstance(viewpoint, int) else None
    actions = source.actions
    last = len(actions)

    def table(number: int, state: Any) -> dict[str, Any]:
        result = engine.result(state)
        body: dict[str, Any] = {
            "version": number + 1,
            "status": "finished" if number == last else "playing",
            "seat": seat,
            "to_act": sorted(engine.to_act(state)),
            "legal_actions": [],
            "view": engine.view(state, seat),
            "result": result.to_json() if result is not None else None,
        }
        if viewpoint == ALL:
            body["views"] = [engine.view(state, s) for s in range(source.players)]
        return body

    previous: dict[str, Any] | None = None
    states = replay_states(engine, source.players, source.seed, source.options, actions)
    for number, state in enumerate(states):
        current = table(number, state)
        if previous is None:
            yield current
        else:
            acted_seat, action = actions[number - 1]
            yield {"seat": acted_seat, "action": action, "ops": diff(previous, current)}
        previous = current


def dumps(value: Any) -> bytes:
    """JSON bytes as the API writes them (compact, UTF-8): orjson, or the json module for what orjson
    refuses (integers beyond 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def write_replay(source: Source, write: Callable[[bytes], None]) -> None:
    """The replay body as JSON, written a piece at a time without ever holding more than one step of
    it: the source's header, the first table and one RFC 6902 patch per action (`_tables_and_steps`)."""
    header = dumps(source.header())
    parts = _tables_and_steps(source)
    write(header[:-1] + b',"first":')
    write(dumps(next(parts)))
    write(b',"steps":[')
    for number, step in enumerate(parts):
        write(b"," + dumps(step) if number else dumps(step))
    write(b"]}")


@dataclass(frozen=True)
class StoredReplay:
    etag: str  # sha256 hex of the uncompressed body
    size: int  # length of the uncompressed body
    body: bytes  # the body, gzip-compressed


class _Compressed:
    """Bytes written in: gzip out, with the digest and length of what went in. Small writes are
    gathered first, since zlib does a little work per call however little it is given."""

    def __init__(self) -> None:
        # wbits 31: a gzip header and trailer (with mtime 0, so the same body compresses the same).
        self._compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 31)
        self._digest = hashlib.sha256()
        self._size = 0
        self._pending: list[bytes] = []
        self._pending_size = 0
        self._out: list[bytes] = []

    def write(self, data: bytes) -> None:
        self._pending.append(data)
        self._pending_size += len(data)
        if self._pending_size >= WRITE_BUFFER:
            self._drain()

    def _drain(self) -> None:
        data = b"".join(self._pending)
        self._pending.clear()
        self._pending_size = 0
        self._digest.update(data)
        self._size += len(data)
        if out := self._compressor.compress(data):
            self._out.append(out)

    def finish(self) -> StoredReplay:
        self._drain()
        self._out.append(self._compressor.flush())
        return StoredReplay(self._digest.hexdigest(), self._size, b"".join(self._out))


def compress_replay(source: Source) -> StoredReplay:
    sink = _Compressed()
    write_replay(source, sink.write)
    return sink.finish()


@dataclass(frozen=True)
class Found:
    """A finished match's replay as a request finds it: the stored ETag, or None if not built yet."""

    match_id: int
    viewpoint: str  # the `replays.viewpoint` key: "all", "spectator" or a seat number
    etag: str | None


def find_replay(session: Session, room_id: str, raw_viewpoint: str | None) -> Found:
    """The contract's checks in the order the route has always made them (the room, the match over,
    the viewpoint), then the stored body's ETag, without reading the body itself."""
    match = finished_match(session, room_id)
    key = str(parse_viewpoint(raw_viewpoint, match.players))
    etag = session.scalar(select(Replay.etag).where(Replay.match_id == match.id, Replay.viewpoint == key))
    return Found(match.id, key, etag)


def read_replay(session: Session, match_id: int, viewpoint: str) -> StoredReplay | None:
    row = session.execute(
        select(Replay.etag, Replay.size, Replay.body).where(
            Replay.match_id == match_id, Replay.viewpoint == viewpoint
        )
    ).one_or_none()
    return None if row is None else StoredReplay(row.etag, row.size, row.body)


def _gone() -> AppError:
    return AppError("not_found", N_("this room was deleted while its replay was asked for"))


def build_replay(db: Database, match_id: int, viewpoint: str) -> StoredReplay:
    """Build a viewpoint's body, store it, and return the stored row (another process's, when it stored
    the same body first). Blocking and CPU-bound: run it in a worker thread. Only the action list is
    read up front; the transaction is over before the build starts."""
    with db.read() as session:
        match = session.get(Match, match_id)
        if match is None or match.status != "finished":
            raise _gone()
        source = _source(session, match, _viewpoint_from_key(viewpoint))
    built = compress_replay(source)
    row = {
        "match_id": match_id,
        "viewpoint": viewpoint,
        "etag": built.etag,
        "body": built.body,
        "size": built.size,
        "created_at": utcnow(),
    }
    try:
        with db.transaction() as session:
            insert = postgresql_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
            added = cast(
                CursorResult[Any], session.execute(insert(Replay).values(row).on_conflict_do_nothing())
            )
            if added.rowcount == 1:
                return built
            stored = read_replay(session, match_id, viewpoint)
    except IntegrityError:
        raise _gone() from None  # the match was deleted (pruned) while this was built
    if stored is None:
        raise _gone()
    return stored


# Builds under way in this process: (database, match id, viewpoint) -> the build's future. Keyed by the
# database too, since two apps in one process (tests) may each have a match numbered 1.
_building: dict[tuple[Database, int, str], asyncio.Future[StoredReplay]] = {}


def _build_done(key: tuple[Database, int, str], future: asyncio.Future[StoredReplay]) -> None:
    if _building.get(key) is future:
        del _building[key]
    if not future.cancelled():
        future.exception()  # marks a failure as seen: every waiter may have given up already


async def built_replay(db: Database, match_id: int, viewpoint: str) -> StoredReplay:
    """The stored body, built now if it is missing; a second request for the same body while it is
    being built waits for that build instead of starting its own."""
    key = (db, match_id, viewpoint)
    future = _building.get(key)
    if future is None:
        future = asyncio.ensure_future(run_in_threadpool(build_replay, db, match_id, viewpoint))
        _building[key] = future
        future.add_done_callback(lambda done: _build_done(key, done))
    # A waiter that gives up (its client went away) leaves the build running for the others.
    return await asyncio.shield(future)


def inflate(body: bytes, chunk: int = INFLATE_CHUNK) -> Iterator[bytes]:
    """A stored body decompressed piece by piece, each at most `chunk` bytes."""
    inflater = zlib.decompressobj(wbits=31)
    out = inflater.decompress(body, chunk)
    while True:
        if out:
            yield out
        if inflater.eof:
            return
        if not out and not inflater.unconsumed_tail:
            raise ValueError("a stored replay body is truncated")
        out = inflater.decompress(inflater.unconsumed_tail, chunk)
