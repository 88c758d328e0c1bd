"""The action log (GET /api/rooms/{id}/log) as JSON bytes, kept per match and reader and grown as the
match moves, so that a read costs about the same for a match of ten actions as for one of four thousand.

A log only grows: an action appends an entry, and so does a takeback (the entry it takes back stays).
Each entry is redacted for its reader by `engine.public_action`, from the entry alone, so what a reader
was shown of an earlier entry never changes while the match is played; once it is finished every entry
is shown whole and the seed is added. So a kept body is valid exactly for the match version (and
status) it was written at, and the body of a later version is the kept one with the new entries
appended, read by their seq.

Each body is kept plain and gzip-compressed. The gzip form is grown too (`Packed`): the body but for
its closing bytes is held as deflate blocks none of which is marked last; new entries are compressed
on their own and appended, and the closing bytes go in a last stream of their own. Entries compressed
apart compress worse, so once those are a quarter of the body it is all compressed again, which keeps
the work per appended byte bounded.

Bodies are kept in this process within a byte budget, least recently used first out. What a reader
may see is in the key (`reader`): a seat's redaction is never handed to another viewer. Games whose
actions are all public (no `public_action` of their own) share one body for every viewer.
"""

from __future__ import annotations

import gzip
import hashlib
import struct
import threading
import zlib
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from app.models import ActionRow, Match
from app.replay import dumps
from app.services import matches
from engines.core import Engine, get_engine
from engines.core.takeback import taken_back

# Bytes of bodies a process keeps. A 3,700-action Moby Trick log is 330 KB plain and 40 KB gzip
# (bench/log.py), about 410 KB with the blocks its gzip form grows from: this holds some 160 such
# logs (one per match and reader), or thousands of usual ones.
BUDGET = 64 * 1024 * 1024
# The GZip middleware's level.
GZIP_LEVEL = 6
# Entries compressed apart (a few moves' at a time) make up at most 1/APART_SHARE of a body's gzip
# form; past it the whole body is compressed again.
APART_SHARE = 4
# Part of every ETag: a change to how bodies are written must change every tag a client may hold.
FORMAT = "1"
# gzip header (RFC 1952): deflate, no name or flags, mtime 0, no extra flags, OS unknown.
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
# The reader of a body every viewer may read: a finished match, or a game that redacts nothing.
EVERYONE = "everyone"
# Guards against two worker threads writing the same body at once (one waits and takes the other's).
_STRIPES = 64

Reader = int | str | None


def logged_action(engine: Engine[Any], action: Any, seat: int, viewer: int | None, finished: bool) -> Any:
    """An entry's action as `viewer` may read it: whole once the match is over, and a takeback entry
    (which names only the seq it takes back) always; otherwise as the engine's `public_action` says."""
    if finished or taken_back(action) is not None:
        return action
    return engine.public_action(action, seat, viewer)


def redacts(engine: Engine[Any]) -> bool:
    """Whether a game shows some actions differently to different viewers."""
    return type(engine).public_action is not Engine.public_action


@dataclass(frozen=True)
class Packed:
    """The gzip form of a body's opening bytes, left open so more can follow: deflate blocks, none marked
    last, ending on a byte boundary (each run ends with a sync flush)."""

    blocks: bytes
    size: int  # plain bytes packed
    crc: int  # their CRC-32
    apart: int  # of `size`, bytes compressed apart since the last whole compression

    def extended(self, opening: bytes) -> Packed:
        """The gzip form of `opening`, which starts with the bytes packed here."""
        more = opening[self.size :]
        if (self.apart + len(more)) * APART_SHARE > len(opening):
            return pack(opening)
        return Packed(
            self.blocks + _deflated(more, zlib.Z_SYNC_FLUSH),
            len(opening),
            zlib.crc32(more, self.crc),
            self.apart + len(more),
        )

    def closed(self, closing: bytes) -> bytes:
        """The whole gzip member: the blocks, then `closing` as a deflate stream of its own whose last
        block ends the member (a decoder reads blocks one after another, whoever compressed them)."""
        trailer = struct.pack("<II", zlib.crc32(closing, self.crc), (self.size + len(closing)) & 0xFFFFFFFF)
        return _GZIP_HEADER + self.blocks + _deflated(closing, zlib.Z_FINISH) + trailer


def _deflated(data: bytes, flush: int) -> bytes:
    compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush(flush)


def pack(opening: bytes) -> Packed:
    return Packed(_deflated(opening, zlib.Z_SYNC_FLUSH), len(opening), zlib.crc32(opening), 0)


@dataclass(frozen=True)
class WrittenLog:
    """A log body as the route sends it: plain, gzip-compressed, and its strong ETag (unquoted)."""

    body: bytes
    gzipped: bytes
    etag: str


@dataclass(frozen=True)
class Kept(WrittenLog):
    """A match's log for one reader at one version, with what the next version's body grows from."""

    commitment: str  # the match's seed commitment: match ids may be reused once a match is deleted
    version: int
    packed: Packed | None  # while the match is played: the gzip form of the body but its closing "]}"

    @property
    def weight(self) -> int:
        return (
            len(self.body) + len(self.gzipped) + (len(self.packed.blocks) if self.packed is not None else 0)
        )


def etag_of(match: Match, reader: Reader) -> str:
    """The tag of a body, from what decides it: the same in every process that writes that body."""
    identity = f"{FORMAT}:{match.seed_commitment}:{reader}:{match.version}:{match.status}"
    return hashlib.sha256(identity.encode()).hexdigest()[:32]


# A room whose match has not started yet.
_NOT_STARTED = dumps({"seed_commitment": None, "entries": []})
NOT_STARTED = WrittenLog(
    _NOT_STARTED,
    gzip.compress(_NOT_STARTED, GZIP_LEVEL, mtime=0),
    hashlib.sha256(FORMAT.encode() + _NOT_STARTED).hexdigest()[:32],
)
# What closes the body of a match in play.
_CLOSING = b"]}"

_ROWS = (
    select(ActionRow.seq, ActionRow.seat, ActionRow.action, ActionRow.created_at)
    .where(
        ActionRow.match_id == bindparam("match_id"),
        ActionRow.seq >= bindparam("first"),
        ActionRow.seq < bindparam("version"),
    )
    .order_by(ActionRow.seq)
)


class ActionLogs:
    """Each room's log body per reader, written once per version and kept within `budget` bytes."""

    def __init__(self, budget: int = BUDGET) -> None:
        # Weighed in bytes (`Kept.weight`); the least recently read go first. The lock: worker threads
        # share it, and cachetools' caches are not thread-safe.
        self._kept: LRUCache[tuple[int, Reader], Kept] = LRUCache(budget, getsizeof=_weight)
        self._lock = threading.Lock()
        self._stripes = [threading.Lock() for _ in range(_STRIPES)]

    def written(self, session: Session, room_id: str, viewer: int | None) -> WrittenLog:
        """The log body of the room's match as `viewer` (a seat, None: a spectator) may read it now.
        The room is known to exist (the caller found the viewer's seat in it)."""
        match = matches.current_match(session, room_id)
        if match is None:
            return NOT_STARTED
        engine = get_engine(match.game)
        finished = match.status == "finished"
        reader: Reader = viewer if redacts(engine) and not finished else EVERYONE
        key = (match.id, reader)
        kept = self._current(key, match)
        if kept is not None:
            return kept
        with self._stripes[hash(key) % _STRIPES]:
            # Another thread may have written it while this one waited.
            kept = self._current(key, match)
            if kept is not None:
                return kept
            # A body kept at an earlier version of this match in play grows; any other is written anew.
            earlier = self._get(key)
            if earlier is None or earlier.commitment != match.seed_commitment or finished:
                earlier = None
            kept = self._write(session, engine, match, reader, viewer, earlier)
            self._put(key, kept)
            return kept

    def _current(self, key: tuple[int, Reader], match: Match) -> Kept | None:
        """The kept body if it is the match's at the version read, or at a later one another thread read
        (the move that ends a match is its last version: a body kept in play is never at or past it)."""
        kept = self._get(key)
        if kept is None or kept.commitment != match.seed_commitment or kept.version < match.version:
            return None
        return kept

    def _write(
        self,
        session: Session,
        engine: Engine[Any],
        match: Match,
        reader: Reader,
        viewer: int | None,
        earlier: Kept | None,
    ) -> Kept:
        """The body at the match's version: `earlier` with the entries since appended, or all of it."""
        finished = match.status == "finished"
        first = earlier.version if earlier is not None else 1
        rows = session.execute(_ROWS, {"match_id": match.id, "first": first, "version": match.version})
        entries = b",".join(
            dumps(
                {
                    "seq": seq,
                    "seat": seat,
                    "action": logged_action(engine, action, seat, viewer, finished),
                    "at": at.isoformat(),
                }
            )
            for seq, seat, action, at in rows
        )
        if earlier is None:
            opening = dumps({"seed_commitment": match.seed_commitment, "entries": []})[: -len(_CLOSING)]
        else:
            opening = earlier.body[: -len(_CLOSING)]
        if entries:
            # The first entry comes straight after the list's "[".
            opening += b"," + entries if first > 1 else entries
        packed = None
        if finished:
            revealed = dumps({"seed": match.seed, "players": match.players, "options": match.options})
            closing = b"]," + revealed[1:]
            gzipped = pack(opening).closed(closing)
        else:
            closing = _CLOSING
            packed = earlier.packed.extended(opening) if earlier and earlier.packed else pack(opening)
            gzipped = packed.closed(closing)
        body = opening + closing
        return Kept(body, gzipped, etag_of(match, reader), match.seed_commitment, match.version, packed)

    def _get(self, key: tuple[int, Reader]) -> Kept | None:
        with self._lock:
            return self._kept.get(key)

    def _put(self, key: tuple[int, Reader], kept: Kept) -> None:
        if kept.weight > self.budget:
            return  # larger than everything kept together: written for this request only
        with self._lock:
            self._kept[key] = kept

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def budget(self) -> int:
        """Bytes of bodies kept at most."""
        return int(self._kept.maxsize)

    @budget.setter
    def budget(self, budget: int) -> None:
        """A new budget starts an empty cache (the bodies are written again when read)."""
        with self._lock:
            self._kept = LRUCache(budget, getsizeof=_weight)

    @property
    def weight(self) -> int:
        """Bytes of bodies kept now."""
        return int(self._kept.currsize)


def _weight(kept: Kept) -> int:
    return kept.weight
