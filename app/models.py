"""The database schema: rooms, seats, matches and their append-only action log."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Predictable constraint names, so Alembic migrations can refer to them on every backend.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Json = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(Json)
    host_seat: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Set once the first player asks for a rematch; everyone else is sent to the same room.
    rematch_id: Mapped[str | None] = mapped_column(String(32), default=None, index=True)
    # Seconds each move may take (None: no clock); the deadline is read from the match's last move.
    clock: Mapped[int | None] = mapped_column(Integer, default=None)
    # Whether spectators may write in the table chat (the host decides).
    chat_spectators: Mapped[bool] = mapped_column(Boolean, default=False)
    # Bumped whenever a seat's token or player changes (handover, leave, removal, a bot standing in):
    # every process compares it with what it cached, so a revoked token stops working within seconds
    # even when the broker's message was lost (app/playing/seatwatch.py).
    seat_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # A digest of the address that made the room (app/ratelimit.py's quotas), None for older rooms.
    creator: Mapped[str | None] = mapped_column(String(64), default=None, index=True)


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    # sha256 hex of the bearer token; bots have none.
    token_hash: Mapped[str | None] = mapped_column(String(64))
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_kind: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A bot plays this person's turns until they come back (the seat keeps its name and token).
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False)
    # When the seat's last socket opened or closed: "gone for N minutes" counts from here.
    last_seen: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), unique=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(Json)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    seed_commitment: Mapped[str] = mapped_column(String(64))
    # 1 right after setup, +1 per applied action: action `seq` n turns version n into n + 1.
    version: Mapped[int] = mapped_column(Integer, default=1)
    round: Mapped[int] = mapped_column(Integer, default=1)
    # The one record of a room's status: a room without a match is waiting, with one it is this.
    status: Mapped[str] = mapped_column(String(16), default="playing")
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("match_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(Json)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Snapshot(Base):
    __tablename__ = "snapshots"
    __table_args__ = (UniqueConstraint("match_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]] = mapped_column(Json)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ScoreRow(Base):
    __tablename__ = "scorepad_rows"
    __table_args__ = (UniqueConstraint("match_id", "round", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)


class SeatRequest(Base):
    """Someone who lost their seat's every copy asks for it back; approved, their token replaces the old."""

    __tablename__ = "seat_requests"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    # sha256 of the token handed to the asker: it becomes the seat's token once approved.
    token_hash: Mapped[str] = mapped_column(String(64))
    # pending, waiting (approved by someone other than the holder: in its refusal window), approved,
    # refused or expired (see docs/people.md for the state machine).
    status: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A digest of the asking address: each address holds its own places among a room's requests.
    asker: Mapped[str | None] = mapped_column(String(64), default=None)
    # Who approved (the seat whose approval settled it) and the seats that approved so far (a gone
    # holder's seat may need a majority of the others), and when the handover takes effect (the end
    # of the refusal window).
    approved_by: Mapped[int | None] = mapped_column(Integer, default=None)
    approvals: Mapped[list[int]] = mapped_column(Json, default=list)
    effective_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    # None: a spectator (when the host lets spectators write).
    seat: Mapped[int | None] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(400))
    # The seq of the match's last event when it was said (None before the first deal): the
    # table's log shows the message after that event.
    after_seq: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # "chat": written by a person; "seat": the table's own line (a seat moved to another device,
    # a player left or was removed), shown to everyone and never muted.
    kind: Mapped[str] = mapped_column(String(16), default="chat", server_default="chat")


class SeatMove(Base):
    """A token that stopped working, and why: a dead seat link can then say what happened to it."""

    __tablename__ = "seat_moves"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    # sha256 of the token that stopped working.
    old_token_hash: Mapped[str] = mapped_column(String(64), index=True)
    # moved (to another device), left, removed (by the host, after being gone).
    reason: Mapped[str] = mapped_column(String(16))
    # Who approved a move (a seat number; None: the holder themselves, or not a move).
    by_seat: Mapped[int | None] = mapped_column(Integer, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Replay(Base):
    """A finished match's replay body for one viewpoint, built once and kept gzip-compressed."""

    __tablename__ = "replays"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    # "all", "spectator" or a seat number written as text.
    viewpoint: Mapped[str] = mapped_column(String(16), primary_key=True)
    # A strong ETag: the sha256 of the uncompressed body.
    etag: Mapped[str] = mapped_column(String(64))
    body: Mapped[bytes] = mapped_column(LargeBinary)
    # Length of the uncompressed body in bytes.
    size: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
