"""The addresses the server hands out: share links and QR codes use the configured public URL."""

from __future__ import annotations

from starlette.requests import HTTPConnection


def public_base(request: HTTPConnection) -> str:
    """MOTABLE_PUBLIC_URL (`--public-url`) when set; else the address this request came to, which the
    Host header names (fine on a home network, not for a public server: see docs/operations.md)."""
    configured: str | None = request.app.state.runtime.settings.public_url
    if configured:
        return configured
    return str(request.base_url).rstrip("/")


def join_url(request: HTTPConnection, room_id: str) -> str:
    return f"{public_base(request)}/r/{room_id}"
