"""A seat's token never reaches the server's logs, though a WebSocket address carries it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from websockets.sync.client import connect as ws_connect

from app.config import Settings
from app.main import create_app
from tests.rooms import new_room
from tests.servers import ServeProcess


def test_uvicorn_log_lines_lose_the_token(caplog: pytest.LogCaptureFixture) -> None:
    create_app(Settings(database_url="sqlite://"))
    with caplog.at_level(logging.INFO):
        logging.getLogger("uvicorn.error").info(
            '%s - "WebSocket %s" %s', "127.0.0.1:5000", "/ws/rooms/abc?token=s3cr3t-value", "[accepted]"
        )
        logging.getLogger("uvicorn.access").info(
            '%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", "/x?a=1&token=other-s3cr3t", "1.1", 200
        )
    assert "s3cr3t" not in caplog.text
    assert "/ws/rooms/abc?token=[redacted]" in caplog.text and "a=1&token=[redacted]" in caplog.text


def test_a_real_server_log_holds_no_token(tmp_path: Path) -> None:
    log_path = tmp_path / "server.log"
    server = ServeProcess(
        {"DATABASE_URL": f"sqlite:///{tmp_path / 'm.db'}"}, log_path, log_level="info"
    ).start()
    try:
        room = new_room(server.base_url, "mojo")
        with ws_connect(f"{server.ws_url}/ws/rooms/{room.room_id}?token={room.token}") as socket:
            assert '"snapshot"' in str(socket.recv(10))
    finally:
        server.stop()
    text = log_path.read_text()
    assert "WebSocket" in text, "the socket was logged at all"
    assert room.token not in text
