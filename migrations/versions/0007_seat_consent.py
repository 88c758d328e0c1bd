"""Issue 18: seat moves need consent and a refusal window, revocation is checked by a per-room epoch,
dead seat links can say what happened, quotas count addresses, and finished replays are kept."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("seat_epoch", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("creator", sa.String(length=64), nullable=True))
    op.create_index(op.f("ix_rooms_creator"), "rooms", ["creator"])
    with op.batch_alter_table("seat_requests") as batch:
        batch.add_column(sa.Column("asker", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("approved_by", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column(
                "approvals",
                sa.JSON().with_variant(postgresql.JSONB(), "postgresql"),
                nullable=False,
                server_default="[]",
            )
        )
        batch.add_column(sa.Column("effective_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(sa.Column("kind", sa.String(length=16), nullable=False, server_default="chat"))
    op.create_table(
        "seat_moves",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("old_token_hash", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("by_seat", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_seat_moves_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_moves")),
    )
    op.create_index(op.f("ix_seat_moves_room_id"), "seat_moves", ["room_id"])
    op.create_index(op.f("ix_seat_moves_old_token_hash"), "seat_moves", ["old_token_hash"])
    op.create_table(
        "replays",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("viewpoint", sa.String(length=16), nullable=False),
        sa.Column("etag", sa.String(length=64), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_replays_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", "viewpoint", name=op.f("pk_replays")),
    )


def downgrade() -> None:
    op.drop_table("replays")
    op.drop_index(op.f("ix_seat_moves_old_token_hash"), table_name="seat_moves")
    op.drop_index(op.f("ix_seat_moves_room_id"), table_name="seat_moves")
    op.drop_table("seat_moves")
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("kind")
    with op.batch_alter_table("seat_requests") as batch:
        batch.drop_column("effective_at")
        batch.drop_column("approvals")
        batch.drop_column("approved_by")
        batch.drop_column("asker")
    op.drop_index(op.f("ix_rooms_creator"), table_name="rooms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("creator")
        batch.drop_column("seat_epoch")
