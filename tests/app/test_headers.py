"""Browser security headers on every answer, templates that a strict CSP allows, a private SQLite file."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from app.db import upgrade
from tests.rooms import new_room
from tests.servers import ROOT, ServeProcess


def assert_secured(answer: httpx.Response) -> None:
    csp = answer.headers.get("content-security-policy", "")
    directives = {}
    for part in csp.split(";"):
        name, _, value = part.strip().partition(" ")
        directives[name] = value
    assert directives.get("frame-ancestors") == "'none'", csp
    assert directives.get("script-src") == "'self'", "no inline script, no eval, no other origin"
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert answer.headers.get("x-content-type-options") == "nosniff"
    assert answer.headers.get("referrer-policy") == "no-referrer"


def test_every_kind_of_answer_carries_the_security_headers(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"})
    answers = [
        made,
        client.get("/"),
        client.get(f"/r/{made.json()['room_id']}"),
        client.get("/r/not-a-room-id-at-all"),
        client.get("/rules/mojo"),
        client.get("/api/games"),
        client.get("/api/rooms/abcdefghijkl"),
        client.post("/api/rooms", json={}),
        client.get("/static/css/base.css"),
        client.get("/healthz"),
    ]
    for answer in answers:
        assert_secured(answer)


_SCRIPT = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)


@pytest.mark.parametrize("template", sorted((ROOT / "templates").rglob("*.html")), ids=lambda p: p.name)
def test_templates_have_no_inline_script_or_handler(template: Path) -> None:
    text = template.read_text()
    for attributes in _SCRIPT.findall(text):
        assert "src=" in attributes or 'type="application/json"' in attributes, (
            f"{template.name}: inline <script{attributes}> would be blocked by the CSP"
        )
    assert not _HANDLER.search(text), f"{template.name}: an inline on...= handler"
    assert "javascript:" not in text
    assert not re.search(r"\sstyle\s*=", text), f"{template.name}: a style attribute (style-src 'self')"


def test_sqlite_file_is_created_private(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    upgrade(f"sqlite:///{path}")
    for file in [path, *tmp_path.glob("fresh.db-*")]:
        mode = stat.S_IMODE(file.stat().st_mode)
        assert mode & 0o077 == 0, f"{file.name} is {oct(mode)}: others may read the seeds"


def test_serve_creates_a_private_database(tmp_path: Path) -> None:
    path = tmp_path / "served.db"
    server = ServeProcess({"DATABASE_URL": f"sqlite:///{path}"}, tmp_path / "serve.log").start()
    try:
        new_room(server.base_url, "mojo")
        assert_secured(httpx.get(f"{server.base_url}/"))
    finally:
        server.stop()
    for file in [path, *tmp_path.glob("served.db-*")]:
        assert stat.S_IMODE(file.stat().st_mode) & 0o077 == 0, file.name
