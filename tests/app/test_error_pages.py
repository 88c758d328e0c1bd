"""Mistyped addresses: a browser gets an HTML page with the way home; the API keeps its JSON errors."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.mark.parametrize("path", ["/nonsense/page", "/lobby", "/" + "x" * 300, "/r/abc/extra/bits"])
def test_a_browser_on_a_mistyped_address_gets_a_page_with_the_way_home(client: TestClient, path: str) -> None:
    answer = client.get(path, headers=BROWSER)
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert "Nothing here" in answer.text
    assert 'href="/"' in answer.text and "Back to the lobby" in answer.text
    assert '"error"' not in answer.text


@pytest.mark.parametrize("path", ["/nonsense/page", "/api/nonsense", "/api/rooms/abc/extra"])
def test_scripts_and_the_api_still_get_the_contracts_json(client: TestClient, path: str) -> None:
    # No Accept: text/html (curl, fetch, bots), or an /api address even from a browser.
    for headers in ({}, {"accept": "application/json"}, BROWSER if path.startswith("/api") else {}):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "not_found"


def test_a_post_to_a_page_address_stays_json(client: TestClient) -> None:
    answer = client.post("/nonsense/page", headers=BROWSER)
    assert answer.status_code in (404, 405)
    assert answer.headers["content-type"].startswith("application/json")
