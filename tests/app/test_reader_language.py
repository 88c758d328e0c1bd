"""The words the server makes for people, each in the reader's own language: the table's own lines
(stored as a message id and its places, worded for each socket and each HTTP reader, two friends at one
table in two languages; a line stored before as plain English shows as it was), push alerts in the
language of the page that turned them on, emails in the language of the page that gave the address,
their date in the reader's way and time zone."""

# French words use the typographic apostrophe, as the catalogue does.
# ruff: noqa: RUF001

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa
from alembic import command
from babel.dates import format_date
from sqlalchemy import select
from starlette.testclient import TestClient

from app import i18n
from app.alerts import dispatch
from app.alerts.core import Alert
from app.config import sqlalchemy_url
from app.db import alembic_config, make_engine, upgrade
from app.i18n import N_, Words
from app.main import create_app
from app.models import ChatMessage, EmailAddress, PushSubscription
from app.roomids import new_room_id
from tests.rooms import auth, join, new_room, seated_match, start_match

from .players import InProcessSocket, Player
from .test_mail import PUBLIC as PUBLIC_URL
from .test_mail import Inbox, clocked, deliver, link, mail_settings, settle
from .test_mail import smtp as smtp  # the test SMTP server's fixture
from .test_push import Clock, Device, PushService, _settings, app_with, play, run_service, wait_for

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
NBSP = "\u00a0"


@pytest.fixture
def site(database_url: str, tiny: str) -> Iterator[TestClient]:
    with TestClient(create_app(_settings(database_url, languages="all"))) as client:
        yield client
    i18n.configure(i18n.Languages())


def _socket(stack: ExitStack, client: TestClient, room_id: str, token: str | None, headers: Any) -> Player:
    query = f"?token={token}" if token else ""
    session = stack.enter_context(
        client.websocket_connect(f"/ws/rooms/{room_id}{query}", headers=dict(headers))
    )
    return Player(None, token, InProcessSocket(session))


def _next_chat(player: Player) -> dict[str, Any]:
    while (message := player.pump())["type"] != "chat":
        pass
    body: dict[str, Any] = message["message"]
    return body


def _table_lines(client: TestClient, room_id: str, headers: dict[str, str] | None = None) -> list[str]:
    answer = client.get(f"/api/rooms/{room_id}/chat", headers=headers or {})
    assert answer.status_code == 200, answer.text
    return [m["text"] for m in answer.json()["messages"] if m["kind"] == "seat"]


def test_a_table_line_reaches_each_reader_in_their_language_at_once(site: TestClient) -> None:
    room = new_room(site, "tiny", name="Ann")
    bo = join(site, room, "Bo")
    start_match(site, room)
    english = "Ann asked to pause the game; waiting for Bo"
    french = f"Ann a demandé une pause{NBSP}; en attente de Bo"
    german = "Ann möchte die Partie pausieren; wartet auf Bo"
    with ExitStack() as stack:
        # Ann reads French, Bo German, a spectator's browser asks for nothing: English.
        ann_socket = _socket(stack, site, room.room_id, room.token, FRENCH)
        bo_socket = _socket(stack, site, room.room_id, bo, GERMAN)
        watcher = _socket(stack, site, room.room_id, None, {})
        asked = site.post(f"/api/rooms/{room.room_id}/pause", headers={**auth(room.token), **FRENCH})
        assert asked.status_code == 200, asked.text
        lines = {name: _next_chat(p) for name, p in (("ann", ann_socket), ("bo", bo_socket), ("en", watcher))}
    assert lines["ann"]["text"] == french
    assert lines["bo"]["text"] == german
    assert lines["en"]["text"] == english
    # One line, the same fields as before for every reader: only its words differ.
    for line in lines.values():
        assert set(line) == {"id", "seat", "name", "text", "at", "after", "kind"}
        assert (line["kind"], line["seat"], line["name"]) == ("seat", None, "")
        assert {k: v for k, v in line.items() if k != "text"} == {
            k: v for k, v in lines["en"].items() if k != "text"
        }
    # Read back over HTTP, each in their own language too; the cookie of the switch wins.
    assert _table_lines(site, room.room_id, FRENCH)[-1] == french
    assert _table_lines(site, room.room_id, GERMAN)[-1] == german
    assert _table_lines(site, room.room_id)[-1] == english
    site.cookies.set(i18n.COOKIE, "de")
    assert _table_lines(site, room.room_id, FRENCH)[-1] == german
    site.cookies.clear()
    # Stored once, as its id and places, with its English kept as the text.
    db = site.app.state.runtime.db  # type: ignore[attr-defined]
    with db.read() as session:
        row = session.scalars(select(ChatMessage).where(ChatMessage.room_id == room.room_id)).one()
        assert row.text == english
        assert row.words == {
            "id": "%(name)s asked to pause the game; waiting for %(names)s",
            "params": {"name": "Ann", "names": "Bo"},
        }


def test_a_line_with_a_count_in_it_is_worded_with_the_readers_plural(site: TestClient) -> None:
    room_id, (ann, bo) = seated_match(site)
    site.post(f"/api/rooms/{room_id}/pause", headers=auth(ann))
    site.post(f"/api/rooms/{room_id}/pause/approve", headers=auth(bo))
    assert site.post(f"/api/rooms/{room_id}/resume", headers=auth(bo)).status_code == 200
    assert _table_lines(site, room_id, GERMAN)[-3:] == [
        "Ann möchte die Partie pausieren; wartet auf Bo",
        "Die Partie ist pausiert (gewünscht von Ann, erlaubt von Bo): keine Uhren und keine "
        "Benachrichtigungen, bis jemand fortsetzt",
        "Bo hat die Partie fortgesetzt: Die Uhren laufen wieder",
    ]
    # A line whose places hold words themselves (a count, with its own plural) is worded to the end.
    from app.services.people.handover import _minutes

    made = Words(
        N_(
            "%(names)s approved moving %(name)s's seat to another device: it moves in %(wait)s "
            "unless %(name)s refuses or comes back"
        ),
        names="Ann",
        name="Bo",
        wait=_minutes(300),
    )
    stored = i18n.words_json(made)
    assert json.loads(json.dumps(stored)) == stored  # plain JSON, to store and publish
    with i18n.speaking("fr"):
        assert i18n.word(i18n.words_from_json(stored)) == (
            f"Ann a accepté que la place de Bo passe sur un autre appareil{NBSP}: elle y passe dans "
            "5 minutes, sauf si Bo refuse ou revient"
        )
    assert str(i18n.words_from_json(stored)) == str(made)
    assert str(made).endswith("it moves in 5 minutes unless Bo refuses or comes back")


def test_a_line_stored_before_as_plain_text_still_shows_as_it_was(site: TestClient) -> None:
    room_id, (ann, _bo) = seated_match(site)
    old = "Bo's seat moved to another device, approved by Bo"
    db = site.app.state.runtime.db  # type: ignore[attr-defined]
    with db.transaction() as session:
        session.add(ChatMessage(room_id=room_id, seat=None, name="", text=old, after_seq=0, kind="seat"))
    site.post(f"/api/rooms/{room_id}/chat", json={"text": "salut"}, headers=auth(ann))
    for headers in (FRENCH, GERMAN, {}):
        answer = site.get(f"/api/rooms/{room_id}/chat", headers=headers).json()["messages"]
        assert [(m["kind"], m["text"]) for m in answer] == [("seat", old), ("chat", "salut")]


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_the_migration_keeps_the_lines_stored_before(
    backend: str, request: pytest.FixtureRequest, tiny: str
) -> None:
    url = sqlalchemy_url(request.getfixturevalue(f"{backend}_url"))
    command.upgrade(alembic_config(url), "0015")
    old = "Ann left the game; a bot plays their seat"
    old_room = new_room_id()
    engine = make_engine(url)
    try:
        tables = sa.MetaData()
        tables.reflect(engine, only=["rooms", "seats", "chat_messages", "push_subscriptions"])
        now = datetime.now(UTC)
        with engine.begin() as conn:
            conn.execute(
                tables.tables["rooms"].insert(),
                {
                    "id": old_room,
                    "game": "tiny",
                    "options": {},
                    "host_seat": 0,
                    "created_at": now,
                    "chat_spectators": False,
                },
            )
            conn.execute(
                tables.tables["chat_messages"].insert(),
                {
                    "room_id": old_room,
                    "seat": None,
                    "name": "",
                    "text": old,
                    "after_seq": None,
                    "created_at": now,
                    "kind": "seat",
                },
            )
            conn.execute(
                tables.tables["push_subscriptions"].insert(),
                {
                    "room_id": old_room,
                    "seat": 0,
                    "token_hash": "h",
                    "endpoint": "https://push.example.org/x",
                    "p256dh": "k",
                    "auth": "a",
                    "created_at": now,
                },
            )
        upgrade(url)
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT text, words FROM chat_messages")).one() == (old, None)
            assert conn.execute(sa.text("SELECT lang FROM push_subscriptions")).scalar_one() is None
    finally:
        engine.dispose()
    with TestClient(create_app(_settings(url, languages="all"))) as client:
        for headers in (FRENCH, GERMAN, {}):
            assert _table_lines(client, old_room, headers) == [old]
        devices = client.app.state.runtime.push.subscriptions.devices  # type: ignore[attr-defined]
        assert devices(old_room, 0) == []  # no seat holds that token: nothing to send
    i18n.configure(i18n.Languages())


@pytest.fixture
def service() -> Iterator[PushService]:
    state, server = run_service()
    yield state
    state.release.set()
    server.shutdown()
    server.server_close()


def test_each_device_is_alerted_in_the_language_it_turned_alerts_on_in(
    database_url: str, tiny: str, service: PushService
) -> None:
    with TestClient(app_with(_settings(database_url, languages="all"), Clock())) as client:
        room = new_room(client, "tiny", name="Ann")
        bo = join(client, room, "Bo")
        start_match(client, room)
        devices = {"fr": Device(), "de": Device(), "en": Device()}
        for lang, headers in (("fr", FRENCH), ("de", GERMAN), ("en", {})):
            subscribed = client.post(
                f"/api/rooms/{room.room_id}/push",
                json=devices[lang].subscription(service.url(f"/{lang}")),
                headers={**auth(bo), **headers},
            )
            assert subscribed.status_code == 201, subscribed.text
        db = client.app.state.runtime.db  # type: ignore[attr-defined]
        with db.read() as session:
            stored = session.scalars(select(PushSubscription).where(PushSubscription.room_id == room.room_id))
            assert sorted(row.lang for row in stored) == ["de", "en", "fr"]
        play(client, room.room_id, room.token)
        wait_for(lambda: all(service.at(f"/{lang}") for lang in devices))
    i18n.configure(i18n.Languages())
    said = {lang: devices[lang].decrypt(service.at(f"/{lang}")[0].body) for lang in devices}
    assert (said["fr"]["title"], said["fr"]["body"]) == (
        f"Tiny{NBSP}: à vous de jouer",
        f"Ann a joué{NBSP}; la table vous attend.",
    )
    assert (said["de"]["title"], said["de"]["body"]) == (
        "Tiny: Du bist dran",
        "Ann hat gespielt; der Tisch wartet auf dich.",
    )
    assert (said["en"]["title"], said["en"]["body"]) == (
        "Tiny: your turn",
        "Ann played; the table waits for you.",
    )
    for message in said.values():  # the facts stay as they are
        assert {k: message[k] for k in ("game", "event", "url")} == {
            "game": "Tiny",
            "event": "turn",
            "url": f"/r/{room.room_id}",
        }


def _turn(room_id: str, seat: int) -> Alert:
    return Alert(
        room_id,
        seat,
        "turn",
        "Tiny",
        Words(N_("%(game)s: your turn"), game="Tiny"),
        Words(N_("%(name)s played; the table waits for you."), name="Ann"),
        f"/r/{room_id}",
    )


def _text(message: Any) -> str:
    return str(message.get_content()).replace("\r\n", "\n")


def _days(lang: str, zone: str) -> set[str]:
    """The day as the reader writes it, now (either side of midnight, for a test that runs across it)."""
    return {format_date(datetime.now(ZoneInfo(zone)), format="full", locale=lang)}


def test_emails_are_written_in_the_language_the_address_was_given_in(
    database_url: str, tiny: str, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp
    with TestClient(create_app(mail_settings(database_url, port, languages="all"))) as client:
        clocked(client)
        room_id, (ann, bo) = seated_match(client)
        paris = {"from": "03:00", "to": "03:01", "tz": "Europe/Paris"}
        assert (
            client.put(f"/api/rooms/{room_id}/alerts", json={"quiet": paris}, headers=auth(bo)).status_code
            == 200
        )
        days_fr, days_de = _days("fr", "Europe/Paris"), _days("de", "UTC")
        for token, address, headers in ((bo, "bo@example.org", FRENCH), (ann, "ann@example.org", GERMAN)):
            added = client.post(
                f"/api/rooms/{room_id}/email", json={"email": address}, headers={**auth(token), **headers}
            )
            assert added.status_code == 201, added.text
        settle(client)
        confirmations = {to[0]: message for to, message in inbox.wait(2)}
        bo_first, ann_first = confirmations["bo@example.org"], confirmations["ann@example.org"]
        assert bo_first["Subject"] == "Confirmez les alertes par e-mail pour votre partie de Tiny"
        assert ann_first["Subject"] == "Bestätige die E-Mail-Benachrichtigungen für deine Partie Tiny"
        assert f"Pour recevoir ces e-mails, confirmez ici{NBSP}:\n{PUBLIC_URL}/email/confirm" in _text(
            bo_first
        )
        assert "Um diese E-Mails zu bekommen, bestätige hier:\n" in _text(ann_first)
        assert f"Ne plus recevoir ces e-mails (un clic){NBSP}: {PUBLIC_URL}/email/unsubscribe" in _text(
            bo_first
        )
        # The pages the links open speak their reader's language, as every page does.
        asked = client.get("/email/confirm", params={"t": link(bo_first, "confirm")}, headers=FRENCH)
        assert "<h1>M’envoyer un e-mail quand c’est mon tour</h1>" in asked.text
        assert "Confirmer les alertes par e-mail</button>" in asked.text
        for message, headers, done in (
            (bo_first, FRENCH, "<h1>Les alertes par e-mail sont activées</h1>"),
            (ann_first, GERMAN, "<h1>E-Mail-Benachrichtigungen sind an</h1>"),
        ):
            confirmed = client.post("/email/confirm", params={"t": link(message, "confirm")}, headers=headers)
            assert confirmed.status_code == 200 and done in confirmed.text
        db = client.app.state.runtime.db  # type: ignore[attr-defined]
        with db.read() as session:
            rows = session.scalars(select(EmailAddress).where(EmailAddress.room_id == room_id))
            assert {row.seat: row.lang for row in rows} == {0: "de", 1: "fr"}
        # The same alert, for each recipient in their words; the page that reads it asks for English.
        deliver(client, _turn(room_id, 1))
        deliver(client, _turn(room_id, 0))
        days_fr |= _days("fr", "Europe/Paris")
        days_de |= _days("de", "UTC")
        alerts = {to[0]: message for to, message in inbox.wait(4)[2:]}
    i18n.configure(i18n.Languages())
    french, german = alerts["bo@example.org"], alerts["ann@example.org"]
    assert french["Subject"] == f"Tiny{NBSP}: à vous de jouer"
    assert german["Subject"] == "Tiny: Du bist dran"
    french_text, german_text = _text(french), _text(german)
    assert french_text.startswith(
        f"Ann a joué{NBSP}; la table vous attend.\n\nOuvrir la table{NBSP}: {PUBLIC_URL}/r/{room_id}\n"
    )
    assert "Vous avez demandé un e-mail quand cette partie a besoin de vous" in french_text
    assert german_text.startswith(
        f"Ann hat gespielt; der Tisch wartet auf dich.\n\nZum Tisch: {PUBLIC_URL}/r/{room_id}\n"
    )
    # When it was sent: Bo gave Paris (with the quiet hours), in French; Ann gave no zone: UTC, said so.
    assert any(f"Envoyé le {day} à " in french_text for day in days_fr), french_text
    assert "(UTC)" not in french_text
    assert any(f"Gesendet am {day} um " in german_text for day in days_de), german_text
    assert "(UTC)." in german_text
    for text in (french_text, german_text):
        assert "your turn" not in text and "Open the table" not in text and "Stop these emails" not in text


def test_every_alert_is_words_each_channel_words_for_its_reader() -> None:
    """What `dispatch.build` makes is Words: English as text (the channels' old readers), and worded
    again in a device's or an address's language, its places (a count with its own plural) too."""
    table = dispatch.Table("r", "Nogame", "playing", 1, 3, frozenset({1}), {}, 60, None)
    clock = dispatch.build(table, 1, "clock", seconds_left=300)
    assert (clock.title, clock.body) == (
        "Nogame: your clock is running out",
        "About 5 minutes left for your move.",
    )
    with i18n.speaking("de"):
        assert i18n.word(clock.body) == "Dir bleiben noch etwa 5 Minuten für deinen Zug."
        assert i18n.word(dispatch.build(table, 1, "clock", seconds_left=1).body) == (
            "Dir bleiben noch etwa 1 Sekunde für deinen Zug."
        )
    with i18n.speaking("fr"):
        assert i18n.word(clock.title) == f"Nogame{NBSP}: votre temps est presque écoulé"
        rematch = dispatch.build(table, 1, "rematch", by="Ann")
        assert i18n.word(rematch.body) == "Ann a lancé une revanche. Rejoignez la partie."
    assert str(rematch.body) == "Ann started a rematch. Join them."
