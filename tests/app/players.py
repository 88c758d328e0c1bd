"""Test players: a socket (in-process or real), the state body kept up to date from patches, a log of
every message received."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any, Protocol

import anyio
import jsonpatch
from starlette.testclient import WebSocketTestSession
from websockets.sync.client import ClientConnection


class Socket(Protocol):
    def send(self, text: str) -> None: ...

    def recv(self, timeout: float) -> str: ...


class InProcessSocket:
    """A Starlette test-client WebSocket, with the receive timeout it lacks."""

    def __init__(self, session: WebSocketTestSession) -> None:
        self.session = session

    def send(self, text: str) -> None:
        self.session.send_text(text)

    def recv(self, timeout: float) -> str:
        async def receive() -> Any:
            with anyio.fail_after(timeout):
                return await self.session._send_rx.receive()

        message = self.session.portal.call(receive)
        self.session._raise_on_close(message)
        return str(message["text"])


class RealSocket:
    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection

    def send(self, text: str) -> None:
        self.connection.send(text)

    def recv(self, timeout: float) -> str:
        return str(self.connection.recv(timeout))


class Player:
    def __init__(self, seat: int | None, token: str | None, socket: Socket) -> None:
        self.seat = seat
        self.token = token
        self.socket = socket
        self.messages: list[dict[str, Any]] = []
        self.replies: dict[str, dict[str, Any]] = {}
        self.room: dict[str, Any] | None = None
        self._next_id = 0
        first = self.pump()
        assert first["type"] == "snapshot", first
        self.body: dict[str, Any] = first["state"]

    def pump(self, timeout: float = 20) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.socket.recv(timeout))
        self.messages.append(message)
        kind = message["type"]
        if kind == "snapshot":
            self.body = message["state"]
        elif kind == "patch":
            # A patch at the same version changes what the state body says about the match (a takeback asked).
            assert message["version"] >= self.body["version"], (message["version"], self.body["version"])
            self.body = jsonpatch.apply_patch(self.body, message["ops"])
            assert self.body["version"] == message["version"]
        elif kind == "room":
            self.room = message["room"]
        elif kind in ("ack", "error"):
            self.replies[str(message["id"])] = message
        return message

    def sync(self, version: int) -> None:
        while self.body["version"] < version:
            self.pump()

    def send_action(self, action: Any, version: int | None) -> str:
        self._next_id += 1
        message_id = f"{self.seat}-{self._next_id}"
        self.socket.send(
            json.dumps({"type": "action", "id": message_id, "action": action, "version": version})
        )
        return message_id

    def answer(self) -> dict[str, Any]:
        """The next ack or error, whatever came before it."""
        while (message := self.pump())["type"] not in ("ack", "error"):
            pass
        return message

    def reply(self, message_id: str) -> dict[str, Any]:
        while message_id not in self.replies:
            self.pump()
        return self.replies[message_id]


def play_to_the_end(
    players: list[Player],
    public_state: Callable[[], dict[str, Any]],
    seed: int = 0,
    max_turns: int = 5000,
) -> list[tuple[int, Any]]:
    """Humans play random legal actions over their sockets until the match is over (bots play
    themselves on the server). Returns every acknowledged (seat, action)."""
    rng = random.Random(seed)
    acked: list[tuple[int, Any]] = []
    for _ in range(max_turns):
        current = public_state()
        for player in players:
            player.sync(current["version"])
        if current["status"] == "finished":
            return acked
        movers = [p for p in players if p.body["legal_actions"] and p.body["version"] == current["version"]]
        if not movers:
            time.sleep(0.005)  # a bot is thinking on the server
            continue
        mover = rng.choice(movers)
        action = rng.choice(mover.body["legal_actions"])
        reply = mover.reply(mover.send_action(action, mover.body["version"]))
        if reply["type"] == "ack":
            assert mover.seat is not None
            acked.append((mover.seat, action))
        else:
            # Only a bot moving first may refuse a legal action sent at the version it was listed for.
            assert reply["error"]["code"] == "stale_version", reply
    raise AssertionError("the match did not end")
