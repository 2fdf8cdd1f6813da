"""leavers: a career row says whether its player left the game; a ban says who banned

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 16:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("player_games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("left", sa.Boolean(), server_default=sa.text("false"), nullable=False)
        )
    with op.batch_alter_table("bans", schema=None) as batch_op:
        batch_op.add_column(sa.Column("by", sa.String(length=80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bans", schema=None) as batch_op:
        batch_op.drop_column("by")
    with op.batch_alter_table("player_games", schema=None) as batch_op:
        batch_op.drop_column("left")
