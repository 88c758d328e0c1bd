"""A room's status lives in one place: its match (no match yet: waiting). rooms.status goes."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("status")


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("status", sa.String(16), nullable=False, server_default="waiting"))
    op.execute(
        "UPDATE rooms SET status = (SELECT matches.status FROM matches WHERE matches.room_id = rooms.id) "
        "WHERE EXISTS (SELECT 1 FROM matches WHERE matches.room_id = rooms.id)"
    )
