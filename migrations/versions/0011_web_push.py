"""web push: subscriptions, the outbox, the server's kept keys, seats' page visibility

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06 07:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hidden_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("turn_told", sa.Integer(), nullable=True))
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=400), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_server_keys")),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=1000), nullable=False),
        sa.Column("p256dh", sa.String(length=120), nullable=False),
        sa.Column("auth", sa.String(length=40), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_push_subscriptions_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint", name=op.f("uq_push_subscriptions_endpoint")),
    )
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_push_subscriptions_player_id"), ["player_id"], unique=False
        )
    op.create_table(
        "push_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["push_subscriptions.id"],
            name=op.f("fk_push_outbox_subscription_id_push_subscriptions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_outbox")),
    )
    with op.batch_alter_table("push_outbox", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_push_outbox_due_at"), ["due_at"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_push_outbox_subscription_id"), ["subscription_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("push_outbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_push_outbox_subscription_id"))
        batch_op.drop_index(batch_op.f("ix_push_outbox_due_at"))
    op.drop_table("push_outbox")
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_push_subscriptions_player_id"))
    op.drop_table("push_subscriptions")
    op.drop_table("server_keys")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("turn_told")
        batch_op.drop_column("hidden_at")
