"""Share links and seat links without a configured public URL: a Host header that is not a plain,
bounded host[:port] is not used (the link names the address the request reached), never a 500.

Against a real `motable serve`: the Host header arrives exactly as the client wrote it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.urls import valid_host
from tests.rooms import Room, new_room
from tests.servers import ServeProcess

from .conftest import auth

BAD_HOSTS = [
    "a" * 2900,  # the reported 500: the link no longer fits in a QR code
    "b" * 64 + ".example.org",  # a DNS label is at most 63 characters
    ".".join(["abcdefghi"] * 30),  # 299 characters of valid labels: longer than any name
    "evil.example.org/phish?x=",
    "exa mple.org",
    "example.org:99999",
    "example.org:80:81",
    "[::1",
    "[not:an:address]:80",
    "ex\\ample.org",
    "@example.org",
    "user@example.org",
]


@pytest.fixture
def served(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[ServeProcess, Room]]:
    server = ServeProcess({"DATABASE_URL": sqlite_url}, tmp_path / "serve.log").start()
    try:
        room = new_room(server.base_url, "mojo")
        yield server, room
    finally:
        server.stop()
    log = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in log, log[-4000:]


def test_a_bad_host_header_is_not_used_for_links(served: tuple[ServeProcess, Room]) -> None:
    server, room = served
    room_id = room.room_id
    for host in BAD_HOSTS:
        with httpx.Client(base_url=server.base_url, headers={"Host": host}, timeout=10) as client:
            page = client.get(f"/r/{room_id}")
            link = client.get(f"/api/rooms/{room_id}/seat-link", headers=auth(room.token))
        assert page.status_code == 200, f"{host[:40]}: {page.text[:300]}"
        assert "<svg" in page.text, "the QR code is drawn"
        assert f"127.0.0.1:{server.port}/r/{room_id}" in page.text, "the link names the address reached"
        assert link.status_code == 200, f"{host[:40]}: {link.text[:300]}"
        assert link.json()["url"] == f"http://127.0.0.1:{server.port}/r/{room_id}#seat={room.token}"
        assert host not in page.text and host not in link.text


def test_a_plain_host_header_still_names_the_links(served: tuple[ServeProcess, Room]) -> None:
    server, room = served
    for host in ("cards.example.org", "cards.example.org:8443", "192.168.1.5:8000", "[::1]:8000"):
        with httpx.Client(base_url=server.base_url, headers={"Host": host}, timeout=10) as client:
            link = client.get(f"/api/rooms/{room.room_id}/seat-link", headers=auth(room.token))
            page = client.get(f"/r/{room.room_id}")
        assert link.json()["url"].startswith(f"http://{host}/r/{room.room_id}#seat=")
        assert f"http://{host}/r/{room.room_id}" in page.text


def test_valid_host() -> None:
    for good in (
        "localhost",
        "example.org",
        "example.org.",
        "a-b.c:1",
        "10.0.0.1:65535",
        "[::1]:8000",
        "[fe80::1]",
    ):
        assert valid_host(good), good
    for bad in (*BAD_HOSTS, "", ":80", "example.org:0", "example.org:", "-a.org", "a-.org", "[::1]x", "a..b"):
        assert not valid_host(bad), bad
    assert valid_host(".".join(["a" * 63] * 3) + "." + "b" * 61)  # 253 characters: the longest name
