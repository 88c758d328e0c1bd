"""Bad input gets CONTRACT.md's answer on SQLite and PostgreSQL alike, never a 500, and changes nothing."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from .conftest import auth

DEEP = b"[" * 1000 + b"]" * 1000
HUGE_INT = b"1" * 5000


def invalid(answer: object) -> None:
    assert answer.status_code == 422, answer.text  # type: ignore[attr-defined]
    assert answer.json()["error"]["code"] == "invalid_request"  # type: ignore[attr-defined]


def test_nul_in_a_name_is_invalid_request(client: TestClient) -> None:
    invalid(client.post("/api/rooms", json={"game": "tiny", "name": "A\x00nn"}))
    room = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    invalid(client.post(f"/api/rooms/{room['room_id']}/join", json={"name": "\x00"}))
    assert len(client.get(f"/api/rooms/{room['room_id']}").json()["seats"]) == 1, "nothing changed"


def test_nul_in_options_or_game_is_invalid_request(client: TestClient) -> None:
    invalid(client.post("/api/rooms", json={"game": "ti\x00ny", "name": "Ann"}))
    invalid(client.post("/api/rooms", json={"game": "tiny", "name": "Ann", "options": {"k\x00": 1}}))


def test_nul_in_a_room_id_is_not_found(client: TestClient) -> None:
    for path in ("/api/rooms/abcdef%00ghijk", "/api/rooms/abcdef%00ghijk/state", "/api/rooms/%00/log"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "not_found"
    joined = client.post("/api/rooms/abcdef%00ghijk/join", json={"name": "Bo"})
    assert joined.status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        DEEP,
        b'{"game": "tiny", "name": "Ann", "options": {"a": ' + DEEP + b"}}",
        b'{"game": "tiny", "name": "\xff\xfe"}',
        b'{"game": "tiny", "name": "Ann", "options": {"n": ' + HUGE_INT + b"}}",
        b'{"game": "tiny", "name": "Ann"',
    ],
    ids=["deep", "deep-inside", "bad-utf8", "huge-int", "truncated"],
)
def test_undecodable_bodies_are_invalid_request(client: TestClient, body: bytes) -> None:
    invalid(client.post("/api/rooms", content=body, headers={"content-type": "application/json"}))


def test_undecodable_action_is_invalid_request(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    url = f"/api/rooms/{room['room_id']}/actions"
    for body in (b'{"action": ' + DEEP + b"}", b'{"action": {}, "version": ' + HUGE_INT + b"}"):
        invalid(
            client.post(
                url, content=body, headers={**auth(room["token"]), "content-type": "application/json"}
            )
        )


def test_deeply_nested_socket_frame_keeps_the_socket(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    with client.websocket_connect(f"/ws/rooms/{room['room_id']}?token={room['token']}") as ws:
        assert ws.receive_json()["type"] == "snapshot"

        def reply() -> dict[str, object]:
            message: dict[str, object] = ws.receive_json()
            while message["type"] == "room":
                message = ws.receive_json()
            return message

        ws.send_bytes(DEEP)
        first = reply()
        assert first["type"] == "error" and first["error"]["code"] == "invalid_request"  # type: ignore[index]
        ws.send_text('{"type": "action", "id": "x", "action": ' + "[" * 100 + "]" * 100 + "}")
        second = reply()
        assert second["error"]["code"] == "invalid_request"  # type: ignore[index]
        ws.send_json({"type": "action", "id": "y", "action": {"type": "noop"}})
        third = reply()
        assert third["id"] == "y" and third["error"]["code"] == "not_started", "the socket still plays"  # type: ignore[index]


def test_unpaired_surrogate_escapes_are_invalid_request_but_pairs_are_text(client: TestClient) -> None:
    headers = {"content-type": "application/json"}
    for escape in ("\\ud800", "\\udfff", "\\ud83d x", "x \\ude00"):
        body = f'{{"game": "tiny", "name": "Ann {escape}"}}'.encode()
        answer = client.post("/api/rooms", content=body, headers=headers)
        invalid(answer)
        assert "surrogate" in answer.json()["error"]["message"]
    # An escaped pair is one character (here U+1F600), as JSON means it: taken as text.
    room = client.post("/api/rooms", content=b'{"game": "tiny", "name": "Ann"}', headers=headers).json()
    said = client.post(
        f"/api/rooms/{room['room_id']}/chat",
        content=b'{"text": "hi \\ud83d\\ude00"}',
        headers={**headers, **auth(room["token"])},
    )
    assert said.status_code == 201, said.text
    assert "\U0001f600" in str(client.get(f"/api/rooms/{room['room_id']}/chat").json())


def test_max_json_depth_is_the_settings_word(database_url: str, tiny: str) -> None:
    """MOTABLE_MAX_JSON_DEPTH bounds every JSON body and socket message, whatever the default is."""
    from app.config import Settings
    from app.main import create_app

    deep = {"game": "tiny", "name": "Ann", "options": {"a": {"b": {"c": {"d": 1}}}}}  # depth 5
    with TestClient(create_app(Settings(database_url=database_url, bot_delay=0, max_json_depth=2))) as client:
        refused = client.post("/api/rooms", json=deep)
        invalid(refused)
        assert "at most 2 deep" in refused.json()["error"]["message"]
        room = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
        with client.websocket_connect(f"/ws/rooms/{room['room_id']}") as socket:
            assert socket.receive_json()["type"] == "snapshot"
            socket.send_text('{"type": "action", "id": 1, "action": {"a": {"b": 1}}}')
            answer = socket.receive_json()
            assert answer["type"] == "error" and answer["error"]["code"] == "invalid_request"
    with TestClient(create_app(Settings(database_url=database_url, bot_delay=0))) as client:
        assert "deep" not in client.post("/api/rooms", json=deep).text, "the default lets depth 5 through"
