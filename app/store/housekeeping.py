"""Queries for running a server: rooms by last change, idle rooms, removing rooms.

A room's last change is the latest of its creation, its newest move and the last sign of life
of any of its seated players (``seats.seen_at``: a stream open or a request made). Removing a
room removes its seats, games and moves with it (ON DELETE CASCADE).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, delete, exists, func, select

from app.store.repo import actions, as_utc, games, rooms, seats


@dataclass(frozen=True, slots=True)
class RoomActivity:
    id: int
    code: str
    version: int
    created_at: datetime
    last_change: datetime


def _utc(moment: datetime | str) -> datetime:
    if isinstance(moment, str):  # SQLite, through an expression that lost the column type
        moment = datetime.fromisoformat(moment)
    return as_utc(moment)


_last_move = (
    select(func.max(actions.c.created_at))
    .join(games, games.c.id == actions.c.game_id)
    .where(games.c.room_id == rooms.c.id)
    .scalar_subquery()
)
_last_seen = (
    select(func.max(seats.c.seen_at)).where(seats.c.room_id == rooms.c.id).scalar_subquery()
)


def _activity() -> Select[Any]:
    return select(
        rooms.c.id,
        rooms.c.code,
        rooms.c.version,
        rooms.c.created_at,
        _last_move.label("last_move"),
        _last_seen.label("last_seen"),
    )


def _row(row: Row[Any]) -> RoomActivity:
    values: tuple[Any, ...] = tuple(row)
    room_id, code, version, created_at, *others = values
    created = _utc(created_at)
    last = max([created, *(_utc(v) for v in others if v is not None)])
    return RoomActivity(int(room_id), str(code), int(version), created, last)


def recent_rooms(conn: Connection, *, limit: int, offset: int = 0) -> list[RoomActivity]:
    """Rooms, the most recently moved in (or created) first."""
    query = _activity().order_by(
        func.coalesce(_last_move, rooms.c.created_at).desc(), rooms.c.id.desc()
    )
    return [_row(r) for r in conn.execute(query.limit(limit).offset(offset))]


def count_rooms(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(rooms)).scalar_one())


def count_games_in_play(conn: Connection) -> int:
    """Games started and not over, in every room."""
    return int(
        conn.execute(select(func.count()).select_from(games).where(~games.c.over)).scalar_one()
    )


def idle_rooms(conn: Connection, *, before: datetime) -> list[RoomActivity]:
    """Rooms with no change since ``before``."""
    moved = (
        select(actions.c.id)
        .join(games, games.c.id == actions.c.game_id)
        .where(games.c.room_id == rooms.c.id, actions.c.created_at >= before)
    )
    seen = select(seats.c.id).where(seats.c.room_id == rooms.c.id, seats.c.seen_at >= before)
    query = _activity().where(rooms.c.created_at < before, ~exists(moved), ~exists(seen))
    return [_row(r) for r in conn.execute(query)]


def empty_rooms(conn: Connection, *, before: datetime) -> list[RoomActivity]:
    """Rooms never started (no game) with no change since ``before``: nobody took a seat, or
    those who did have not been seen since."""
    started = select(games.c.id).where(games.c.room_id == rooms.c.id)
    seen = select(seats.c.id).where(seats.c.room_id == rooms.c.id, seats.c.seen_at >= before)
    query = _activity().where(rooms.c.created_at < before, ~exists(started), ~exists(seen))
    return [_row(r) for r in conn.execute(query)]


def existing_codes(conn: Connection, codes: Collection[str]) -> set[str]:
    """Those of ``codes`` that are rooms still."""
    found: set[str] = set()
    wanted = sorted(codes)
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        found.update(conn.execute(select(rooms.c.code).where(rooms.c.code.in_(chunk))).scalars())
    return found


def room_activity(conn: Connection, code: str) -> RoomActivity | None:
    row = conn.execute(_activity().where(rooms.c.code == code)).one_or_none()
    return None if row is None else _row(row)


def delete_room(conn: Connection, room_id: int, version: int) -> bool:
    """Remove a room if it is still at ``version`` (a move that just came in keeps it)."""
    result = conn.execute(delete(rooms).where(rooms.c.id == room_id, rooms.c.version == version))
    return result.rowcount == 1
