"""Alembic migrations of the Motable schema."""
