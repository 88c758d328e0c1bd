"""Issue 20: email alerts (addresses, kept hashed after unsubscribing), quiet hours, and a pause the
table agrees on."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0010"
down_revision = "0011"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("resumed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("pause_request", JSON, nullable=True))
    op.create_table(
        "email_addresses",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=True),
        sa.Column("address_hash", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_alert_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_email_addresses_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_email_addresses")),
    )
    op.create_index(op.f("ix_email_addresses_room_id"), "email_addresses", ["room_id"])
    op.create_index(op.f("ix_email_addresses_address_hash"), "email_addresses", ["address_hash"])
    op.create_table(
        "alert_prefs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("quiet_from", sa.String(length=5), nullable=True),
        sa.Column("quiet_to", sa.String(length=5), nullable=True),
        sa.Column("tz", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_alert_prefs_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alert_prefs")),
        sa.UniqueConstraint("room_id", "seat", name=op.f("uq_alert_prefs_room_id_seat")),
    )
    op.create_index(op.f("ix_alert_prefs_room_id"), "alert_prefs", ["room_id"])
    op.create_table(
        "mail_secrets",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_mail_secrets")),
    )


def downgrade() -> None:
    op.drop_table("mail_secrets")
    op.drop_index(op.f("ix_alert_prefs_room_id"), table_name="alert_prefs")
    op.drop_table("alert_prefs")
    op.drop_index(op.f("ix_email_addresses_address_hash"), table_name="email_addresses")
    op.drop_index(op.f("ix_email_addresses_room_id"), table_name="email_addresses")
    op.drop_table("email_addresses")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("pause_request")
        batch.drop_column("resumed_at")
        batch.drop_column("paused_at")
