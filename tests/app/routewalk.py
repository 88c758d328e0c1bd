"""The app's routes as tests walk them: every HTTP and socket route, read from the app itself."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from starlette.routing import Mount, WebSocketRoute
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.config import Settings
from app.main import create_app

# A request body each route would accept, so that only the bad id is wrong.
BODIES: dict[str, Any] = {
    "/api/rooms": {"game": "mojo", "name": "Cy"},
    "/api/rooms/{room_id}/join": {"name": "Cy"},
    "/api/rooms/{room_id}/seat-requests": {"seat": 1},
    "/api/rooms/{room_id}/chat": {"text": "hello"},
    "/api/rooms/{room_id}/chat/settings": {"spectators": True},
    "/api/rooms/{room_id}/clock": {"seconds": 120},
    "/api/rooms/{room_id}/actions": {"action": {}},
    "/api/rooms/{room_id}/email": {"email": "cy@example.org"},
    "/api/rooms/{room_id}/alerts": {"quiet": None},
    "/api/rooms/{room_id}/takeback": {"version": 1},
    "/api/rooms/{room_id}/table-screen": {"code": "1234"},
    "/api/rooms/{room_id}/push": {
        "endpoint": "https://push.example.org/send/1",
        "keys": {"p256dh": "BAAA", "auth": "AAAA"},
    },
    "/api/my-games": {"seats": []},
}

PARAM = re.compile(r"{([^}:]+)(?::[^}]+)?}")


@dataclass(frozen=True)
class Route:
    path: str  # the template, e.g. /api/rooms/{room_id}/seat-requests/{request_id}
    methods: tuple[str, ...]  # empty for a socket
    page: bool  # answers HTML (its not-found answer is a page, not the contract's JSON)

    @property
    def params(self) -> list[str]:
        return PARAM.findall(self.path)


def app_routes() -> list[Route]:
    """Every HTTP and socket route of the app, routers included in it followed down."""
    app = create_app(Settings(database_url="sqlite:///:memory:"))
    found: list[Route] = []

    def walk(routes: list[Any], prefix: str) -> None:
        for route in routes:
            included = getattr(route, "original_router", None)
            if included is not None:  # FastAPI keeps an included router as one entry
                walk(included.routes, prefix + route.include_context.prefix)
            elif isinstance(route, Mount):
                found.append(Route(prefix + route.path + "/{path}", ("GET",), page=False))
            elif isinstance(route, WebSocketRoute) or type(route).__name__ == "APIWebSocketRoute":
                found.append(Route(prefix + route.path, (), page=False))
            elif hasattr(route, "methods"):
                methods = tuple(sorted(set(route.methods) - {"HEAD"}))
                page = not getattr(route, "include_in_schema", True)
                found.append(Route(prefix + route.path, methods, page))

    walk(app.routes, "")
    return found


def socket_closes_with(url: str) -> int | None:
    try:
        with connect(url, open_timeout=10, close_timeout=5) as socket:
            while True:
                socket.recv(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None
