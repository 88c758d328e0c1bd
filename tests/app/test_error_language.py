"""Error messages in the reader's language: the `code` and status are the contract and stay the same; the
`message` follows the reader's choice (the `motable_lang` cookie, else Accept-Language), over HTTP and in
a socket's `error` frames, its places filled. English stays the default, and a server offering English
only answers English whatever the browser asks."""

# French words use the typographic apostrophe, as the catalogue does.
# ruff: noqa: RUF001

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app import i18n
from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.errors import AppError
from app.i18n import N_
from app.main import create_app
from tests.rooms import auth, new_room

from .conftest import NO_LIMITS
from .players import InProcessSocket, Player

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
NBSP = "\u00a0"


def _site(sqlite_url: str, languages: str | None, **settings: object) -> TestClient:
    url = sqlalchemy_url(sqlite_url)
    upgrade(url)
    return TestClient(
        create_app(Settings(database_url=url, bot_delay=0, languages=languages, **{**NO_LIMITS, **settings}))
    )


@pytest.fixture
def site(sqlite_url: str, tiny: str) -> Iterator[TestClient]:
    with _site(sqlite_url, "all") as client:
        yield client
    i18n.configure(i18n.Languages())


def _other(room_id: str) -> str:
    """A well-formed room id that is no room."""
    return room_id[:-1] + ("A" if room_id[-1] != "A" else "B")


def _error(answer: object) -> tuple[int, str, str]:
    assert hasattr(answer, "json") and hasattr(answer, "status_code")
    body = answer.json()["error"]
    return answer.status_code, body["code"], body["message"]


def test_an_http_refusal_speaks_french_or_german_with_its_places_filled(site: TestClient) -> None:
    room = new_room(site, "tiny", name="Ann")
    missing = _other(room.room_id)
    english = _error(site.get(f"/api/rooms/{missing}"))
    assert english == (404, "not_found", f"no room '{missing}'")
    assert _error(site.get(f"/api/rooms/{missing}", headers=FRENCH)) == (
        404,
        "not_found",
        f"il n’y a pas de partie «{NBSP}{missing}{NBSP}»",
    )
    assert _error(site.get(f"/api/rooms/{missing}", headers=GERMAN)) == (
        404,
        "not_found",
        f"es gibt keinen Tisch „{missing}“",
    )
    # A constant message, refused in the service (the writer thread) and worded as it is answered.
    guest = site.post(f"/api/rooms/{room.room_id}/join", json={"name": "Bo"}).json()["token"]
    start = f"/api/rooms/{room.room_id}/start"
    assert _error(site.post(start, headers=auth(guest))) == (403, "forbidden", "only the host may do this")
    assert _error(site.post(start, headers={**auth(guest), **FRENCH})) == (
        403,
        "forbidden",
        "seul l’hôte peut faire cela",
    )
    assert _error(site.post(start, headers={**auth(guest), **GERMAN})) == (
        403,
        "forbidden",
        "das kann nur der Host",
    )


def test_the_switchs_cookie_wins_over_the_browser_for_errors_too(site: TestClient) -> None:
    room = new_room(site, "tiny", name="Ann")
    missing = _other(room.room_id)
    site.cookies.set(i18n.COOKIE, "fr")
    status, code, message = _error(site.get(f"/api/rooms/{missing}", headers=GERMAN))
    assert (status, code) == (404, "not_found") and message.startswith("il n’y a pas de partie")
    assert "Accept-Language" in site.get(f"/api/rooms/{missing}").headers["vary"]
    site.cookies.set(i18n.COOKIE, "en")
    assert _error(site.get(f"/api/rooms/{missing}", headers=GERMAN))[2] == f"no room '{missing}'"


def test_an_engines_refusal_is_worded_for_its_reader(site: TestClient) -> None:
    room = new_room(site, "tiny", name="Ann")
    guest = site.post(f"/api/rooms/{room.room_id}/join", json={"name": "Bo"}).json()["token"]
    assert site.post(f"/api/rooms/{room.room_id}/start", headers=auth(room.token)).status_code == 200
    actions = f"/api/rooms/{room.room_id}/actions"
    bad = {"action": {"type": "play", "card": 99}}
    english = _error(site.post(actions, headers=auth(room.token), json=bad))
    assert english[:2] == (422, "illegal_action")
    assert english[2] == "that move is not possible at this point of the game"
    german = _error(site.post(actions, headers={**auth(room.token), **GERMAN}, json=bad))
    assert german == (422, "illegal_action", "dieser Zug ist an dieser Stelle des Spiels nicht möglich")
    # Not this seat's turn: the engine's words with the seat filled in.
    legal = site.get(f"/api/rooms/{room.room_id}/state", headers=auth(room.token)).json()["legal_actions"][0]
    refused = _error(site.post(actions, headers={**auth(guest), **FRENCH}, json={"action": legal}))
    assert refused == (409, "not_your_turn", "la place 1 ne peut pas jouer maintenant")


def _socket(
    stack: ExitStack, client: TestClient, room_id: str, token: str, headers: dict[str, str]
) -> Player:
    session = stack.enter_context(
        client.websocket_connect(f"/ws/rooms/{room_id}?token={token}", headers=headers)
    )
    return Player(0, token, InProcessSocket(session))


def test_a_sockets_error_frames_speak_its_readers_language(site: TestClient) -> None:
    room = new_room(site, "tiny", name="Ann")
    site.post(f"/api/rooms/{room.room_id}/join", json={"name": "Bo"})
    site.post(f"/api/rooms/{room.room_id}/start", headers=auth(room.token))
    with ExitStack() as stack:
        ann = _socket(stack, site, room.room_id, room.token, FRENCH)
        legal = ann.body["legal_actions"][0]
        ann.socket.send("not json")
        assert ann.answer() == {
            "type": "error",
            "id": None,
            "error": {"code": "invalid_request", "message": "un message est un seul objet JSON"},
        }
        # Places filled: the socket's own limit, and the match's version from the writer thread.
        ann.socket.send(json.dumps({"type": "action", "id": "big", "action": {"pad": "x" * 70_000}}))
        big = ann.answer()["error"]
        limit = site.app.state.runtime.settings.max_ws_message_bytes  # type: ignore[attr-defined]
        assert big == {"code": "too_large", "message": f"un message fait au plus {limit} octets"}
        stale = ann.reply(ann.send_action(legal, 99))["error"]
        assert stale == {"code": "stale_version", "message": "la partie en est à la version 1, pas 99"}
        illegal = ann.reply(ann.send_action({"type": "play", "card": 99}, None))["error"]
        assert illegal == {
            "code": "illegal_action",
            "message": "ce coup n’est pas possible à ce moment de la partie",
        }
        # Another reader of the same table, in German, at the same moment.
        bo = _socket(stack, site, room.room_id, room.token, GERMAN)
        bo.socket.send("[1]")
        assert bo.answer()["error"] == {
            "code": "invalid_request",
            "message": "eine Nachricht ist genau ein JSON-Objekt",
        }
        # Nothing refused changed the match.
        assert ann.reply(ann.send_action(legal, 1)) == {"type": "ack", "id": "0-3"}


def test_a_socket_refused_at_the_door_is_closed_with_english_words(site: TestClient) -> None:
    room = new_room(site, "tiny", name="Ann")
    url = f"/ws/rooms/{room.room_id}?token=forged"
    with pytest.raises(WebSocketDisconnect) as closed, site.websocket_connect(url, headers=FRENCH) as ws:
        ws.receive_json()
    # A close reason holds 123 bytes at most and no player reads it: it stays English.
    assert closed.value.code == 1008
    assert closed.value.reason == "this token holds no seat in this room"


def test_a_limit_outside_the_language_middleware_speaks_the_readers_language(
    sqlite_url: str, tiny: str
) -> None:
    with _site(sqlite_url, "all", max_header_bytes=2048) as client:
        padded = {"X-Pad": "x" * 4000}
        english = _error(client.get("/healthz", headers=padded))
        french = _error(client.get("/healthz", headers={**padded, **FRENCH}))
    i18n.configure(i18n.Languages())
    assert english == (431, "too_large", "the request's headers are too large")
    assert french == (431, "too_large", "les en-têtes de la requête sont trop gros")


def test_a_server_offering_english_only_answers_english(sqlite_url: str, tiny: str) -> None:
    with _site(sqlite_url, "en") as client:
        room = new_room(client, "tiny", name="Ann")
        missing = _other(room.room_id)
        assert _error(client.get(f"/api/rooms/{missing}", headers=FRENCH)) == (
            404,
            "not_found",
            f"no room '{missing}'",
        )
        with ExitStack() as stack:
            ann = _socket(stack, client, room.room_id, room.token, FRENCH)
            ann.socket.send("not json")
            assert ann.answer()["error"]["message"] == "a message is one JSON object"


def test_an_error_keeps_its_english_and_words_its_message_when_read() -> None:
    error = AppError("not_found", N_("no room '%(room)s'"), room="ABC")
    i18n.configure(i18n.Languages.parse("fr,de"))
    try:
        assert (error.code, error.status, str(error)) == ("not_found", 404, "no room 'ABC'")
        with i18n.speaking("fr"):
            assert error.message == f"il n’y a pas de partie «{NBSP}ABC{NBSP}»"
            assert error.english == "no room 'ABC'"
            assert error.body() == {"error": {"code": "not_found", "message": error.message}}
        with i18n.speaking("de"):
            assert error.message == "es gibt keinen Tisch „ABC“"
        assert error.message == "no room 'ABC'"
        # The public shape still takes plain words and a retry time.
        plain = AppError("rate_limited", "slow down, 100% of the time", retry_after=3)
        with i18n.speaking("fr"):
            assert (plain.message, plain.retry_after) == ("slow down, 100% of the time", 3)
    finally:
        i18n.configure(i18n.Languages())


def test_plural_and_nested_words_follow_the_readers_language() -> None:
    from app.alerts.mail import _about
    from app.services.takebacks import not_allowed
    from engines.core.takeback import SHOWED_YOU

    i18n.configure(i18n.Languages.parse("all"))
    try:
        refused = not_allowed(N_("this action cannot be taken back: %(reason)s"), reason=SHOWED_YOU)
        with i18n.speaking("de"):
            assert refused.message == (
                "diese Aktion lässt sich nicht zurücknehmen: dabei hast du eine Karte gesehen, die du noch "
                "nicht kanntest (nach der Rücknahme wüsstest du sie trotzdem)"
            )
            assert i18n.word(_about(30)) == "versuch es in etwa 1 Minute noch mal"
            assert i18n.word(_about(600)) == "versuch es in etwa 10 Minuten noch mal"
        with i18n.speaking("it"):
            assert i18n.word(_about(4 * 3600)) == "riprova tra circa 4 ore"
        assert str(_about(30)) == "try again in about 1 minute"
        assert refused.english.startswith("this action cannot be taken back: it showed you a card")
    finally:
        i18n.configure(i18n.Languages())
