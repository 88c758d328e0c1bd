"""MOTABLE_TEST_SEEDS: a test-only way to know the deal, refused anywhere but on a loopback address."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app
from engines.core import registry, seed_commitment
from tests.rooms import seated_match

from .conftest import auth


def test_production_deals_from_secret_seeds_and_test_seeds_need_a_loopback_address() -> None:
    assert Settings().seeds_for_tests() is None
    assert Settings(test_seeds="", bind_host="127.0.0.1").seeds_for_tests() is None
    assert Settings(test_seeds="5, 7", bind_host="127.0.0.1").seeds_for_tests() == [5, 7]
    for host in ("0.0.0.0", "192.168.1.20", None):
        with pytest.raises(ValueError, match="loopback"):
            Settings(test_seeds="5", bind_host=host).seeds_for_tests()
    with pytest.raises(ValueError):
        Settings(test_seeds="-3", bind_host="127.0.0.1").seeds_for_tests()


@pytest.fixture
def seeded(database_url: str) -> Iterator[TestClient]:
    registry.register("tiny", "tests.app.tiny_game")
    settings = Settings(database_url=database_url, bot_delay=0, test_seeds="41,42", bind_host="127.0.0.1")
    try:
        with TestClient(create_app(settings)) as client:
            yield client
    finally:
        registry.unregister("tiny")


def test_matches_are_dealt_from_the_test_seeds_in_turn(seeded: TestClient) -> None:
    commitments = []
    for _ in range(3):
        room_id, (ann, _bo) = seated_match(seeded)
        host = auth(ann)
        commitments.append(seeded.get(f"/api/rooms/{room_id}/log", headers=host).json()["seed_commitment"])
    assert commitments == [seed_commitment(41), seed_commitment(42), seed_commitment(41)]


def test_a_server_with_test_seeds_on_an_open_address_refuses_to_start(database_url: str) -> None:
    with pytest.raises(ValueError, match="loopback"):
        create_app(Settings(database_url=database_url, test_seeds="7", bind_host="0.0.0.0"))
