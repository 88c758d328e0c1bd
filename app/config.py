"""Server settings: pydantic-settings reads them from the environment (see docs/operations.md)."""

from __future__ import annotations

import ipaddress
from typing import Any

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def sqlalchemy_url(url: str) -> str:
    """Accept the URLs people write (`postgresql://`, `postgres://`) and pick our driver for them."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_loopback(host: str) -> bool:
    """True when a server bound to `host` can be reached from this computer only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Settings(BaseSettings):
    """Every field is read from `MOTABLE_<NAME>`; the two URLs also from `DATABASE_URL`/`REDIS_URL`."""

    model_config = SettingsConfigDict(
        env_prefix="MOTABLE_", frozen=True, populate_by_name=True, extra="ignore"
    )

    database_url: str = Field(
        default="sqlite:///motable.db", validation_alias=AliasChoices("database_url", "DATABASE_URL")
    )
    redis_url: str | None = Field(default=None, validation_alias=AliasChoices("redis_url", "REDIS_URL"))
    bot_delay: float = 0.8
    # TEST ONLY: comma-separated seeds this process deals its matches from, in turn, instead of
    # secret random ones, so a browser test can know the deal. Refused unless the server binds a
    # loopback address (docs/operations.md); never set it on a server people play on.
    test_seeds: str | None = None

    # The languages offered besides English (comma-separated codes with a catalogue in locale/, `all`,
    # or `en` for English alone); each reader gets the one they chose, else their browser's
    # (app/i18n.py). Unset: every language with a catalogue.
    languages: str | None = None

    # Game packages to register besides the built-in games (comma-separated; engines.core.registry).
    games: str | None = None

    # -- the people at a table (app/services/people/common.py Times) ------------
    # Seconds a player must have been away before the others may let a bot play for them, or the host
    # may remove them.
    gone_after: float = 120.0
    # Seconds an unanswered seat request stays open before it lapses.
    request_lifetime: float = 900.0
    # Seconds between an approval by others than a seat's holder and the handover (the holder may
    # refuse meanwhile).
    seat_refusal_seconds: float = 600.0
    # Seconds a takeback waits for its answers before it lapses and play goes on
    # (app/services/takebacks.py Deadline).
    takeback_seconds: float = Field(default=60.0, gt=0)

    # -- request limits -----------------------------------------------------
    max_body_bytes: int = 64 * 1024
    max_ws_message_bytes: int = 64 * 1024
    # Text frames shorter than this go out uncompressed on a socket that agreed to permessage-deflate
    # (app/serving.py COMPRESS_FROM); 0 compresses every one.
    ws_compress_from: int = Field(default=2048, ge=0)
    # Everything before the body (request line and headers), and how many header lines.
    max_header_bytes: int = 16 * 1024
    max_headers: int = 100
    # JSON bodies and socket messages nested deeper than this are refused as invalid_request.
    max_json_depth: int = 32
    # Far above any person's pace; 0 turns limiting off.
    rate_per_second: float = 20.0
    rate_burst: int = 120
    # Keys this server writes in Redis start with it (shared rate-limit buckets).
    redis_prefix: str = "motable"

    # -- per-address limits (issue 18; app/ratelimit.py; 0 turns each one off) --
    # Headroom for seats once their address is out of requests: a room's bucket, shared by its seats,
    # and the address's own headroom bucket (all its rooms together), each this size.
    seat_rate_per_second: float = 10.0
    seat_rate_burst: int = 60
    # Rooms an address may make per hour (rematches included), and bots it may seat per hour.
    rooms_per_hour: int = 30
    bots_per_hour: int = 60
    # Table-screen pairing codes a room's screens may ask for per hour, after 4 at once; one client
    # address half as many across every room, after 3 at once (app/routes/screens.py).
    screen_codes_per_hour: int = 30
    # Matches of bots alone (no person seated) an address's rooms may have playing at once; the
    # newer ones beyond it are not played. Such a match stops being played after this many minutes.
    all_bot_matches_per_address: int = 3
    all_bot_match_minutes: float = 30.0

    # -- connections (app/serving.py says what enforces each) ---------------------
    # Seconds a client may take to send a request's head (line and headers), from when the connection
    # opened or the head's first byte after an earlier answer; then the connection is closed. 0: never.
    header_timeout: float = 10.0
    # Seconds a client may take to send a body once its headers are in.
    body_timeout: float = 20.0
    # Seconds an idle keep-alive connection stays open.
    keepalive_timeout: float = 5.0
    # Open connections (sockets included) at once; past it new requests get 503. One process is
    # meant to hold 5,000 players (issue 11), so the default leaves room above that.
    max_connections: int = 8000
    # Of those, what one client address may hold in requests under way and open sockets (an IPv6
    # client: its /64); a trusted proxy's own address is not counted (it carries everyone's). Past it
    # that address's new requests and sockets get 503.
    max_connections_per_address: int = 200

    # -- the garbage collector of `motable serve` (app/serving.py Collector) ----------
    # Seconds between young collections (what survives one is left out of the next); 0 leaves
    # collection to CPython's own allocation counts.
    gc_young_seconds: float = 0.1
    # Seconds between full collections, which also find cycles among what earlier runs left out.
    gc_full_seconds: float = 3600.0

    # -- addresses ------------------------------------------------------------
    # The address people open, e.g. https://cards.example.org: join links and QR codes use it.
    public_url: str | None = None
    # Proxies whose X-Forwarded-For/-Proto are believed (comma-separated addresses or networks, or *).
    trusted_proxies: str = "127.0.0.1"
    # The address `motable serve` listens on; the room page warns when it is loopback only.
    bind_host: str | None = None

    # -- email alerts (app/alerts/mail.py; docs/people.md "Email alerts") ------------
    # smtp://user:pass@host:587 (STARTTLS when the server offers it; ?starttls=required insists) or
    # smtps://user:pass@host:465. Unset: no email alerts, and the room page does not offer them.
    smtp_url: str | None = None
    # The sender, e.g. "Motable <alerts@cards.example.org>". Email needs it and the public URL (links).
    mail_from: str | None = None
    # The key that hashes addresses and signs the links in emails; unset: one is made and kept in
    # the database on first use (every process reads the same).
    mail_secret: str | None = None
    # Confirmation emails (the only email a stranger can make the server send) per hour: from the whole
    # server, and from one client address (an IPv6 client: its /64). 0 turns each cap off.
    mail_confirmations_per_hour: int = 100
    mail_confirmations_per_address: int = 10

    # -- retention (hours; 0 keeps for ever; see app/retention.py) --------------
    # A waiting room no one joined, after it was made.
    waiting_room_hours: float = 24.0
    # A waiting room others joined but that never started, after the last person sat down.
    idle_room_hours: float = 24.0 * 7
    # A finished match (and its room), after it ended.
    finished_match_hours: float = 24.0 * 30
    # A match in play that nobody moved in this long is archived (snapshots but the latest dropped)...
    archive_after_hours: float = 24.0 * 7
    # ...and deleted with its room after this long without a move.
    abandoned_match_hours: float = 24.0 * 90
    # A match of bots alone (no person seated), after its last move or after it ended.
    all_bot_room_hours: float = 1.0
    # How often each server process prunes (0: never; leave it to `motable prune`).
    prune_every_hours: float = 1.0

    # -- alerts (app/alerts; docs/people.md "Alerts") ---------------------------
    # Seconds a seat whose turn came must have had no socket open on the room before it is sent a
    # turn alert: players at the table are not pinged.
    push_grace_seconds: float = 20.0
    # The operator's contact, sent to push services as the VAPID `sub` claim: a mailto: address or
    # an https:// page (default: the public URL, else a placeholder mailto:).
    push_contact: str | None = None
    # The VAPID private key (PEM, or the base64url raw 32-byte scalar). Unset: the server makes a key
    # pair on first start and keeps it in the database, shared by every process.
    push_vapid_private_key: str | None = None
    # TEST ONLY: accept http:// push endpoints and loopback addresses, so a test can be the push
    # service. Refused unless the server binds a loopback address, like MOTABLE_TEST_SEEDS.
    push_allow_insecure_endpoints: bool = False

    @field_validator("database_url")
    @classmethod
    def _driver(cls, url: str) -> str:
        return sqlalchemy_url(url)

    @field_validator(
        "redis_url",
        "public_url",
        "bind_host",
        "test_seeds",
        "games",
        "smtp_url",
        "mail_from",
        "mail_secret",
        "push_contact",
        "push_vapid_private_key",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: Any) -> Any:
        return value or None

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, url: str | None) -> str | None:
        if url is None:
            return None
        if not url.startswith(("http://", "https://")):
            raise ValueError("the public URL starts with http:// or https://")
        return url.rstrip("/")

    @field_validator("push_contact")
    @classmethod
    def _push_contact(cls, contact: str | None) -> str | None:
        if contact is not None and not contact.startswith(("mailto:", "https://")):
            raise ValueError("the push contact is a mailto: address or an https:// page")
        return contact

    def seeds_for_tests(self) -> list[int] | None:
        """The test-only seeds (None: deal from secret random seeds, as always in production)."""
        if self.test_seeds is None:
            return None
        if not self.loopback_only:
            raise ValueError("MOTABLE_TEST_SEEDS is for tests on a loopback address only")
        seeds = [int(part) for part in self.test_seeds.split(",") if part.strip()]
        if not seeds or any(seed < 0 for seed in seeds):
            raise ValueError("MOTABLE_TEST_SEEDS lists non-negative integers, comma-separated")
        return seeds

    def insecure_push_for_tests(self) -> bool:
        """Whether push endpoints on http:// or loopback addresses are accepted (tests only)."""
        if self.push_allow_insecure_endpoints and not self.loopback_only:
            raise ValueError("MOTABLE_PUSH_ALLOW_INSECURE_ENDPOINTS is for tests on a loopback address only")
        return self.push_allow_insecure_endpoints

    @property
    def loopback_only(self) -> bool:
        return self.bind_host is not None and is_loopback(self.bind_host)

    @classmethod
    def from_env(cls) -> Settings:
        """The settings the environment names (kept for callers that predate pydantic-settings)."""
        return cls()
