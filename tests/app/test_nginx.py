"""The shipped deploy/nginx.conf in front of a real `motable serve`: no tokens in its access log, and
each visitor rate-limited on their own address (the server trusts the proxy's X-Forwarded-For).

nginx runs as a real process on 127.0.0.1; clients connect from 127.0.0.2 and 127.0.0.3 (loopback)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.servers import ROOT, ServeProcess, free_port
from tests.services import service_missing


@dataclass
class Proxy:
    base_url: str
    access_log: Path


def nginx_config(folder: Path, upstream_port: int, listen_port: int) -> Path:
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "server app1:8000;" in site and "listen 80;" in site
    site = site.replace("server app1:8000;", f"server 127.0.0.1:{upstream_port};")
    site = site.replace("server app2:8000;", "")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{listen_port};")
    site = site.replace("/var/log/nginx/access.log", str(folder / "access.log"))
    (folder / "site.conf").write_text(site)
    user = "user root;" if os.geteuid() == 0 else ""
    main = f"""
{user}
daemon off;
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
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
    config = nginx_config(tmp_path, server.port, port)
    process = subprocess.Popen(
        [nginx, "-c", str(config), "-e", str(tmp_path / "error.log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            assert process.poll() is None, (tmp_path / "error.log").read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "nginx did not come up"
            time.sleep(0.1)
        yield Proxy(f"http://127.0.0.1:{port}", tmp_path / "access.log")
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
    deadline = time.monotonic() + 5
    while proxy.access_log.read_text().count("\n") < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
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
