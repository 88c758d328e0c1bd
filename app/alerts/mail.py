"""Email alerts (docs/people.md "Email alerts"): a seat registers an address, confirms it from a first
email, and is then mailed at most once an hour per room when an alert comes (the dispatcher calls
`MailChannel.deliver`). Every email carries a one-click unsubscribe (RFC 8058). Addresses are never
shown back; after an unsubscribe only a keyed hash of the address is kept, and every row goes with the
seat's token (app/services/alert_seats.py) and with the room (a foreign key that cascades).

Confirmation emails are the one thing a stranger can make the server send, so each is charged to five
limits at once, all or nothing (`ConfirmationLimits`): the mailbox it goes to (`mailbox`: `+tags`,
case and Gmail's dots do not make a new one), the seat, the room, the client's address and the whole
server. They are token buckets in the rate limiter's store (Redis when configured, shared by every
process), apart from the address book, so removing, replacing or re-adding an address resets none.

Sending uses aiosmtplib on the event loop: it is socket I/O with a timeout, so it never holds a move up;
a confirmation email is sent in the background of the request that asked for it."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import math
import re
import secrets
from collections.abc import Coroutine
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.headerregistry import Address, BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.policy import Policy
from email.policy import default as default_policy
from email.utils import format_datetime, make_msgid
from typing import Any
from urllib.parse import quote, unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import aiosmtplib
from babel.dates import format_date, format_time
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.alerts.core import Alert
from app.alerts.interest import Interest
from app.config import Settings
from app.db import Database
from app.errors import AppError
from app.i18n import N_, SOURCE, N_plural, Words, current, gettext, speaking, word
from app.models import AlertPrefs, EmailAddress, MailSecret, utcnow
from app.ratelimit import LocalBuckets, SharedBuckets, Spend, retry_after
from app.services.auth import player_seat
from app.services.lookup import find_room
from engines.core import get_engine

log = logging.getLogger(__name__)

# At most one alert email per seat and room in this many seconds.
ALERT_EVERY = 3600.0
# At most one confirmation email per mailbox (any room, any seat) in this many seconds, and this many a
# day: nobody can make the server mail a stranger over and over.
CONFIRM_EVERY = 600.0
MAILBOX_PER_DAY = 10
# Confirmation emails one seat, and all the seats of one room, may ask for in an hour: a typo or two
# each, for the largest table.
SEAT_PER_HOUR = 3
ROOM_PER_HOUR = 12
SMTP_TIMEOUT = 15.0
# Addresses as people type them: something@a.domain, no spaces or control characters, RFC 5321 lengths.
_ADDRESS = re.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}"
)
MAX_ADDRESS = 254


def clean_address(text: str) -> str:
    address = text.strip()
    if len(address) > MAX_ADDRESS or _ADDRESS.fullmatch(address) is None or ".." in address:
        raise AppError(
            "invalid_request", N_("that is not an email address we can write to (name@example.org)")
        )
    local, _, domain = address.rpartition("@")
    if local.startswith(".") or local.endswith("."):
        raise AppError(
            "invalid_request", N_("that is not an email address we can write to (name@example.org)")
        )
    return f"{local}@{domain.lower()}"


# Domains that deliver name.with.dots@ to namewithdots@ (Gmail's two names), and the one they count as.
_DOTS_IGNORED = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def mailbox(address: str) -> str:
    """The mailbox a (clean) address reaches, as the confirmation limits count it: lower case, without
    a `+tag`, and without dots at the domains that ignore them. Most providers deliver name+tag@ to
    name@; where one does not, two of its users at most share a limit. A catch-all domain (any name
    reaches one person) is not guessed: the seat, room, address and server limits bound it."""
    local, _, domain = address.lower().rpartition("@")
    untagged, _, _tag = local.partition("+")
    local = untagged or local
    if domain in _DOTS_IGNORED:
        domain = _DOTS_IGNORED[domain]
        local = local.replace(".", "")
    return f"{local}@{domain}"


Buckets = SharedBuckets | LocalBuckets


@dataclass(frozen=True)
class ConfirmationLimits:
    """What one confirmation email is charged to. A refused request names the first limit that is out,
    narrowest first."""

    per_address: int  # per client address (the rate limiter's `address_key`) an hour; 0: none
    per_hour: int  # the whole server an hour; 0: none

    @classmethod
    def of(cls, settings: Settings) -> ConfirmationLimits:
        return cls(
            per_address=settings.mail_confirmations_per_address,
            per_hour=settings.mail_confirmations_per_hour,
        )

    def spends(self, box: str, room_id: str, seat: int, client: str) -> list[tuple[str, Spend]]:
        hour, day = 3600.0, 86400.0
        return [
            ("mailbox", (f"mail:box:{box}", 1 / CONFIRM_EVERY, 1)),
            ("mailbox", (f"mail:box-day:{box}", MAILBOX_PER_DAY / day, MAILBOX_PER_DAY)),
            ("seat", (f"mail:seat:{room_id}:{seat}", SEAT_PER_HOUR / hour, SEAT_PER_HOUR)),
            ("room", (f"mail:room:{room_id}", ROOM_PER_HOUR / hour, ROOM_PER_HOUR)),
            ("address", (f"mail:client:{client}", self.per_address / hour, self.per_address)),
            ("server", ("mail:server", self.per_hour / hour, self.per_hour)),
        ]

    def refusal(self, limit: str | None, wait: float) -> AppError:
        later = _about(wait)
        messages = {
            "mailbox": N_(
                "a confirmation email went to this mailbox a short while ago (name+tag@ and dotted "
                "Gmail names count as the same mailbox); look for it, or %(later)s"
            ),
            "seat": N_("this seat has asked for %(most)s confirmation emails within the hour; %(later)s"),
            "room": N_(
                "this room's seats have asked for %(most)s confirmation emails within the hour; %(later)s"
            ),
            "address": N_(
                "your network address has asked for %(most)s confirmation emails within the hour; %(later)s"
            ),
            "server": N_(
                "this server has sent all the confirmation emails its operator allows for this hour; "
                "%(later)s"
            ),
        }
        most = {"seat": SEAT_PER_HOUR, "room": ROOM_PER_HOUR, "address": self.per_address}.get(limit or "")
        message = messages.get(
            limit or "", N_("too many confirmation emails were asked for just now; %(later)s")
        )
        return AppError("rate_limited", message, retry_after=retry_after(wait), later=later, most=most)


def _about(seconds: float) -> Words:
    minutes = max(1, math.ceil(seconds / 60))
    if minutes <= 90:
        return N_plural("try again in about %(num)s minute", "try again in about %(num)s minutes", minutes)
    hours = math.ceil(minutes / 60)
    return N_plural("try again in about %(num)s hour", "try again in about %(num)s hours", hours)


def sent_at(when: datetime, lang: str, zone: str | None) -> str:
    """When an alert was sent, as the reader writes a date and a time (Babel's locale data), in their
    time zone when the seat gave one (its quiet hours'), else in UTC, said so."""
    tz: ZoneInfo | None = None
    if zone:
        with contextlib.suppress(ZoneInfoNotFoundError, ValueError):
            tz = ZoneInfo(zone)
    shown = when.astimezone(tz or ZoneInfo("UTC"))
    date = format_date(shown, format="full", locale=lang)
    time = format_time(shown, format="short", locale=lang)
    if tz is None:
        return gettext("Sent on %(date)s at %(time)s (UTC).", date=date, time=time)
    return gettext("Sent on %(date)s at %(time)s.", date=date, time=time)


class _OneLineUrl(UnstructuredHeader, BaseHeader):
    """A header holding one <URL>, folded only before it, never inside it and never RFC 2047-encoded:
    the unfolded value must stay the URL for mail providers to offer RFC 8058's one-click unsubscribe,
    and the default folding encodes any word longer than a line. A URL longer than a line gets a
    line of its own (RFC 5322 allows up to 998 characters)."""

    def fold(self, *, policy: Policy) -> str:
        value = str(self)
        if not value.isascii():
            return super().fold(policy=policy)  # only an encoded word can carry it
        line = f"{self.name}: {value}"
        if not policy.max_line_length or len(line) <= policy.max_line_length:
            return line + policy.linesep
        return f"{self.name}:{policy.linesep} {value}{policy.linesep}"


def _mail_policy() -> Policy:
    headers = HeaderRegistry()
    headers.map_to_type("list-unsubscribe", _OneLineUrl)
    return default_policy.clone(header_factory=headers)


# Header objects are made by the message's policy and keep their own folding when aiosmtplib
# serialises the message with its own (SMTP) policy.
MAIL_POLICY = _mail_policy()


@dataclass(frozen=True)
class Smtp:
    """Where and how to send, read from MOTABLE_SMTP_URL."""

    host: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool  # smtps: TLS from the first byte
    start_tls: bool | None  # None: upgrade when the server offers STARTTLS; True: insist

    @classmethod
    def parse(cls, url: str) -> Smtp:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("MOTABLE_SMTP_URL is smtp://user:pass@host:587 or smtps://user:pass@host:465")
        tls = parts.scheme == "smtps"
        starttls: bool | None = None
        if "starttls=required" in parts.query or "starttls=true" in parts.query:
            starttls = True
        return cls(
            host=parts.hostname,
            port=parts.port or (465 if tls else 587),
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            use_tls=tls,
            start_tls=False if tls else starttls,
        )


def configured(settings: Settings) -> bool:
    """Email alerts are on when the operator named a server, a sender and the public URL (links)."""
    return bool(settings.smtp_url and settings.mail_from and settings.public_url)


class MailChannel:
    """The email channel (app/alerts/core.py `Channel`) and the address book behind it."""

    name = "email"

    def __init__(self, settings: Settings, db: Database) -> None:
        self.settings = settings
        self.db = db
        self.enabled = configured(settings)
        if settings.smtp_url and not self.enabled:
            log.warning(
                "MOTABLE_SMTP_URL is set but MOTABLE_MAIL_FROM or MOTABLE_PUBLIC_URL is not: no email"
            )
        self.smtp = Smtp.parse(settings.smtp_url) if self.enabled and settings.smtp_url else None
        self.base = (settings.public_url or "").rstrip("/")
        self._secret: bytes | None = settings.mail_secret.encode() if settings.mail_secret else None
        self._sending: set[asyncio.Task[bool]] = set()
        self.limits = ConfirmationLimits.of(settings)
        # The rooms where a seat confirmed an address, as this process knows them (app/alerts/interest.py).
        self._interest = Interest(self._confirmed_rooms, self._any_confirmed)

    # -- keys --------------------------------------------------------------------
    def _key(self) -> bytes:
        if self._secret is None:
            self._secret = self._stored_secret()
        return self._secret

    async def _ready(self) -> None:
        """Read (or make) the key before any transaction that needs it: its own transaction must not
        wait behind one of ours (SQLite has one writer)."""
        if self._secret is None:
            await run_in_threadpool(self._key)

    def _stored_secret(self) -> bytes:
        with self.db.transaction() as session:
            row = session.get(MailSecret, "mail")
            if row is not None:
                return row.value.encode()
        try:
            with self.db.transaction() as session:
                session.add(MailSecret(name="mail", value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process made it first: read theirs
        with self.db.read() as session:
            made = session.get(MailSecret, "mail")
            assert made is not None
            return made.value.encode()

    def address_hash(self, address: str) -> str:
        """The keyed hash of the mailbox the address reaches (`mailbox`): what the limits count."""
        return hmac.new(self._key(), mailbox(address).encode(), hashlib.sha256).hexdigest()

    def _sign(self, purpose: str, row_id: str) -> str:
        digest = hmac.new(self._key(), f"{purpose}:{row_id}".encode(), hashlib.sha256).hexdigest()
        return f"{row_id}.{digest[:32]}"

    def _row_id(self, purpose: str, token: str) -> str | None:
        row_id, _, _sig = token.partition(".")
        if not row_id or not hmac.compare_digest(self._sign(purpose, row_id), token):
            return None
        return row_id

    def link(self, purpose: str, row_id: str) -> str:
        return f"{self.base}/email/{purpose}?t={quote(self._sign(purpose, row_id))}"

    # -- the seat's address ------------------------------------------------------
    def _require(self) -> None:
        if not self.enabled:
            raise AppError("not_found", N_("this server sends no email"))

    def status(self, session: Session, room_id: str, seat: int) -> str | None:
        """What the seat's page may know: "none", "pending", "confirmed" or "unsubscribed" (never the
        address); None when this server sends no email."""
        if not self.enabled:
            return None
        row = session.scalar(
            select(EmailAddress)
            .where(EmailAddress.room_id == room_id, EmailAddress.seat == seat)
            .order_by(EmailAddress.created_at.desc())
            .limit(1)
        )
        return row.status if row is not None else "none"

    def _seat(self, room_id: str, token: str | None) -> int:
        with self.db.read() as session:
            find_room(session, room_id)
            return player_seat(session, room_id, token)

    def _add(
        self, session: Session, room_id: str, token: str | None, address: str, lang: str
    ) -> tuple[str, str]:
        room = find_room(session, room_id, lock=True)
        seat = player_seat(session, room_id, token)
        digest = self.address_hash(address)
        # The buckets hold this too; the rows still do when they were lost (no Redis, a restart).
        since = utcnow() - timedelta(seconds=CONFIRM_EVERY)
        recent = session.scalar(
            select(func.count())
            .select_from(EmailAddress)
            .where(EmailAddress.address_hash == digest, EmailAddress.created_at > since)
        )
        if recent:
            raise self.limits.refusal("mailbox", CONFIRM_EVERY)
        # One address per seat: a new one replaces the old (an unsubscribed hash of another address
        # stays, so that address is never written to again without a new confirmation).
        session.execute(
            delete(EmailAddress).where(
                EmailAddress.room_id == room_id,
                EmailAddress.seat == seat,
                (EmailAddress.status != "unsubscribed") | (EmailAddress.address_hash == digest),
            )
        )
        row = EmailAddress(
            id=secrets.token_urlsafe(12),
            room_id=room_id,
            seat=seat,
            address=address,
            address_hash=digest,
            lang=lang,
        )
        session.add(row)
        session.flush()
        return row.id, get_engine(room.game).spec.title

    async def _charge(self, buckets: Buckets, spends: list[tuple[str, Spend]]) -> None:
        """Take one confirmation from every limit, or from none and refuse (429, naming the limit)."""
        wait = await buckets.take([spend for _limit, spend in spends])
        if wait == 0.0:
            return
        # Which one is out, for the message: each taken alone and given straight back when it was not.
        for limit, spend in spends:
            if await buckets.take([spend]) > 0:
                raise self.limits.refusal(limit, wait)
            await buckets.take([spend], cost=-1.0)
        raise self.limits.refusal(None, wait)

    async def add(
        self, room_id: str, token: str | None, email: str, *, client: str, buckets: Buckets
    ) -> dict[str, Any]:
        """The seat gives an address: a confirmation goes to it; nothing else until it is confirmed.
        `client` is the client's address as the rate limiter counts it (`address_key`); `buckets`
        the rate limiter's, so every process counts the same."""
        self._require()
        address = clean_address(email)
        await self._ready()
        seat = await run_in_threadpool(self._seat, room_id, token)
        spends = self.limits.spends(self.address_hash(address), room_id, seat, client)
        await self._charge(buckets, spends)
        # The page's language: the confirmation and every alert to this address are written in it.
        lang = current()
        try:
            row_id, game = await run_in_threadpool(
                self._in_transaction, self._add, room_id, token, address, lang
            )
        except Exception:
            # Nothing was written, so nothing is counted. (Not on a cancel: the write may go on.)
            await buckets.take([spend for _limit, spend in spends], cost=-1.0)
            raise
        with speaking(lang):
            confirmation = self._confirmation(address, row_id, game)
        self._background(self._send(confirmation))
        return {"status": "pending"}

    def _remove(self, session: Session, room_id: str, token: str | None) -> None:
        seat = player_seat(session, room_id, token)
        session.execute(
            update(EmailAddress)
            .where(EmailAddress.room_id == room_id, EmailAddress.seat == seat)
            .values(status="unsubscribed", address=None)
        )

    async def remove(self, room_id: str, token: str | None) -> None:
        """The seat stops email alerts: like an unsubscribe, the address goes and only its hash stays
        (the confirmation limits are kept apart from the rows, so removing resets none of them)."""
        self._require()
        await run_in_threadpool(self._in_transaction, self._remove, room_id, token)

    def _in_transaction(self, work: Any, *args: Any) -> Any:
        with self.db.transaction() as session:
            return work(session, *args)

    # -- the links in the emails ---------------------------------------------------
    def _follow(self, session: Session, purpose: str, token: str) -> EmailAddress | None:
        row_id = self._row_id(purpose, token)
        return session.get(EmailAddress, row_id) if row_id is not None else None

    def _confirm(self, session: Session, token: str, commit: bool) -> str:
        row = self._follow(session, "confirm", token)
        if row is None:
            return "unknown"
        if commit and row.status == "pending":
            row.status = "confirmed"
            row.confirmed_at = utcnow()
            self._interest.add(row.room_id)
        return row.status

    async def confirm(self, token: str, commit: bool) -> str:
        """ "pending" (the page asks for the click), "confirmed", "unsubscribed" or "unknown"."""
        if not self.enabled:
            return "unknown"
        await self._ready()
        return str(await run_in_threadpool(self._in_transaction, self._confirm, token, commit))

    def _unsubscribe(self, session: Session, token: str, commit: bool) -> str:
        row = self._follow(session, "unsubscribe", token)
        if row is None:
            return "unknown"
        if commit and row.status != "unsubscribed":
            row.status = "unsubscribed"
            row.address = None  # only the keyed hash stays
        return row.status

    async def unsubscribe(self, token: str, commit: bool) -> str:
        if not self.enabled:
            return "unknown"
        await self._ready()
        return str(await run_in_threadpool(self._in_transaction, self._unsubscribe, token, commit))

    # -- sending -------------------------------------------------------------------
    def _message(self, to: str, subject: str, text: str, row_id: str) -> EmailMessage:
        unsubscribe = self.link("unsubscribe", row_id)
        message = EmailMessage(policy=MAIL_POLICY)
        message["From"] = self.settings.mail_from or ""
        local, _, domain = to.rpartition("@")
        message["To"] = Address(addr_spec=f"{local}@{domain}")
        message["Subject"] = subject
        message["Date"] = format_datetime(utcnow())
        message["Message-ID"] = make_msgid(domain=urlsplit(self.base).hostname or None)
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message["Auto-Submitted"] = "auto-generated"
        stop = gettext("Stop these emails (one click): %(link)s", link=unsubscribe)
        message.set_content(f"{text}\n\n{stop}\n")
        return message

    def _confirmation(self, address: str, row_id: str, game: str) -> EmailMessage:
        host = urlsplit(self.base).hostname or self.base
        asked = gettext(
            "Someone, we hope you, asked %(host)s to email this address when it is their turn in a game "
            "of %(game)s.",
            host=host,
            game=game,
        )
        confirm = gettext("To get those emails, confirm here:")
        ignore = gettext("If it was not you, ignore this email: nothing more will be sent to you.")
        text = f"{asked}\n\n{confirm}\n{self.link('confirm', row_id)}\n\n{ignore}"
        subject = gettext("Confirm email alerts for your %(game)s game", game=game)
        return self._message(address, subject, text, row_id)

    def _confirmed_rooms(self, limit: int) -> set[str] | None:
        with self.db.read() as session:
            found = set(
                session.scalars(
                    select(EmailAddress.room_id)
                    .where(EmailAddress.status == "confirmed")
                    .distinct()
                    .limit(limit + 1)
                )
            )
            return found if len(found) <= limit else None

    def _any_confirmed(self, room_id: str) -> bool:
        with self.db.transaction() as session:
            found = session.scalar(
                select(EmailAddress.id)
                .where(EmailAddress.room_id == room_id, EmailAddress.status == "confirmed")
                .limit(1)
            )
            return found is not None

    async def interested(self, room_id: str) -> bool:
        """Whether any seat of the room confirmed an address (the dispatcher reads a room's table only
        for a channel that is interested, so a room without alerts costs no read per move)."""
        if not self.enabled:
            return False
        return await self._interest.wanted(room_id)

    def _claim(self, alert: Alert) -> tuple[str, str, Any, str, str | None] | None:
        """The seat's confirmed address, with the hour's one email taken for this alert (None: no address,
        or one was sent less than an hour ago), the language it was given in and the seat's time zone
        (its quiet hours', if any). Taking it is one guarded UPDATE, so two processes never both send."""
        now = utcnow()
        with self.db.transaction() as session:
            row = session.scalar(
                select(EmailAddress).where(
                    EmailAddress.room_id == alert.room_id,
                    EmailAddress.seat == alert.seat,
                    EmailAddress.status == "confirmed",
                )
            )
            if row is None or row.address is None:
                return None
            before = row.last_alert_at
            cutoff = now - timedelta(seconds=ALERT_EVERY)
            taken = session.execute(
                update(EmailAddress)
                .where(
                    EmailAddress.id == row.id,
                    EmailAddress.last_alert_at.is_(None) | (EmailAddress.last_alert_at < cutoff),
                )
                .values(last_alert_at=now)
                .execution_options(synchronize_session=False)
            )
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                return None
            zone = session.scalar(
                select(AlertPrefs.tz).where(
                    AlertPrefs.room_id == alert.room_id, AlertPrefs.seat == alert.seat
                )
            )
            return row.id, row.address, before, row.lang or SOURCE, zone

    def _give_back(self, row_id: str, before: Any) -> None:
        with self.db.transaction() as session:
            session.execute(
                update(EmailAddress).where(EmailAddress.id == row_id).values(last_alert_at=before)
            )

    async def deliver(self, alert: Alert) -> None:
        """Mail the alert to the seat's confirmed address, at most once an hour per seat and room."""
        if not self.enabled:
            return
        claimed = await run_in_threadpool(self._claim, alert)
        if claimed is None:
            return
        row_id, address, before, lang, zone = claimed
        url = alert.url if alert.url.startswith(("http://", "https://")) else f"{self.base}{alert.url}"
        with speaking(lang):
            open_it = gettext("Open the table: %(url)s", url=url)
            why = gettext(
                "You asked to be emailed when this game needs you; we send at most one email an hour."
            )
            text = f"{word(alert.body)}\n\n{open_it}\n\n{sent_at(utcnow(), lang, zone)}\n{why}"
            message = self._message(address, word(alert.title), text, row_id)
        if not await self._send(message):
            await run_in_threadpool(self._give_back, row_id, before)

    async def _send(self, message: EmailMessage) -> bool:
        smtp = self.smtp
        if smtp is None:
            return False
        try:
            await aiosmtplib.send(
                message,
                hostname=smtp.host,
                port=smtp.port,
                username=smtp.username,
                password=smtp.password,
                use_tls=smtp.use_tls,
                start_tls=smtp.start_tls,
                timeout=SMTP_TIMEOUT,
            )
        except (aiosmtplib.SMTPException, OSError, TimeoutError):
            log.warning("sending an email through %s:%s failed", smtp.host, smtp.port, exc_info=True)
            return False
        return True

    def _background(self, sending: Coroutine[Any, Any, bool]) -> None:
        task = asyncio.create_task(sending)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def close(self) -> None:
        """Let confirmations under way finish (each has its own timeout)."""
        if self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)
