"""games.winner and games.lineup: the match tally and the stats' players, per game

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 14:10:00.000000

Games stored before this revision have neither: their winner comes from their replay and
their players from the room's seats (app/services/snapshot.py), as before.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("winner", sa.SmallInteger(), nullable=True))
        batch_op.add_column(sa.Column("lineup", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("lineup")
        batch_op.drop_column("winner")
