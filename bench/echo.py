"""The bare WebSocket server a move is compared with: uvicorn exactly as `motable serve` runs it, no work.

Run by bench/load.py as `python -m bench.echo --port P`: the same uvicorn options (`app.serving.
uvicorn_options`, so the same loop (uvloop), WebSocket implementation (uvicorn's "auto":
websockets-sansio), HTTP protocol class, limits and pings) and the same collector tuning (`tune_gc`).
The ASGI app is raw (no FastAPI/Starlette routing or WebSocket wrapper; `--fastapi` puts them back)
and never parses a frame:

- `/echo`: every text frame is sent straight back (one frame in, one out).
- `/fan?group=G&size=N`: the sockets of group G are a table. A frame in is answered with a small
  ack to its sender, then one frame of N bytes to every socket of the group, the sender included
  (one frame in, 1 + group-size out: a move's ack and its patches).
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Any
from urllib.parse import parse_qs

# At module level: the routes' annotations are strings (PEP 563), resolved from these globals.
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

ACK = '{"type":"ack","id":"0-0"}'

# Group -> the send callables of its sockets.
_groups: dict[str, list[Any]] = {}
_payloads: dict[int, str] = {}


def _payload(size: int) -> str:
    text = _payloads.get(size)
    if text is None:
        head = '{"type":"patch","version":1,"ops":[{"op":"replace","path":"/x","value":"'
        tail = '"}]}'
        text = head + "x" * max(0, size - len(head) - len(tail)) + tail
        _payloads[size] = text
    return text


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "websocket":
        # Readiness probe (and anything else): a plain 200.
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]}
        )
        await send({"type": "http.response.body", "body": b"ok"})
        return
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    if scope["path"] == "/echo":
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return
            await send({"type": "websocket.send", "text": message.get("text")})
    query = parse_qs(scope.get("query_string", b"").decode())
    group = query.get("group", ["0"])[0]
    out = {"type": "websocket.send", "text": _payload(int(query.get("size", ["400"])[0]))}
    ack = {"type": "websocket.send", "text": ACK}
    members = _groups.setdefault(group, [])
    members.append(send)
    try:
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return
            await send(ack)
            for member in list(members):
                with contextlib.suppress(Exception):
                    await member(out)
    finally:
        members.remove(send)
        if not members:
            _groups.pop(group, None)


def fastapi_app() -> Any:
    """The same two routes through FastAPI's router and Starlette's WebSocket (as app/routes/ws.py
    receives frames): what the framework adds on top of the bare echo."""
    api = FastAPI()

    @api.get("/")
    async def ready() -> str:
        return "ok"

    @api.websocket("/echo")
    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await websocket.send_text(await websocket.receive_text())

    @api.websocket("/fan")
    async def fan(websocket: WebSocket, group: str = "0", size: int = 400) -> None:
        await websocket.accept()
        out = _payload(size)
        members = _groups.setdefault(group, [])
        members.append(websocket)
        try:
            while True:
                await websocket.receive_text()
                await websocket.send_text(ACK)
                for member in list(members):
                    with contextlib.suppress(Exception):
                        await member.send_text(out)
        except WebSocketDisconnect:
            pass
        finally:
            members.remove(websocket)
            if not members:
                _groups.pop(group, None)

    return api


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log-level", default="warning")
    parser.add_argument("--fastapi", action="store_true", help="serve the routes through FastAPI")
    args = parser.parse_args()
    import uvicorn

    from app.config import Settings
    from app.serving import ConnectionLimits, tune_gc, uvicorn_options

    settings = Settings.from_env()
    options = uvicorn_options(settings, args.host, args.port, args.log_level)
    tune_gc(settings)
    # Outermost, as in `motable serve`: it tells the connection its request began, which ends the
    # head timeout (app/serving.py HeadTimeout); without it every socket was closed 10 s in.
    served: Any = fastapi_app() if args.fastapi else app
    uvicorn.run(ConnectionLimits(served, settings), **options)


if __name__ == "__main__":
    main()
