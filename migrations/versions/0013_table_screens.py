"""Issue 23: the table screen the host marks as the table, and the pairing codes screens show."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_screens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("code", sa.String(length=8), nullable=True),
        sa.Column("marked", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_table_screens_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_screens")),
    )
    op.create_index(op.f("ix_table_screens_room_id"), "table_screens", ["room_id"])
    op.create_index(op.f("ix_table_screens_token_hash"), "table_screens", ["token_hash"])


def downgrade() -> None:
    op.drop_index(op.f("ix_table_screens_token_hash"), table_name="table_screens")
    op.drop_index(op.f("ix_table_screens_room_id"), table_name="table_screens")
    op.drop_table("table_screens")
