"""The one Alembic migration builds exactly the models' schema on an empty SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from app.config import sqlalchemy_url
from app.db import make_engine, upgrade
from app.models import Base


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_upgrade_an_empty_database(backend: str, request: pytest.FixtureRequest) -> None:
    url = sqlalchemy_url(request.getfixturevalue(f"{backend}_url"))
    upgrade(url)
    upgrade(url)  # a second run finds nothing to do
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            assert set(inspect(conn).get_table_names()) >= set(Base.metadata.tables)
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    finally:
        engine.dispose()
