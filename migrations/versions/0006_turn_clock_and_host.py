"""rooms.changed_at (the turn timer's start, in the database), rooms.host_seat, and a
latecomer's claim on a computer player's seat (seats.claim_name, seats.claim_hash)

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
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("claim_name", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("claim_hash", sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_seats_claim_hash"), ["claim_hash"])


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_seats_claim_hash"), type_="unique")
        batch_op.drop_column("claim_hash")
        batch_op.drop_column("claim_name")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("host_seat")
        batch_op.drop_column("changed_at")
