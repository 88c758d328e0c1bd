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
    # Bumped by every change of the room body that a move does not make (a join, a seat request, a
    # pause, presence...): the body's `revision` is this plus the match's version, so a client that
    # gets bodies by socket and by HTTP keeps the newest (app/playing/commands.py).
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # A digest of the address that made the room (app/ratelimit.py's quotas), None for older rooms.
    creator: Mapped[str | None] = mapped_column(String(64), default=None, index=True)
    # A pause the table agreed on (docs/people.md "Pause"): since when the game is paused (None: it is
    # not), when it was last resumed (the move clock counts from the later of that and the last move),
    # and an open request to pause: {"by", "at", "needed": [seats], "approvals": [seats]}.
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    resumed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    pause_request: Mapped[dict[str, Any] | None] = mapped_column(Json, default=None)


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
    # A table line as a message id and its places (app/i18n.py `words_json`), worded for each reader in
    # their language; `text` keeps its English. None: a person's words, or a line stored before (its
    # `text` is shown as it is).
    words: Mapped[dict[str, Any] | None] = mapped_column(Json, default=None)


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


class Passkey(Base):
    """A passkey a player attached to their seats: signing in with it on any device takes them back."""

    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The credential id as base64url (at most 1023 bytes: 1364 characters).
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    # sha256 of the passkey's user handle: the handle itself (which the authenticator keeps and
    # returns at each sign-in) is the key the seat tokens are sealed with, so it is never stored.
    user_hash: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class PasskeySeat(Base):
    """A seat a passkey holds: its token sealed with the passkey's user handle (AES-GCM), so a copy
    of the database alone opens no seat."""

    __tablename__ = "passkey_seats"
    __table_args__ = (UniqueConstraint("passkey_id", "room_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    passkey_id: Mapped[int] = mapped_column(ForeignKey("passkeys.id", ondelete="CASCADE"), index=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    sealed_token: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PasskeyChallenge(Base):
    """A WebAuthn challenge handed out and not yet answered (any process may check the answer)."""

    __tablename__ = "passkey_challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    # "register" or "login".
    purpose: Mapped[str] = mapped_column(String(16))
    # A new passkey's user handle, between the options and the registration (None for a sign-in).
    user_handle: Mapped[bytes | None] = mapped_column(LargeBinary, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class EmailAddress(Base):
    """A seat's address for email alerts (app/alerts/mail.py). The address is kept only while it may be
    written to; after an unsubscribe only its keyed hash is, and every row goes with the seat's token and
    with the room."""

    __tablename__ = "email_addresses"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    # None once unsubscribed.
    address: Mapped[str | None] = mapped_column(String(320), default=None)
    # HMAC-SHA256, with the server's mail secret, of the mailbox the address reaches (lower case, no
    # +tag, no dots at Gmail: app/alerts/mail.py `mailbox`), so variants of one address count as one.
    address_hash: Mapped[str] = mapped_column(String(64), index=True)
    # pending (confirmation sent), confirmed, unsubscribed.
    status: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # The last alert sent to it: at most one an hour per seat and room.
    last_alert_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # The language of the page the address was given from: its emails are written in it (None: English).
    lang: Mapped[str | None] = mapped_column(String(16), default=None)


class AlertPrefs(Base):
    """A seat's quiet hours: local times and the browser's IANA time zone (app/alerts/gates.py)."""

    __tablename__ = "alert_prefs"
    __table_args__ = (UniqueConstraint("room_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    # "HH:MM", or None: no quiet hours.
    quiet_from: Mapped[str | None] = mapped_column(String(5), default=None)
    quiet_to: Mapped[str | None] = mapped_column(String(5), default=None)
    tz: Mapped[str | None] = mapped_column(String(64), default=None)


class MailSecret(Base):
    """The key that hashes addresses and signs confirm/unsubscribe links, made on first use when the
    operator sets none (MOTABLE_MAIL_SECRET), shared by every server process."""

    __tablename__ = "mail_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class PushKey(Base):
    """The server's VAPID key pair (one row), made on first start when the settings name none."""

    __tablename__ = "push_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The base64url raw P-256 private scalar (32 bytes); the public key is derived from it.
    private_key: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushSubscription(Base):
    """A device a seat asked to be alerted on (Web Push): it dies with the seat's token and the room."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (UniqueConstraint("room_id", "endpoint"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    # sha256 of the seat token that subscribed: once the seat's token changes, nothing is sent.
    token_hash: Mapped[str] = mapped_column(String(64))
    endpoint: Mapped[str] = mapped_column(String(2048))
    # The browser's P-256 public key and auth secret (base64url), for aes128gcm encryption.
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The language of the page that turned alerts on: its alerts are written in it (None: English).
    lang: Mapped[str | None] = mapped_column(String(16), default=None)


class Takeback(Base):
    """A seat asks to take back its last action; every other present person approves or one refuses."""

    __tablename__ = "takebacks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    # The match version just after the action: the takeback is open only while the match is there.
    version: Mapped[int] = mapped_column(Integer)
    # The round it was asked in: a seat may ask a few times per round.
    round: Mapped[int] = mapped_column(Integer)
    # pending, approved, refused, withdrawn (by its asker) or lapsed (docs/playing.md); a pending one
    # whose version the match has left was cancelled, and one past its deadline has lapsed even while
    # it still says pending here (takebacks.Deadline).
    status: Mapped[str] = mapped_column(String(16), default="pending")
    # The seats whose approval it needs (every other present person, when asked) and those given.
    waiting_for: Mapped[list[int]] = mapped_column(Json, default=list)
    approvals: Mapped[list[int]] = mapped_column(Json, default=list)
    refused_by: Mapped[int | None] = mapped_column(Integer, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AlertMark(Base):
    """The last turn or clock alert that went out to a seat (app/alerts/dispatch.py): claimed before it
    is sent, so neither a restart nor a second process sends it again for the same turn."""

    __tablename__ = "alert_marks"
    __table_args__ = (UniqueConstraint("room_id", "seat", "event"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    # "turn" or "clock".
    event: Mapped[str] = mapped_column(String(16))
    match_id: Mapped[int] = mapped_column(Integer)
    # Which turn: for "turn" the seq of the seat's last action before it (0: none yet), for "clock"
    # the match's version the clock ran on.
    turn: Mapped[int] = mapped_column(Integer)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableScreen(Base):
    """A table screen (`/r/{id}/screen`) that asked to be the table: while pending it shows `code`
    large for the host to type; once the host marks it, its token may start the match, add a bot
    and open the rematch, and holds no seat (docs/playing.md "The table screen")."""

    __tablename__ = "table_screens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    # sha256 hex of the screen's token (the screen alone holds the token).
    token_hash: Mapped[str] = mapped_column(String(64), index=True)
    # The short pairing code the screen shows (None once marked: nobody types it again).
    code: Mapped[str | None] = mapped_column(String(8), default=None)
    # At most one marked screen per room; marking another replaces it.
    marked: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AlertOutbox(Base):
    """An alert decided with the change that calls for it (a match's end, a rematch, a seat request),
    written in that change's transaction and deleted once every channel is done with it
    (app/services/outbox.py): a crash between the two sends it after the start, never loses it."""

    __tablename__ = "alert_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    # "finished", "rematch" or "seat_request".
    event: Mapped[str] = mapped_column(String(16))
    match_id: Mapped[int | None] = mapped_column(Integer)
    # For a rematch: the seat that made it (named in the alert).
    by_seat: Mapped[int | None] = mapped_column(Integer)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Until when the process sending it holds it (renewed while it does); past it, any process may.
    taken_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
