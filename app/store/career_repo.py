"""The careers' queries (app/store/models.py ``player_games``, the players' ratings and the
games' ``ended_at``/``rated``/``ratings``). Callers own the transaction."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, and_, delete, func, insert, select, update

from app.store.models import ActionRow, Game, Player, PlayerGame, Room
from app.store.repo import as_utc

players: Table = Player.__table__  # type: ignore[assignment]
careers: Table = PlayerGame.__table__  # type: ignore[assignment]
games: Table = Game.__table__  # type: ignore[assignment]
rooms: Table = Room.__table__  # type: ignore[assignment]
actions: Table = ActionRow.__table__  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Rated:
    """A player as a game's end reads them: the rating the rated games so far left."""

    id: int
    handle: str
    mu: float | None
    sigma: float | None
    rated_games: int
    deleted: bool


@dataclass(frozen=True, slots=True)
class CareerRow:
    """One finished game of a player's career, with what the profile shows of it."""

    game_id: int
    room: str
    number: int
    seat: int
    ended_at: datetime
    won: bool
    rated: bool
    figures: dict[str, Any]
    before: dict[str, float] | None
    after: dict[str, float] | None
    lineup: list[dict[str, Any]] | None
    public: bool = False  # at a public table
    left: bool = False  # the player left it (app/services/career.py ``leavers``)


def players_for_rating(conn: Connection, ids: Iterable[int]) -> dict[int, Rated]:
    """The players' rows, locked until the transaction ends (PostgreSQL: two games ending at
    once apply their ratings one after the other, never from the same before)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    query = (
        select(
            players.c.id,
            players.c.handle,
            players.c.mu,
            players.c.sigma,
            players.c.rated_games,
            players.c.deleted_at,
        )
        .where(players.c.id.in_(wanted))
        .order_by(players.c.id)
        .with_for_update()
    )
    return {
        row.id: Rated(
            row.id, row.handle, row.mu, row.sigma, row.rated_games, row.deleted_at is not None
        )
        for row in conn.execute(query)
    }


def last_ended(conn: Connection, ids: Iterable[int]) -> datetime | None:
    """When the players' latest counted game ended."""
    query = select(func.max(careers.c.ended_at)).where(careers.c.player_id.in_(list(ids)))
    found = conn.execute(query).scalar_one_or_none()
    return as_utc(found) if found is not None else None


def set_rating(conn: Connection, player_id: int, mu: float, sigma: float, games: int) -> None:
    conn.execute(
        update(players)
        .where(players.c.id == player_id)
        .values(mu=mu, sigma=sigma, rated_games=games)
    )


def set_ended(
    conn: Connection,
    game_id: int,
    *,
    ended_at: datetime,
    rated: bool,
    ratings: list[dict[str, Any]] | None,
) -> None:
    conn.execute(
        update(games)
        .where(games.c.id == game_id)
        .values(ended_at=ended_at, rated=rated, ratings=ratings)
    )


def has_career(conn: Connection, player_id: int, game_id: int) -> bool:
    query = select(careers.c.id).where(
        careers.c.player_id == player_id, careers.c.game_id == game_id
    )
    return conn.execute(query.limit(1)).first() is not None


def insert_career(
    conn: Connection,
    *,
    player_id: int,
    game_id: int,
    seat: int,
    ended_at: datetime,
    won: bool,
    rated: bool,
    figures: dict[str, Any],
    before: dict[str, float] | None = None,
    after: dict[str, float] | None = None,
    left: bool = False,
) -> None:
    conn.execute(
        insert(careers).values(
            left=left,
            player_id=player_id,
            game_id=game_id,
            seat=seat,
            ended_at=ended_at,
            won=won,
            rated=rated,
            figures=figures,
            before=before,
            after=after,
        )
    )


def careers_of(conn: Connection, player_id: int) -> list[CareerRow]:
    """The player's finished games, oldest first (the order their ratings were applied)."""
    query = (
        select(
            careers.c.game_id,
            rooms.c.code,
            games.c.number,
            careers.c.seat,
            careers.c.ended_at,
            careers.c.won,
            careers.c.rated,
            careers.c.figures,
            careers.c.before,
            careers.c.after,
            games.c.lineup,
            rooms.c.public,
            careers.c.left,
        )
        .join(games, games.c.id == careers.c.game_id)
        .join(rooms, rooms.c.id == games.c.room_id)
        .where(careers.c.player_id == player_id)
        .order_by(careers.c.ended_at, careers.c.game_id)
    )
    return [
        CareerRow(
            r.game_id,
            r.code,
            r.number,
            r.seat,
            as_utc(r.ended_at),
            r.won,
            r.rated,
            r.figures,
            r.before,
            r.after,
            r.lineup,
            bool(r.public),
            bool(r.left),
        )
        for r in conn.execute(query)
    ]


def player_of(conn: Connection, handle: str) -> Rated | None:
    """A profile by its handle (lower case), deleted or not."""
    query = select(
        players.c.id,
        players.c.handle,
        players.c.mu,
        players.c.sigma,
        players.c.rated_games,
        players.c.deleted_at,
    ).where(players.c.handle == handle)
    row = conn.execute(query).one_or_none()
    if row is None:
        return None
    return Rated(row.id, row.handle, row.mu, row.sigma, row.rated_games, row.deleted_at is not None)


def profile_of(conn: Connection, player_id: int) -> tuple[str, bool] | None:
    """A live profile's name and whether it is listed (None: deleted or unknown)."""
    query = select(players.c.name, players.c.listed).where(
        players.c.id == player_id, players.c.deleted_at.is_(None)
    )
    row = conn.execute(query).one_or_none()
    return (row.name, bool(row.listed)) if row is not None else None


def handles_of(conn: Connection, ids: Iterable[int]) -> dict[int, str]:
    """The handles of the live profiles among ``ids`` (a deleted one is left out)."""
    wanted = list(set(ids))
    if not wanted:
        return {}
    query = select(players.c.id, players.c.handle).where(
        players.c.id.in_(wanted), players.c.deleted_at.is_(None)
    )
    return {row.id: row.handle for row in conn.execute(query)}


def shared_table(conn: Connection, one: int, other: int) -> bool:
    """Whether two players sat through a finished game together. Sitting down at the same
    room now is not enough: anyone may join a public table, and would see an unlisted
    player's profile by sitting beside them (review round 5, finding 11)."""
    mine, theirs = careers.alias("mine"), careers.alias("theirs")
    played = (
        select(mine.c.id)
        .join(theirs, and_(theirs.c.game_id == mine.c.game_id, theirs.c.player_id == other))
        .where(mine.c.player_id == one)
        .limit(1)
    )
    return conn.execute(played).first() is not None


def played_with(conn: Connection, player_id: int) -> set[int]:
    """The players who sat through a finished game with this one (and the player)."""
    mine, theirs = careers.alias("mine"), careers.alias("theirs")
    query = (
        select(theirs.c.player_id)
        .join(mine, mine.c.game_id == theirs.c.game_id)
        .where(mine.c.player_id == player_id)
        .distinct()
    )
    return {player_id, *conn.scalars(query)}


@dataclass(frozen=True, slots=True)
class Ranked:
    id: int
    handle: str
    name: str
    mu: float
    sigma: float
    rated_games: int


def rated_players(conn: Connection, among: set[int] | None = None) -> list[Ranked]:
    """Listed live players with at least one rated game, best ordinal (mu - 3 sigma) first."""
    ordinal = players.c.mu - 3 * players.c.sigma
    query = select(
        players.c.id,
        players.c.handle,
        players.c.name,
        players.c.mu,
        players.c.sigma,
        players.c.rated_games,
    ).where(
        players.c.listed.is_(True),
        players.c.deleted_at.is_(None),
        players.c.rated_games > 0,
        players.c.mu.is_not(None),
    )
    if among is not None:
        query = query.where(players.c.id.in_(sorted(among)))
    query = query.order_by(ordinal.desc(), players.c.handle)
    return [
        Ranked(r.id, r.handle, r.name, r.mu, r.sigma, r.rated_games) for r in conn.execute(query)
    ]


# -- the rebuild ----------------------------------------------------------------------------


def forget_careers(conn: Connection) -> None:
    """Every career row and rating goes (the rebuild counts them again from the records)."""
    conn.execute(delete(careers))
    conn.execute(update(players).values(mu=None, sigma=None, rated_games=0))


def ended_games(conn: Connection) -> Sequence[Any]:
    """Every finished game with the time it ended: (id, room_id, ended_at), oldest first."""
    query = (
        select(games.c.id, games.c.room_id, games.c.ended_at)
        .where(games.c.over.is_(True), games.c.ended_at.is_not(None))
        .order_by(games.c.ended_at, games.c.id)
    )
    return list(conn.execute(query))


def deleted_players(conn: Connection) -> set[int]:
    return set(conn.scalars(select(players.c.id).where(players.c.deleted_at.is_not(None))))


def all_careers(conn: Connection) -> list[dict[str, Any]]:
    """Every career row as plain values, in a stable order (what the rebuild test compares)."""
    query = select(careers).order_by(careers.c.player_id, careers.c.game_id)
    return [{k: v for k, v in row._mapping.items() if k != "id"} for row in conn.execute(query)]


def all_ratings(conn: Connection) -> list[tuple[Any, ...]]:
    query = select(players.c.id, players.c.mu, players.c.sigma, players.c.rated_games).order_by(
        players.c.id
    )
    return [tuple(r) for r in conn.execute(query)]


def games_rated(conn: Connection) -> list[tuple[Any, ...]]:
    query = select(games.c.id, games.c.ended_at, games.c.rated, games.c.ratings).order_by(
        games.c.id
    )
    return [tuple(r) for r in conn.execute(query)]


def rating_row(conn: Connection, player_id: int) -> tuple[float | None, float | None, int] | None:
    query = select(players.c.mu, players.c.sigma, players.c.rated_games).where(
        players.c.id == player_id
    )
    row = conn.execute(query).one_or_none()
    return (row.mu, row.sigma, row.rated_games) if row is not None else None


def last_move_at(conn: Connection, game_id: int) -> datetime | None:
    """When a game's last move was written."""
    query = select(func.max(actions.c.created_at)).where(actions.c.game_id == game_id)
    found = conn.execute(query).scalar_one_or_none()
    return as_utc(found) if found is not None else None


def public_games(conn: Connection, player_id: int, limit: int) -> list[tuple[datetime, bool]]:
    """The player's last ``limit`` games at public tables, newest first: when each ended,
    and whether the player left it (a leaver: app/services/career.py ``leavers``)."""
    query = (
        select(careers.c.ended_at, careers.c.left)
        .join(games, games.c.id == careers.c.game_id)
        .join(rooms, rooms.c.id == games.c.room_id)
        .where(careers.c.player_id == player_id, rooms.c.public.is_(True))
        .order_by(careers.c.ended_at.desc(), careers.c.game_id.desc())
        .limit(limit)
    )
    return [(as_utc(r.ended_at), bool(r.left)) for r in conn.execute(query)]
