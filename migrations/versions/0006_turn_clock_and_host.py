"""rooms.changed_at (the turn timer's start, in the database) and rooms.host_seat

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 14:10:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("changed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("host_seat", sa.SmallInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("host_seat")
        batch_op.drop_column("changed_at")
