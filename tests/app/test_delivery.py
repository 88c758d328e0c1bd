"""Delivery: pages and static files travel compressed, named by content, and cached accordingly."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.delivery import STATIC_DIR, static_url
from app.main import create_app


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    url = sqlalchemy_url(sqlite_url)
    upgrade(url)
    with TestClient(create_app(Settings(database_url=url, bot_delay=0))) as test_client:
        yield test_client


GZIP = {"Accept-Encoding": "gzip"}


def test_pages_are_compressed_and_name_static_files_by_content(client: TestClient) -> None:
    page = client.get("/", headers=GZIP)
    assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
    assert int(page.headers["content-length"]) < len(page.content)  # the body was smaller on the wire
    addresses = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
    assert "/static/css/base.css" in {a.split("?")[0] for a in addresses}
    for address in addresses:
        path, _, query = address.partition("?v=")
        digest = hashlib.sha256((STATIC_DIR / path.removeprefix("/static/")).read_bytes()).hexdigest()[:12]
        assert query == digest, address
    plain = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers


def test_versioned_static_files_are_cached_for_good_and_compressed(client: TestClient) -> None:
    answer = client.get(static_url("js/room.js"), headers=GZIP)
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert answer.headers["content-encoding"] == "gzip"
    assert "javascript" in answer.headers["content-type"]


def test_unversioned_modules_are_revalidated(client: TestClient) -> None:
    # An ES module imports its neighbours by plain path: browsers ask again, and get a 304.
    first = client.get("/static/js/dom.js")
    assert first.headers["cache-control"] == "no-cache"
    again = client.get("/static/js/dom.js", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert again.headers["cache-control"] == "no-cache"


def test_a_static_address_is_only_made_for_a_real_file() -> None:
    with pytest.raises(FileNotFoundError):
        static_url("../app/main.py")
    with pytest.raises(FileNotFoundError):
        static_url("js/nothing-here.js")
