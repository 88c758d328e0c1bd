"""Issue 21: a seat may ask to take back its last action (the takebacks table)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0008"
down_revision = "0009"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "takebacks",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("waiting_for", JSON, nullable=False),
        sa.Column("approvals", JSON, nullable=False),
        sa.Column("refused_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_takebacks_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_takebacks_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_takebacks")),
    )
    op.create_index(op.f("ix_takebacks_room_id"), "takebacks", ["room_id"])
    op.create_index(op.f("ix_takebacks_match_id"), "takebacks", ["match_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_takebacks_match_id"), table_name="takebacks")
    op.drop_index(op.f("ix_takebacks_room_id"), table_name="takebacks")
    op.drop_table("takebacks")
