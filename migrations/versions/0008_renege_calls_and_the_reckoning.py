"""Renege mode: the lift a call names (actions.lift), and when a hand's reckoning began
(games.reckon_since), so its deadline is the same in every app process and after a restart

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 07:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("lift", sa.SmallInteger(), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reckon_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("reckon_since")
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_column("lift")
