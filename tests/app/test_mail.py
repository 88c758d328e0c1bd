"""Email alerts against a real SMTP server the test starts (aiosmtpd): a confirmation first and nothing
else before it, alerts after it at most once an hour, RFC 8058 one-click unsubscribe (its header folded,
never encoded), the address never shown and gone with the seat's token and the room; confirmation
emails bounded per mailbox, seat, room, client address and server (issue 32: no mail cannon); and
quiet hours (docs/people.md)."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any, cast

import httpx
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from sqlalchemy import select, update
from starlette.testclient import TestClient

from app.alerts.core import Alert
from app.alerts.gates import QuietHoursGate, is_quiet
from app.alerts.mail import CONFIRM_EVERY, ROOM_PER_HOUR, SEAT_PER_HOUR, MailChannel, Smtp, mailbox
from app.config import Settings
from app.main import create_app
from app.models import EmailAddress, Room, utcnow
from app.ratelimit import LocalBuckets, Spend
from app.retention import prune
from tests.rooms import new_room, seated_match
from tests.servers import ServeProcess

from .conftest import NO_LIMITS, auth
from .test_people import code

PUBLIC = "https://cards.example.org"


class Inbox:
    """What the SMTP server received: (envelope recipients, parsed message)."""

    def __init__(self) -> None:
        self.mail: list[tuple[list[str], EmailMessage]] = []
        # The bytes as they came, for what parsing would hide (how a header was folded).
        self.raw: list[bytes] = []
        self.logins: list[bool] = []

    def authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        """The URL's user and percent-encoded password arrive decoded."""
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"alerts", b"s@cret")
        self.logins.append(ok)
        return AuthResult(success=ok)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert session.authenticated, "the channel logs in with the URL's user and password"
        self.raw.append(envelope.original_content or envelope.content)
        self.mail.append((list(envelope.rcpt_tos), parsed))
        return "250 OK"

    def to(self) -> list[str]:
        return [recipient for recipients, _message in self.mail for recipient in recipients]

    def wait(self, count: int, seconds: float = 10) -> list[tuple[list[str], EmailMessage]]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and len(self.mail) < count:
            time.sleep(0.05)
        assert len(self.mail) >= count, f"{len(self.mail)} emails arrived, {count} expected"
        return self.mail


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=port,
        authenticator=inbox.authenticate,
        auth_require_tls=False,  # a loopback test server: no certificate to offer STARTTLS with
    )
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def mail_settings(database_url: str, port: int, **extra: Any) -> Settings:
    """A server that sends email through the test's SMTP server."""
    return Settings(
        database_url=database_url,
        bot_delay=0,
        smtp_url=f"smtp://alerts:s%40cret@127.0.0.1:{port}",
        mail_from="Motable <alerts@cards.example.org>",
        # Every request of a test client comes from one address: its cap is tested on real processes.
        **{"public_url": PUBLIC, "mail_confirmations_per_address": 0, **NO_LIMITS, **extra},
    )


class ClockBuckets(LocalBuckets):
    """The rate limiter's buckets on a clock the test moves (the app reads `app.state.buckets`)."""

    def __init__(self) -> None:
        super().__init__(0, 0)
        self.now = 1000.0

    async def take(self, spends: Sequence[Spend], cost: float = 1.0) -> float:
        return self.local.take(spends, cost, now=self.now)


def clocked(client: TestClient) -> ClockBuckets:
    buckets = ClockBuckets()
    client.app.state.buckets = buckets  # type: ignore[attr-defined]
    return buckets


@pytest.fixture
def mailing(database_url: str, tiny: str, smtp: tuple[Inbox, int]) -> Iterator[tuple[TestClient, Inbox]]:
    inbox, port = smtp
    with TestClient(create_app(mail_settings(database_url, port))) as client:
        clocked(client)
        yield client, inbox


def channel(client: TestClient) -> MailChannel:
    mail: MailChannel = client.app.state.runtime.mail  # type: ignore[attr-defined]
    return mail


def settle(client: TestClient) -> None:
    """Wait for the confirmations under way to be sent: after it the inbox holds every one there is."""
    client.portal.call(channel(client).close)  # type: ignore[union-attr]


def deliver(client: TestClient, alert: Alert) -> None:
    """Call the channel as the dispatcher does, on the server's event loop. It awaits its send: when
    it returns, what it sent has arrived."""
    client.portal.call(channel(client).deliver, alert)  # type: ignore[union-attr]


def turn(room_id: str, seat: int) -> Alert:
    return Alert(
        room_id,
        seat,
        "turn",
        "Tiny",
        "Tiny: your turn",
        "Ann played; the table waits for you.",
        f"/r/{room_id}",
    )


def link(message: EmailMessage, purpose: str, public: str = PUBLIC) -> str:
    text = message.get_content().replace("\r\n", "\n")
    found = re.search(rf"{re.escape(public)}/email/{purpose}\?t=(\S+)", text)
    assert found is not None, text
    return found.group(1)


def rows(client: TestClient, room_id: str) -> list[EmailAddress]:
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.read() as session:
        found = list(session.scalars(select(EmailAddress).where(EmailAddress.room_id == room_id)))
        session.expunge_all()
        return found


def test_confirm_then_alerts_at_most_one_an_hour(mailing: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailing
    room_id, (ann, bo) = seated_match(client)
    assert client.get(f"/api/rooms/{room_id}/alerts", headers=auth(bo)).json() == {
        "email": "none",
        "quiet": None,
    }
    added = client.post(f"/api/rooms/{room_id}/email", json={"email": "Bo@Example.ORG"}, headers=auth(bo))
    assert added.status_code == 201 and added.json() == {"status": "pending"}
    ((to, first),) = inbox.wait(1)
    assert to == ["Bo@example.org"] and first["From"] == "Motable <alerts@cards.example.org>"
    assert "confirm" in first["Subject"].lower() and "Tiny" in first["Subject"]
    confirm = link(first, "confirm")
    unsubscribe = link(first, "unsubscribe")
    # Python keeps the space a fold before the URL leaves (RFC 2369: leading whitespace is ignored).
    assert first["List-Unsubscribe"].strip() == f"<{PUBLIC}/email/unsubscribe?t={unsubscribe}>"
    assert first["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    raw = first.as_string()
    assert ann not in raw and bo not in raw  # no seat token in any email
    # Nothing but the confirmation before the address is confirmed, not even after opening the page.
    deliver(client, turn(room_id, 1))
    page = client.get("/email/confirm", params={"t": confirm})
    assert page.status_code == 200 and "Confirm email alerts" in page.text
    assert page.headers["cache-control"] == "no-store"
    deliver(client, turn(room_id, 1))
    assert len(inbox.mail) == 1
    assert client.get(f"/api/rooms/{room_id}/alerts", headers=auth(bo)).json()["email"] == "pending"
    # A forged link confirms nothing.
    assert client.post("/email/confirm", params={"t": confirm[:-2] + "00"}).status_code == 404
    done = client.post("/email/confirm", params={"t": confirm})
    assert done.status_code == 200 and "Email alerts are on" in done.text
    assert client.get(f"/api/rooms/{room_id}/alerts", headers=auth(bo)).json()["email"] == "confirmed"
    # Now the alert goes out, with the one-click headers and the room's link (no token).
    deliver(client, turn(room_id, 1))
    (to, alert) = inbox.wait(2)[1]
    assert to == ["Bo@example.org"] and alert["Subject"] == "Tiny: your turn"
    text = alert.get_content().replace("\r\n", "\n")
    assert f"{PUBLIC}/r/{room_id}\n" in text and "Ann played; the table waits for you." in text
    assert f"/email/unsubscribe?t={unsubscribe}" in text
    assert alert["List-Unsubscribe"] == first["List-Unsubscribe"]
    assert alert["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert ann not in alert.as_string() and bo not in alert.as_string()
    # At most one an hour per seat and room.
    deliver(client, turn(room_id, 1))
    assert len(inbox.mail) == 2
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as session:
        session.execute(
            update(EmailAddress)
            .where(EmailAddress.room_id == room_id)
            .values(last_alert_at=utcnow() - timedelta(minutes=61))
        )
    deliver(client, turn(room_id, 1))
    inbox.wait(3)
    # Another seat with no address gets nothing.
    deliver(client, turn(room_id, 0))
    assert len(inbox.mail) == 3


def test_one_click_unsubscribe_stops_mail_and_keeps_only_a_hash(mailing: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailing
    room_id, (_ann, bo) = seated_match(client)
    client.post(f"/api/rooms/{room_id}/email", json={"email": "bo@example.org"}, headers=auth(bo))
    ((_to, first),) = inbox.wait(1)
    client.post("/email/confirm", params={"t": link(first, "confirm")})
    unsubscribe = link(first, "unsubscribe")
    # The GET page asks; only the POST unsubscribes (mail scanners open links).
    page = client.get("/email/unsubscribe", params={"t": unsubscribe})
    assert page.status_code == 200 and "Unsubscribe" in page.text
    assert rows(client, room_id)[0].status == "confirmed"
    # RFC 8058: the mail provider POSTs List-Unsubscribe=One-Click, with no cookie and no seat token.
    client.cookies.clear()
    one_click = client.post(
        "/email/unsubscribe",
        params={"t": unsubscribe},
        content="List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert one_click.status_code == 200 and "No more emails" in one_click.text
    (row,) = rows(client, room_id)
    assert row.status == "unsubscribed" and row.address is None and len(row.address_hash) == 64
    assert row.address_hash != "bo@example.org" and "bo@example.org" not in repr(row.__dict__)
    assert client.get(f"/api/rooms/{room_id}/alerts", headers=auth(bo)).json()["email"] == "unsubscribed"
    deliver(client, turn(room_id, 1))
    assert len(inbox.mail) == 1
    # A second one-click is harmless.
    assert client.post("/email/unsubscribe", params={"t": unsubscribe}).status_code == 200
    # Added again, the address needs a new confirmation (and not within minutes of the last one).
    again = client.post(f"/api/rooms/{room_id}/email", json={"email": "bo@example.org"}, headers=auth(bo))
    assert again.status_code == 429 and code(again) == "rate_limited"
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as session:
        session.execute(
            update(EmailAddress).values(created_at=utcnow() - timedelta(seconds=CONFIRM_EVERY + 1))
        )
    cast(ClockBuckets, client.app.state.buckets).now += CONFIRM_EVERY  # type: ignore[attr-defined]
    again = client.post(f"/api/rooms/{room_id}/email", json={"email": "bo@example.org"}, headers=auth(bo))
    assert again.status_code == 201
    (_to, second) = inbox.wait(2)[1]
    assert link(second, "confirm") != link(first, "confirm")
    deliver(client, turn(room_id, 1))
    assert len(inbox.mail) == 2
    # The old links are dead: that row is gone.
    assert client.post("/email/confirm", params={"t": link(first, "confirm")}).status_code == 404


def test_the_address_is_never_shown_and_goes_with_the_seat_and_room(
    mailing: tuple[TestClient, Inbox],
) -> None:
    client, inbox = mailing
    room_id, (ann, bo) = seated_match(client)
    client.post(f"/api/rooms/{room_id}/email", json={"email": "ann@example.org"}, headers=auth(ann))
    client.post(f"/api/rooms/{room_id}/email", json={"email": "bo@example.org"}, headers=auth(bo))
    inbox.wait(2)
    for path in ("", "/state", "/chat", "/log", "/alerts"):
        for token in (ann, bo, None):
            answered = client.get(f"/api/rooms/{room_id}{path}", headers=auth(token) if token else {})
            assert "@example.org" not in answered.text, path
    assert {r.seat for r in rows(client, room_id)} == {0, 1}
    # Bo leaves: his address goes with his token.
    assert client.post(f"/api/rooms/{room_id}/leave", headers=auth(bo)).status_code == 200
    assert [r.seat for r in rows(client, room_id)] == [0]
    # Ann stops hers herself: the address goes, its hash stays (and holds the confirmation rate).
    assert client.delete(f"/api/rooms/{room_id}/email", headers=auth(ann)).status_code == 204
    (row,) = rows(client, room_id)
    assert row.status == "unsubscribed" and row.address is None
    again = client.post(f"/api/rooms/{room_id}/email", json={"email": "ann@example.org"}, headers=auth(ann))
    assert code(again) == "rate_limited"
    # The room pruned: everything goes with it.
    client.post(f"/api/rooms/{room_id}/email", json={"email": "ann2@example.org"}, headers=auth(ann))
    assert len(rows(client, room_id)) == 2
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    db = runtime.db
    with db.transaction() as session:
        session.execute(
            update(Room).where(Room.id == room_id).values(created_at=utcnow() - timedelta(days=400))
        )
    pruned = prune(
        db,
        runtime.settings.model_copy(update={"abandoned_match_hours": 1.0}),
        now=utcnow() + timedelta(days=400),
    )
    assert pruned is not None
    assert client.get(f"/api/rooms/{room_id}").status_code == 404
    assert rows(client, room_id) == []


def test_bad_addresses_and_no_seat(mailing: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailing
    room_id, (ann, _bo) = seated_match(client)
    for bad in (
        "",
        "bo",
        "bo@",
        "@example.org",
        "bo@example",
        "bo@exa mple.org",
        "bo@example.org\r\nBcc: x@y.org",
        "a" * 300 + "@example.org",
        "bo..x@example.org",
    ):
        refused = client.post(f"/api/rooms/{room_id}/email", json={"email": bad}, headers=auth(ann))
        assert refused.status_code == 422 and code(refused) == "invalid_request", bad
    assert client.post(f"/api/rooms/{room_id}/email", json={"email": "x@example.org"}).status_code == 401
    assert client.post(f"/api/rooms/{room_id}/email", json={}, headers=auth(ann)).status_code == 422
    settle(client)
    assert inbox.mail == []
    assert rows(client, room_id) == []


def test_without_smtp_there_is_no_email(client: TestClient) -> None:
    room_id, (ann, _bo) = seated_match(client)
    refused = client.post(f"/api/rooms/{room_id}/email", json={"email": "ann@example.org"}, headers=auth(ann))
    assert refused.status_code == 404 and code(refused) == "not_found"
    assert client.get(f"/api/rooms/{room_id}/alerts", headers=auth(ann)).json() == {
        "email": None,
        "quiet": None,
    }
    assert client.get("/email/confirm", params={"t": "x.y"}).status_code == 404


# -- quiet hours -------------------------------------------------------------------
def at(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def test_quiet_hours_over_midnight_in_the_seats_zone() -> None:
    # 22:00 to 08:00 in Paris (UTC+1 in December, UTC+2 in July).
    assert is_quiet("22:00", "08:00", "Europe/Paris", at("2026-12-01T21:30:00+00:00"))  # 22:30 there
    assert is_quiet("22:00", "08:00", "Europe/Paris", at("2026-12-02T06:59:00+00:00"))  # 07:59
    assert not is_quiet("22:00", "08:00", "Europe/Paris", at("2026-12-02T07:00:00+00:00"))  # 08:00
    assert not is_quiet("22:00", "08:00", "Europe/Paris", at("2026-12-01T20:59:00+00:00"))  # 21:59
    assert is_quiet("22:00", "08:00", "Europe/Paris", at("2026-07-01T20:30:00+00:00"))  # 22:30 in summer
    assert not is_quiet("22:00", "08:00", "America/New_York", at("2026-12-01T21:30:00+00:00"))  # 16:30
    assert is_quiet("13:00", "14:00", "UTC", at("2026-12-01T13:00:00+00:00"))
    assert not is_quiet("13:00", "13:00", "UTC", at("2026-12-01T13:00:00+00:00"))


def test_quiet_hours_are_set_per_seat_and_hold_alerts(client: TestClient) -> None:
    room_id, (ann, bo) = seated_match(client)
    quiet = {"from": "22:00", "to": "08:00", "tz": "Europe/Paris"}
    body = client.put(f"/api/rooms/{room_id}/alerts", json={"quiet": quiet}, headers=auth(bo))
    assert body.status_code == 200 and body.json()["quiet"] == quiet
    assert client.get(f"/api/rooms/{room_id}/alerts", headers=auth(ann)).json()["quiet"] is None
    for bad in (
        {"from": "24:00", "to": "08:00", "tz": "UTC"},
        {"from": "7:00", "to": "08:00", "tz": "UTC"},
        {"from": "22:00", "to": "08:00", "tz": "Mars/Olympus"},
        {"from": "22:00", "to": "08:00", "tz": "../../etc/passwd"},
        {"from": "22:00", "to": "08:00"},
    ):
        refused = client.put(f"/api/rooms/{room_id}/alerts", json={"quiet": bad}, headers=auth(bo))
        assert refused.status_code == 422, bad
    assert client.put(f"/api/rooms/{room_id}/alerts", json={"quiet": quiet}).status_code == 401
    assert client.get(f"/api/rooms/{room_id}/alerts", headers=auth(bo)).json()["quiet"] == quiet
    gate = QuietHoursGate(client.app.state.runtime.db)  # type: ignore[attr-defined]
    night, day = at("2026-12-01T23:30:00+00:00"), at("2026-12-01T12:00:00+00:00")
    assert client.portal.call(gate.allows, turn(room_id, 1), night) is False  # type: ignore[union-attr]
    assert client.portal.call(gate.allows, turn(room_id, 1), day) is True  # type: ignore[union-attr]
    assert client.portal.call(gate.allows, turn(room_id, 0), night) is True  # type: ignore[union-attr]
    # Cleared with null; and gone with the seat's token.
    assert (
        client.put(f"/api/rooms/{room_id}/alerts", json={"quiet": None}, headers=auth(bo)).json()["quiet"]
        is None
    )
    assert client.portal.call(gate.allows, turn(room_id, 1), night) is True  # type: ignore[union-attr]
    client.put(f"/api/rooms/{room_id}/alerts", json={"quiet": quiet}, headers=auth(bo))
    client.post(f"/api/rooms/{room_id}/leave", headers=auth(bo))
    assert client.portal.call(gate.allows, turn(room_id, 1), night) is True  # type: ignore[union-attr]


def test_the_smtp_url() -> None:
    plain = Smtp.parse("smtp://u%40x:p%3Aw@mail.example.org")
    assert (plain.host, plain.port, plain.username, plain.password) == ("mail.example.org", 587, "u@x", "p:w")
    assert plain.use_tls is False and plain.start_tls is None  # STARTTLS whenever the server offers it
    assert Smtp.parse("smtp://mail.example.org:25?starttls=required").start_tls is True
    tls = Smtp.parse("smtps://mail.example.org")
    assert (tls.port, tls.use_tls, tls.start_tls, tls.username) == (465, True, False, None)
    for bad in ("http://mail.example.org", "smtp://", "mail.example.org:587"):
        with pytest.raises(ValueError):
            Smtp.parse(bad)
    # Without a sender or a public URL there is no email, even with a server named.
    assert not MailChannel(Settings(smtp_url="smtp://mail.example.org"), None).enabled  # type: ignore[arg-type]


def test_the_links_tokens_stay_out_of_the_logs() -> None:
    import logging

    from app.logs import RedactTokens

    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        "",
        0,
        '%s - "%s %s"',
        ("1.2.3.4", "POST", "/email/unsubscribe?t=abc.def"),
        None,
    )
    RedactTokens().filter(record)
    assert record.args == ("1.2.3.4", "POST", "/email/unsubscribe?t=[redacted]")
    # Only a `t` parameter of its own: `seat=3&at=x` is left as it is.
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, "GET /x?seat=3&at=x", None, None)
    RedactTokens().filter(record)
    assert record.msg == "GET /x?seat=3&at=x"


def test_a_turn_reaches_a_confirmed_address_through_the_dispatcher(
    database_url: str, tiny: str, smtp: tuple[Inbox, int]
) -> None:
    """The whole way: Ann plays, Bo (no socket open) is due; once the grace is over the dispatcher
    sends Bo the turn by email."""
    inbox, port = smtp
    with TestClient(create_app(mail_settings(database_url, port, push_grace_seconds=0.2))) as client:
        room_id, (ann, bo) = seated_match(client)
        client.post(f"/api/rooms/{room_id}/email", json={"email": "bo@example.org"}, headers=auth(bo))
        ((_to, first),) = inbox.wait(1)
        assert client.post("/email/confirm", params={"t": link(first, "confirm")}).status_code == 200
        state = client.get(f"/api/rooms/{room_id}/state", headers=auth(ann)).json()
        played = client.post(
            f"/api/rooms/{room_id}/actions", json={"action": state["legal_actions"][0]}, headers=auth(ann)
        )
        assert played.status_code == 200, played.text
        (to, alert) = inbox.wait(2)[1]
        assert to == ["bo@example.org"] and alert["Subject"] == "Tiny: your turn"
        assert ann not in alert.as_string() and bo not in alert.as_string()


# -- no mail cannon (issue 32) ---------------------------------------------------------


def add(client: TestClient, room_id: str, token: str, address: str) -> Any:
    return client.post(f"/api/rooms/{room_id}/email", json={"email": address}, headers=auth(token))


def refused(answer: Any, words: str) -> None:
    """A 429 rate_limited with Retry-After, naming the limit in `words`."""
    assert answer.status_code == 429, answer.text
    assert code(answer) == "rate_limited" and words in answer.json()["error"]["message"], answer.text
    assert int(answer.headers["retry-after"]) >= 1


def test_the_mailbox_an_address_reaches() -> None:
    assert mailbox("Victim@Example.ORG") == "victim@example.org"
    assert mailbox("victim+1@example.org") == mailbox("victim+a+b@example.org") == "victim@example.org"
    assert mailbox("v.i.c.t.i.m+x@GoogleMail.com") == mailbox("victim@gmail.com") == "victim@gmail.com"
    # Dots count where the domain does not ignore them; a name that is all tag stays as it is.
    assert mailbox("vic.tim@example.org") == "vic.tim@example.org"
    assert mailbox("+news@example.org") == "+news@example.org"


def test_tags_dots_and_case_do_not_make_a_new_mailbox(mailing: tuple[TestClient, Inbox]) -> None:
    """The attack: one client mailed a victim 100 times by adding victim+N@ (or dotted Gmail names)
    in seat after seat. Each seat here is in a room of its own, so only the mailbox limit can refuse."""
    client, inbox = mailing
    seats = [seated_match(client, start=False) for _ in range(8)]
    firsts = [(room_id, tokens[0]) for room_id, tokens in seats]
    assert add(client, *firsts[0], "victim@gmail.com").status_code == 201
    for (room_id, token), variant in zip(
        firsts[1:5],
        ("victim+1@gmail.com", "Victim+2@GMAIL.com", "v.ic.tim@gmail.com", "vic.tim+3@googlemail.com"),
        strict=True,
    ):
        refused(add(client, room_id, token, variant), "this mailbox")
        assert rows(client, room_id) == [], "a refused request writes nothing"
    assert add(client, *firsts[5], "bo@example.org").status_code == 201
    refused(add(client, *firsts[6], "bo+games@example.org"), "this mailbox")
    assert add(client, *firsts[7], "b.o@example.org").status_code == 201, "dots count at example.org"
    settle(client)
    assert sorted(inbox.to()) == ["b.o@example.org", "bo@example.org", "victim@gmail.com"]


def test_a_seat_and_a_room_have_caps_of_their_own(mailing: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailing
    room_id, tokens = seated_match(client, "mojo", 6, start=False)
    assert SEAT_PER_HOUR * 4 == ROOM_PER_HOUR, "four seats use the room's hour"
    for seat in range(4):
        for n in range(SEAT_PER_HOUR):
            assert add(client, room_id, tokens[seat], f"p{seat}-{n}@example.org").status_code == 201
        refused(
            add(client, room_id, tokens[seat], f"p{seat}-x@example.org"),
            f"this seat has asked for {SEAT_PER_HOUR}",
        )
    refused(
        add(client, room_id, tokens[4], "ed@example.org"), f"this room's seats have asked for {ROOM_PER_HOUR}"
    )
    (row,) = [row for row in rows(client, room_id) if row.seat == 3]
    assert row.status == "pending", "a refused request leaves the seat's address as it was"
    settle(client)
    assert len(inbox.mail) == ROOM_PER_HOUR
    # The seat's hour comes back a third at a time (a bucket), the room's a twelfth.
    cast(ClockBuckets, client.app.state.buckets).now += 3600 / ROOM_PER_HOUR  # type: ignore[attr-defined]
    assert add(client, room_id, tokens[4], "ed@example.org").status_code == 201
    refused(add(client, room_id, tokens[5], "fay@example.org"), "this room's seats")


def test_removing_replacing_or_leaving_resets_no_limit(mailing: tuple[TestClient, Inbox]) -> None:
    """The address book forgets (a replaced address's row, a removed address, a leaving seat's rows);
    the limits do not."""
    client, inbox = mailing
    room_id, (ann, bo) = seated_match(client)
    assert add(client, room_id, bo, "victim@example.org").status_code == 201
    assert add(client, room_id, bo, "other@example.org").status_code == 201
    assert [row.address for row in rows(client, room_id)] == ["other@example.org"]
    refused(add(client, room_id, bo, "victim@example.org"), "this mailbox")
    assert client.delete(f"/api/rooms/{room_id}/email", headers=auth(bo)).status_code == 204
    refused(add(client, room_id, bo, "victim@example.org"), "this mailbox")
    assert add(client, room_id, bo, "third@example.org").status_code == 201
    refused(add(client, room_id, bo, "fourth@example.org"), "this seat")
    # Bo leaves: his rows go with his token, and the mailboxes he wrote to stay counted.
    assert client.post(f"/api/rooms/{room_id}/leave", headers=auth(bo)).status_code == 200
    assert rows(client, room_id) == []
    refused(add(client, room_id, ann, "victim@example.org"), "this mailbox")
    refused(add(client, room_id, ann, "Third+x@example.org"), "this mailbox")
    settle(client)
    assert inbox.to() == ["victim@example.org", "other@example.org", "third@example.org"]
    # Ten minutes on, the mailbox may be written to again.
    cast(ClockBuckets, client.app.state.buckets).now += CONFIRM_EVERY  # type: ignore[attr-defined]
    assert add(client, room_id, ann, "victim+again@example.org").status_code == 201
    settle(client)
    assert inbox.to()[-1] == "victim+again@example.org"


def test_a_mailbox_gets_at_most_ten_confirmations_a_day(mailing: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailing
    buckets = cast(ClockBuckets, client.app.state.buckets)  # type: ignore[attr-defined]
    db = client.app.state.runtime.db  # type: ignore[attr-defined]
    for n in range(11):
        room_id, (ann, _bo) = seated_match(client, start=False)
        answer = add(client, room_id, ann, f"victim+{n}@example.org")
        if n < 10:
            assert answer.status_code == 201, (n, answer.text)
        else:
            refused(answer, "this mailbox")
            # Not the ten minutes (they have passed): the day's, which comes back a tenth at a time.
            assert CONFIRM_EVERY < int(answer.headers["retry-after"]) <= 86400 / 10
        buckets.now += CONFIRM_EVERY
        with db.transaction() as session:  # the rows' own ten minutes, passed as well
            session.execute(
                update(EmailAddress).values(created_at=utcnow() - timedelta(seconds=CONFIRM_EVERY))
            )
    settle(client)
    assert len(inbox.mail) == 10


def test_list_unsubscribe_is_folded_not_encoded(
    database_url: str, tiny: str, smtp: tuple[Inbox, int]
) -> None:
    """RFC 2047-encoded, the header is not a URL any more and mail providers offer no one-click
    unsubscribe (RFC 8058); the link is longer than a header line whatever the public URL."""
    inbox, port = smtp
    for n, public in enumerate((PUBLIC, f"{PUBLIC}/{'a-long-path-segment/' * 12}motable")):
        inbox.mail.clear()
        inbox.raw.clear()
        with TestClient(create_app(mail_settings(database_url, port, public_url=public))) as client:
            room_id, (_ann, bo) = seated_match(client)
            assert add(client, room_id, bo, f"bo{n}@example.org").status_code == 201
            ((_to, message),) = inbox.wait(1)
        url = f"<{public}/email/unsubscribe?t={link(message, 'unsubscribe', public)}>"
        assert len(url) > 78
        head = inbox.raw[0].split(b"\r\n\r\n", 1)[0].decode("ascii")
        # The header's lines: its first and the continuation lines after it (they start with a space).
        lines = head.split("\r\n")
        start = next(i for i, line in enumerate(lines) if line.lower().startswith("list-unsubscribe:"))
        field = [lines[start]]
        for line in lines[start + 1 :]:
            if not line.startswith((" ", "\t")):
                break
            field.append(line)
        assert "=?" not in "".join(field), field
        assert "".join(field) == f"List-Unsubscribe: {url}", "unfolded, it is the URL"
        assert all(len(line) <= 998 for line in field)
        assert message["List-Unsubscribe"].strip() == url
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


# -- with real server processes ------------------------------------------------------------


Spawn = Callable[[dict[str, str]], ServeProcess]


def serve_env(database_url: str, port: int, **extra: str) -> dict[str, str]:
    return {
        "DATABASE_URL": database_url,
        "MOTABLE_SMTP_URL": f"smtp://alerts:s%40cret@127.0.0.1:{port}",
        "MOTABLE_MAIL_FROM": "Motable <alerts@cards.example.org>",
        "MOTABLE_PUBLIC_URL": PUBLIC,
        "MOTABLE_ROOMS_PER_HOUR": "0",
        **extra,
    }


def seat_in_new_room(base: str, client: str | None = None) -> tuple[str, str]:
    """A room made from `client` (an address the trusted proxy names; None: the test's own)."""
    headers = {"X-Forwarded-For": client} if client else {}
    made = new_room(base, "mojo", headers=headers)
    return made.room_id, made.token


def add_over_http(
    base: str, seat: tuple[str, str], address: str, client: str | None = None
) -> httpx.Response:
    room_id, token = seat
    headers = {**auth(token), **({"X-Forwarded-For": client} if client else {})}
    return httpx.post(f"{base}/api/rooms/{room_id}/email", json={"email": address}, headers=headers)


def test_a_server_process_is_no_mail_cannon(sqlite_url: str, smtp: tuple[Inbox, int], spawn: Spawn) -> None:
    """The attacks as they were made, on `motable serve`: plus-addresses and dots to one mailbox, then
    many rooms from one client, then many clients up to the server's hour."""
    inbox, port = smtp
    server = spawn(serve_env(sqlite_url, port, MOTABLE_MAIL_CONFIRMATIONS_PER_HOUR="14"))
    base = server.base_url
    assert add_over_http(base, seat_in_new_room(base), "victim@gmail.com").status_code == 201
    for n, variant in enumerate(("victim+1@gmail.com", "VICTIM+2@gmail.com", "vic.tim@googlemail.com")):
        other = f"198.51.100.{n + 1}"  # another client, another room: only the mailbox is the same
        refused(add_over_http(base, seat_in_new_room(base, other), variant, other), "this mailbox")
    # Many rooms from one client address: ten an hour (MOTABLE_MAIL_CONFIRMATIONS_PER_ADDRESS).
    for n in range(1, 10):
        assert add_over_http(base, seat_in_new_room(base), f"stranger{n}@example.org").status_code == 201
    refused(add_over_http(base, seat_in_new_room(base), "stranger10@example.org"), "your network address")
    # Other clients may still, up to the server's fourteen an hour.
    for n in range(4):
        other = f"203.0.113.{n + 1}"
        answer = add_over_http(base, seat_in_new_room(base, other), f"friend{n}@example.org", other)
        assert answer.status_code == 201, answer.text
    other = "203.0.113.99"
    refused(add_over_http(base, seat_in_new_room(base, other), "late@example.org", other), "this server")
    # Stopping the server lets the confirmations under way finish (MailChannel.close): then the inbox
    # holds everything it will ever get from these requests.
    server.stop()
    recipients = inbox.to()
    assert len(recipients) == 14 and len(set(recipients)) == 14
    assert recipients.count("victim@gmail.com") == 1
    assert "stranger10@example.org" not in recipients and "late@example.org" not in recipients


@pytest.mark.redis
@pytest.mark.postgres
def test_two_processes_share_the_confirmation_limits(
    postgres_url: str, redis_url: str, smtp: tuple[Inbox, int], spawn: Spawn
) -> None:
    inbox, port = smtp
    env = serve_env(
        postgres_url,
        port,
        REDIS_URL=redis_url,
        MOTABLE_REDIS_PREFIX=f"test-{uuid.uuid4().hex}",
        MOTABLE_MAIL_CONFIRMATIONS_PER_ADDRESS="3",
    )
    a, b = spawn(env), spawn(env)
    answers = [
        add_over_http(server.base_url, seat_in_new_room(server.base_url), f"p{n}@example.org")
        for n, server in enumerate((a, b, a, b))
    ]
    assert [answer.status_code for answer in answers] == [201, 201, 201, 429], "3 in all, not 3 a process"
    refused(answers[3], "your network address")
    other = "198.51.100.7"
    refused(
        add_over_http(a.base_url, seat_in_new_room(a.base_url, other), "p0+1@example.org", other), "mailbox"
    )
    a.stop()
    b.stop()
    assert sorted(inbox.to()) == ["p0@example.org", "p1@example.org", "p2@example.org"]
