"""rooms, seats, games, actions

Revision ID: 0001
Revises:
Create Date: 2026-11-29 11:47:45.762751
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
        sa.UniqueConstraint("code", name=op.f("uq_rooms_code")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("first_dealer", sa.SmallInteger(), nullable=False),
        sa.Column("started_version", sa.Integer(), nullable=False),
        sa.Column("turn", sa.SmallInteger(), nullable=True),
        sa.Column("over", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_games_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("room_id", "number", name=op.f("uq_games_room_id_number")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_room_id"), ["room_id"], unique=False)

    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("bot", sa.Boolean(), nullable=False),
        sa.Column("level", sa.String(length=16), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.Column("joined_version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_seats_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("room_id", "seat", name=op.f("uq_seats_room_id_seat")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_seats_token_hash")),
    )
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("card", sa.String(length=2), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("auto", sa.Boolean(), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_actions_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_actions")),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_actions_game_id_seq")),
    )


def downgrade() -> None:

    op.drop_table("actions")
    op.drop_table("seats")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_room_id"))

    op.drop_table("games")
    op.drop_table("rooms")
