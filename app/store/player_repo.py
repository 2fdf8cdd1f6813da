"""The players' queries (app/store/models.py, players and player_*), read into the players'
records (app/players/state.py). Callers own the transaction (app.store.db.read/write)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, delete, insert, or_, select, update

from app.players.state import DeviceRow, ProfileRow
from app.store.models import (
    ChatMessage,
    ClubMember,
    Passkey,
    PasskeyChallenge,
    Player,
    PlayerGame,
    PlayerKey,
    PushSubscription,
    Room,
    Seat,
    SigninCode,
)
from app.store.repo import as_utc

players: Table = Player.__table__  # type: ignore[assignment]
keys: Table = PlayerKey.__table__  # type: ignore[assignment]
codes: Table = SigninCode.__table__  # type: ignore[assignment]
passkeys: Table = Passkey.__table__  # type: ignore[assignment]
challenges: Table = PasskeyChallenge.__table__  # type: ignore[assignment]
careers: Table = PlayerGame.__table__  # type: ignore[assignment]
push_subscriptions: Table = PushSubscription.__table__  # type: ignore[assignment]
rooms: Table = Room.__table__  # type: ignore[assignment]
seats: Table = Seat.__table__  # type: ignore[assignment]
members: Table = ClubMember.__table__  # type: ignore[assignment]
chat: Table = ChatMessage.__table__  # type: ignore[assignment]

_PLAYER = select(
    players.c.id,
    players.c.handle,
    players.c.name,
    players.c.language,
    players.c.listed,
    players.c.secret,
    players.c.mu,
    players.c.sigma,
    players.c.rated_games,
    players.c.created_at,
)


def _player(row: Any) -> ProfileRow:
    id_, handle, name, language, listed, secret, mu, sigma, rated_games, created_at = row
    return ProfileRow(
        id_, handle, name, language, listed, secret, mu, sigma, rated_games, as_utc(created_at)
    )


def insert_player(
    conn: Connection, *, handle: str, name: str, language: str | None, secret: str
) -> int:
    """A new profile's id (IntegrityError when the handle was ever taken)."""
    values = {"handle": handle, "name": name, "language": language, "secret": secret}
    done = conn.execute(insert(players).values(listed=True, rated_games=0, **values))
    return int(done.inserted_primary_key[0])  # type: ignore[index]


def player_by_handle(conn: Connection, handle: str) -> ProfileRow | None:
    row = conn.execute(_PLAYER.where(players.c.handle == handle)).one_or_none()
    return None if row is None else _player(row)


def player_by_id(conn: Connection, player_id: int) -> ProfileRow | None:
    row = conn.execute(_PLAYER.where(players.c.id == player_id)).one_or_none()
    return None if row is None else _player(row)


def player_by_key(conn: Connection, key_hash: str) -> tuple[ProfileRow, int, datetime] | None:
    """The (living) player a device's key signs in, that device's id and when it was last
    seen."""
    query = _PLAYER.add_columns(keys.c.id, keys.c.seen_at).join(
        keys, keys.c.player_id == players.c.id
    )
    row = conn.execute(query.where(keys.c.key_hash == key_hash)).one_or_none()
    if row is None:
        return None
    *fields, device, seen_at = row
    player = _player(fields)
    return None if player.deleted else (player, int(device), as_utc(seen_at))


def update_player(conn: Connection, player_id: int, **values: Any) -> None:
    conn.execute(update(players).where(players.c.id == player_id).values(**values))


def insert_key(
    conn: Connection, *, player_id: int, key_hash: str, device: str, at: datetime
) -> int:
    done = conn.execute(
        insert(keys).values(
            player_id=player_id, key_hash=key_hash, device=device, created_at=at, seen_at=at
        )
    )
    return int(done.inserted_primary_key[0])  # type: ignore[index]


def touch_key(conn: Connection, key_id: int, at: datetime) -> None:
    conn.execute(update(keys).where(keys.c.id == key_id).values(seen_at=at))


def devices_of(conn: Connection, player_id: int) -> list[DeviceRow]:
    query = select(keys.c.id, keys.c.device, keys.c.created_at, keys.c.seen_at).where(
        keys.c.player_id == player_id
    )
    return [
        DeviceRow(r.id, r.device, as_utc(r.created_at), as_utc(r.seen_at))
        for r in conn.execute(query.order_by(keys.c.id))
    ]


def key_hashes_of(conn: Connection, player_id: int) -> list[str]:
    return list(conn.scalars(select(keys.c.key_hash).where(keys.c.player_id == player_id)))


def rename_device(conn: Connection, player_id: int, key_id: int, name: str) -> bool:
    """Whether the device was the player's (and is renamed)."""
    done = conn.execute(
        update(keys).where(keys.c.id == key_id, keys.c.player_id == player_id).values(device=name)
    )
    return bool(done.rowcount)


def delete_device(conn: Connection, player_id: int, key_id: int) -> str | None:
    """Sign a device out: the hash of the key it held, None when it is not the player's."""
    digest = conn.scalar(
        select(keys.c.key_hash).where(keys.c.id == key_id, keys.c.player_id == player_id)
    )
    if digest is not None:
        conn.execute(delete(keys).where(keys.c.id == key_id))
    return digest


def insert_code(conn: Connection, *, player_id: int, code_hash: str, expires_at: datetime) -> None:
    conn.execute(
        insert(codes).values(player_id=player_id, code_hash=code_hash, expires_at=expires_at)
    )


def use_code(conn: Connection, code_hash: str, at: datetime) -> int | None:
    """The player a sign-in code signs in, marking it used; None when it is used, expired
    or unknown. One conditional UPDATE: two devices racing with one code, one wins."""
    done = conn.execute(
        update(codes)
        .where(codes.c.code_hash == code_hash, codes.c.used_at.is_(None), codes.c.expires_at > at)
        .values(used_at=at)
    )
    if done.rowcount != 1:
        return None
    return conn.scalar(select(codes.c.player_id).where(codes.c.code_hash == code_hash))


def code_player(conn: Connection, code_hash: str, at: datetime) -> int | None:
    """The player a sign-in code would sign in, the code left unused (the page that asks
    first names the profile); None when it is used, expired or unknown."""
    query = select(codes.c.player_id).where(
        codes.c.code_hash == code_hash, codes.c.used_at.is_(None), codes.c.expires_at > at
    )
    found: int | None = conn.scalar(query)
    return found


def forget_old_codes(conn: Connection, before: datetime) -> None:
    conn.execute(delete(codes).where(codes.c.expires_at < before))


def unlisted_among(conn: Connection, ids: set[int]) -> set[int]:
    """The profiles among ``ids`` that are unlisted (an erased one is unlisted too)."""
    if not ids:
        return set()
    query = select(players.c.id).where(players.c.id.in_(ids), players.c.listed.is_(False))
    return {int(i) for i in conn.scalars(query)}


def wipe_player(conn: Connection, player_id: int, at: datetime) -> list[str]:
    """Erase a profile (API.md ``DELETE /api/me``): its devices, codes, passkeys, push
    subscriptions (their queued notifications with them), career and club memberships go;
    its chat lines keep the name as written and lose the profile (so its handle); its row
    keeps only the handle (never given again) and the id its rated games name. The hashes of
    the keys it had, for the streams that must end."""
    gone = key_hashes_of(conn, player_id)
    for table in (keys, codes, passkeys, challenges, push_subscriptions, careers, members):
        conn.execute(delete(table).where(table.c.player_id == player_id))
    conn.execute(update(chat).where(chat.c.player_id == player_id).values(player_id=None))
    update_player(conn, player_id, name="", language=None, listed=False, secret=None, deleted_at=at)
    return gone


def rooms_of_player(conn: Connection, player_id: int) -> list[str]:
    """The codes of the rooms where the player holds a seat, or a claim on one."""
    query = (
        select(rooms.c.code)
        .join(seats, seats.c.room_id == rooms.c.id)
        .where(or_(seats.c.player_id == player_id, seats.c.claim_player_id == player_id))
        .distinct()
    )
    return list(conn.scalars(query))


def room_of_seat_token(conn: Connection, digest: str) -> str | None:
    """The code of the room where a seat token's hash holds a seat (or a claim on one)."""
    query = (
        select(rooms.c.code)
        .join(seats, seats.c.room_id == rooms.c.id)
        .where(or_(seats.c.token_hash == digest, seats.c.claim_hash == digest))
    )
    return conn.execute(query.limit(1)).scalar_one_or_none()


def seats_of_player(conn: Connection, player_id: int) -> list[tuple[str, int]]:
    """(room code, seat) of every seat the player holds now, the latest rooms first."""
    query = (
        select(rooms.c.code, seats.c.seat)
        .join(seats, seats.c.room_id == rooms.c.id)
        .where(seats.c.player_id == player_id)
        .order_by(rooms.c.id.desc())
    )
    return [(code, int(seat)) for code, seat in conn.execute(query)]
