"""An index on rooms.rematch_id: every join of a rematch room looks up the room it follows."""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(op.f("ix_rooms_rematch_id"), "rooms", ["rematch_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_rooms_rematch_id"), table_name="rooms")
