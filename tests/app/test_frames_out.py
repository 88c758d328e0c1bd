"""What a socket that agreed to permessage-deflate receives: short text frames (a move's patch, an ack)
uncompressed, long ones (a snapshot) compressed, and every one read back whole by a standard client
(app/serving.py, COMPRESS_FROM)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from app.serving import COMPRESS_FROM
from tests.rooms import seated_match
from tests.servers import ServeProcess

from .players import Player, RealSocket


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
    snapshot (about 1,350 bytes) comes compressed and an ack does not; at 0 every frame does. Each
    seat's Player applies every patch it gets, plain or not, to the body it holds."""
    server = spawn({} if compress_from is None else {"MOTABLE_WS_COMPRESS_FROM": str(compress_from)})
    threshold = COMPRESS_FROM if compress_from is None else compress_from
    table = seated_match(server.base_url, "mojo", players=4)
    seen: list[tuple[bool, dict[str, Any], int]] = []
    pick = random.Random(7)
    with ExitStack() as stack:
        players = []
        for seat, token in enumerate(table.tokens):
            url = f"{server.ws_url}/ws/rooms/{table.room_id}?token={token}"
            socket = stack.enter_context(connect(url, compression=None, extensions=[Recording(seen)]))
            players.append(Player(seat, token, RealSocket(socket)))
        for _ in range(12):
            mover = next(p for p in players if p.body["legal_actions"])
            version = mover.body["version"]
            reply = mover.reply(mover.send_action(pick.choice(mover.body["legal_actions"]), version))
            assert reply["type"] == "ack", reply
            for player in players:
                player.sync(version + 1)
    # Every message a Player read was seen by the extension, as the client read it (the extension
    # may have decoded a few more, still waiting in a socket's queue).
    read = Counter(json.dumps(m, sort_keys=True) for player in players for m in player.messages)
    decoded = Counter(json.dumps(m, sort_keys=True) for _, m, _ in seen)
    assert not read - decoded
    for compressed, message, size in seen:
        assert compressed == (size >= threshold), (message["type"], size)
    kinds = {(message["type"], compressed) for compressed, message, _ in seen}
    if compress_from == 0:
        assert {compressed for compressed, _, _ in seen} == {True}
    else:
        assert ("patch", False) in kinds and ("ack", False) in kinds
    if compress_from == 1000:
        assert ("snapshot", True) in kinds
