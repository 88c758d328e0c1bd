"""The lobby and rules pages list exactly the registered games, from their descriptors."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import httpx
import pytest
from starlette.testclient import TestClient

from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.main import create_app
from engines.core import game_ids, get_engine, registry
from tests.rooms import new_room
from tests.servers import ServeProcess


@pytest.fixture
def migrated(sqlite_url: str) -> str:
    url = sqlalchemy_url(sqlite_url)
    upgrade(url)
    return url


@pytest.fixture
def pages(migrated: str, tiny: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=migrated, bot_delay=0))) as client:
        yield client


def _listed(html: str) -> list[str]:
    return re.findall(r'data-game="([a-z0-9-]+)"', html)


def test_lobby_lists_every_registered_game_and_nothing_else(pages: TestClient) -> None:
    html = pages.get("/").text
    assert _listed(html) == game_ids()
    assert "tiny" in _listed(html)
    # Games whose engines are not registered (yet) are simply absent.
    assert "no-such-game" not in html and "Coming soon" not in html
    for game in game_ids():
        assert get_engine(game).spec.blurb in html
    assert "2\N{EN DASH}8 players" in html  # Mojo's counts come from its spec


def test_rules_pages_show_the_engine_card_data(pages: TestClient) -> None:
    mojo = pages.get("/rules/mojo")
    assert mojo.status_code == 200
    deck = get_engine("mojo").spec.data()["deck"]
    total = sum(row["copies"] * len(row["values"]) for row in deck["colours"])
    assert f"<td>{total}</td>" in mojo.text
    whales = pages.get("/rules/moby-trick")
    assert whales.status_code == 200 and 'class="deck-table whale-table"' in whales.text
    mooki = pages.get("/rules/mooki-island")
    assert mooki.status_code == 200
    box = get_engine("mooki-island").spec.data()
    assert f"<td>{box['total']}</td>" in mooki.text
    # The table is said to be editable to match a printed copy, in players' words (no file path).
    assert "can edit the card table to match it" in mooki.text
    for page in (mojo, whales, mooki, pages.get("/rules/mokuru")):
        assert "engines/" not in page.text and ".json" not in page.text and "docs/" not in page.text
    for trophy in box["trophies"]:
        stars = "★" * trophy["stars"]
        cell = f'<span class="mooki-stars" aria-hidden="true">{stars}</span>'
        assert f"{trophy['name']} trophy</td><td>{cell}" in mooki.text


def test_rules_page_needs_a_registered_game_and_a_template(pages: TestClient) -> None:
    assert pages.get("/rules/tiny").status_code == 404  # registered, but it ships no rules page
    assert pages.get("/rules/no-such-game").status_code == 404  # not registered
    assert pages.get("/rules/..%2Fbase").status_code == 404
    registry.unregister("tiny")
    try:
        assert "tiny" not in _listed(pages.get("/").text)
    finally:
        registry.register("tiny", "tests.app.tiny_game")


def test_motable_games_registers_extra_games_at_start(migrated: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "tiny" not in game_ids()
    monkeypatch.setenv("MOTABLE_GAMES", "tiny=tests.app.tiny_game")
    try:
        with TestClient(create_app(Settings(database_url=migrated, bot_delay=0))) as client:
            assert "tiny" in [g["id"] for g in client.get("/api/games").json()]
    finally:
        registry.unregister("tiny")
    monkeypatch.setenv("MOTABLE_GAMES", "tiny")
    with pytest.raises(ValueError, match=r"id=package\.module"):
        create_app(Settings(database_url=migrated, bot_delay=0))


def test_a_served_process_plays_a_game_named_in_motable_games(
    sqlite_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    server = spawn({"DATABASE_URL": sqlite_url, "MOTABLE_GAMES": "tiny=tests.app.tiny_game"})
    games = {g["id"]: g for g in httpx.get(f"{server.base_url}/api/games").json()}
    assert games["tiny"]["winner"] == "lowest_total"
    room = httpx.post(f"{server.base_url}/api/rooms", json={"game": "tiny", "name": "Ann"})
    assert room.status_code == 201
    assert "tiny" in _listed(httpx.get(f"{server.base_url}/").text)


def test_an_unknown_room_is_a_friendly_404(pages: TestClient) -> None:
    for address in ("/r/nosuchroom", "/r/nosuchroom12"):  # not an id at all; an id nobody made
        answer = pages.get(address)
        assert answer.status_code == 404
        assert "This room does not exist" in answer.text and 'href="/"' in answer.text


def test_every_room_links_its_rules(pages: TestClient) -> None:
    made = new_room(pages, "mojo")
    html = pages.get(f"/r/{made.room_id}").text
    assert 'href="/rules/mojo"' in html and "How to play" in html
    tiny = new_room(pages)
    assert pages.get(f"/r/{tiny.room_id}").status_code == 200  # no rules page: no link
    assert "How to play" not in pages.get(f"/r/{tiny.room_id}").text


def test_rules_pages_carry_no_developer_notes(pages: TestClient) -> None:
    for game in ("mojo", "moby-trick"):
        html = pages.get(f"/rules/{game}").text
        assert "engines/" not in html and ".json" not in html and "<code>" not in html
    assert html.count("reconstruction") == 1  # Moby Trick's card table says so once
