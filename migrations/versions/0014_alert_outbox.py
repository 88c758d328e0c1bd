"""Issue 20: alerts decided with a match's end, a rematch or a seat request, kept until sent."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "alert_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("event", sa.String(length=16), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("by_seat", sa.Integer(), nullable=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("taken_until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_alert_outbox_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alert_outbox")),
    )
    op.create_index(op.f("ix_alert_outbox_room_id"), "alert_outbox", ["room_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_alert_outbox_room_id"), table_name="alert_outbox")
    op.drop_table("alert_outbox")
