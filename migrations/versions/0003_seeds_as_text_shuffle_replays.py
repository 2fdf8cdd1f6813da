"""seeds as decimal text (128-bit seeds), games.shuffle, rooms replaying a finished game

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 13:10:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # SQLite's batch mode copies the rows into the new table (integers become their text);
    # PostgreSQL converts in place.
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.alter_column(
            "seed",
            existing_type=sa.BigInteger(),
            type_=sa.String(length=64),
            existing_nullable=True,
            postgresql_using="seed::text",
        )
        batch_op.add_column(sa.Column("first_dealer", sa.SmallInteger(), nullable=True))
        batch_op.add_column(sa.Column("replay_of_code", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("replay_of_game", sa.Integer(), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column(
            "seed",
            existing_type=sa.BigInteger(),
            type_=sa.String(length=64),
            existing_nullable=False,
            postgresql_using="seed::text",
        )
        # Every game stored so far was dealt by Python's random (shuffle 1).
        batch_op.add_column(
            sa.Column("shuffle", sa.SmallInteger(), server_default=sa.text("1"), nullable=False)
        )


BIGINT_MAX = 2**63 - 1


def downgrade() -> None:
    # Seeds of more than 63 bits do not fit back (SQLite would even keep them as rounded
    # floats): refuse rather than deal those games differently.
    conn = op.get_bind()
    for table in ("rooms", "games"):
        seeds = conn.execute(sa.text(f"SELECT seed FROM {table} WHERE seed IS NOT NULL"))
        if any(abs(int(seed)) > BIGINT_MAX for (seed,) in seeds):
            raise RuntimeError(
                f"{table} holds seeds of more than 63 bits (games dealt after migration 0003):"
                " they cannot go back to a BIGINT column; restore a backup instead"
            )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("shuffle")
        batch_op.alter_column(
            "seed",
            existing_type=sa.String(length=64),
            type_=sa.BigInteger(),
            existing_nullable=False,
            postgresql_using="seed::bigint",
        )
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("replay_of_game")
        batch_op.drop_column("replay_of_code")
        batch_op.drop_column("first_dealer")
        batch_op.alter_column(
            "seed",
            existing_type=sa.String(length=64),
            type_=sa.BigInteger(),
            existing_nullable=True,
            postgresql_using="seed::bigint",
        )
