"""The shipped deploy/nginx.conf in front of a real `motable serve`: no token in any of its logs (access
and error log, also when the upstream is down), old clients' `?token=` sockets still served, and each
visitor rate-limited on their own address (the server trusts the proxy's X-Forwarded-For).

nginx runs as a real process on 127.0.0.1; clients connect from 127.0.0.2 and 127.0.0.3 (loopback)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.rooms import new_room
from tests.servers import ROOT, ServeProcess, free_port
from tests.services import service_missing
from tests.waiting import wait_for


@dataclass
class Proxy:
    base_url: str
    access_log: Path
    folder: Path
    server: ServeProcess

    def logs(self) -> str:
        """Everything nginx logged: its access, error and default access logs."""
        return "".join(path.read_text(errors="replace") for path in sorted(self.folder.glob("*.log")))


def nginx_config(folder: Path, upstream_port: int, listen_port: int) -> Path:
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "server app1:8000;" in site and "listen 80;" in site
    site = site.replace("server app1:8000;", f"server 127.0.0.1:{upstream_port};")
    site = site.replace("server app2:8000;", "")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{listen_port};")
    site = site.replace("/var/log/nginx/access.log", str(folder / "access.log"))
    site = site.replace("/var/log/nginx/error.log", str(folder / "error.log"))
    (folder / "site.conf").write_text(site)
    user = "user root;" if os.geteuid() == 0 else ""
    main = f"""
{user}
daemon off;
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} info;
events {{ worker_connections 256; }}
http {{
    client_body_temp_path {folder / "body"};
    proxy_temp_path {folder / "proxy"};
    fastcgi_temp_path {folder / "fastcgi"};
    uwsgi_temp_path {folder / "uwsgi"};
    scgi_temp_path {folder / "scgi"};
    access_log {folder / "default-access.log"};
    include {folder / "site.conf"};
}}
"""
    path = folder / "nginx.conf"
    path.write_text(main)
    return path


@pytest.fixture
def proxy(tmp_path: Path, sqlite_url: str) -> Iterator[Proxy]:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        service_missing("nginx is not installed (apt-get install nginx-light)")
    server = ServeProcess(
        {
            "DATABASE_URL": sqlite_url,
            "MOTABLE_TRUSTED_PROXIES": "127.0.0.1",
            "MOTABLE_RATE_PER_SECOND": "0.01",
            "MOTABLE_RATE_BURST": "4",
        },
        tmp_path / "serve.log",
    ).start()
    port = free_port()
    folder = tmp_path / "nginx"  # nginx's own files only: every log in it is checked for tokens
    folder.mkdir()
    config = nginx_config(folder, server.port, port)
    process = subprocess.Popen(
        [nginx, "-c", str(config), "-e", str(folder / "error.log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            assert process.poll() is None, (folder / "error.log").read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "nginx did not come up"
            time.sleep(0.1)
        yield Proxy(f"http://127.0.0.1:{port}", folder / "access.log", folder, server)
    finally:
        process.terminate()
        process.wait(10)
        server.stop()


def from_address(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def test_access_log_has_no_query_strings(proxy: Proxy) -> None:
    secret = "SeCrEtToKeN-abcdefghijklmnop"
    httpx.get(f"{proxy.base_url}/api/rooms/abcdefghijkl/state?token={secret}")
    # An old client's socket: the token in the address.
    httpx.get(
        f"{proxy.base_url}/ws/rooms/abcdefghijkl?token={secret}",
        headers={
            "Connection": "Upgrade",
            "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        },
    )
    wait_for_log_lines(proxy.access_log, 3)  # with the fixture's /healthz
    log = proxy.access_log.read_text()
    assert "/api/rooms/abcdefghijkl/state" in log and "/ws/rooms/abcdefghijkl" in log
    assert secret not in log
    assert "token=" not in log


def test_each_visitor_behind_the_proxy_has_their_own_allowance(proxy: Proxy) -> None:
    url = f"{proxy.base_url}/api/rooms/abcdefghijkl"
    with from_address("127.0.0.2") as greedy, from_address("127.0.0.3") as other:
        codes = [greedy.get(url).status_code for _ in range(5)]
        assert codes == [404] * 4 + [429]
        spoofed = greedy.get(url, headers={"X-Forwarded-For": "203.0.113.9"})
        assert spoofed.status_code == 429, "a client cannot pose as another address through the proxy"
        assert other.get(url).status_code == 404, "another visitor is not locked out"


SOCKET_HEADERS = {
    "Connection": "Upgrade",
    "Upgrade": "websocket",
    "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
}


def wait_for_log_lines(path: Path, count: int) -> None:
    """Until nginx has logged `count` requests: a leak in a line not yet written would go unseen."""
    wait_for(lambda: path.exists() and path.read_text().count("\n") >= count)


def test_no_token_in_any_log_while_the_upstream_is_down(proxy: Proxy) -> None:
    secret = "SeCrEtToKeN-upstreamdown-0123"
    proxy.server.stop()  # every request now fails at the proxy: 502, and nginx logs an error
    with httpx.Client(timeout=10) as client:
        asked = [
            client.get(f"{proxy.base_url}/ws/rooms/abcdefghijkl?token={secret}", headers=SOCKET_HEADERS),
            client.get(f"{proxy.base_url}/api/rooms/abcdefghijkl/state?token={secret}"),
            client.post(f"{proxy.base_url}/api/rooms/abcdefghijkl/join?TOKEN={secret}", json={"name": "Bo"}),
            client.get(f"{proxy.base_url}/api/rooms/abcdefghijkl?seat=1&token={secret}"),
        ]
        # Without a token in it, the same failure is logged as usual, with its request line.
        control = client.get(f"{proxy.base_url}/api/rooms/abcdefghijkl/log?seat=visible-control")
    assert [answer.status_code for answer in asked] == [502] * 4
    assert control.status_code == 502
    error_log = proxy.folder / "error.log"
    # The error log is written: the test can see a leak.
    wait_for(lambda: "visible-control" in error_log.read_text())
    wait_for_log_lines(proxy.access_log, 5)
    logs = proxy.logs()
    assert "/ws/rooms/abcdefghijkl" in proxy.access_log.read_text(), "token requests are still counted"
    assert secret not in logs
    assert "token=" not in logs.lower()


def test_no_token_in_any_log_when_nginx_itself_refuses(proxy: Proxy) -> None:
    secret = "SeCrEtToKeN-refusedbynginx-45"
    with httpx.Client(timeout=10) as client:
        too_big = client.post(
            f"{proxy.base_url}/api/rooms/abcdefghijkl/join?token={secret}", content=b"x" * 100_000
        )
        huge_header = client.get(
            f"{proxy.base_url}/ws/rooms/abcdefghijkl?token={secret}", headers={"X-Pad": "p" * 20_000}
        )
    assert too_big.status_code == 413
    assert huge_header.status_code in (400, 431, 494)
    wait_for_log_lines(proxy.access_log, 2)
    assert secret not in proxy.logs()


def test_old_clients_token_in_the_query_still_reaches_the_server(proxy: Proxy) -> None:
    """The quiet-logging detour changes where nginx logs, not what the server receives."""
    from websockets.sync.client import connect

    room = new_room(proxy.base_url, "mojo")
    ws_base = proxy.base_url.replace("http://", "ws://")
    with connect(f"{ws_base}/ws/rooms/{room.room_id}?token={room.token}", open_timeout=10) as socket:
        first = json.loads(socket.recv(timeout=10))
    assert first["type"] == "snapshot"
    assert first["state"]["seat"] == 0, "the proxy passed the token on: the socket is the host's seat"
    answer = httpx.get(f"{proxy.base_url}/api/rooms/{room.room_id}?token=anything&x=1")
    assert answer.status_code == 200 and answer.json()["room_id"] == room.room_id
    assert httpx.get(f"{proxy.base_url}/__query-token/healthz").status_code == 404, "internal only"
    # The path reaches the server as sent, an encoded "?" included (not split off as a query).
    assert httpx.get(f"{proxy.base_url}/healthz%3Fx").status_code == 404
    assert httpx.get(f"{proxy.base_url}/healthz%3Fx?token=abc").status_code == 404
    assert httpx.get(f"{proxy.base_url}/healthz?token=abc").status_code == 200
    wait_for_log_lines(proxy.access_log, 7)
    assert room.token not in proxy.logs()


def test_a_connection_slow_to_send_its_headers_is_closed_by_the_proxy(proxy: Proxy) -> None:
    """The shipped proxy bounds the time to send the headers too (client_header_timeout 10s), for a
    silent connection and a trickling one, before they reach the server (which has its own bound,
    MOTABLE_HEADER_TIMEOUT: tests/app/test_header_timeout.py)."""
    import socket

    port = int(proxy.base_url.rsplit(":", 1)[1])
    began = time.monotonic()
    with (
        socket.create_connection(("127.0.0.1", port), timeout=20) as silent,
        socket.create_connection(("127.0.0.1", port), timeout=20) as trickling,
    ):
        cut = False
        for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200:
            try:
                trickling.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                cut = True
                break
            time.sleep(0.25)
            if time.monotonic() - began > 16:
                break
        if not cut:
            try:
                answer = trickling.recv(65536)
            except ConnectionResetError:
                answer = b""
            assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), "a trickle kept the connection open"
        assert silent.recv(65536) == b"", "a connection that sent nothing is closed"
    assert time.monotonic() - began < 18
