"""Queries on one open connection. Callers own the transaction (app.store.db.read/write)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Table, insert, select, update

from app.store.models import ActionRow, Game, Room, Seat

rooms: Table = Room.__table__  # type: ignore[assignment]
seats: Table = Seat.__table__  # type: ignore[assignment]
games: Table = Game.__table__  # type: ignore[assignment]
actions: Table = ActionRow.__table__  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: int
    code: str
    rules: dict[str, Any]
    seed: int | None
    version: int


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str
    bot: bool
    level: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    number: int
    rules: dict[str, Any]
    seed: int
    first_dealer: int
    started_version: int
    over: bool


@dataclass(frozen=True, slots=True)
class ActionLog:
    seq: int
    seat: int
    type: str
    card: str | None
    version: int
    auto: bool


def insert_room(conn: Connection, *, code: str, rules: dict[str, Any], seed: int | None) -> int:
    result = conn.execute(
        insert(rooms).values(code=code, rules=rules, seed=seed, version=0).returning(rooms.c.id)
    )
    return int(result.scalar_one())


def room_by_code(conn: Connection, code: str) -> RoomRow | None:
    row = conn.execute(
        select(rooms.c.id, rooms.c.code, rooms.c.rules, rooms.c.seed, rooms.c.version).where(
            rooms.c.code == code
        )
    ).one_or_none()
    return RoomRow(*row) if row is not None else None


def bump_version(conn: Connection, room_id: int, version: int) -> bool:
    """The conditional UPDATE: True if the room was still at ``version`` (now version + 1)."""
    result = conn.execute(
        update(rooms)
        .where(rooms.c.id == room_id, rooms.c.version == version)
        .values(version=version + 1)
    )
    return result.rowcount == 1


def seats_of(conn: Connection, room_id: int, at_version: int | None = None) -> list[SeatRow]:
    query = select(
        seats.c.seat, seats.c.name, seats.c.bot, seats.c.level, seats.c.token_hash
    ).where(seats.c.room_id == room_id)
    if at_version is not None:
        query = query.where(seats.c.joined_version <= at_version)
    return [SeatRow(*row) for row in conn.execute(query.order_by(seats.c.seat))]


def insert_seat(
    conn: Connection,
    *,
    room_id: int,
    seat: int,
    name: str,
    bot: bool,
    level: str | None,
    token_hash: str | None,
    version: int,
) -> None:
    conn.execute(
        insert(seats).values(
            room_id=room_id,
            seat=seat,
            name=name,
            bot=bot,
            level=level,
            token_hash=token_hash,
            joined_version=version,
        )
    )


def latest_game(conn: Connection, room_id: int, at_version: int | None = None) -> GameRow | None:
    query = select(
        games.c.id,
        games.c.number,
        games.c.rules,
        games.c.seed,
        games.c.first_dealer,
        games.c.started_version,
        games.c.over,
    ).where(games.c.room_id == room_id)
    if at_version is not None:
        query = query.where(games.c.started_version <= at_version)
    row = conn.execute(query.order_by(games.c.number.desc()).limit(1)).one_or_none()
    return GameRow(*row) if row is not None else None


def insert_game(
    conn: Connection,
    *,
    room_id: int,
    number: int,
    rules: dict[str, Any],
    seed: int,
    first_dealer: int,
    version: int,
    turn: int | None,
) -> int:
    result = conn.execute(
        insert(games)
        .values(
            room_id=room_id,
            number=number,
            rules=rules,
            seed=seed,
            first_dealer=first_dealer,
            started_version=version,
            turn=turn,
            over=turn is None,
        )
        .returning(games.c.id)
    )
    return int(result.scalar_one())


def set_turn(conn: Connection, game_id: int, turn: int | None) -> None:
    conn.execute(update(games).where(games.c.id == game_id).values(turn=turn, over=turn is None))


def actions_of(conn: Connection, game_id: int, at_version: int | None = None) -> list[ActionLog]:
    query = select(
        actions.c.seq,
        actions.c.seat,
        actions.c.type,
        actions.c.card,
        actions.c.version,
        actions.c.auto,
    ).where(actions.c.game_id == game_id)
    if at_version is not None:
        query = query.where(actions.c.version <= at_version)
    return [ActionLog(*row) for row in conn.execute(query.order_by(actions.c.seq))]


def insert_action(
    conn: Connection,
    *,
    game_id: int,
    seq: int,
    seat: int,
    type: str,
    card: str | None,
    version: int,
    auto: bool,
) -> None:
    conn.execute(
        insert(actions).values(
            game_id=game_id, seq=seq, seat=seat, type=type, card=card, version=version, auto=auto
        )
    )


def rooms_in_play(conn: Connection) -> list[str]:
    """Codes of rooms whose latest game waits for a seat to act (resumed after a restart)."""
    query = (
        select(rooms.c.code)
        .join(games, games.c.room_id == rooms.c.id)
        .where(games.c.over.is_(False))
    )
    return [row[0] for row in conn.execute(query)]
