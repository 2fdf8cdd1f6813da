"""reports of players (with the room's chat and records as they were) and bans

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06 06:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("reported_id", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("text", sa.String(length=2000), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("chat", sa.JSON(), nullable=False),
        sa.Column("records", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["reporter_id"], ["players.id"], name=op.f("fk_reports_reporter_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["reported_id"], ["players.id"], name=op.f("fk_reports_reported_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    op.create_index(op.f("ix_reports_reporter_id"), "reports", ["reporter_id"], unique=False)
    op.create_index(op.f("ix_reports_reported_id"), "reports", ["reported_id"], unique=False)
    op.create_index(op.f("ix_reports_at"), "reports", ["at"], unique=False)
    op.create_table(
        "bans",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=2000), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_bans_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_bans")),
    )


def downgrade() -> None:
    op.drop_table("bans")
    op.drop_index(op.f("ix_reports_at"), table_name="reports")
    op.drop_index(op.f("ix_reports_reported_id"), table_name="reports")
    op.drop_index(op.f("ix_reports_reporter_id"), table_name="reports")
    op.drop_table("reports")
