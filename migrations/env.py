"""Alembic environment: migrates the database named by the caller or by DATABASE_URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from app.config import Settings
from app.db import make_engine
from app.models import Base

# Any PostgreSQL bigint works; this one only has to be the same in every process.
MIGRATION_LOCK = 7_140_221_306


def run_migrations() -> None:
    url = context.config.attributes.get("url") or Settings.from_env().database_url
    engine = make_engine(url)
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            # Several `motable serve` processes may start together; migrate one at a time.
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            connection.commit()
        try:
            context.configure(
                connection=connection,
                target_metadata=Base.metadata,
                render_as_batch=connection.dialect.name == "sqlite",
            )
            with context.begin_transaction():
                context.run_migrations()
            connection.commit()
        finally:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                connection.commit()
    engine.dispose()


run_migrations()
