"""Play in your language: a table line is stored as a message id and its places, worded for each reader;
a push subscription and an email address keep the language their alerts are written in."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Lines stored before keep words NULL: their English text is shown as it is.
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(sa.Column("words", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=True))
    with op.batch_alter_table("push_subscriptions") as batch:
        batch.add_column(sa.Column("lang", sa.String(length=16), nullable=True))
    with op.batch_alter_table("email_addresses") as batch:
        batch.add_column(sa.Column("lang", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("email_addresses") as batch:
        batch.drop_column("lang")
    with op.batch_alter_table("push_subscriptions") as batch:
        batch.drop_column("lang")
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("words")
