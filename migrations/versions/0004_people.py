"""People at the table: move clocks, bot stand-ins, last seen, seat requests and table chat."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("clock", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column("chat_spectators", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("stand_in", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "seat_requests",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name="fk_seat_requests_room_id_rooms", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_seat_requests"),
    )
    op.create_index(op.f("ix_seat_requests_room_id"), "seat_requests", ["room_id"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name="fk_chat_messages_room_id_rooms", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat_messages"),
    )
    op.create_index(op.f("ix_chat_messages_room_id"), "chat_messages", ["room_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_chat_messages_room_id"), "chat_messages")
    op.drop_table("chat_messages")
    op.drop_index(op.f("ix_seat_requests_room_id"), "seat_requests")
    op.drop_table("seat_requests")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("last_seen")
        batch.drop_column("stand_in")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("chat_spectators")
        batch.drop_column("clock")
