"""club nights: nights, their pairs, players' links, rounds and tables

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 06:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "nights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("preset", sa.String(length=32), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("director_hash", sa.String(length=64), nullable=False),
        sa.Column("registration_open", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.now(),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_nights")),
        sa.UniqueConstraint("code", name=op.f("uq_nights_code")),
        sa.UniqueConstraint("director_hash", name=op.f("uq_nights_director_hash")),
    )
    op.create_table(
        "night_pairs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("team", sa.String(length=40), nullable=True),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["night_id"],
            ["nights.id"],
            name=op.f("fk_night_pairs_night_id_nights"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night_pairs")),
        sa.UniqueConstraint("night_id", "number", name=op.f("uq_night_pairs_night_id_number")),
        sa.UniqueConstraint("night_id", "key", name=op.f("uq_night_pairs_night_id_key")),
    )
    op.create_table(
        "night_players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("pair", sa.SmallInteger(), nullable=False),
        sa.Column("slot", sa.SmallInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["night_id"],
            ["nights.id"],
            name=op.f("fk_night_players_night_id_nights"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night_players")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_night_players_token_hash")),
    )
    op.create_index(op.f("ix_night_players_night_id"), "night_players", ["night_id"], unique=False)
    op.create_table(
        "night_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("bye", sa.SmallInteger(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["night_id"],
            ["nights.id"],
            name=op.f("fk_night_rounds_night_id_nights"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night_rounds")),
        sa.UniqueConstraint("night_id", "number", name=op.f("uq_night_rounds_night_id_number")),
    )
    op.create_table(
        "night_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.SmallInteger(), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("room_code", sa.String(length=32), nullable=False),
        sa.Column("pair_a", sa.SmallInteger(), nullable=False),
        sa.Column("pair_b", sa.SmallInteger(), nullable=False),
        sa.Column("games", sa.JSON(), nullable=False),
        sa.Column("winner", sa.SmallInteger(), nullable=True),
        sa.Column("forfeit", sa.SmallInteger(), nullable=True),
        sa.Column("corrected", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["night_id"],
            ["nights.id"],
            name=op.f("fk_night_tables_night_id_nights"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night_tables")),
        sa.UniqueConstraint(
            "night_id", "round", "number", name=op.f("uq_night_tables_night_id_round_number")
        ),
    )
    op.create_index(op.f("ix_night_tables_room_code"), "night_tables", ["room_code"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_night_tables_room_code"), table_name="night_tables")
    op.drop_table("night_tables")
    op.drop_table("night_rounds")
    op.drop_index(op.f("ix_night_players_night_id"), table_name="night_players")
    op.drop_table("night_players")
    op.drop_table("night_pairs")
    op.drop_table("nights")
