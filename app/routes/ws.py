"""The live room socket: a snapshot, then patches and room changes; actions in, acks or errors out."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from app import jsonsafe
from app.errors import AppError
from app.i18n import N_, current, gettext
from app.ratelimit import Buckets
from app.realtime.hub import CLOSE, Connection
from app.realtime.split import encode
from app.runtime import Runtime
from app.schemas import SOCKET_MESSAGE, SocketAction, SocketAuth
from app.services.auth import hash_token
from app.services.matches import Applied
from app.serving import FRAME_SEND, FRAME_WRITE
from app.tasks import cancel_and_wait

router = APIRouter()
log = logging.getLogger(__name__)

POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013

NOT_AN_OBJECT = N_("a message is one JSON object")

# Sockets' ends still running (`_Socket.ended`) after the handler that began them was cancelled.
_ENDING: set[asyncio.Future[None]] = set()


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    runtime: Runtime = websocket.app.state.runtime
    # Old clients put the token in the URL; new ones open as a spectator and send {"type": "auth"}.
    token = websocket.query_params.get("token") or None
    # Accept first so a refused client sees close code 1008, not a failed handshake.
    await websocket.accept()
    try:
        seat = await runtime.master.seat_of(room_id, token)
    except AppError as error:
        # A close reason: at most 123 bytes of UTF-8 and read by no player, so English.
        await websocket.close(code=POLICY_VIOLATION, reason=error.english)
        return
    conn = Connection(
        seat,
        token_hash=hash_token(token) if seat is not None and token is not None else None,
        # The server's frame writer (app/serving.py FrameProtocol): frames skip the sender task
        # when nothing is queued ahead. None under another server (the test client).
        write=websocket.scope.get(FRAME_WRITE),
        # The reader's language, which i18n.Speak holds for the whole socket: the table's own lines
        # are sent in it.
        lang=current(),
    )
    socket = _Socket(websocket, runtime, room_id, token, conn)
    sender: asyncio.Task[None] | None = None
    # Everything set up below is undone in `finally`, even when setting up fails part way.
    try:
        await runtime.hub.attach(room_id, socket.conn, runtime.fanout.bodies_for(room_id))
        sender = asyncio.create_task(_send(websocket, socket.conn))
        if seat is not None:
            await socket.count(seat)
        runtime.master.socket_opened(room_id, _waiting(socket.conn))
        # A table screen says so in its address (it stays a spectator: no token, public view).
        if seat is None and websocket.query_params.get("screen") == "1":
            socket.screen = True
            await runtime.master.screen_opened(room_id)
        await socket.receive()
    finally:
        runtime.hub.detach(room_id, socket.conn)
        # What the socket's end writes (its seat's "away since", presence, a table screen gone) is done
        # however the socket ended, a cancellation of this handler included: a closing test client
        # cancels it, and anyio cancels again at each await. In a task of its own, shielded, which a
        # cancellation here does not stop.
        ending = asyncio.ensure_future(socket.ended(sender))
        # Held until done: the loop keeps only a weak reference to a task nobody awaits any more.
        _ENDING.add(ending)
        ending.add_done_callback(_ENDING.discard)
        await asyncio.shield(ending)


async def _send(websocket: WebSocket, conn: Connection) -> None:
    # The server's send (app/serving.py FRAME_SEND): a frame skips the middleware and Starlette wrappers,
    # none of which looks at a "websocket.send". Without it (an app built without ConnectionLimits),
    # Starlette's.
    raw = websocket.scope.get(FRAME_SEND)
    get = conn.outbox.get
    # OSError: the server's ClientDisconnected once the client has gone (Starlette turns it into
    # WebSocketDisconnect).
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await get()
            # Nothing is written past this one until it is out (Connection.send keeps the order).
            conn.sending = True
            if message is CLOSE:
                # Not 1008: the client reconnects on this one and starts from a fresh snapshot.
                await websocket.close(code=TRY_AGAIN_LATER, reason="too far behind; reconnect")
                return
            # A patch comes already encoded (the hub splices the ops every socket shares).
            text = message if type(message) is str else encode(message)
            if raw is not None:
                await raw({"type": "websocket.send", "text": text})
            else:
                await websocket.send_text(text)
            conn.sending = False


def _waiting(conn: Connection) -> bool:
    """Whether the socket's snapshot, just sent, was of a room not started yet."""
    return conn.base is not None and conn.base.get("status") == "waiting"


def _error(message_id: Any, code: str, text: str) -> dict[str, Any]:
    """An `error` frame; `text` is worded in the socket's reader's language (i18n.Speak holds it for the
    whole socket): `gettext(...)`, or an AppError's `message`."""
    return {"type": "error", "id": message_id, "error": {"code": code, "message": text}}


class _Socket:
    """One room socket's session: its seat once known, and the messages it sends."""

    def __init__(
        self, websocket: WebSocket, runtime: Runtime, room_id: str, token: str | None, conn: Connection
    ) -> None:
        self.websocket = websocket
        self.runtime = runtime
        self.room_id = room_id
        self.token = token
        self.conn = conn
        # The seat this socket counts for in presence (undone when it closes).
        self.counted: int | None = None
        # Whether this socket counts as the room's table screen (undone when it closes).
        self.screen = False

    async def ended(self, sender: asyncio.Task[None] | None) -> None:
        """The socket has closed: its sender stops, its seat and screen stop counting. Never raises (it
        runs on when the handler that started it was cancelled): a failure is logged."""
        try:
            await cancel_and_wait(sender)
            if self.counted is not None:
                await self.runtime.master.disconnect(self.room_id, self.counted)
            if self.screen:
                await self.runtime.master.screen_closed(self.room_id)
        except Exception:
            log.exception("ending a socket of room %s failed", self.room_id)

    async def count(self, seat: int) -> None:
        # Set before the await: a socket cancelled while presence is shared must still be uncounted.
        self.counted = seat
        await self.runtime.master.connect(self.room_id, seat)

    async def authenticate(self, token: str | None, message_id: Any) -> bool:
        """A spectator socket becomes a seat's socket; False when the token is bad (the socket closes).
        `token` is None when the auth message held none that could be one (absent, empty, not a string)."""
        if self.token is not None:
            self.conn.send(_error(message_id, "invalid_request", gettext("this socket already has a seat")))
            return True
        if token is None:
            await self.websocket.close(code=POLICY_VIOLATION, reason="send the seat's token as a string")
            return False
        try:
            seat = await self.runtime.master.seat_of(self.room_id, token)
        except AppError as error:
            await self.websocket.close(code=POLICY_VIOLATION, reason=error.english)
            return False
        self.token = token
        if seat is None:
            return True
        self.conn.token_hash = hash_token(token)
        await self.runtime.hub.reseat(
            self.room_id, self.conn, seat, self.runtime.fanout.bodies_for(self.room_id)
        )
        await self.count(seat)
        if self.screen:
            # A seat's socket is no table screen, however it opened (as one opened with the token).
            self.screen = False
            await self.runtime.master.screen_closed(self.room_id)
        self.runtime.master.socket_opened(self.room_id, _waiting(self.conn))
        return True

    async def receive(self) -> None:
        settings = self.runtime.settings
        conn = self.conn
        limit = settings.max_ws_message_bytes
        # One bucket per socket: a flood from one tab cannot starve the room.
        buckets = Buckets(settings.rate_per_second, settings.rate_burst)
        while True:
            frame = await self.websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            raw: bytes = (
                frame["bytes"] if frame.get("bytes") is not None else (frame.get("text") or "").encode()
            )
            if len(raw) > limit:
                conn.send(
                    _error(None, "too_large", gettext("a message may be at most %(most)s bytes", most=limit))
                )
                continue
            if not buckets.allow("socket"):
                conn.send(_error(None, "rate_limited", gettext("too many messages; slow down and retry")))
                continue
            try:
                decoded = jsonsafe.loads(raw, settings.max_json_depth)
            except ValueError:
                conn.send(_error(None, "invalid_request", gettext(NOT_AN_OBJECT)))
                continue
            try:
                message = SOCKET_MESSAGE.validate_python(decoded)
            except ValidationError as error:
                if not await self.refuse(decoded, error):
                    return
                continue
            if isinstance(message, SocketAuth):
                if not await self.authenticate(message.token, message.id):
                    return
                continue
            await self.act(message)

    async def refuse(self, decoded: Any, error: ValidationError) -> bool:
        """Answer a message that is neither kind, saying what is wrong; False when the socket closes."""
        # Pydantic checks the fields in their order, so a missing action is told before a bad version.
        problem = error.errors(include_url=False, include_context=False, include_input=False)[0]
        if problem["type"] == "model_attributes_type":
            self.conn.send(_error(None, "invalid_request", gettext(NOT_AN_OBJECT)))
            return True
        message_id = decoded.get("id")
        if problem["loc"][:1] == ("auth",):
            return await self.authenticate(None, message_id)
        if problem["loc"] == ("action", "version"):
            self.conn.send(_error(message_id, "invalid_request", gettext("version is an integer")))
            return True
        # No "type", another type, or no "action".
        self.conn.send(
            _error(
                message_id, "invalid_request", gettext('send {"type": "action", "id", "action", "version"}')
            )
        )
        return True

    async def act(self, message: SocketAction) -> None:
        conn = self.conn
        message_id = message.id

        def acknowledge(_applied: Applied) -> None:
            # The ack waits for the move's patch to this socket: both go out in one write.
            conn.hold()
            conn.send({"type": "ack", "id": message_id})

        try:
            await self.runtime.master.act(
                self.room_id,
                self.token,
                message.action,
                message.version,
                committed=acknowledge,
                token_hash=conn.token_hash,
            )
        except AppError as error:
            conn.send(
                _error(message_id, error.code, error.message)
            )  # worded as it is read: the socket's language
        finally:
            conn.release()
