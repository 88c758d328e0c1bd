"""Email alerts against a real SMTP server the test starts (aiosmtpd): a confirmation first and nothing
else before it, alerts after it at most once an hour, RFC 8058 one-click unsubscribe, the address never
shown and gone with the seat's token and the room; and quiet hours (docs/people.md)."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from sqlalchemy import select, update
from starlette.testclient import TestClient

from app.alerts.core import Alert
from app.alerts.gates import QuietHoursGate, is_quiet
from app.alerts.mail import CONFIRM_EVERY, MailChannel, Smtp
from app.config import Settings
from app.main import create_app
from app.models import EmailAddress, Room, utcnow
from app.retention import prune

from .conftest import NO_LIMITS, auth
from .test_people import code, room_with

PUBLIC = "https://cards.example.org"


class Inbox:
    """What the SMTP server received: (envelope recipients, parsed message)."""

    def __init__(self) -> None:
        self.mail: list[tuple[list[str], EmailMessage]] = []
        self.logins: list[bool] = []

    def authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        """The URL's user and percent-encoded password arrive decoded."""
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"alerts", b"s@cret")
        self.logins.append(ok)
        return AuthResult(success=ok)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert session.authenticated, "the channel logs in with the URL's user and password"
        self.mail.append((list(envelope.rcpt_tos), parsed))
        return "250 OK"

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
        public_url=PUBLIC,
        **NO_LIMITS,
        **extra,
    )


@pytest.fixture
def mailing(database_url: str, tiny: str, smtp: tuple[Inbox, int]) -> Iterator[tuple[TestClient, Inbox]]:
    inbox, port = smtp
    with TestClient(create_app(mail_settings(database_url, port))) as client:
        yield client, inbox


def channel(client: TestClient) -> MailChannel:
    mail: MailChannel = client.app.state.runtime.mail  # type: ignore[attr-defined]
    return mail


def deliver(client: TestClient, alert: Alert) -> None:
    """Call the channel as the dispatcher does, on the server's event loop."""
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


def link(message: EmailMessage, purpose: str) -> str:
    text = message.get_content().replace("\r\n", "\n")
    found = re.search(rf"{re.escape(PUBLIC)}/email/{purpose}\?t=(\S+)", text)
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
    room_id, (ann, bo) = room_with(client)
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
    assert first["List-Unsubscribe"] == f"<{PUBLIC}/email/unsubscribe?t={unsubscribe}>"
    assert first["List-Unsubscribe"].startswith("<https://")
    assert first["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    raw = first.as_string()
    assert ann not in raw and bo not in raw  # no seat token in any email
    # Nothing but the confirmation before the address is confirmed, not even after opening the page.
    deliver(client, turn(room_id, 1))
    page = client.get("/email/confirm", params={"t": confirm})
    assert page.status_code == 200 and "Confirm email alerts" in page.text
    assert page.headers["cache-control"] == "no-store"
    deliver(client, turn(room_id, 1))
    time.sleep(0.3)
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
    time.sleep(0.3)
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
    time.sleep(0.3)
    assert len(inbox.mail) == 3


def test_one_click_unsubscribe_stops_mail_and_keeps_only_a_hash(mailing: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailing
    room_id, (_ann, bo) = room_with(client)
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
    time.sleep(0.3)
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
    again = client.post(f"/api/rooms/{room_id}/email", json={"email": "bo@example.org"}, headers=auth(bo))
    assert again.status_code == 201
    (_to, second) = inbox.wait(2)[1]
    assert link(second, "confirm") != link(first, "confirm")
    deliver(client, turn(room_id, 1))
    time.sleep(0.3)
    assert len(inbox.mail) == 2
    # The old links are dead: that row is gone.
    assert client.post("/email/confirm", params={"t": link(first, "confirm")}).status_code == 404


def test_the_address_is_never_shown_and_goes_with_the_seat_and_room(
    mailing: tuple[TestClient, Inbox],
) -> None:
    client, inbox = mailing
    room_id, (ann, bo) = room_with(client)
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
    room_id, (ann, _bo) = room_with(client)
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
    time.sleep(0.2)
    assert inbox.mail == []
    assert rows(client, room_id) == []


def test_without_smtp_there_is_no_email(client: TestClient) -> None:
    room_id, (ann, _bo) = room_with(client)
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
    room_id, (ann, bo) = room_with(client)
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
        room_id, (ann, bo) = room_with(client)
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
