"""Names: invisible and direction-changing characters go, the form's limit holds, duplicates and bots
get names of their own."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from app.names import bot_name, clean_chat, clean_name, unique_name

from .conftest import auth


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Bo\u202eevil", "Boevil"),  # right-to-left override would reverse the log line
        ("A\u0000nn", "Ann"),
        ("Z\u200bo\u200ce\ufeff", "Zoe"),
        ("  Cy \n\t Dee ", "Cy Dee"),
        ("\u2066Eve\u2069", "Eve"),
        ("🦊", "🦊"),
        # The zero-width joiner that glues an emoji family together stays; between letters it goes.
        ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),
        ("a\u200db", "ab"),
        ("Zoë", "Zoë"),
    ],
)
def test_clean_name(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize("raw", ["", "   ", "\u202e\u200b", "\x00", "x" * 25, "🦊" * 13])
def test_refused_names(raw: str) -> None:
    with pytest.raises(ValueError):
        clean_name(raw)


def test_limit_counts_like_the_form() -> None:
    # The form's maxlength counts UTF-16 units: 24 letters pass, 12 emoji (24 units) pass too.
    assert clean_name("x" * 24) == "x" * 24
    assert clean_name("🦊" * 12) == "🦊" * 12


def test_unique_and_bot_names() -> None:
    assert unique_name("Bo", ["Ann"]) == "Bo"
    assert unique_name("Bo", ["Ann", "bo"]) == "Bo (2)"
    assert unique_name("Bo", ["Bo", "Bo (2)"]) == "Bo (3)"
    assert bot_name(["Ann"]) == "Ada"
    assert bot_name(["Ann", "Ada"]) == "Blaise"
    assert bot_name(["ada"]) == "Blaise"


def test_chat_text() -> None:
    assert clean_chat(" hi\u202e there \n") == "hi there"
    with pytest.raises(ValueError):
        clean_chat("x" * 281)


def test_names_through_the_api(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"game": "tiny", "name": "Bo\u202e"})
    assert made.status_code == 201
    room_id, host = made.json()["room_id"], made.json()["token"]
    joined = client.post(f"/api/rooms/{room_id}/join", json={"name": " bo "})
    assert joined.status_code == 201 and joined.json()["name"] == "bo (2)"
    too_long = client.post(f"/api/rooms/{room_id}/join", json={"name": "x" * 25})
    assert too_long.status_code == 422 and too_long.json()["error"]["code"] == "invalid_request"
    invisible = client.post(f"/api/rooms/{room_id}/join", json={"name": "\u200b\u202e"})
    assert invisible.status_code == 422
    assert client.post(f"/api/rooms/{room_id}/bots", headers=auth(host)).status_code == 201
    seats = client.get(f"/api/rooms/{room_id}").json()["seats"]
    assert [(s["name"], s["bot"]) for s in seats] == [("Bo", False), ("bo (2)", False), ("Ada", True)]
