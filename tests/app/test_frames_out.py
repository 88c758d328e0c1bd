"""What a socket that agreed to permessage-deflate receives: short text frames (a move's patch, an ack)
uncompressed, long ones (a snapshot) compressed, and every one read back whole by a standard client
(app/serving.py, COMPRESS_FROM)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import httpx
import pytest
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from app.serving import COMPRESS_FROM
from tests.rooms import auth, seated_match
from tests.servers import ServeProcess


class Recording(ClientPerMessageDeflateFactory):
    """The client's own permessage-deflate, noting for each text message whether it came compressed
    (its RSV1 bit) and what it read as."""

    def __init__(self, seen: list[tuple[bool, dict[str, Any], int]]) -> None:
        super().__init__()
        self.seen = seen

    def process_response_params(
        self, params: Sequence[tuple[str, str | None]], accepted: Sequence[Extension]
    ) -> Any:
        extension = super().process_response_params(params, accepted)
        decode = extension.decode

        def noted(frame: Frame, *, max_size: int | None = None) -> Frame:
            read = decode(frame, max_size=max_size)
            if frame.opcode is Opcode.TEXT:
                self.seen.append((frame.rsv1, json.loads(read.data), len(read.data)))
            return read

        extension.decode = noted  # type: ignore[method-assign]
        return extension


@pytest.mark.parametrize("compress_from", [None, 1000, 0])
def test_short_frames_go_out_plain_and_long_ones_compressed(
    spawn: Callable[[dict[str, str]], ServeProcess], compress_from: int | None
) -> None:
    """`compress_from`: MOTABLE_WS_COMPRESS_FROM (None: the default). At 1000 a table of four's
    snapshot (about 1,350 bytes) comes compressed and an ack does not; at 0 every frame does."""
    server = spawn({} if compress_from is None else {"MOTABLE_WS_COMPRESS_FROM": str(compress_from)})
    threshold = COMPRESS_FROM if compress_from is None else compress_from
    table = seated_match(server.base_url, "mojo", players=4)
    seen: list[tuple[bool, dict[str, Any], int]] = []
    pick = random.Random(7)
    with (
        httpx.Client(base_url=server.base_url) as api,
        connect(
            f"{server.ws_url}/ws/rooms/{table.room_id}", compression=None, extensions=[Recording(seen)]
        ) as socket,
    ):
        socket.send(json.dumps({"type": "auth", "token": table.tokens[0]}))
        messages = [json.loads(socket.recv(timeout=10))]
        while messages[-1]["type"] != "snapshot":
            messages.append(json.loads(socket.recv(timeout=10)))
        for _ in range(12):
            public = api.get(f"/api/rooms/{table.room_id}/state").json()
            seat = public["to_act"][0]
            mine = api.get(f"/api/rooms/{table.room_id}/state", headers=auth(table.tokens[seat])).json()
            action = pick.choice(mine["legal_actions"])
            if seat == 0:
                # The socket's own move: its ack and its patch.
                sent = {"type": "action", "id": "m", "action": action, "version": mine["version"]}
                socket.send(json.dumps(sent))
            else:
                body = {"action": action, "version": mine["version"]}
                moved = api.post(
                    f"/api/rooms/{table.room_id}/actions", json=body, headers=auth(table.tokens[seat])
                )
                assert moved.status_code == 200, moved.text
            while True:
                message = json.loads(socket.recv(timeout=10))
                messages.append(message)
                if message["type"] == "patch" and message["version"] == mine["version"] + 1:
                    break
    # Every message the socket read was seen by the extension, as the client read it.
    assert [message for _, message, _ in seen] == messages
    for compressed, message, size in seen:
        assert compressed == (size >= threshold), (message["type"], size)
    kinds = {(message["type"], compressed) for compressed, message, _ in seen}
    if compress_from == 0:
        assert {compressed for compressed, _, _ in seen} == {True}
    else:
        assert ("patch", False) in kinds and ("ack", False) in kinds
    if compress_from == 1000:
        assert ("snapshot", True) in kinds
