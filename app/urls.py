"""The addresses the server hands out: share links and QR codes use the configured public URL."""

from __future__ import annotations

import ipaddress
import re

from starlette.requests import HTTPConnection

# A DNS name (RFC 1123 labels, at most 253 characters) or an IPv4 address, then an optional port.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_NAME = re.compile(rf"(?P<host>{_LABEL}(?:\.{_LABEL})*\.?)(?::(?P<port>[0-9]{{1,5}}))?")
_IPV6 = re.compile(r"\[(?P<host>[0-9A-Fa-f:.]{2,45})\](?::(?P<port>[0-9]{1,5}))?")
MAX_HOST = 253


def valid_host(header: str) -> bool:
    """Whether a Host header is a plain host[:port]: a name or an address, a port in 1-65535."""
    name = _NAME.fullmatch(header)
    found = name or _IPV6.fullmatch(header)
    if found is None or len(found.group("host")) > MAX_HOST:
        return False
    port = found.group("port")
    if port is not None and not 0 < int(port) < 65536:
        return False
    if name is None:
        try:
            ipaddress.IPv6Address(found.group("host"))
        except ValueError:
            return False
    return True


def _request_base(request: HTTPConnection) -> str:
    """The address this request came to: its Host header when that is a valid host[:port], else the
    address of the socket it reached (what the client dialled, never anything the client made up)."""
    scheme = "https" if request.url.scheme in ("https", "wss") else "http"
    root = str(request.scope.get("root_path", "")).rstrip("/")
    host = request.headers.get("host")
    if host is not None and valid_host(host):
        return f"{scheme}://{host}{root}"
    server = request.scope.get("server")
    if server is None:
        return f"{scheme}://localhost{root}"
    address, port = server[0], server[1]
    if ":" in address:
        address = f"[{address}]"
    default = 443 if scheme == "https" else 80
    netloc = address if port in (default, None) else f"{address}:{port}"
    return f"{scheme}://{netloc}{root}"


def public_base(request: HTTPConnection) -> str:
    """MOTABLE_PUBLIC_URL (`--public-url`) when set; else the address this request came to, which the
    Host header names (fine on a home network, not for a public server: see docs/operations.md).
    A Host header that is not a valid host[:port] (too long, stray characters) is not used."""
    configured: str | None = request.app.state.runtime.settings.public_url
    if configured:
        return configured
    return _request_base(request)


def join_url(request: HTTPConnection, room_id: str) -> str:
    return f"{public_base(request)}/r/{room_id}"
