"""Issue 20: the last turn and clock alert sent per seat, so a restart never sends one twice."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "alert_marks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("event", sa.String(length=16), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_alert_marks_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alert_marks")),
        sa.UniqueConstraint("room_id", "seat", "event", name=op.f("uq_alert_marks_room_id_seat_event")),
    )
    op.create_index(op.f("ix_alert_marks_room_id"), "alert_marks", ["room_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_alert_marks_room_id"), table_name="alert_marks")
    op.drop_table("alert_marks")
