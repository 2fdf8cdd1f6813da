"""clubs and seasons: clubs, members, invites, seasons, the nights of a season

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06 06:50:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _club_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["club_id"], ["clubs.id"], name=op.f(f"fk_{table}_club_id_clubs"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("standings", sa.String(length=16), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clubs")),
        sa.UniqueConstraint("code", name=op.f("uq_clubs_code")),
    )
    op.create_table(
        "club_members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=8), nullable=False),
        sa.Column(
            "joined_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        _club_fk("club_members"),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_club_members_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_members")),
        sa.UniqueConstraint("club_id", "player_id", name=op.f("uq_club_members_club_id_player_id")),
    )
    op.create_index(op.f("ix_club_members_club_id"), "club_members", ["club_id"])
    op.create_index(op.f("ix_club_members_player_id"), "club_members", ["player_id"])
    op.create_table(
        "club_invites",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        _club_fk("club_invites"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_invites")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_club_invites_token_hash")),
    )
    op.create_index(op.f("ix_club_invites_club_id"), "club_invites", ["club_id"])
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        _club_fk("seasons"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seasons")),
        sa.UniqueConstraint("club_id", "number", name=op.f("uq_seasons_club_id_number")),
    )
    op.create_table(
        "club_nights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["night_id"],
            ["nights.id"],
            name=op.f("fk_club_nights_night_id_nights"),
            ondelete="CASCADE",
        ),
        _club_fk("club_nights"),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["seasons.id"],
            name=op.f("fk_club_nights_season_id_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_nights")),
        sa.UniqueConstraint("night_id", name=op.f("uq_club_nights_night_id")),
    )
    op.create_index(op.f("ix_club_nights_club_id"), "club_nights", ["club_id"])
    op.create_index(op.f("ix_club_nights_season_id"), "club_nights", ["season_id"])


def downgrade() -> None:
    op.drop_table("club_nights")
    op.drop_table("seasons")
    op.drop_table("club_invites")
    op.drop_table("club_members")
    op.drop_table("clubs")
