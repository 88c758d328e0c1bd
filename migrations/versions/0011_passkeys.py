"""Issue 20: passkeys that hold a player's seats (sealed tokens) and the challenges they answer."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("credential_id", sa.String(length=1400), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("user_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_passkeys")),
        sa.UniqueConstraint("credential_id", name=op.f("uq_passkeys_credential_id")),
    )
    op.create_index(op.f("ix_passkeys_user_hash"), "passkeys", ["user_hash"])
    op.create_table(
        "passkey_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("passkey_id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("sealed_token", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["passkey_id"],
            ["passkeys.id"],
            name=op.f("fk_passkey_seats_passkey_id_passkeys"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_passkey_seats_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_passkey_seats")),
        sa.UniqueConstraint("passkey_id", "room_id", name=op.f("uq_passkey_seats_passkey_id_room_id")),
    )
    op.create_index(op.f("ix_passkey_seats_passkey_id"), "passkey_seats", ["passkey_id"])
    op.create_index(op.f("ix_passkey_seats_room_id"), "passkey_seats", ["room_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("challenge", sa.LargeBinary(), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("user_handle", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_passkey_challenges")),
    )
    op.create_index(op.f("ix_passkey_challenges_created_at"), "passkey_challenges", ["created_at"])


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_table("passkey_seats")
    op.drop_table("passkeys")
