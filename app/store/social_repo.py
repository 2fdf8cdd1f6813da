"""The queries of play now and the players' ties (issue #36): public tables, friend requests,
blocks, invitations. Callers own the transaction (app.store.db.read/write)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, case, delete, exists, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from app.store.models import Block, Friend, Game, Invitation, Player, Room, Seat
from app.store.repo import as_utc

friends: Table = Friend.__table__  # type: ignore[assignment]
blocks: Table = Block.__table__  # type: ignore[assignment]
invitations: Table = Invitation.__table__  # type: ignore[assignment]
players: Table = Player.__table__  # type: ignore[assignment]
rooms: Table = Room.__table__  # type: ignore[assignment]
seats: Table = Seat.__table__  # type: ignore[assignment]
games: Table = Game.__table__  # type: ignore[assignment]

# The public tables play now and the lobby look at: not yet started, or with a game on.
OPEN_TABLES = 200


def open_public_rooms(conn: Connection, limit: int = OPEN_TABLES) -> list[str]:
    """The codes of the public rooms waiting in their lobby or with a game in play, oldest
    first (the longest waiting fills first)."""
    started = exists().where(games.c.room_id == rooms.c.id)
    playing = exists().where(games.c.room_id == rooms.c.id, games.c.over.is_(False))
    query = (
        select(rooms.c.code)
        .where(rooms.c.public.is_(True), or_(~started, playing))
        .order_by(rooms.c.id)
        .limit(limit)
    )
    return list(conn.scalars(query))


def public_room_of(conn: Connection, *, player_id: int | None, digest: str | None) -> list[str]:
    """The public rooms where a player (or a guest's seat token's hash) holds a seat or a
    claim on one, the latest first."""
    if player_id is not None:
        held = or_(seats.c.player_id == player_id, seats.c.claim_player_id == player_id)
    elif digest is not None:
        held = or_(seats.c.token_hash == digest, seats.c.claim_hash == digest)
    else:
        return []
    query = (
        select(rooms.c.code)
        .join(seats, seats.c.room_id == rooms.c.id)
        .where(rooms.c.public.is_(True), held)
        .order_by(rooms.c.id.desc())
    )
    return list(conn.scalars(query))


def list_public(conn: Connection, code: str) -> None:
    """A public table opened by play now enters the lobby once its seats are filled."""
    conn.execute(update(rooms).where(rooms.c.code == code).values(public=True))


# -- ties between players ----------------------------------------------------------------------


def _add(
    conn: Connection, table: Table, column: str, player_id: int, other: int, at: datetime
) -> None:
    """Insert the pair once (a second identical request changes nothing)."""
    found = conn.execute(
        select(table.c.id).where(table.c.player_id == player_id, table.c[column] == other)
    ).first()
    if found is None:
        try:
            with conn.begin_nested():
                conn.execute(
                    insert(table).values(player_id=player_id, created_at=at, **{column: other})
                )
        except IntegrityError:
            pass  # the same request, made at the same moment elsewhere


def ask_friend(conn: Connection, player_id: int, friend_id: int, at: datetime) -> None:
    _add(conn, friends, "friend_id", player_id, friend_id, at)


def unfriend(conn: Connection, player_id: int, friend_id: int) -> None:
    """Either side ends the friendship (or withdraws the request): both rows go."""
    conn.execute(
        delete(friends).where(
            or_(
                (friends.c.player_id == player_id) & (friends.c.friend_id == friend_id),
                (friends.c.player_id == friend_id) & (friends.c.friend_id == player_id),
            )
        )
    )


def drop_request(conn: Connection, player_id: int, friend_id: int) -> bool:
    """``player_id``'s request to ``friend_id`` goes, unless it is half of a friendship (the
    other asked too); whether one went."""
    if player_id in asked(conn, friend_id):
        return False
    done = conn.execute(
        delete(friends).where(friends.c.player_id == player_id, friends.c.friend_id == friend_id)
    )
    return bool(done.rowcount)


def asked(conn: Connection, player_id: int) -> set[int]:
    """Whom the player asked to be friends."""
    query = select(friends.c.friend_id).where(friends.c.player_id == player_id)
    return set(conn.scalars(query))


def asked_by(conn: Connection, player_id: int) -> set[int]:
    """Who asked the player to be friends."""
    query = select(friends.c.player_id).where(friends.c.friend_id == player_id)
    return set(conn.scalars(query))


def block(conn: Connection, player_id: int, blocked_id: int, at: datetime) -> None:
    _add(conn, blocks, "blocked_id", player_id, blocked_id, at)


def unblock(conn: Connection, player_id: int, blocked_id: int) -> None:
    conn.execute(
        delete(blocks).where(blocks.c.player_id == player_id, blocks.c.blocked_id == blocked_id)
    )


def blocked_by_me(conn: Connection, player_id: int) -> set[int]:
    query = select(blocks.c.blocked_id).where(blocks.c.player_id == player_id)
    return set(conn.scalars(query))


def shunned(conn: Connection, player_id: int) -> set[int]:
    """The players never to be seated with this one: those they blocked, and those who
    blocked them."""
    mine = select(blocks.c.blocked_id).where(blocks.c.player_id == player_id)
    theirs = select(blocks.c.player_id).where(blocks.c.blocked_id == player_id)
    return set(conn.scalars(mine)) | set(conn.scalars(theirs))


def blocked_among(conn: Connection, ids: set[int]) -> bool:
    """Whether one of these players blocked another of them."""
    query = select(blocks.c.id).where(blocks.c.player_id.in_(ids), blocks.c.blocked_id.in_(ids))
    return conn.execute(query.limit(1)).first() is not None


def blocks_among(conn: Connection, ids: set[int]) -> set[tuple[int, int]]:
    """The blocks between these players: (blocker, blocked)."""
    query = select(blocks.c.player_id, blocks.c.blocked_id).where(
        blocks.c.player_id.in_(ids), blocks.c.blocked_id.in_(ids)
    )
    return {(int(a), int(b)) for a, b in conn.execute(query)}


def invite(conn: Connection, player_id: int, from_id: int, room_code: str, at: datetime) -> None:
    """Record (or renew) an invitation to ``room_code``."""
    conn.execute(
        delete(invitations).where(
            invitations.c.player_id == player_id,
            invitations.c.from_id == from_id,
            invitations.c.room_code == room_code,
        )
    )
    conn.execute(
        insert(invitations).values(
            player_id=player_id, from_id=from_id, room_code=room_code, created_at=at
        )
    )


def invitations_of(conn: Connection, player_id: int, since: datetime) -> list[tuple[str, str, str]]:
    """(room code, inviter's handle, inviter's name) of the invitations since ``since``,
    the latest first."""
    query = (
        select(invitations.c.room_code, players.c.handle, players.c.name)
        .join(players, players.c.id == invitations.c.from_id)
        .where(invitations.c.player_id == player_id, invitations.c.created_at >= since)
        .order_by(invitations.c.id.desc())
        .limit(20)
    )
    return [(code, handle, name) for code, handle, name in conn.execute(query)]


def handles_of(conn: Connection, ids: set[int]) -> dict[int, tuple[str, str]]:
    """id → (handle, name) of living profiles."""
    if not ids:
        return {}
    query = select(players.c.id, players.c.handle, players.c.name).where(
        players.c.id.in_(ids), players.c.deleted_at.is_(None)
    )
    return {int(i): (h, n) for i, h, n in conn.execute(query)}


def find_listed(
    conn: Connection, text: str, *, leaving_out: set[int], limit: int
) -> list[tuple[str, str]]:
    """(handle, name) of living, listed profiles whose handle or name holds ``text`` (lower
    case), leaving out the ids given; those whose handle, then name, begins with it first."""
    name = func.lower(players.c.name)
    query = (
        select(players.c.handle, players.c.name)
        .where(
            players.c.listed.is_(True),
            players.c.deleted_at.is_(None),
            players.c.secret.is_not(None),
            or_(
                players.c.handle.contains(text, autoescape=True),
                name.contains(text, autoescape=True),
            ),
        )
        .order_by(
            case((players.c.handle.startswith(text, autoescape=True), 0), else_=1),
            case((name.startswith(text, autoescape=True), 0), else_=1),
            players.c.handle,
        )
        .limit(limit)
    )
    if leaving_out:
        query = query.where(players.c.id.not_in(leaving_out))
    return [(h, n) for h, n in conn.execute(query)]


def forget_ties(conn: Connection, player_id: int) -> None:
    """A profile erased: its friend requests, blocks and invitations, both ways, go."""
    for table, other in ((friends, friends.c.friend_id), (blocks, blocks.c.blocked_id)):
        conn.execute(delete(table).where(or_(table.c.player_id == player_id, other == player_id)))
    conn.execute(
        delete(invitations).where(
            or_(invitations.c.player_id == player_id, invitations.c.from_id == player_id)
        )
    )


def ties_export(conn: Connection, player_id: int) -> dict[str, list[dict[str, str]]]:
    """The player's ties as the export shows them: by handle, with when."""

    def pairs(table: Table, mine: Any, theirs: Any) -> list[dict[str, str]]:
        query = (
            select(players.c.handle, table.c.created_at)
            .join(players, players.c.id == theirs)
            .where(mine == player_id)
            .order_by(table.c.id)
        )
        return [{"handle": h, "at": as_utc(at).isoformat()} for h, at in conn.execute(query)]

    invited = (
        select(invitations.c.room_code, players.c.handle, invitations.c.created_at)
        .join(players, players.c.id == invitations.c.from_id)
        .where(invitations.c.player_id == player_id)
        .order_by(invitations.c.id)
    )
    return {
        "friend_requests_made": pairs(friends, friends.c.player_id, friends.c.friend_id),
        "friend_requests_received": pairs(friends, friends.c.friend_id, friends.c.player_id),
        "blocks": pairs(blocks, blocks.c.player_id, blocks.c.blocked_id),
        "invitations": [
            {"room": code, "from": h, "at": as_utc(at).isoformat()}
            for code, h, at in conn.execute(invited)
        ],
    }
