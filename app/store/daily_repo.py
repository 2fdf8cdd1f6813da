"""Today's boards in SQL: the days (each with its seed), the people's tables (entries) and
each board's results. Plain statements on SQLite and PostgreSQL alike."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Table, insert, select

from app.store.models import DailyDay, DailyEntry, DailyResult, Player
from app.store.repo import as_utc

days: Table = DailyDay.__table__  # type: ignore[assignment]
entries: Table = DailyEntry.__table__  # type: ignore[assignment]
results: Table = DailyResult.__table__  # type: ignore[assignment]
players: Table = Player.__table__  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class DayRow:
    id: int
    day: str
    starts_at: datetime
    ends_at: datetime
    seed: int
    boards: int


@dataclass(frozen=True, slots=True)
class EntryRow:
    id: int
    room_code: str
    player_id: int | None


@dataclass(frozen=True, slots=True)
class ResultRow:
    id: int
    entry_id: int
    board: int
    ns: int
    ew: int


@dataclass(frozen=True, slots=True)
class Person:
    """Who an entry is, as a ranking names them: a profile's handle and name, or a guest."""

    entry_id: int
    handle: str | None
    name: str | None


def _day(row: object) -> DayRow:
    r = row._mapping  # type: ignore[attr-defined]
    return DayRow(
        r["id"], r["day"], as_utc(r["starts_at"]), as_utc(r["ends_at"]), r["seed"], r["boards"]
    )


def day_named(conn: Connection, day: str) -> DayRow | None:
    row = conn.execute(select(days).where(days.c.day == day)).one_or_none()
    return _day(row) if row is not None else None


def insert_day(
    conn: Connection, *, day: str, starts_at: datetime, ends_at: datetime, seed: int, boards: int
) -> None:
    conn.execute(
        insert(days).values(day=day, starts_at=starts_at, ends_at=ends_at, seed=seed, boards=boards)
    )


def entry_of(
    conn: Connection, day_id: int, *, player_id: int | None, guest: str | None
) -> EntryRow | None:
    query = select(entries.c.id, entries.c.room_code, entries.c.player_id).where(
        entries.c.day_id == day_id
    )
    if player_id is not None:
        query = query.where(entries.c.player_id == player_id)
    elif guest is not None:
        query = query.where(entries.c.guest == guest)
    else:
        return None
    row = conn.execute(query).one_or_none()
    return EntryRow(*row) if row is not None else None


def insert_entry(
    conn: Connection,
    *,
    day_id: int,
    room_code: str,
    player_id: int | None,
    guest: str | None,
    at: datetime,
) -> int:
    result = conn.execute(
        insert(entries)
        .values(day_id=day_id, room_code=room_code, player_id=player_id, guest=guest, created_at=at)
        .returning(entries.c.id)
    )
    return int(result.scalar_one())


def record_board(
    conn: Connection, room_code: str, board: int, points: tuple[int, int], at: datetime
) -> None:
    """A board played at a day's table: its result, once (a table of another kind: nothing)."""
    row = conn.execute(
        select(entries.c.id, entries.c.day_id).where(entries.c.room_code == room_code)
    ).one_or_none()
    if row is None:
        return
    conn.execute(
        insert(results).values(
            day_id=row.day_id, entry_id=row.id, board=board, ns=points[0], ew=points[1], at=at
        )
    )


def results_of(conn: Connection, day_id: int, after: int = 0) -> list[ResultRow]:
    """The day's results recorded after result ``after`` (an id), in the order recorded."""
    query = (
        select(results.c.id, results.c.entry_id, results.c.board, results.c.ns, results.c.ew)
        .where(results.c.day_id == day_id, results.c.id > after)
        .order_by(results.c.id)
    )
    return [ResultRow(*row) for row in conn.execute(query)]


def people_of(conn: Connection, entry_ids: set[int]) -> dict[int, Person]:
    if not entry_ids:
        return {}
    query = (
        select(entries.c.id, players.c.handle, players.c.name, players.c.deleted_at)
        .select_from(entries.outerjoin(players, players.c.id == entries.c.player_id))
        .where(entries.c.id.in_(entry_ids))
    )
    out = {}
    for entry_id, handle, name, deleted in conn.execute(query):
        if deleted is not None:  # a deleted profile is no one's to name
            handle = name = None
        out[entry_id] = Person(entry_id, handle, name)
    return out


def days_of_player(conn: Connection, handle: str) -> list[tuple[DayRow, int]]:
    """The days a player (by handle) took part in, newest first, with their entry's id."""
    query = (
        select(days, entries.c.id.label("entry_id"))
        .select_from(
            days.join(entries, entries.c.day_id == days.c.id).join(
                players, players.c.id == entries.c.player_id
            )
        )
        .where(players.c.handle == handle)
        .order_by(days.c.starts_at.desc())
    )
    return [(_day(row), row.entry_id) for row in conn.execute(query)]
