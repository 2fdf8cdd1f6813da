"""play now: public tables, friends, blocks, invitations; chat kept with its writer's profile

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06 06:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _pair_table(name: str, other: str) -> None:
    op.create_table(
        name,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column(other, sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f(f"fk_{name}_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            [other], ["players.id"], name=op.f(f"fk_{name}_{other}_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{name}")),
        sa.UniqueConstraint("player_id", other, name=op.f(f"uq_{name}_player_id_{other}")),
    )
    op.create_index(op.f(f"ix_{name}_{other}"), name, [other], unique=False)


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("public", sa.Boolean(), server_default=sa.text("false"), nullable=False)
        )
        batch.create_index(batch.f("ix_rooms_public"), ["public"], unique=False)
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
    _pair_table("friends", "friend_id")
    _pair_table("blocks", "blocked_id")
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("from_id", sa.Integer(), nullable=False),
        sa.Column("room_code", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_invitations_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["from_id"],
            ["players.id"],
            name=op.f("fk_invitations_from_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invitations")),
        sa.UniqueConstraint(
            "player_id",
            "from_id",
            "room_code",
            name=op.f("uq_invitations_player_id_from_id_room_code"),
        ),
    )
    op.create_index(op.f("ix_invitations_player_id"), "invitations", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_invitations_player_id"), table_name="invitations")
    op.drop_table("invitations")
    for name, other in (("blocks", "blocked_id"), ("friends", "friend_id")):
        op.drop_index(op.f(f"ix_{name}_{other}"), table_name=name)
        op.drop_table(name)
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("player_id")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index(batch.f("ix_rooms_public"))
        batch.drop_column("public")
