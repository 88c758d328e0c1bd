"""Settings come from the environment through pydantic-settings, under the names the docs give."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.config import Settings


def test_defaults_without_environment() -> None:
    settings = Settings()
    assert settings.database_url == "sqlite:///motable.db"
    assert settings.redis_url is None
    assert settings.public_url is None
    assert settings.rate_burst == 120


def test_environment_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db/motable")
    monkeypatch.setenv("REDIS_URL", "redis://cache:6379/0")
    monkeypatch.setenv("MOTABLE_BOT_DELAY", "0.25")
    monkeypatch.setenv("MOTABLE_RATE_BURST", "7")
    monkeypatch.setenv("MOTABLE_PUBLIC_URL", "https://cards.example.org/")
    monkeypatch.setenv("MOTABLE_TRUSTED_PROXIES", "10.0.0.0/8")
    monkeypatch.setenv("MOTABLE_FINISHED_MATCH_HOURS", "48")
    settings = Settings.from_env()
    assert settings.database_url == "postgresql+psycopg://u:p@db/motable"
    assert settings.redis_url == "redis://cache:6379/0"
    assert settings.bot_delay == 0.25
    assert settings.rate_burst == 7
    assert settings.public_url == "https://cards.example.org"
    assert settings.trusted_proxies == "10.0.0.0/8"
    assert settings.finished_match_hours == 48


def test_constructor_arguments_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "sqlite:///elsewhere.db")
    settings = Settings(database_url="postgresql://x@h/db", bot_delay=0)
    assert settings.database_url == "postgresql+psycopg://x@h/db"
    assert settings.bot_delay == 0


def test_empty_optional_urls_are_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "")
    monkeypatch.setenv("MOTABLE_PUBLIC_URL", "")
    assert Settings().redis_url is None
    assert Settings().public_url is None


@pytest.mark.parametrize(
    ("name", "value"),
    [("MOTABLE_RATE_BURST", "lots"), ("MOTABLE_PUBLIC_URL", "cards.example.org"), ("MOTABLE_BOT_DELAY", "x")],
)
def test_bad_values_are_refused_at_start(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        Settings()


def test_loopback_only() -> None:
    assert Settings(bind_host="127.0.0.1").loopback_only
    assert Settings(bind_host="::1").loopback_only
    assert Settings(bind_host="localhost").loopback_only
    assert not Settings(bind_host="0.0.0.0").loopback_only
    assert not Settings().loopback_only


def test_the_people_times_and_games_come_from_their_environment_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in {
        "MOTABLE_GONE_AFTER": "7",
        "MOTABLE_REQUEST_LIFETIME": "8",
        "MOTABLE_SEAT_REFUSAL_SECONDS": "9",
        "MOTABLE_GAMES": "tiny=tests.app.tiny_game",
    }.items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    assert (settings.gone_after, settings.request_lifetime, settings.seat_refusal_seconds) == (7, 8, 9)
    assert settings.games == "tiny=tests.app.tiny_game"
