"""Share links use the configured public URL, never the Host header; a loopback-only server says so."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app
from tests.servers import ServeProcess


@pytest.fixture
def make_client(database_url: str, tiny: str) -> Iterator[Callable[..., TestClient]]:
    opened: list[TestClient] = []

    def make(**settings: object) -> TestClient:
        client = TestClient(create_app(Settings(database_url=database_url, bot_delay=0, **settings)))  # type: ignore[arg-type]
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def test_join_url_and_qr_use_the_public_url_whatever_the_host_header(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(public_url="https://cards.example.org")
    made = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}, headers={"Host": "evil.example"})
    assert made.json()["join_url"] == f"https://cards.example.org/r/{made.json()['room_id']}"
    page = client.get(f"/r/{made.json()['room_id']}", headers={"Host": "evil.example"})
    assert f'value="https://cards.example.org/r/{made.json()["room_id"]}"' in page.text
    assert "evil.example" not in page.text
    # The private seat link (and its QR code) too.
    token = made.json()["token"]
    link = client.get(
        f"/api/rooms/{made.json()['room_id']}/seat-link",
        headers={"Host": "evil.example", "Authorization": f"Bearer {token}"},
    ).json()
    assert link["url"] == f"https://cards.example.org/r/{made.json()['room_id']}#seat={token}"


def test_without_a_public_url_the_request_address_is_used(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    made = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    assert made["join_url"] == f"http://testserver/r/{made['room_id']}"


@pytest.mark.parametrize(
    ("settings", "warned"),
    [
        ({"bind_host": "127.0.0.1"}, True),
        ({"bind_host": "localhost"}, True),
        ({"bind_host": "0.0.0.0"}, False),
        ({"bind_host": "127.0.0.1", "public_url": "https://cards.example.org"}, False),
    ],
)
def test_loopback_only_server_says_so_next_to_the_link(
    make_client: Callable[..., TestClient], settings: dict[str, str], warned: bool
) -> None:
    client = make_client(**settings)
    made = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
    page = client.get(f"/r/{made['room_id']}").text
    assert ('id="loopback-note"' in page) is warned
    if warned:
        assert "--host 0.0.0.0" in page


def test_serve_takes_public_url_from_the_command_line(tmp_path: Path, sqlite_url: str) -> None:
    server = ServeProcess(
        {"DATABASE_URL": sqlite_url},
        tmp_path / "serve.log",
        args=["--public-url", "https://cards.example.org/"],
    ).start()
    try:
        made = httpx.post(f"{server.base_url}/api/rooms", json={"game": "mojo", "name": "Ann"}).json()
        assert made["join_url"] == f"https://cards.example.org/r/{made['room_id']}"
        page = httpx.get(f"{server.base_url}/r/{made['room_id']}").text
        assert 'id="loopback-note"' not in page
    finally:
        server.stop()


def test_default_serve_on_loopback_warns_on_the_room_page(tmp_path: Path, sqlite_url: str) -> None:
    server = ServeProcess({"DATABASE_URL": sqlite_url}, tmp_path / "serve.log").start()
    try:
        made = httpx.post(f"{server.base_url}/api/rooms", json={"game": "mojo", "name": "Ann"}).json()
        page = httpx.get(f"{server.base_url}/r/{made['room_id']}").text
        assert 'id="loopback-note"' in page
    finally:
        server.stop()
