"""duplicate boards (R30-R31: games.board) and today's boards: days, entries, results (#49)

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-08 00:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("board", sa.SmallInteger(), nullable=True))
    op.create_table(
        "daily_days",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("day", sa.String(length=32), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("boards", sa.SmallInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_daily_days")),
        sa.UniqueConstraint("day", name=op.f("uq_daily_days_day")),
    )
    op.create_table(
        "daily_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("day_id", sa.Integer(), nullable=False),
        sa.Column("room_code", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("guest", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["day_id"],
            ["daily_days.id"],
            name=op.f("fk_daily_entries_day_id_daily_days"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_daily_entries_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_daily_entries")),
        sa.UniqueConstraint("day_id", "guest", name=op.f("uq_daily_entries_day_id_guest")),
        sa.UniqueConstraint("day_id", "player_id", name=op.f("uq_daily_entries_day_id_player_id")),
    )
    op.create_table(
        "daily_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("day_id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.SmallInteger(), nullable=False),
        sa.Column("ns", sa.SmallInteger(), nullable=False),
        sa.Column("ew", sa.SmallInteger(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["day_id"],
            ["daily_days.id"],
            name=op.f("fk_daily_results_day_id_daily_days"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["daily_entries.id"],
            name=op.f("fk_daily_results_entry_id_daily_entries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_daily_results")),
        sa.UniqueConstraint("entry_id", "board", name=op.f("uq_daily_results_entry_id_board")),
    )
    with op.batch_alter_table("daily_results", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_daily_results_day_id"), ["day_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("daily_results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_daily_results_day_id"))
    op.drop_table("daily_results")
    op.drop_table("daily_entries")
    op.drop_table("daily_days")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("board")
