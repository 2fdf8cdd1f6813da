"""push subscriptions keyed by (player, endpoint): an endpoint given by another player no
longer moves the row (and its owner's notifications) to them (review round 5, finding 12)

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07 17:00:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_push_subscriptions_endpoint"), type_="unique")
        batch_op.create_unique_constraint(
            batch_op.f("uq_push_subscriptions_player_id_endpoint"), ["player_id", "endpoint"]
        )


def downgrade() -> None:
    # Two players' rows of one endpoint cannot both stay under a unique endpoint: the newer goes.
    op.execute(
        "DELETE FROM push_subscriptions WHERE id NOT IN "
        "(SELECT MIN(id) FROM push_subscriptions GROUP BY endpoint)"
    )
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("uq_push_subscriptions_player_id_endpoint"), type_="unique"
        )
        batch_op.create_unique_constraint(
            batch_op.f("uq_push_subscriptions_endpoint"), ["endpoint"]
        )
