"""Reports and bans (app/store/models.py ``reports``, ``bans``). Callers own the transaction
(app.store.db.read/write)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, delete, func, insert, or_, select
from sqlalchemy.orm import aliased

from app.store.models import Ban, Game, Player, PlayerGame, Report, Room, Seat
from app.store.repo import as_utc

reports: Table = Report.__table__  # type: ignore[assignment]
bans: Table = Ban.__table__  # type: ignore[assignment]
players: Table = Player.__table__  # type: ignore[assignment]
rooms: Table = Room.__table__  # type: ignore[assignment]
seats: Table = Seat.__table__  # type: ignore[assignment]
games: Table = Game.__table__  # type: ignore[assignment]
careers: Table = PlayerGame.__table__  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class ReportRow:
    id: int
    reporter: str  # handles
    reported: str
    room: str
    reason: str
    text: str
    at: datetime
    chat: list[dict[str, Any]]
    records: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class BanRow:
    handle: str
    reason: str
    at: datetime
    by: str | None = None  # the door the admin came through (None: a ban before 0016)


def insert_report(
    conn: Connection,
    *,
    reporter_id: int,
    reported_id: int,
    room: str,
    reason: str,
    text: str,
    at: datetime,
    chat: list[dict[str, Any]],
    records: list[dict[str, Any]],
) -> int:
    values = {"reporter_id": reporter_id, "reported_id": reported_id, "room": room}
    values |= {"reason": reason, "text": text, "at": at, "chat": chat, "records": records}
    done = conn.execute(insert(reports).values(**values).returning(reports.c.id))
    return int(done.scalar_one())


def hold_player(conn: Connection, player_id: int) -> None:
    """Lock the player's row until the transaction ends (PostgreSQL; SQLite's writers are one
    at a time anyway): what is counted for them next stays true until the write commits."""
    conn.execute(select(players.c.id).where(players.c.id == player_id).with_for_update())


def reports_since(conn: Connection, reporter_id: int, since: datetime) -> int:
    query = select(func.count()).where(reports.c.reporter_id == reporter_id, reports.c.at >= since)
    return int(conn.execute(query).scalar_one())


def count_reports(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(reports)).scalar_one())


def recent_reports(conn: Connection, *, limit: int, offset: int = 0) -> list[ReportRow]:
    """Reports, the newest first."""
    reporter, reported = aliased(players), aliased(players)
    query = (
        select(
            reports.c.id,
            reporter.c.handle,
            reported.c.handle,
            reports.c.room,
            reports.c.reason,
            reports.c.text,
            reports.c.at,
            reports.c.chat,
            reports.c.records,
        )
        .join(reporter, reporter.c.id == reports.c.reporter_id)
        .join(reported, reported.c.id == reports.c.reported_id)
        .order_by(reports.c.at.desc(), reports.c.id.desc())
        .limit(limit)
        .offset(offset)
    )
    out = []
    for row in conn.execute(query):
        id_, by, about, room, reason, text, at, chat, records = row
        out.append(ReportRow(id_, by, about, room, reason, text, as_utc(at), chat, records))
    return out


def sat_at(conn: Connection, room_code: str, player_id: int, token_hash: str | None = None) -> bool:
    """Whether the player sits at the room, or sat there in one of its games: their seat now,
    a game's lineup naming them (by profile or by the seat token their key gives there), or
    a game of their career played there."""
    room_id = conn.execute(select(rooms.c.id).where(rooms.c.code == room_code)).scalar()
    if room_id is None:
        return False
    held = seats.c.player_id == player_id
    seated = select(seats.c.id).where(
        seats.c.room_id == room_id,
        held if token_hash is None else or_(held, seats.c.token_hash == token_hash),
    )
    if conn.execute(seated.limit(1)).first() is not None:
        return True
    played = (
        select(careers.c.id)
        .join(games, games.c.id == careers.c.game_id)
        .where(games.c.room_id == room_id, careers.c.player_id == player_id)
    )
    if conn.execute(played.limit(1)).first() is not None:
        return True
    for (lineup,) in conn.execute(select(games.c.lineup).where(games.c.room_id == room_id)):
        for occupant in lineup or []:
            if occupant.get("player") == player_id or (
                token_hash is not None and occupant.get("who") == token_hash
            ):
                return True
    return False


def put_ban(
    conn: Connection, player_id: int, reason: str, at: datetime, by: str | None = None
) -> None:
    """Ban the player (again: the newer reason replaces the older)."""
    hold_player(conn, player_id)  # two bans at once: one after the other, never a clash
    conn.execute(delete(bans).where(bans.c.player_id == player_id))
    conn.execute(insert(bans).values(player_id=player_id, reason=reason, at=at, by=by))


def lift_ban(conn: Connection, player_id: int) -> bool:
    return conn.execute(delete(bans).where(bans.c.player_id == player_id)).rowcount == 1


def ban_of(conn: Connection, player_id: int) -> BanRow | None:
    query = (
        select(players.c.handle, bans.c.reason, bans.c.at)
        .join(players, players.c.id == bans.c.player_id)
        .where(bans.c.player_id == player_id)
    )
    row = conn.execute(query).one_or_none()
    return None if row is None else BanRow(row[0], row[1], as_utc(row[2]))


def all_bans(conn: Connection) -> list[BanRow]:
    query = (
        select(players.c.handle, bans.c.reason, bans.c.at, bans.c.by)
        .join(players, players.c.id == bans.c.player_id)
        .order_by(bans.c.at.desc())
    )
    return [BanRow(h, r, as_utc(a), by) for h, r, a, by in conn.execute(query)]


def banned_among(conn: Connection, ids: set[int]) -> bool:
    """Whether one of these players is banned."""
    query = select(bans.c.player_id).where(bans.c.player_id.in_(ids))
    return conn.execute(query.limit(1)).first() is not None
