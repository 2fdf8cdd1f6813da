"""The club nights' queries (app/store/models.py, nights and night_*), read into the night's
own records (app/night/state.py). Callers own the transaction (app.store.db.read/write)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, insert, select, update

from app.night.state import NightRow, NightTableRow, PairRow, PlayerRow, RoundRow
from app.store.models import Night, NightPair, NightPlayer, NightRound, NightTable, Room, Seat
from app.store.repo import as_utc

nights: Table = Night.__table__  # type: ignore[assignment]
pairs: Table = NightPair.__table__  # type: ignore[assignment]
players: Table = NightPlayer.__table__  # type: ignore[assignment]
rounds: Table = NightRound.__table__  # type: ignore[assignment]
tables: Table = NightTable.__table__  # type: ignore[assignment]
rooms: Table = Room.__table__  # type: ignore[assignment]
seats: Table = Seat.__table__  # type: ignore[assignment]


_NIGHT = select(
    nights.c.id,
    nights.c.code,
    nights.c.name,
    nights.c.format,
    nights.c.preset,
    nights.c.rules,
    nights.c.options,
    nights.c.director_hash,
    nights.c.registration_open,
    nights.c.version,
)
_TABLE = select(
    tables.c.id,
    tables.c.night_id,
    tables.c.round,
    tables.c.number,
    tables.c.room_code,
    tables.c.pair_a,
    tables.c.pair_b,
    tables.c.games,
    tables.c.winner,
    tables.c.forfeit,
    tables.c.corrected,
)


def insert_night(conn: Connection, **values: Any) -> int:
    result = conn.execute(
        insert(nights).values(**values, version=0, registration_open=True).returning(nights.c.id)
    )
    return int(result.scalar_one())


def night_by_code(conn: Connection, code: str) -> NightRow | None:
    row = conn.execute(_NIGHT.where(nights.c.code == code)).one_or_none()
    return NightRow(*tuple[Any, ...](row)) if row is not None else None


def night_code_of_director(conn: Connection, digest: str) -> str | None:
    found = conn.execute(select(nights.c.code).where(nights.c.director_hash == digest))
    return found.scalar_one_or_none()


def bump(conn: Connection, night_id: int, version: int) -> bool:
    """The conditional UPDATE: True if the night was still at ``version`` (now version + 1)."""
    result = conn.execute(
        update(nights)
        .where(nights.c.id == night_id, nights.c.version == version)
        .values(version=version + 1)
    )
    return result.rowcount == 1


def set_registration(conn: Connection, night_id: int, open_: bool) -> None:
    conn.execute(update(nights).where(nights.c.id == night_id).values(registration_open=open_))


def pairs_of(conn: Connection, night_id: int) -> list[PairRow]:
    query = select(pairs.c.number, pairs.c.names, pairs.c.team).where(pairs.c.night_id == night_id)
    return [PairRow(*row) for row in conn.execute(query.order_by(pairs.c.number))]


def insert_pair(
    conn: Connection, night_id: int, number: int, names: list[str], team: str | None, key: str
) -> None:
    conn.execute(
        insert(pairs).values(night_id=night_id, number=number, names=names, team=team, key=key)
    )


def insert_player(
    conn: Connection,
    night_id: int,
    pair: int,
    slot: int,
    name: str,
    token_hash: str,
    player_id: int | None = None,
) -> None:
    conn.execute(
        insert(players).values(
            night_id=night_id,
            pair=pair,
            slot=slot,
            name=name,
            token_hash=token_hash,
            player_id=player_id,
        )
    )


_PLAYER = select(
    players.c.night_id, players.c.pair, players.c.slot, players.c.name, players.c.player_id
)


def player_by_hash(conn: Connection, digest: str) -> PlayerRow | None:
    row = conn.execute(_PLAYER.where(players.c.token_hash == digest)).one_or_none()
    return PlayerRow(*row) if row is not None else None


def player_by_profile(conn: Connection, night_id: int, player_id: int) -> PlayerRow | None:
    """The night's player registered by this profile's handle, if any."""
    query = _PLAYER.where(players.c.night_id == night_id, players.c.player_id == player_id)
    row = conn.execute(query).one_or_none()
    return PlayerRow(*row) if row is not None else None


def profiles_by_pair(conn: Connection, night_id: int) -> dict[int, tuple[int, ...]]:
    """The profiles registered by handle in each pair of a night."""
    query = select(players.c.pair, players.c.player_id).where(
        players.c.night_id == night_id, players.c.player_id.is_not(None)
    )
    found: dict[int, list[int]] = {}
    for pair, player_id in conn.execute(query.order_by(players.c.pair, players.c.slot)):
        found.setdefault(int(pair), []).append(int(player_id))
    return {pair: tuple(ids) for pair, ids in found.items()}


def player_hashes(conn: Connection, night_id: int) -> set[str]:
    """The hashes of a night's players' link tokens."""
    query = select(players.c.token_hash).where(players.c.night_id == night_id)
    return set(conn.execute(query).scalars())


def update_player_hash(conn: Connection, night_id: int, pair: int, slot: int, digest: str) -> None:
    conn.execute(
        update(players)
        .where(players.c.night_id == night_id, players.c.pair == pair, players.c.slot == slot)
        .values(token_hash=digest)
    )


def rounds_of(conn: Connection, night_id: int) -> list[RoundRow]:
    query = select(rounds.c.number, rounds.c.bye, rounds.c.started_at).where(
        rounds.c.night_id == night_id
    )
    return [
        RoundRow(n, bye, as_utc(at)) for n, bye, at in conn.execute(query.order_by(rounds.c.number))
    ]


def insert_round(
    conn: Connection, night_id: int, number: int, bye: int | None, at: datetime
) -> None:
    conn.execute(insert(rounds).values(night_id=night_id, number=number, bye=bye, started_at=at))


def insert_table(
    conn: Connection, night_id: int, round_: int, number: int, room: str, pair_a: int, pair_b: int
) -> None:
    conn.execute(
        insert(tables).values(
            night_id=night_id,
            round=round_,
            number=number,
            room_code=room,
            pair_a=pair_a,
            pair_b=pair_b,
            games=[],
        )
    )


def tables_of(conn: Connection, night_id: int) -> list[NightTableRow]:
    query = _TABLE.where(tables.c.night_id == night_id).order_by(tables.c.round, tables.c.number)
    return [NightTableRow(*tuple[Any, ...](row)) for row in conn.execute(query)]


def table_by_room(conn: Connection, room: str) -> NightTableRow | None:
    row = conn.execute(_TABLE.where(tables.c.room_code == room)).one_or_none()
    return NightTableRow(*tuple[Any, ...](row)) if row is not None else None


def update_table(conn: Connection, table_id: int, **values: Any) -> None:
    conn.execute(update(tables).where(tables.c.id == table_id).values(**values))


def open_tables(conn: Connection) -> list[tuple[str, str]]:
    """(room, night code) of every table whose match is not over."""
    query = (
        select(tables.c.room_code, nights.c.code)
        .join(nights, nights.c.id == tables.c.night_id)
        .where(tables.c.winner.is_(None))
    )
    return [(room, night) for room, night in conn.execute(query)]


def room_of_seat_token(conn: Connection, digest: str) -> str | None:
    query = (
        select(rooms.c.code)
        .join(seats, seats.c.room_id == rooms.c.id)
        .where(seats.c.token_hash == digest)
    )
    return conn.execute(query).scalar_one_or_none()


def night_by_id(conn: Connection, night_id: int) -> NightRow | None:
    row = conn.execute(_NIGHT.where(nights.c.id == night_id)).one_or_none()
    return NightRow(*tuple[Any, ...](row)) if row is not None else None
