"""Queries for running a server: rooms by last change, idle rooms, removing rooms.

A room's last change is its newest action, or its creation when it has none (joins carry no
time; a room that only ever saw joins is idle from its creation). Removing a room removes its
seats, games and actions with it (ON DELETE CASCADE).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, delete, func, select

from app.store.repo import actions, games, rooms


@dataclass(frozen=True, slots=True)
class RoomActivity:
    id: int
    code: str
    version: int
    created_at: datetime
    last_change: datetime


def _utc(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; every time we store is UTC.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _activity() -> Select[tuple[int, str, int, datetime, datetime]]:
    last = func.coalesce(func.max(actions.c.created_at), rooms.c.created_at)
    return (
        select(rooms.c.id, rooms.c.code, rooms.c.version, rooms.c.created_at, last.label("last"))
        .select_from(rooms)
        .outerjoin(games, games.c.room_id == rooms.c.id)
        .outerjoin(actions, actions.c.game_id == games.c.id)
        .group_by(rooms.c.id, rooms.c.code, rooms.c.version, rooms.c.created_at)
    )


def _row(row: Row[Any]) -> RoomActivity:
    values: tuple[Any, ...] = tuple(row)
    room_id, code, version, created_at, last = values
    if isinstance(last, str):  # SQLite: coalesce() over a text column
        last = datetime.fromisoformat(last)
    return RoomActivity(int(room_id), str(code), int(version), _utc(created_at), _utc(last))


def recent_rooms(conn: Connection, *, limit: int, offset: int = 0) -> list[RoomActivity]:
    """Rooms, the most recently changed first."""
    query = _activity().order_by(
        func.coalesce(func.max(actions.c.created_at), rooms.c.created_at).desc(), rooms.c.id.desc()
    )
    return [_row(r) for r in conn.execute(query.limit(limit).offset(offset))]


def count_rooms(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(rooms)).scalar_one())


def idle_rooms(conn: Connection, *, before: datetime) -> list[RoomActivity]:
    """Rooms whose last change is older than ``before``."""
    last = func.coalesce(func.max(actions.c.created_at), rooms.c.created_at)
    query = _activity().having(last < before)
    return [_row(r) for r in conn.execute(query)]


def room_activity(conn: Connection, code: str) -> RoomActivity | None:
    row = conn.execute(_activity().where(rooms.c.code == code)).one_or_none()
    return None if row is None else _row(row)


def delete_room(conn: Connection, room_id: int, version: int) -> bool:
    """Remove a room if it is still at ``version`` (a move that just came in keeps it)."""
    result = conn.execute(delete(rooms).where(rooms.c.id == room_id, rooms.c.version == version))
    return result.rowcount == 1
