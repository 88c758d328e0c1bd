"""Room ids are checked by their real shape before any work; ids starting with `-` work in the CLI."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from app.cli import main, parser
from app.config import Settings
from app.main import create_app
from app.roomids import is_room_id, new_room_id
from app.routes import pages

from .conftest import auth


def test_new_ids_have_the_shape_and_never_start_with_a_dash() -> None:
    ids = [new_room_id() for _ in range(5000)]
    assert all(is_room_id(room_id) for room_id in ids)
    assert not any(room_id.startswith("-") for room_id in ids)
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize(
    "bad", ["x" * 2400, "abc", "a" * 13, "ab\x00cdefghijk", "abcdefghijk!", "abcdéfghijkl"]
)
def test_room_page_of_an_impossible_id_is_a_friendly_404(client: TestClient, bad: str) -> None:
    from sqlalchemy import event

    engine = client.app.state.runtime.db.engine  # type: ignore[attr-defined]
    looked_up: list[str] = []
    shaped = new_room_id()  # a well-shaped id of no room: it is looked up (the watch sees ids)

    def watch(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_rest: Any) -> None:
        for room_id in (bad, shaped):
            if room_id in repr(parameters):
                looked_up.append(room_id)

    event.listen(engine, "before_cursor_execute", watch)
    try:
        for suffix in ("", "/replay"):  # the room page and its replay page
            page = client.get(f"/r/{quote(bad)}{suffix}")
            assert page.status_code == 404
            assert "text/html" in page.headers["content-type"]
            assert "This room does not exist" in page.text and "Back to the lobby" in page.text
            assert "<svg" not in page.text, "no QR code is drawn for it"
        assert client.get(f"/r/{shaped}").status_code == 404
    finally:
        event.remove(engine, "before_cursor_execute", watch)
    # Refused by its shape alone: the impossible id is never looked up; the well-shaped one is.
    assert bad not in looked_up and shaped in looked_up


@pytest.mark.parametrize("path", ["", "/state", "/log"])
@pytest.mark.parametrize("bad", ["x" * 3000, "nul\x00nul\x00nul", "short"])
def test_api_with_an_impossible_id_answers_not_found(client: TestClient, path: str, bad: str) -> None:
    answer = client.get(f"/api/rooms/{quote(bad)}{path}")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"
    joined = client.post(f"/api/rooms/{quote(bad)}/join", json={"name": "Bo"})
    assert joined.status_code == 404


def test_socket_with_an_impossible_id_closes_1008(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/ws/rooms/" + "y" * 500) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 1008


def test_qr_code_is_drawn_once_per_room(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    room = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    pages.qr_svg.cache_clear()
    calls = []
    original = pages.segno.make
    monkeypatch.setattr(pages.segno, "make", lambda *a, **k: calls.append(a) or original(*a, **k))
    for _ in range(5):
        page = client.get(f"/r/{room['room_id']}")
        assert page.status_code == 200
        assert "<svg" in page.text
    assert len(calls) == 1


def test_verify_parses_an_id_starting_with_a_dash() -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["verify", "-McLoWJ80Onq"])  # argparse alone takes it for an option
    assert main(["verify", "-McLoWJ80Onq", "--server", "http://127.0.0.1:9"]) == 1
    assert main(["verify", "--server", "http://127.0.0.1:9", "-McLoWJ80Onq"]) == 1


@pytest.fixture
def dash_room(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    """A room whose id starts with `-`, as old servers made about one time in 64."""
    from app.services import rooms

    monkeypatch.setattr(rooms, "new_room_id", lambda: "-McLoWJ80Onq")
    made = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    assert made["room_id"] == "-McLoWJ80Onq"
    yield made["room_id"], made["token"]


def test_ids_starting_with_a_dash_still_work_over_http(
    client: TestClient, dash_room: tuple[str, str]
) -> None:
    room_id, token = dash_room
    assert client.get(f"/api/rooms/{room_id}").json()["room_id"] == room_id
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(token)).json()["seat"] == 0
    assert client.get(f"/r/{room_id}").status_code == 200


def test_verify_runs_on_an_id_starting_with_a_dash(
    sqlite_url: str, tiny: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", sqlite_url)
    assert main(["migrate"]) == 0
    with TestClient(create_app(Settings(database_url=sqlite_url, bot_delay=0))) as client:
        client.post("/api/rooms", json={"game": "tiny", "name": "Ann"})
    capsys.readouterr()
    assert main(["verify", "-McLoWJ80Onq"]) == 1
    assert capsys.readouterr().out.startswith("FAIL room -McLoWJ80Onq")
