"""game reviews: the queue and the kept reviews of finished games (issue #38)

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06 07:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_reviews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("room", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.Column("progress", sa.Float(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("claimed_by", sa.String(length=64), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_reviews")),
        sa.UniqueConstraint("key", name=op.f("uq_game_reviews_key")),
    )
    with op.batch_alter_table("game_reviews", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_reviews_state"), ["state"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("game_reviews", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_reviews_state"))
    op.drop_table("game_reviews")
