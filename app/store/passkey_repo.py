"""The passkeys' queries (app/store/models.py ``passkeys``, ``passkey_challenges``): the
credentials a player added and the ceremonies' challenges, kept in the database so that any
app process may finish a ceremony another began. Callers own the transaction."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, Table, delete, func, insert, select, update

from app.players.passkeys import PasskeyRow, StoredPasskey
from app.store.models import Passkey, PasskeyChallenge
from app.store.repo import as_utc

passkeys: Table = Passkey.__table__  # type: ignore[assignment]
challenges: Table = PasskeyChallenge.__table__  # type: ignore[assignment]


def insert_challenge(
    conn: Connection, *, challenge: str, purpose: str, player_id: int | None, expires_at: datetime
) -> None:
    conn.execute(
        insert(challenges).values(
            challenge=challenge, purpose=purpose, player_id=player_id, expires_at=expires_at
        )
    )


def use_challenge(
    conn: Connection, *, challenge: str, purpose: str, player_id: int | None, at: datetime
) -> bool:
    """Take a challenge once: True when it was there, for this purpose and player, and still
    alive. One conditional DELETE: two answers racing with one challenge, one wins."""
    owner = (
        challenges.c.player_id.is_(None)
        if player_id is None
        else challenges.c.player_id == player_id
    )
    done = conn.execute(
        delete(challenges).where(
            challenges.c.challenge == challenge,
            challenges.c.purpose == purpose,
            challenges.c.expires_at > at,
            owner,
        )
    )
    return done.rowcount == 1


def forget_old_challenges(conn: Connection, at: datetime) -> None:
    conn.execute(delete(challenges).where(challenges.c.expires_at <= at))


def insert_passkey(
    conn: Connection,
    *,
    player_id: int,
    credential_id: str,
    public_key: str,
    sign_count: int,
    name: str,
    at: datetime,
) -> int:
    """A new passkey's id (IntegrityError when the credential is already added)."""
    done = conn.execute(
        insert(passkeys).values(
            player_id=player_id,
            credential_id=credential_id,
            public_key=public_key,
            sign_count=sign_count,
            name=name,
            created_at=at,
        )
    )
    return int(done.inserted_primary_key[0])  # type: ignore[index]


def passkeys_of(conn: Connection, player_id: int) -> list[PasskeyRow]:
    query = select(passkeys.c.id, passkeys.c.name, passkeys.c.created_at, passkeys.c.used_at)
    rows = conn.execute(query.where(passkeys.c.player_id == player_id).order_by(passkeys.c.id))
    return [
        PasskeyRow(
            r.id, r.name, as_utc(r.created_at), None if r.used_at is None else as_utc(r.used_at)
        )
        for r in rows
    ]


def count_passkeys(conn: Connection, player_id: int) -> int:
    query = select(func.count()).select_from(passkeys).where(passkeys.c.player_id == player_id)
    return int(conn.scalar(query) or 0)


def credential_ids_of(conn: Connection, player_id: int) -> list[str]:
    query = select(passkeys.c.credential_id).where(passkeys.c.player_id == player_id)
    return list(conn.scalars(query))


def passkey_by_credential(conn: Connection, credential_id: str) -> StoredPasskey | None:
    query = select(
        passkeys.c.id, passkeys.c.player_id, passkeys.c.public_key, passkeys.c.sign_count
    ).where(passkeys.c.credential_id == credential_id)
    row = conn.execute(query).one_or_none()
    if row is None:
        return None
    return StoredPasskey(row.id, row.player_id, row.public_key, row.sign_count)


def passkey_used(
    conn: Connection, passkey_id: int, *, was: int, sign_count: int, at: datetime
) -> bool:
    """Record a sign-in: the authenticator's new count and when. Conditional on the count
    read before, so that two sign-ins racing with one count both cannot pass."""
    done = conn.execute(
        update(passkeys)
        .where(passkeys.c.id == passkey_id, passkeys.c.sign_count == was)
        .values(sign_count=sign_count, used_at=at)
    )
    return done.rowcount == 1


def delete_passkey(conn: Connection, player_id: int, passkey_id: int) -> bool:
    done = conn.execute(
        delete(passkeys).where(passkeys.c.id == passkey_id, passkeys.c.player_id == player_id)
    )
    return done.rowcount == 1
