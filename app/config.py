"""Server settings, read once from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


def sqlalchemy_url(url: str) -> str:
    """Accept the URLs people write (`postgresql://`, `postgres://`) and pick our driver for them."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass(frozen=True)
class Settings:
    database_url: str = "sqlite:///motable.db"
    redis_url: str | None = None
    bot_delay: float = 0.8
    max_body_bytes: int = 64 * 1024
    max_ws_message_bytes: int = 64 * 1024
    # Far above any person's pace; 0 turns limiting off.
    rate_per_second: float = 20.0
    rate_burst: int = 120

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        defaults = cls()
        return cls(
            database_url=sqlalchemy_url(env.get("DATABASE_URL") or defaults.database_url),
            redis_url=env.get("REDIS_URL") or None,
            bot_delay=float(env.get("MOTABLE_BOT_DELAY", defaults.bot_delay)),
            max_body_bytes=int(env.get("MOTABLE_MAX_BODY_BYTES", defaults.max_body_bytes)),
            max_ws_message_bytes=int(env.get("MOTABLE_MAX_WS_MESSAGE_BYTES", defaults.max_ws_message_bytes)),
            rate_per_second=float(env.get("MOTABLE_RATE_PER_SECOND", defaults.rate_per_second)),
            rate_burst=int(env.get("MOTABLE_RATE_BURST", defaults.rate_burst)),
        )
