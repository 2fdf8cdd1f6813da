"""players: profiles, devices, sign-in codes, passkeys, careers and ratings

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06 00:20:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("handle", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=True),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("secret", sa.String(length=64), nullable=True),
        sa.Column("mu", sa.Float(), nullable=True),
        sa.Column("sigma", sa.Float(), nullable=True),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.now(),
            nullable=False,
        ),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("handle", name=op.f("uq_players_handle")),
    )
    op.create_table(
        "passkey_challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("challenge", sa.String(length=200), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_passkey_challenges_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_passkey_challenges")),
        sa.UniqueConstraint("challenge", name=op.f("uq_passkey_challenges_challenge")),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("credential_id", sa.String(length=400), nullable=False),
        sa.Column("public_key", sa.String(length=2000), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_passkeys_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_passkeys")),
        sa.UniqueConstraint("credential_id", name=op.f("uq_passkeys_credential_id")),
    )
    with op.batch_alter_table("passkeys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_passkeys_player_id"), ["player_id"], unique=False)

    op.create_table(
        "player_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("device", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_player_keys_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_keys")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_player_keys_key_hash")),
    )
    with op.batch_alter_table("player_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_keys_player_id"), ["player_id"], unique=False)

    op.create_table(
        "signin_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_signin_codes_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signin_codes")),
        sa.UniqueConstraint("code_hash", name=op.f("uq_signin_codes_code_hash")),
    )
    with op.batch_alter_table("signin_codes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_signin_codes_player_id"), ["player_id"], unique=False)

    op.create_table(
        "player_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("figures", sa.JSON(), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_player_games_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_player_games_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_games")),
        sa.UniqueConstraint("player_id", "game_id", name=op.f("uq_player_games_player_id_game_id")),
    )
    with op.batch_alter_table("player_games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_games_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_player_games_player_id"), ["player_id"], unique=False)

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(
            sa.Column("rated", sa.Boolean(), server_default=sa.text("false"), nullable=False)
        )
        batch_op.add_column(sa.Column("ratings", sa.JSON(), nullable=True))

    with op.batch_alter_table("night_players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_night_players_player_id_players"), "players", ["player_id"], ["id"]
        )
        batch_op.create_unique_constraint(
            batch_op.f("uq_night_players_night_id_player_id"), ["night_id", "player_id"]
        )

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_seats_player_id"), ["player_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_seats_player_id_players"), "players", ["player_id"], ["id"]
        )
        batch_op.add_column(sa.Column("claim_player_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_seats_claim_player_id_players"), "players", ["claim_player_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_seats_claim_player_id_players"), type_="foreignkey")
        batch_op.drop_column("claim_player_id")
        batch_op.drop_constraint(batch_op.f("fk_seats_player_id_players"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_seats_player_id"))
        batch_op.drop_column("player_id")

    with op.batch_alter_table("night_players", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_night_players_night_id_player_id"), type_="unique")
        batch_op.drop_constraint(
            batch_op.f("fk_night_players_player_id_players"), type_="foreignkey"
        )
        batch_op.drop_column("player_id")

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("ratings")
        batch_op.drop_column("rated")
        batch_op.drop_column("ended_at")

    with op.batch_alter_table("player_games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_games_player_id"))
        batch_op.drop_index(batch_op.f("ix_player_games_game_id"))

    op.drop_table("player_games")
    with op.batch_alter_table("signin_codes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_signin_codes_player_id"))

    op.drop_table("signin_codes")
    with op.batch_alter_table("player_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_keys_player_id"))

    op.drop_table("player_keys")
    with op.batch_alter_table("passkeys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_passkeys_player_id"))

    op.drop_table("passkeys")
    op.drop_table("passkey_challenges")
    op.drop_table("players")
